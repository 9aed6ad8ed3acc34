import { afterEach, expect, onTestFinished, test, vi } from 'vitest';
import { listenerCount, parkedCount, releaseEmbeds, type PlatformDashboardElement } from '../src/index';
import { withMoveBefore } from '../../core/test/helpers';
import { READY, TENANT, fromFrame } from './frame';

/*
 * What a real page's first week does to the elements, found by the attack of h/attack (round 2).
 */

let restore: (() => void) | undefined;
afterEach(async () => {
  document.body.innerHTML = '';
  releaseEmbeds();
  restore?.();
  await new Promise((r) => setTimeout(r, 0));
  expect(listenerCount()).toBe(0);
});

test('an element with keep-alive replaced by another of its name in one script (a list re-rendered): the new one adopts the embed (was: a second embed, the first left parked, counted against the lot’s max)', async () => {
  restore = withMoveBefore().restore;
  let minted = 0;
  const session = () => `edge-${Date.now()}-${++minted}`;
  const make = () => {
    const el = document.createElement('platform-dashboard') as PlatformDashboardElement;
    el.setAttribute('base-url', TENANT);
    el.setAttribute('public-id', 'p1');
    el.setAttribute('keep-alive', '');
    el.session = session;
    return el;
  };
  const first = document.body.appendChild(make());
  await vi.waitFor(() => expect(first.handle?.iframe).toBeTruthy());
  const handle = first.handle;
  const second = make();
  first.replaceWith(second);
  await vi.waitFor(() => expect(second.handle).toBeTruthy());
  await new Promise((r) => setTimeout(r, 0));
  expect(second.handle).toBe(handle);
  // (Removed, the first element's frame lost its document: the embed loads again where it is adopted.)
  expect(minted).toBe(2);
  expect(document.querySelectorAll('iframe')).toHaveLength(1);
  expect(parkedCount()).toBe(0);
});

/*
 * Round 3 (h/attack3): the element's children are the page's too.
 */

const ready = (el: PlatformDashboardElement) => fromFrame(el, 'ready', READY);
const tick = () => new Promise((r) => setTimeout(r, 0));

test.each<[string, (el: PlatformDashboardElement) => PlatformDashboardElement]>([
  [
    'cloneNode(true) (a page snapshot: Turbo Drive’s cache)',
    (el) => document.body.appendChild(el.cloneNode(true) as PlatformDashboardElement),
  ],
  [
    'its HTML parsed again (innerHTML, htmx’s history)',
    (el) => {
      document.body.innerHTML = el.outerHTML;
      return document.body.firstElementChild as PlatformDashboardElement;
    },
  ],
])(
  'a copy of a ready element, %s: only its own iframe, with a fresh session (was: also the copied one, loading the spent session)',
  async (_, copy) => {
    let minted = 0;
    document.body.innerHTML = `<platform-dashboard base-url="${TENANT}" public-id="p1" session-url="/s"></platform-dashboard>`;
    vi.stubGlobal('fetch', async () => Response.json({ sessionId: `copied-${Date.now()}-${++minted}` }));
    onTestFinished(() => void vi.unstubAllGlobals());
    const el = document.body.firstElementChild as PlatformDashboardElement;
    await vi.waitFor(() => expect(el.handle?.iframe).toBeTruthy());
    ready(el);
    const spent = el.handle!.iframe!.src;
    const twin = copy(el);
    await vi.waitFor(() => expect(twin.handle?.iframe).toBeTruthy());
    await tick();
    const frames = [...twin.querySelectorAll('iframe')];
    expect(frames).toEqual([twin.handle!.iframe]);
    expect(frames[0]!.src).not.toBe(spent);
    expect(minted).toBe(2);
  },
);

test('an iframe the page gives the element as a slot child (a fallback) is the page’s: it stays', async () => {
  document.body.innerHTML = `<platform-dashboard base-url="${TENANT}" public-id="p1" session="s-slot"><iframe slot="fallback" src="about:blank"></iframe></platform-dashboard>`;
  const el = document.body.firstElementChild as PlatformDashboardElement;
  await vi.waitFor(() => expect(el.handle?.iframe).toBeTruthy());
  ready(el);
  el.append(Object.assign(document.createElement('iframe'), { slot: 'error', hidden: true }));
  await tick();
  expect([...el.querySelectorAll('iframe')].map((frame) => frame.slot)).toEqual(['fallback', '', 'error']);
});

test.each<[string, (el: PlatformDashboardElement) => void]>([
  ['textContent (React or Vue writing the element’s text child)', (el) => (el.textContent = 'Loading…')],
  ['replaceChildren()', (el) => el.replaceChildren()],
  ['innerHTML', (el) => (el.innerHTML = '<p slot="fallback" hidden>Loading…</p>')],
])(
  'the page takes the ready element’s iframe out, by %s: the element fails saying why, nothing minted; reload() loads it again (was: ready with no iframe, for good)',
  async (_, wipe) => {
    let minted = 0;
    document.body.innerHTML = `<platform-dashboard base-url="${TENANT}" public-id="p1"></platform-dashboard>`;
    const el = document.body.firstElementChild as PlatformDashboardElement;
    el.session = () => `wiped-${Date.now()}-${++minted}`;
    const heard = vi.fn();
    el.addEventListener('platform-error', heard);
    await vi.waitFor(() => expect(el.handle?.iframe).toBeTruthy());
    ready(el);
    const first = el.handle!.iframe;
    wipe(el);
    await vi.waitFor(() => expect(el.state.status).toBe('error'));
    expect(el.state.error).toMatchObject({
      code: 'no-container',
      message: expect.stringContaining('took the iframe out of its container'),
    });
    expect(heard).toHaveBeenCalledTimes(1);
    await tick();
    expect(minted).toBe(1);
    const again = el.reload();
    await vi.waitFor(() => expect(el.handle?.iframe?.isConnected).toBe(true));
    expect(el.handle!.iframe).not.toBe(first);
    ready(el);
    await again;
    expect(el.state.status).toBe('ready');
    expect(el.querySelectorAll('iframe')).toHaveLength(1);
    expect(minted).toBe(2);
  },
);
