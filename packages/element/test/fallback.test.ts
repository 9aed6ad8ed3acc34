import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { installFakePlatform, type FakePlatform } from '@platform-embed/core/testing';
import '../src/index'; // defines the elements
import type { PlatformDashboardElement } from '../src/index';

/* The opt-in loading and error UI of the elements: children with slot="fallback" and slot="error". */

const BASE = 'https://acme.platform.example';
let fake: FakePlatform;
beforeEach(() => {
  fake = installFakePlatform();
});
afterEach(() => {
  document.body.innerHTML = '';
  fake.uninstall();
});

// As a server would send it: the fallback visible, the error child hidden.
const MARKUP = `<platform-dashboard base-url="${BASE}" public-id="sales" retry="false">
  <p slot="fallback">Loading sales…</p>
  <div slot="error" hidden><p data-platform-error-message></p><button data-platform-retry>Try again</button></div>
</platform-dashboard>`;

function parse(html: string) {
  document.body.innerHTML = `<button id="host">host</button>${html}`;
  const el = document.querySelector<PlatformDashboardElement>('platform-dashboard')!;
  el.session = async () => fake.createSession();
  return {
    el,
    fallback: el.querySelector<HTMLElement>('[slot=fallback]')!,
    error: el.querySelector<HTMLElement>('[slot=error]')!,
  };
}

describe('slot="fallback" and slot="error"', () => {
  test('without them nothing changes: no aria-busy', async () => {
    const { el } = parse(`<platform-dashboard base-url="${BASE}" public-id="sales"></platform-dashboard>`);
    await fake.next();
    expect(el.state.status).toBe('loading');
    expect(el.hasAttribute('aria-busy')).toBe(false);
  });

  test('the fallback in the page HTML stays shown while loading, with aria-busy; hidden once ready; focus stays put', async () => {
    const { el, fallback, error } = parse(MARKUP);
    document.getElementById('host')!.focus();
    expect(fallback.hidden).toBe(false);
    const embed = await fake.next();
    expect(el.getAttribute('aria-busy')).toBe('true');
    expect([fallback.hidden, error.hidden]).toEqual([false, true]);
    await embed.ready();
    expect([fallback.hidden, error.hidden]).toEqual([true, true]);
    expect(el.hasAttribute('aria-busy')).toBe(false);
    expect(document.activeElement!.id).toBe('host');
  });

  test('failed: the error child is shown as an alert with the cause; data-platform-retry reloads with a fresh session', async () => {
    const { el, fallback, error } = parse(MARKUP);
    const embed = await fake.ready();
    await embed.fail('session expired');
    expect([fallback.hidden, error.hidden]).toEqual([true, false]);
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.querySelector('[data-platform-error-message]')!.textContent).toContain('the embed failed: session expired');
    error.querySelector('button')!.click();
    expect([fallback.hidden, error.hidden]).toEqual([false, true]);
    expect(el.getAttribute('aria-busy')).toBe('true');
    expect(await fake.ready()).toBe(embed);
    expect(embed.sessions).toHaveLength(2);
    expect(fallback.hidden).toBe(true);
  });

  test('an invalid attribute: the error child shows the message naming it', async () => {
    const { error } = parse(MARKUP.replace('retry="false"', 'retry="often"'));
    await new Promise((r) => setTimeout(r, 0));
    expect(error.hidden).toBe(false);
    expect(error.textContent).toContain('attribute retry must be a number');
  });
});

describe('an error raised while the HTML parser is still adding the children', () => {
  test('the error child added after the element failed is shown, the fallback hidden', async () => {
    // The parser connects the element, and may run its microtask, before its children are parsed.
    const el = document.createElement('platform-dashboard');
    el.setAttribute('base-url', BASE);
    el.setAttribute('public-id', 'sales');
    el.setAttribute('theme', '{not json');
    document.body.append(el);
    await Promise.resolve();
    await Promise.resolve();
    expect(el.state.status).toBe('error');
    el.insertAdjacentHTML('beforeend', '<p slot="fallback">Loading…</p><div slot="error" hidden><p data-platform-error-message></p></div>');
    await Promise.resolve(); // mutation observers run in the next microtask
    const fallback = el.querySelector<HTMLElement>('[slot=fallback]')!;
    const error = el.querySelector<HTMLElement>('[slot=error]')!;
    expect([fallback.hidden, error.hidden]).toEqual([true, false]);
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.textContent).toContain('attribute theme must be a JSON object');
  });
});
