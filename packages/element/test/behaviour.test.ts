import { afterEach, expect } from 'vitest';
import { listenerCount, type EmbedHandle, type SessionSource } from '../src/index';
import { behaviourTable, type Options } from '../../core/test/behaviour';
import { settle } from '../../core/test/helpers';

// The same table as the core's, through attributes (and the `session` property).
let el: HTMLElement & { session?: SessionSource; handle: EmbedHandle<'dashboard'> | null };
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());

/** Sets the attributes of `options` (objects as JSON, `title` as iframe-title), removes the others. */
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
  el?.remove();
  await settle();
  expect(listenerCount()).toBe(0);
});

behaviourTable({
  name: 'element',
  async mount(options) {
    el = document.createElement('platform-dashboard') as typeof el;
    apply(options);
    document.body.append(el);
    await settle();
  },
  async update(options) {
    apply(options);
    await settle();
  },
  handle: () => el.handle!,
  async unmount() {
    el.remove();
    await settle();
  },
});
