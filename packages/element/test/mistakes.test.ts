import { afterEach, expect } from 'vitest';
import { listenerCount, type EmbedState, type SessionSource } from '../src/index';
import type { Options } from '../../core/test/behaviour';
import { mistakeTable } from '../../core/test/mistakeTable';
import { settle } from '../../core/test/helpers';

// The mistake table through attributes (and the `session` property), in a page with a counter of
// its own; the error slot and a `platform-error` listener on the element.
let page: HTMLElement | undefined;
let el: HTMLElement & { session?: SessionSource; state: EmbedState };
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());

/** Sets the attributes of `options` (objects as JSON, `title` as iframe-title), removes the others (but `slot` children stay). */
function apply(options: Options) {
  const wanted = new Map<string, string>();
  for (const [key, value] of Object.entries(options)) {
    if (key == 'session') el.session = value as SessionSource;
    else if (typeof value != 'function' && value !== undefined)
      wanted.set(key == 'title' ? 'iframe-title' : kebab(key), typeof value == 'object' ? JSON.stringify(value) : String(value));
  }
  for (const name of el.getAttributeNames()) if (!wanted.has(name)) el.removeAttribute(name);
  for (const [name, value] of wanted) el.setAttribute(name, value);
}

afterEach(async () => {
  await settle();
  expect(listenerCount()).toBe(0);
});

mistakeTable({
  name: 'element',
  async render(options, hear) {
    page = document.createElement('main');
    page.innerHTML =
      '<button>clicked 0</button><platform-dashboard><p slot="error" hidden><span data-platform-error-message></span></p></platform-dashboard>';
    let clicks = 0;
    const button = page.querySelector('button')!;
    button.addEventListener('click', () => (button.textContent = `clicked ${++clicks}`));
    el = page.querySelector('platform-dashboard')!;
    if (hear) el.addEventListener('platform-error', (e) => hear(e.detail as Record<string, unknown>));
    apply(options);
    document.body.append(page);
    await settle();
  },
  async update(options) {
    apply(options);
    await settle();
  },
  async click() {
    page!.querySelector('button')!.click();
    await settle();
    return page!.querySelector('button')!.textContent!;
  },
  state: () => el.state,
  errorUi: () => {
    const ui = el.querySelector<HTMLElement>('[slot=error]')!;
    return ui.hidden ? null : ui.textContent;
  },
  async unmount() {
    page?.remove();
    page = undefined;
    await settle();
  },
});
