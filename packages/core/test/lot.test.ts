import { describe, expect, test, vi } from 'vitest';
import {
  EMBED_OPTIONS,
  RESET,
  configureParking,
  embedDashboard,
  listenerCount,
  parkedCount,
  preload,
  releaseEmbeds,
  type EmbedHandle,
} from '../src/index';
import { expectNothingParked } from '../src/testing/index';
import { binding, bindings, box, handles, options, ready, tick, useLot, withMoveBefore } from './lotKit';
import { BASE, READY, deliver, envelope, flush, mintSessions, spyPost, thrown } from './helpers';

/*
 * Issue 22, the lot's half: embeds belong to a viewer (keep-alive identity, a viewer change,
 * releaseEmbeds() at sign-out), the lot's bounds hold for every embed it holds (shared names,
 * a preload of a live dashboard, configureParking's values, a failed preload), frames that lost
 * their document are noticed, `ready` is sticky for adopters, and parked means quiet.
 * jsdom has no moveBefore: `withMoveBefore()` adds one where a test needs the move (see helpers.ts).
 */

useLot({ emptyLot: true });

const slots = () => document.querySelectorAll('[data-platform-lot] > *').length;
const sessionOf = (h: EmbedHandle) => new URL(h.iframe!.src).searchParams.get('session');
/** Mounts a dashboard with a binding, lets its frame mount and say ready, and unmounts it (parked with `keepAlive`). */
const parkOne = async (extra: Record<string, unknown>) => {
  const b = binding();
  const container = box(`c${Math.random()}`);
  const h = b.mount(container, options(extra));
  await flush();
  const win = h.iframe!.contentWindow!;
  ready(h, win);
  b.unmount();
  await flush();
  container.remove();
  return { h, win };
};

describe('1. embeds belong to a viewer', () => {
  test('`viewer` is an option of every surface, an attribute, and a change of it is RESET (a reload that starts anew)', () => {
    expect(EMBED_OPTIONS.viewer).toEqual({ check: 'non-empty string?', change: RESET, attribute: 'string' });
  });

  test("a parked embed is adopted only by the same viewer's embed: another viewer gets a new one, with a session of its own", async () => {
    withMoveBefore();
    const session = mintSessions();
    const { h } = await parkOne({ session, keepAlive: true, viewer: 'ann' });
    expect(parkedCount()).toBe(1);
    const other = binding().mount(box('b'), options({ session, keepAlive: true, viewer: 'bob' }));
    expect(other).not.toBe(h);
    await flush();
    expect(session).toHaveBeenCalledTimes(2);
    expect(parkedCount()).toBe(1);
    // Without a viewer, neither.
    expect(binding().mount(box('c'), options({ session, keepAlive: true }))).not.toBe(h);
    expect(binding().mount(box('d'), options({ session, keepAlive: true, viewer: 'ann' }))).toBe(h);
    expect(parkedCount()).toBe(0);
  });

  test("a preload is adopted only by its viewer's embed; a string keepAlive name is the viewer's too", async () => {
    withMoveBefore();
    const session = mintSessions();
    const h = preload('dashboard', { baseUrl: BASE, publicId: 'sales', session, keepAlive: 'sales', viewer: 'ann' });
    await flush();
    ready(h);
    expect(binding().mount(box('b'), options({ session, keepAlive: 'sales', viewer: 'bob' }))).not.toBe(h);
    expect(binding().mount(box('a'), options({ session, keepAlive: 'sales', viewer: 'ann' }))).toBe(h);
  });

  test('a new viewer on a live embed reloads with a fresh session, starting from the options: what the previous viewer did or was sent is not carried over', async () => {
    const session = mintSessions();
    const b = binding();
    const container = box('c');
    const h = b.mount(container, options({ session, viewer: 'ann', colorScheme: 'dark', initialSession: 'ssr-ann' }));
    await flush();
    expect(sessionOf(h)).toBe('ssr-ann');
    ready(h);
    // Ann's doings: a filter set by an action, her place in the dashboard (reported by the embed).
    h.setFilter('orders', 'status', { value: 'open' });
    deliver(envelope('navigate', { path: '/d/sales/ann-only' }), h.iframe!.contentWindow);
    const states: string[] = [];
    h.subscribe((s) => states.push(s.status));
    expect(b.mount(container, options({ session, viewer: 'bob', colorScheme: 'dark', initialSession: 'ssr-ann' }))).toBe(h);
    await flush();
    expect(states).toEqual(['loading']);
    // A fresh session from the function, not Ann's server-minted one; no filter of hers in the URL.
    expect(session).toHaveBeenCalledTimes(1);
    expect(sessionOf(h)).toBe(session.id(1));
    expect(h.iframe!.src).not.toContain('f_orders');
    const post = spyPost(h.iframe!.contentWindow!);
    ready(h);
    // Only what the options say: the scheme; not her path.
    expect(post.mock.calls.map(([m]) => (m as { type: string }).type)).toEqual(['platform:action:set-color-scheme']);
  });

  test('a new viewer drops the actions held for the previous one', async () => {
    const session = mintSessions();
    const h = embedDashboard({ container: box('c'), baseUrl: BASE, publicId: 'sales', session, viewer: 'ann' });
    handles.push(h);
    h.refresh(); // held until ready
    h.update({ viewer: 'bob' });
    await flush();
    const post = spyPost(h.iframe!.contentWindow!);
    ready(h);
    expect(post).not.toHaveBeenCalled();
  });

  test('releaseEmbeds() destroys every embed out of sight (parked, preloaded, set aside, hidden) and nothing on screen; expectNothingParked() then passes', async () => {
    withMoveBefore();
    const session = mintSessions();
    const { h: parkedOne } = await parkOne({ session, keepAlive: 'a' });
    const preloaded = preload('dashboard', { baseUrl: BASE, publicId: 'costs', session });
    // A component Vue's <KeepAlive> deactivated (set aside), and one hidden under display:none.
    const detached = binding();
    const asideOne = detached.mount(box('v'), options({ session }));
    detached.detach();
    const hiding = binding();
    const route = box('route');
    const hiddenOne = hiding.mount(route, options({ session }));
    await flush();
    route.style.display = 'none';
    hiding.unmount();
    const onScreen = binding().mount(box('s'), options({ session, keepAlive: 'on-screen' }));
    await flush();
    expect(() => expectNothingParked()).toThrow(/expected nothing parked, found 4 embed\(s\)/);

    releaseEmbeds();
    expect([parkedOne, preloaded, asideOne, hiddenOne].map((h) => h.getState().status)).toEqual(Array(4).fill('destroyed'));
    expect(onScreen.getState().status).not.toBe('destroyed');
    expect(parkedCount()).toBe(0);
    expect(() => expectNothingParked()).not.toThrow();
    expect(document.querySelectorAll('iframe')).toEqual(document.querySelectorAll('#s iframe'));
    // The hidden component, shown again, loads a new embed for whoever is signed in now.
    route.style.display = '';
    const next = hiding.mount(route, options({ session }));
    expect(next).not.toBe(hiddenOne);
    await flush();
    expect(route.querySelectorAll('iframe')).toHaveLength(1);
  });

  test('without moveBefore too: a hidden embed stays in its container, and releaseEmbeds() destroys it', async () => {
    const session = mintSessions();
    const hiding = binding();
    const route = box('route');
    const h = hiding.mount(route, options({ session }));
    await flush();
    route.style.display = 'none';
    hiding.unmount();
    await flush();
    expect(route.querySelectorAll('iframe')).toHaveLength(1);
    releaseEmbeds();
    expect(h.getState().status).toBe('destroyed');
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
  });

  test("releaseEmbeds() reaches another copy of the SDK on the page (an npm bundle beside the script tag), and each copy's lot", async () => {
    withMoveBefore();
    vi.resetModules();
    const other = (await import('../src/index')) as typeof import('../src/index');
    expect(other.releaseEmbeds).not.toBe(releaseEmbeds);
    const session = mintSessions();
    const theirs = other.preload('dashboard', { baseUrl: BASE, publicId: 'sales', session });
    const ours = preload('dashboard', { baseUrl: BASE, publicId: 'costs', session });
    await flush();
    expect([other.parkedCount(), parkedCount()]).toEqual([1, 1]);
    expect(() => expectNothingParked()).toThrow();
    releaseEmbeds();
    expect([theirs.getState().status, ours.getState().status]).toEqual(['destroyed', 'destroyed']);
    expect(other.listenerCount()).toBe(0);
    expect(() => expectNothingParked()).not.toThrow();
  });

  test('releaseEmbeds() with nothing on the page, and without a DOM, does nothing', () => {
    expect(() => releaseEmbeds()).not.toThrow();
    vi.stubGlobal('window', undefined);
    try {
      expect(() => releaseEmbeds()).not.toThrow();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('2. the lot holds every embed it holds', () => {
  test('4 identical keepAlive embeds unmounted together: 4 parked, counted and bounded; each adopted once; none orphaned', async () => {
    withMoveBefore();
    const session = mintSessions();
    const parkFour = async () => {
      const four = [0, 1, 2, 3].map((i) => {
        const b = binding();
        return { b, h: b.mount(box(`k${i}`), options({ session, keepAlive: true })) };
      });
      await flush();
      four.forEach(({ h }) => ready(h));
      four.forEach(({ b }) => b.unmount());
      await flush();
      return four.map(({ h }) => h);
    };
    configureParking({ max: 4 });
    const four = await parkFour();
    expect(new Set(four).size).toBe(4);
    expect(parkedCount()).toBe(4);
    expect(document.querySelectorAll('[data-platform-lot] iframe')).toHaveLength(4);
    // Entered again, four times: each adopts one of them, no session minted.
    const again = [0, 1, 2, 3].map((i) => binding().mount(box(`again${i}`), options({ session, keepAlive: true })));
    expect(new Set(again)).toEqual(new Set(four));
    expect(session).toHaveBeenCalledTimes(4);
    expect(parkedCount()).toBe(0);
    bindings.splice(-4).forEach((b) => b.unmount());
    await flush();
    expect(parkedCount()).toBe(4);
    // A lower bound destroys every one over it: no iframe left behind.
    configureParking({ max: 1 });
    expect(parkedCount()).toBe(1);
    expect(four.filter((h) => h.getState().status == 'destroyed')).toHaveLength(3);
    configureParking({ max: 0 });
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
    expect(listenerCount()).toBe(0);
  });

  test('shared names: each parked embed has its own idle timer, and goes with it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    configureParking({ idle: 1000 });
    const session = mintSessions();
    const two = [binding(), binding()];
    const [a, b] = two.map((each, i) => each.mount(box(`s${i}`), options({ session, keepAlive: 'same' })));
    await flush();
    two.forEach((each) => each.unmount());
    await flush();
    expect(parkedCount()).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect([a!, b!].map((h) => h.getState().status)).toEqual(['destroyed', 'destroyed']);
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
  });

  test('a preload of a dashboard on screen mints nothing and returns the embed on screen', async () => {
    withMoveBefore();
    const session = mintSessions();
    const shown = binding().mount(box('c'), options({ session, keepAlive: true }));
    await flush();
    ready(shown);
    expect(preload('dashboard', { baseUrl: BASE, publicId: 'sales', session })).toBe(shown);
    await flush();
    expect(session).toHaveBeenCalledTimes(1);
    expect(parkedCount()).toBe(0);
    expect(slots()).toBe(0);
    // Another viewer's, or another dashboard, is preloaded.
    const theirs = preload('dashboard', { baseUrl: BASE, publicId: 'sales', session, viewer: 'bob' });
    handles.push(theirs);
    expect(theirs).not.toBe(shown);
  });

  test.each([
    ['max', Number.NaN],
    ['max', Infinity],
    ['max', -1],
    ['max', 1.5],
    ['max', '3'],
    ['max', null],
    ['idle', Number.NaN],
    ['idle', -1],
    ['idle', 'abc'],
    ['idle', null],
  ])('configureParking({ %s: %s }) is refused with an EmbedError naming the field, and changes nothing', async (field, value) => {
    withMoveBefore();
    const error = thrown(() => configureParking({ [field]: value } as never));
    expect(error.code).toBe('invalid-option');
    expect(error.message).toContain(field);
    // The limits in force are the defaults still: 3 parked, for 5 minutes.
    const parkedOnes = [];
    for (const name of ['a', 'b', 'c', 'd']) parkedOnes.push((await parkOne({ session: mintSessions(), keepAlive: name })).h);
    expect(parkedCount()).toBe(3);
  });

  test.each([Infinity, 2 ** 31, 30 * 86400000])('idle: %s is the longest a timer waits (2^31-1 ms): a parked embed stays', async (idle) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    configureParking({ idle });
    const { h } = await parkOne({ session: mintSessions(), keepAlive: 'a' });
    await vi.advanceTimersByTimeAsync(24 * 86400000);
    expect(h.getState().status).not.toBe('destroyed');
    expect(parkedCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(0.9 * 86400000);
    expect(h.getState().status).toBe('destroyed');
  });

  test('a limit passed as undefined, or none at all, keeps its value', async () => {
    configureParking({ max: 1 });
    configureParking({ max: undefined, idle: undefined });
    configureParking();
    await parkOne({ session: mintSessions(), keepAlive: 'a' });
    await parkOne({ session: mintSessions(), keepAlive: 'b' });
    expect(parkedCount()).toBe(1);
  });

  test('a preload with options that cannot be used throws and leaves nothing: no slot, no lot entry', () => {
    for (let i = 0; i < 3; i++) expect(() => preload('dashboard', { baseUrl: BASE, publicId: 'sales', readyTimeout: -1 })).toThrow();
    expect(slots()).toBe(0);
    expect(parkedCount()).toBe(0);
  });
});

describe('3. frames that lost their document are noticed', () => {
  test('a replaced <body> (document.body = ...): a parked embed stops being ready, and its adopter in the new body loads it with a fresh session (no DOM exception)', async () => {
    withMoveBefore();
    const session = mintSessions();
    const { h } = await parkOne({ session, keepAlive: true });
    expect(h.getState().status).toBe('ready');
    const states: string[] = [];
    h.subscribe((s) => states.push(s.status));
    document.body = document.createElement('body');
    await tick();
    expect(states).toEqual(['idle']);
    expect(h.iframe).toBeNull();
    const adopter = binding();
    const container = box('new-body');
    expect(() => adopter.mount(container, options({ session, keepAlive: true }))).not.toThrow();
    expect(adopter.handle).toBe(h);
    await flush();
    expect(session).toHaveBeenCalledTimes(2);
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
    ready(h);
    expect(h.getState().status).toBe('ready');
  });

  test.each([
    ['body.replaceChildren()', () => document.body.replaceChildren()],
    ['an htmx-like swap (body.innerHTML)', () => (document.body.innerHTML = '<main>swapped</main>')],
  ])('%s: a preload goes cold, and is adopted cold', async (_name, swap) => {
    withMoveBefore();
    const session = mintSessions();
    const h = preload('dashboard', { baseUrl: BASE, publicId: 'sales', session });
    await flush();
    ready(h);
    swap();
    await tick();
    expect(h.getState().status).toBe('idle');
    const container = box('route');
    expect(binding().mount(container, options({ session, keepAlive: true }))).toBe(h);
    await flush();
    expect(session).toHaveBeenCalledTimes(2);
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
  });

  test('adopted before the watch noticed (the same task): a frame out of the document is loaded again, never moved (moveBefore would throw)', async () => {
    withMoveBefore();
    const session = mintSessions();
    const { h } = await parkOne({ session, keepAlive: true });
    document.body = document.createElement('body');
    const container = box('new-body');
    expect(() => binding().mount(container, options({ session, keepAlive: true }))).not.toThrow();
    await flush();
    expect(session).toHaveBeenCalledTimes(2);
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
    expect(h.getState().status).toBe('loading');
  });

  test('a frame that loads another document after ready (navigated away, reloaded outside the SDK) is not ready any more, and heals with a fresh session within readyTimeout', async () => {
    const session = mintSessions();
    const diagnostics: string[] = [];
    const h = embedDashboard({
      container: box('c'),
      baseUrl: BASE,
      publicId: 'sales',
      session,
      readyTimeout: 200,
      onDiagnostic: (d) => diagnostics.push(d.kind == 'retry' ? d.error.code : d.kind),
    });
    handles.push(h);
    await flush();
    const iframe = h.iframe!;
    iframe.dispatchEvent(new Event('load')); // its document
    ready(h);
    const readies: unknown[] = [];
    iframe.dispatchEvent(new Event('load')); // another one
    expect(h.getState().status).toBe('loading');
    // The stale ready payload is gone: a late ready handler waits for the next one.
    h.on('ready', (payload) => readies.push(payload));
    expect(readies).toEqual([]);
    await vi.waitFor(() => expect(session).toHaveBeenCalledTimes(2), { timeout: 2000 });
    expect(diagnostics).toEqual(['timeout']);
    await flush();
    expect(h.iframe).not.toBe(iframe);
    ready(h);
    expect(h.getState().status).toBe('ready');
    expect(readies).toHaveLength(1);
  });

  test('a document that says ready again (the tenant reloaded itself) is ready again, and gets the kept state, with no new session', async () => {
    const session = mintSessions();
    const h = embedDashboard({ container: box('c'), baseUrl: BASE, publicId: 'sales', session, readyTimeout: 200 });
    handles.push(h);
    await flush();
    const iframe = h.iframe!;
    iframe.dispatchEvent(new Event('load'));
    ready(h);
    h.setColorScheme('dark');
    iframe.dispatchEvent(new Event('load'));
    const post = spyPost(iframe.contentWindow!);
    ready(h);
    expect(h.getState().status).toBe('ready');
    expect(post.mock.calls.map(([m]) => (m as { payload: unknown }).payload)).toEqual([{ scheme: 'dark' }]);
    await new Promise((r) => setTimeout(r, 300));
    expect(session).toHaveBeenCalledTimes(1);
  });

  test('a document that says ready before its load event (while it parses) is ready at its load: never seen not ready', async () => {
    const session = mintSessions();
    const h = embedDashboard({ container: box('c'), baseUrl: BASE, publicId: 'sales', session, readyTimeout: 200 });
    handles.push(h);
    await flush();
    const iframe = h.iframe!;
    ready(h);
    iframe.dispatchEvent(new Event('load'));
    const states: string[] = [];
    h.subscribe((s) => states.push(s.status));
    // Reloaded: its new document says ready, then loads.
    ready(h);
    iframe.dispatchEvent(new Event('load'));
    expect(states).toEqual(['ready']);
    // Navigated away after: its document says nothing.
    iframe.dispatchEvent(new Event('load'));
    expect(states).toEqual(['ready', 'loading']);
    // (No ready within readyTimeout, then the retry's backoff.)
    await vi.waitFor(() => expect(session).toHaveBeenCalledTimes(2), { timeout: 2000 });
  });

  test('loads before ready (a redirect while it signs in) are the first load still: the first ready timer alone decides', async () => {
    const h = embedDashboard({ container: box('c'), baseUrl: BASE, publicId: 'sales', session: mintSessions() });
    handles.push(h);
    await flush();
    for (let i = 0; i < 3; i++) h.iframe!.dispatchEvent(new Event('load'));
    expect(h.getState().status).toBe('loading');
    ready(h);
    expect(h.getState().status).toBe('ready');
  });
});

describe('8. ready is sticky for adopters', () => {
  test('an embed*() call that adopts a ready parked embed hears its onReady once, with the ready payload', async () => {
    withMoveBefore();
    const session = mintSessions();
    const { win } = await parkOne({ session, keepAlive: 'k' });
    // (jsdom's moved frame has another window: the one the embed kept is spied on without calling through.)
    spyPost(win).mockImplementation(() => {});
    const onReady = vi.fn();
    box('c');
    const h = embedDashboard({ container: '#c', baseUrl: BASE, publicId: 'sales', session, keepAlive: 'k', onReady });
    handles.push(h);
    expect(onReady).toHaveBeenCalledOnce();
    expect(onReady.mock.calls[0]![0]).toEqual(READY);
    expect(onReady.mock.calls[0]![1]).toMatchObject({ type: 'platform:event:ready' });
    h.update({ colorScheme: 'dark' });
    expect(onReady).toHaveBeenCalledOnce();
  });

  test('a binding that adopts a preload still loading hears onReady when it is ready, once', async () => {
    withMoveBefore();
    const session = mintSessions();
    const h = preload('dashboard', { baseUrl: BASE, publicId: 'sales', session });
    await flush();
    const onReady = vi.fn();
    expect(binding().mount(box('c'), options({ session, keepAlive: true, onReady }))).toBe(h);
    expect(onReady).not.toHaveBeenCalled();
    ready(h);
    expect(onReady).toHaveBeenCalledOnce();
  });
});

describe('9. parked means quiet and contained', () => {
  test("a parked embed's diagnostics reach the onDiagnostic it was given (its events the handle's on() subscribers)", async () => {
    withMoveBefore();
    const diagnostics: string[] = [];
    const { win } = await parkOne({
      session: mintSessions(),
      keepAlive: 'k',
      onDiagnostic: (d: { kind: string }) => diagnostics.push(d.kind),
    });
    deliver({ nonsense: true }, win);
    deliver(envelope('drilldown', { member: 'orders.count' }), win, 'https://elsewhere.example');
    expect(diagnostics).toEqual(['invalid-message', 'origin-mismatch']);
  });

  test('a parked embed that fails for good: its subscribers see error, with the cause, then destroyed; ready rejects with it', async () => {
    withMoveBefore();
    const { h, win } = await parkOne({ session: mintSessions(), keepAlive: 'k', retry: false });
    const seen: [string, string | undefined][] = [];
    h.subscribe((s) => seen.push([s.status, s.error?.code]));
    const readies = h.reload();
    await flush();
    deliver(envelope('error', { message: 'session expired', fatal: true }), h.iframe!.contentWindow);
    expect(seen.at(-2)).toEqual(['error', 'fatal']);
    expect(seen.at(-1)).toEqual(['destroyed', undefined]);
    await expect(readies).rejects.toMatchObject({ code: 'fatal' });
    expect(parkedCount()).toBe(0);
    void win;
  });

  test('50 hidden embeds watch their containers without any MutationObserver: DOM work anywhere (the body included) costs them nothing; a real removal is still seen', async () => {
    const observe = vi.spyOn(MutationObserver.prototype, 'observe');
    const session = mintSessions();
    const page = box('page');
    const list = box('list');
    const routes = Array.from({ length: 50 }, (_, i) => {
      const route = page.appendChild(document.createElement('section'));
      const b = binding();
      b.mount(route.appendChild(document.createElement('div')), options({ session, publicId: `d${i}` }));
      return { route, b };
    });
    await flush();
    routes.forEach(({ route, b }) => ((route.style.display = 'none'), b.unmount()));
    await flush();
    expect(document.querySelectorAll('platform-embed-watch')).toHaveLength(50);
    for (let i = 0; i < 1000; i++) list.append(document.createElement('div'));
    for (let i = 0; i < 1000; i++) document.body.append(document.createElement('div'));
    await tick();
    expect(observe).not.toHaveBeenCalled();
    expect(routes.filter(({ b }) => b.getState().status == 'destroyed')).toHaveLength(0);
    // A real removal is seen, and only that one.
    routes[7]!.route.remove();
    await tick();
    expect(routes[7]!.b.getState().status).toBe('destroyed');
    expect(routes.filter(({ b }) => b.getState().status == 'destroyed')).toHaveLength(1);
    page.remove();
    await tick();
    expect(routes.every(({ b }) => b.getState().status == 'destroyed')).toBe(true);
  }, 120_000);

  test("a hidden container's watch marker taken out alone (the container still in) is put back; shown again, the marker goes", async () => {
    const b = binding();
    const container = box('c');
    const h = b.mount(container, options({ session: mintSessions() }));
    await flush();
    container.style.display = 'none';
    b.unmount();
    await flush();
    container.querySelector('platform-embed-watch')!.remove();
    await tick();
    expect(h.getState().status).not.toBe('destroyed');
    expect(container.querySelectorAll('platform-embed-watch')).toHaveLength(1);
    container.style.display = '';
    b.mount(container, options({ session: mintSessions() }));
    expect(container.querySelectorAll('platform-embed-watch')).toHaveLength(0);
  });

  test('a hidden container moved (out and back in one task) is not gone: still watched, destroyed at its real removal', async () => {
    const b = binding();
    const outer = box('outer');
    const container = outer.appendChild(document.createElement('div'));
    const h = b.mount(container, options({ session: mintSessions() }));
    await flush();
    outer.style.display = 'none';
    b.unmount();
    await flush();
    const elsewhere = box('elsewhere');
    elsewhere.append(outer);
    await tick();
    expect(h.getState().status).not.toBe('destroyed');
    elsewhere.remove();
    await tick();
    expect(h.getState().status).toBe('destroyed');
  });
});
