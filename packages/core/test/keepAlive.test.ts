import { describe, expect, test, vi } from 'vitest';
import { configureParking, embedDashboard, listenerCount, parkedCount, preload, type EmbedBinding } from '../src/index';
import { binding, box, handles, options, ready, tick, useLot, withMoveBefore } from './lotKit';
import { BASE, deliver, envelope, flush, freshId, mintSessions, spyPost } from './helpers';

/*
 * Embeds that outlive their component: hidden is not gone (a container under display:none keeps
 * its embed), keepAlive parks an embed in the page's lot for the next component with its name,
 * preload loads one parked before anything shows it, and the lot is bounded.
 *
 * jsdom has no `moveBefore`, and gives a moved iframe a new window; where a test needs the move,
 * `withMoveBefore()` adds one, and events are posted from the window the frame had (as a real
 * state-preserving move keeps it). The real moves are tested in Chromium (e2e/keepAlive.spec.ts).
 */

useLot();

describe('hidden is not gone (no option needed)', () => {
  test('unmounted while its container stays in the document under display:none: the same handle, iframe and session when shown again', async () => {
    const session = mintSessions();
    const b = binding();
    const container = box('c');
    const h = b.mount(container, options({ session }));
    await flush();
    const iframe = h.iframe!;
    ready(h);
    // React's <Activity mode="hidden">: display:none on the subtree, the effects cleaned up.
    container.style.display = 'none';
    b.unmount();
    await flush();
    expect(h.getState().status).toBe('ready');
    expect(h.iframe).toBe(iframe);
    // Shown again, with a prop changed meanwhile: applied as update().
    container.style.display = '';
    const post = spyPost(iframe.contentWindow!);
    expect(b.mount(container, options({ session, colorScheme: 'dark' }))).toBe(h);
    expect(post.mock.calls.map(([m]) => (m as { type: string }).type)).toEqual(['platform:action:set-color-scheme']);
    expect(session).toHaveBeenCalledTimes(1);
    expect(h.iframe).toBe(iframe);
  });

  test('a hidden container that really leaves the document destroys its embed', async () => {
    const b = binding();
    const container = box('c');
    const h = b.mount(container, options({ session: mintSessions() }));
    await flush();
    container.style.display = 'none';
    b.unmount();
    await flush();
    expect(h.getState().status).toBe('loading');
    container.remove();
    await tick();
    expect(h.getState().status).toBe('destroyed');
    expect(listenerCount()).toBe(0);
  });

  // What React does to a route Next.js keeps, in one commit: the effects cleaned up, the route
  // hidden, and (every other navigation, as the kept routes are reordered) its DOM moved, which
  // reloads a frame inside (jsdom gives it a new window; Chromium loads its URL again, with its
  // spent session).
  const hideAndMove = (b: EmbedBinding, route: HTMLElement) => {
    b.unmount();
    route.style.display = 'none';
    document.body.prepend(route);
  };

  test('hidden and moved in one task (React reorders the routes Next.js keeps): the frame waits in the lot meanwhile, where moveBefore keeps its document, and comes back when shown', async () => {
    const moves = withMoveBefore();
    const session = mintSessions();
    const b = binding();
    box('other-route');
    const route = box('route');
    const container = route.appendChild(document.createElement('div'));
    const h = b.mount(container, options({ session }));
    await flush();
    const iframe = h.iframe!;
    const win = iframe.contentWindow!;
    ready(h, win);
    hideAndMove(b, route);
    expect(route.contains(iframe)).toBe(false);
    expect(moves).toEqual([[iframe.parentElement, iframe]]);
    expect(iframe.closest('[aria-hidden=true][inert]')).not.toBeNull();
    await flush();
    expect(h.getState().status).toBe('ready');
    // Moved again while hidden (another navigation): nothing reaches the frame.
    document.body.append(route);
    // Shown again: the frame moves back into its container, the slot goes.
    route.style.display = '';
    const post = spyPost(win).mockImplementation(() => {});
    expect(b.mount(container, options({ session, colorScheme: 'dark' }))).toBe(h);
    expect(moves).toEqual([expect.anything(), [container, iframe]]);
    expect(document.querySelectorAll('[aria-hidden=true] > div')).toHaveLength(0);
    expect(session).toHaveBeenCalledTimes(1);
    expect(post.mock.calls.map(([m]) => (m as { type: string }).type)).toEqual(['platform:action:set-color-scheme']);
    // Hidden again, then the route really goes: destroyed, its slot and frame with it.
    hideAndMove(b, route);
    await flush();
    route.remove();
    await tick();
    expect(h.getState().status).toBe('destroyed');
    expect(document.querySelectorAll('iframe, [aria-hidden=true] > div')).toHaveLength(0);
  });

  test('hidden before its frame mounts: the frame mounts in the lot, and moves into the container when shown', async () => {
    const moves = withMoveBefore();
    let answer!: (id: string) => void;
    const session = vi.fn(() => new Promise<string>((resolve) => (answer = resolve)));
    const b = binding();
    const route = box('route');
    const container = route.appendChild(document.createElement('div'));
    const h = b.mount(container, options({ session }));
    await flush();
    hideAndMove(b, route);
    answer(freshId());
    await flush();
    const iframe = h.iframe!;
    expect(route.contains(iframe)).toBe(false);
    expect(iframe.closest('[aria-hidden=true]')).not.toBeNull();
    route.style.display = '';
    expect(b.mount(container, options({ session }))).toBe(h);
    expect(container.contains(iframe)).toBe(true);
    expect(moves).toEqual([[container, iframe]]);
  });

  test('without moveBefore the frame stays in its hidden container; moved there, the browser loads it again in a new window, and shown again it loads with a fresh session and the kept state', async () => {
    const session = mintSessions();
    const b = binding();
    const route = box('route');
    const container = route.appendChild(document.createElement('div'));
    const h = b.mount(container, options({ session }));
    await flush();
    const iframe = h.iframe!;
    ready(h);
    h.setColorScheme('dark');
    hideAndMove(b, route);
    await flush();
    expect(container.contains(iframe)).toBe(true);
    expect(h.getState().status).toBe('ready');
    route.style.display = '';
    expect(b.mount(container, options({ session }))).toBe(h);
    await flush();
    expect(session).toHaveBeenCalledTimes(2);
    expect([...container.querySelectorAll('iframe')]).toEqual([h.iframe]);
    const post = spyPost(h.iframe!.contentWindow!);
    ready(h);
    expect(post.mock.calls.map(([m]) => (m as { payload: unknown }).payload)).toEqual([{ scheme: 'dark' }]);
    hideAndMove(b, route);
    await flush();
    route.remove();
    await tick();
    expect(h.getState().status).toBe('destroyed');
  });

  test('a visible container: an unmount destroys (no option, no keeping)', async () => {
    const b = binding();
    const h = b.mount(box('c'), options({ session: mintSessions() }));
    await flush();
    b.unmount();
    await flush();
    expect(h.getState().status).toBe('destroyed');
  });
});

describe('moved in the DOM, or detached by the framework', () => {
  // What the element does when moved with appendChild: unmount and mount again in one task. The
  // browser gives the iframe a new window, which loads the URL again with the spent session.
  test('a container moved without moveBefore (unmount and mount in one task): the same handle loads again with a fresh session, never an error', async () => {
    const session = mintSessions();
    const b = binding();
    const container = box('a');
    const h = b.mount(container, options({ session }));
    await flush();
    const win = h.iframe!.contentWindow!;
    ready(h, win);
    const states: string[] = [];
    h.subscribe(() => states.push(h.getState().status));
    box('b').append(container);
    expect(h.iframe!.contentWindow === win).toBe(false); // (jsdom, as the browser: a new window)
    b.unmount();
    expect(b.mount(container, options({ session }))).toBe(h);
    await flush();
    expect(session).toHaveBeenCalledTimes(2);
    expect(new URL(h.iframe!.src).searchParams.get('session')).toBe(session.id(2));
    expect(container.querySelectorAll('iframe')).toHaveLength(1);
    expect(states).toEqual(['loading']);
  });

  test('moved with moveBefore: the same iframe and window, no session', async () => {
    withMoveBefore();
    const session = mintSessions();
    const b = binding();
    const container = box('a');
    const h = b.mount(container, options({ session }));
    await flush();
    const iframe = h.iframe!;
    ready(h);
    (box('b') as unknown as { moveBefore(node: Node, child: Node | null): void }).moveBefore(container, null);
    b.unmount();
    b.mount(container, options({ session }));
    await flush();
    expect(h.iframe).toBe(iframe);
    expect(h.getState().status).toBe('ready');
    expect(session).toHaveBeenCalledTimes(1);
  });

  // Vue's <KeepAlive> renders a deactivated component again when its props change, while its
  // container is out of the document (after detach()).
  test.each([true, false])(
    'detached, then mounted into its container out of the document: the options apply where the embed is, nothing moves or loads there (moveBefore: %s)',
    async (moves) => {
      if (moves) withMoveBefore();
      const session = mintSessions();
      const b = binding();
      const container = box('a');
      const h = b.mount(container, options({ session }));
      await flush();
      const iframe = h.iframe!;
      const win = iframe.contentWindow!;
      ready(h, win);
      b.detach();
      const storage = document.createElement('div');
      storage.append(container);
      const post = spyPost(win).mockImplementation(() => {});
      expect(() => b.mount(container, options({ session, colorScheme: 'dark' }))).not.toThrow();
      await flush();
      expect(container.querySelector('iframe')).toBeNull();
      expect(h.getState().status).toBe(moves ? 'ready' : 'idle');
      expect(session).toHaveBeenCalledTimes(1);
      if (moves) expect(post.mock.calls.map(([m]) => (m as { payload: unknown }).payload)).toEqual([{ scheme: 'dark' }]);
      // Activated: back in the document, the embed comes back into it.
      document.body.append(container);
      b.mount(container, options({ session, colorScheme: 'dark' }));
      await flush();
      expect(container.querySelectorAll('iframe')).toHaveLength(1);
      expect(session).toHaveBeenCalledTimes(moves ? 1 : 2);
      if (moves) expect(h.iframe).toBe(iframe);
    },
  );
});

describe('keepAlive: parked when its component goes, adopted by the next with its name', () => {
  test('with moveBefore: the iframe moves into the lot and back, keeping its document; no session, options applied as update()', async () => {
    const moves = withMoveBefore();
    const session = mintSessions();
    const onDrilldown = vi.fn();
    const first = binding();
    const h = first.mount(box('route-a'), options({ session, keepAlive: true, onDrilldown }));
    await flush();
    const iframe = h.iframe!;
    const win = iframe.contentWindow!;
    ready(h, win);
    first.unmount(); // a route component's cleanup: its container is still in the document
    document.getElementById('route-a')!.remove(); // then the framework removes it
    await flush();
    expect(parkedCount()).toBe(1);
    expect(moves.map(([to, node]) => [to.parentElement?.getAttribute('aria-hidden'), node])).toEqual([['true', iframe]]);
    expect(h.getState().status).toBe('ready');
    // While parked: events reach on() subscribers, not the gone component's handler.
    const seen = vi.fn();
    h.on('drilldown', seen);
    deliver(envelope('drilldown', { member: 'orders.count', value: 1 }), win);
    expect(seen).toHaveBeenCalledOnce();
    expect(onDrilldown).not.toHaveBeenCalled();
    // The route is entered again: a new component adopts it. (jsdom's moved frame has another
    // window: the one the embed kept is spied on without calling through.)
    const post = spyPost(win).mockImplementation(() => {});
    const again = vi.fn();
    const second = binding();
    const container = box('route-a-again');
    expect(second.mount(container, options({ session, keepAlive: true, colorScheme: 'dark', onDrilldown: again }))).toBe(h);
    expect(parkedCount()).toBe(0);
    expect(container.contains(iframe)).toBe(true);
    expect(session).toHaveBeenCalledTimes(1);
    expect(post.mock.calls.map(([m]) => (m as { type: string }).type)).toEqual(['platform:action:set-color-scheme']);
    deliver(envelope('drilldown', { member: 'orders.count', value: 2 }), win);
    expect(again).toHaveBeenCalledOnce();
    expect(document.querySelectorAll('[aria-hidden=true] > div')).toHaveLength(0); // the slot is gone
  });

  test('without moveBefore: parked cold (handle and host state kept), reloaded with a fresh session when adopted', async () => {
    const session = mintSessions();
    const first = binding();
    const h = first.mount(box('a'), options({ session, keepAlive: 'sales' }));
    await flush();
    ready(h);
    deliver(envelope('navigate', { path: '/d/sales/q3' }), h.iframe!.contentWindow);
    first.unmount();
    await flush();
    expect(h.iframe).toBeNull();
    expect(h.getState().status).toBe('idle');
    const second = binding();
    expect(second.mount(box('b'), options({ session, keepAlive: 'sales' }))).toBe(h);
    await flush();
    expect(session).toHaveBeenCalledTimes(2);
    const post = spyPost(h.iframe!.contentWindow!);
    ready(h);
    expect(post.mock.calls.map(([m]) => [(m as { type: string }).type, (m as { payload: unknown }).payload])).toEqual([
      ['platform:action:navigate', { path: '/d/sales/q3' }],
    ]);
  });

  test('StrictMode (unmount and mount in one task) with keepAlive: one embed, one session, nothing parked', async () => {
    withMoveBefore();
    const session = mintSessions();
    const b = binding();
    const container = box('c');
    const h = b.mount(container, options({ session, keepAlive: true }));
    b.unmount();
    expect(b.mount(container, options({ session, keepAlive: true }))).toBe(h);
    await flush();
    expect(session).toHaveBeenCalledTimes(1);
    expect(parkedCount()).toBe(0);
    expect(container.contains(h.iframe)).toBe(true);
  });

  // (React runs a component's layout effect cleanup and effect again on every commit: an unmount a
  // mount undoes in the same task must change nothing, or the change renders again, and so on.
  // Found in Chromium: a page without moveBefore looped with "Maximum update depth exceeded".)
  test('without moveBefore, an unmount undone in the same task (StrictMode, every re-render): the same frame, no session, no state change', async () => {
    const session = mintSessions();
    const b = binding();
    const container = box('c');
    const h = b.mount(container, options({ session, keepAlive: true }));
    await flush();
    const iframe = h.iframe!;
    ready(h);
    const changes = vi.fn();
    h.subscribe(changes);
    for (let render = 0; render < 3; render++) {
      b.unmount();
      expect(b.mount(container, options({ session, keepAlive: true }))).toBe(h);
      await flush();
    }
    expect(changes).not.toHaveBeenCalled();
    expect(h.iframe).toBe(iframe);
    expect(container.contains(iframe)).toBe(true);
    expect(h.getState().status).toBe('ready');
    expect(session).toHaveBeenCalledTimes(1);
    expect(parkedCount()).toBe(0);
  });

  test('a lazy embed not yet seen, unmounted and mounted in the same task: no state change (with moveBefore too)', async () => {
    withMoveBefore();
    // Never in view: the embed waits, idle.
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
    try {
      const session = mintSessions();
      const b = binding();
      const container = box('c');
      const h = b.mount(container, options({ session, keepAlive: true, loading: 'lazy' }));
      await flush();
      expect(h.getState().status).toBe('idle');
      const changes = vi.fn();
      h.subscribe(changes);
      b.unmount();
      b.mount(container, options({ session, keepAlive: true, loading: 'lazy' }));
      await flush();
      expect(changes).not.toHaveBeenCalled();
      expect(parkedCount()).toBe(0);
      // Really unmounted: parked (cold, as a lazy embed not yet seen is).
      b.unmount();
      container.remove();
      await flush();
      expect(parkedCount()).toBe(1);
      expect(session).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  test('a component that let its embed be parked hears no more of it (nor does the handle keep it)', async () => {
    withMoveBefore();
    const session = mintSessions();
    const first = binding();
    const h = first.mount(box('a'), options({ session, keepAlive: true }));
    await flush();
    // (jsdom gives a moved frame a new window: the embed's is the one it had.)
    const win = h.iframe!.contentWindow;
    const heard = vi.fn();
    first.subscribe(heard);
    first.unmount();
    await flush();
    expect(first.getState().status).toBe('idle');
    binding().mount(box('b'), options({ session, keepAlive: true }));
    ready(h, win);
    expect(h.getState().status).toBe('ready');
    expect(heard).not.toHaveBeenCalled();
  });

  test('embed*() adopts too; another name or surface does not', async () => {
    withMoveBefore();
    const session = mintSessions();
    const b = binding();
    const h = b.mount(box('a'), options({ session, keepAlive: 'k' }));
    await flush();
    b.unmount();
    await flush();
    box('c');
    const other = embedDashboard({ container: '#c', baseUrl: BASE, publicId: 'sales', session, keepAlive: 'other' });
    handles.push(other);
    expect(other).not.toBe(h);
    const adopted = embedDashboard({ container: '#c', baseUrl: BASE, publicId: 'sales', session, keepAlive: 'k' });
    handles.push(adopted);
    expect(adopted).toBe(h);
  });

  test('another publicId on adoption reloads as usual (the host state stays)', async () => {
    withMoveBefore();
    const session = mintSessions();
    const b = binding();
    const h = b.mount(box('a'), options({ session, keepAlive: 'k' }));
    await flush();
    const iframe = h.iframe;
    b.unmount();
    await flush();
    expect(binding().mount(box('b'), options({ session, keepAlive: 'k', publicId: 'costs' }))).toBe(h);
    await flush();
    expect(h.iframe).not.toBe(iframe);
    expect(h.iframe!.src).toContain('/embed/dashboard/costs');
  });
});

describe('the lot is bounded, and leaves nothing behind', () => {
  const parkOne = async (name: string) => {
    const b = binding();
    const h = b.mount(box(name), options({ session: mintSessions(), keepAlive: name }));
    await flush();
    b.unmount();
    await flush();
    return h;
  };

  test('at most `max` parked: the least recently parked is destroyed first', async () => {
    withMoveBefore();
    configureParking({ max: 2 });
    const a = await parkOne('a');
    const b = await parkOne('b');
    const c = await parkOne('c');
    expect([a, b, c].map((h) => h.getState().status == 'destroyed')).toEqual([true, false, false]);
    expect(parkedCount()).toBe(2);
    expect(listenerCount()).toBe(2);
  });

  test('idle too long: destroyed, no iframe, listener or timer left', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    configureParking({ idle: 1000 });
    const h = await parkOne('a');
    await vi.advanceTimersByTimeAsync(999);
    expect(h.getState().status).not.toBe('destroyed');
    await vi.advanceTimersByTimeAsync(1);
    expect(h.getState().status).toBe('destroyed');
    expect(parkedCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(document.querySelectorAll('iframe')).toHaveLength(0);
  });

  test('destroy() on a parked handle takes it out of the lot', async () => {
    const h = await parkOne('a');
    h.destroy();
    expect(parkedCount()).toBe(0);
  });

  test('a parked embed that fails for good is destroyed: no error box anywhere', async () => {
    withMoveBefore();
    const b = binding();
    const h = b.mount(box('a'), options({ session: mintSessions(), keepAlive: 'a', retry: false }));
    await flush();
    const win = h.iframe!.contentWindow;
    ready(h, win);
    b.unmount();
    await flush();
    deliver(envelope('error', { message: 'session expired', fatal: true }), win);
    expect(h.getState().status).toBe('destroyed');
    expect(parkedCount()).toBe(0);
  });
});

describe('preload: loaded parked before anything shows it', () => {
  test('mints and loads in the lot; the first embed with its name adopts it already ready, with no session', async () => {
    withMoveBefore();
    const session = mintSessions();
    const h = preload('dashboard', { baseUrl: BASE, publicId: 'sales', session });
    handles.push(h);
    await flush();
    expect(session).toHaveBeenCalledTimes(1);
    expect(h.iframe!.closest('[aria-hidden=true]')).not.toBeNull();
    ready(h);
    expect(preload('dashboard', { baseUrl: BASE, publicId: 'sales', session })).toBe(h);
    const b = binding();
    const container = box('route');
    expect(b.mount(container, options({ session, keepAlive: true }))).toBe(h);
    expect(h.getState().status).toBe('ready');
    expect(container.contains(h.iframe)).toBe(true);
    expect(session).toHaveBeenCalledTimes(1);
  });

  test('an initialSession serves the preload; lazy loading cannot stall it', async () => {
    withMoveBefore();
    const session = mintSessions();
    const h = preload('dashboard', { baseUrl: BASE, publicId: 'sales', session, initialSession: 'ssr-1', loading: 'lazy' });
    handles.push(h);
    await flush();
    expect(new URL(h.iframe!.src).searchParams.get('session')).toBe('ssr-1');
    expect(session).not.toHaveBeenCalled();
  });

  test('without moveBefore nothing is minted (a moved frame would load again): the adopter loads it', async () => {
    const session = mintSessions();
    const h = preload('dashboard', { baseUrl: BASE, publicId: 'sales', session });
    handles.push(h);
    await flush();
    expect(session).not.toHaveBeenCalled();
    expect(binding().mount(box('route'), options({ session, keepAlive: true }))).toBe(h);
    await flush();
    expect(session).toHaveBeenCalledTimes(1);
    expect(document.getElementById('route')!.contains(h.iframe)).toBe(true);
  });
});
