import * as React from 'react';
import { StrictMode, type ComponentType, type ReactNode } from 'react';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { configureParking, listenerCount, parkedCount, preload, type EmbedHandle } from '@platform-embed/core';
import { PlatformDashboard } from '../src/index';
import { BASE, emit, iframes, mintSessions, payload, settle, spyPost, withMoveBefore } from '../../core/test/helpers';

/*
 * Hidden is not gone: a route wrapped in <Activity mode="hidden"> (what Next.js 16 does to a
 * route left, with cacheComponents) keeps its DOM and cleans up its effects; the embed stays,
 * with its iframe and its session, and goes on when shown again. Only a real removal destroys it.
 */

afterEach(async () => {
  cleanup();
  await settle();
  expect(listenerCount()).toBe(0);
});

// React 19.2+ (the React 18 project has none).
const Activity = (React as unknown as { Activity?: ComponentType<{ mode: 'visible' | 'hidden'; children: ReactNode }> }).Activity;
const session = mintSessions();
function Route({ mode, scheme }: { mode: 'visible' | 'hidden'; scheme: 'light' | 'dark' }) {
  const Hideable = Activity!;
  return (
    <StrictMode>
      <Hideable mode={mode}>
        <Sales scheme={scheme} />
      </Hideable>
    </StrictMode>
  );
}
let handle: EmbedHandle<'dashboard'> | null = null;
function Sales({ scheme }: { scheme: 'light' | 'dark' }) {
  return <PlatformDashboard ref={(h) => void (h && (handle = h))} baseUrl={BASE} publicId="sales" session={session} colorScheme={scheme} />;
}

test.skipIf(!Activity)(
  '<Activity mode="hidden"> then "visible": the same handle, iframe and session; a change made meanwhile arrives as an action',
  async () => {
    const view = render(<Route mode="visible" scheme="light" />);
    await act(settle);
    const first = handle!;
    const iframe = iframes()[0]!;
    emit(iframe, 'ready', payload('ready'));
    view.rerender(<Route mode="hidden" scheme="light" />);
    await act(settle);
    expect(first.getState().status).toBe('ready');
    expect(iframes()).toEqual([iframe]);
    const post: unknown[] = [];
    iframe.contentWindow!.postMessage = (m: unknown) => void post.push(m);
    view.rerender(<Route mode="visible" scheme="dark" />);
    await act(settle);
    expect(handle).toBe(first);
    expect(iframes()).toEqual([iframe]);
    expect(session).toHaveBeenCalledTimes(1);
    expect(post).toEqual([expect.objectContaining({ type: 'platform:action:set-color-scheme', payload: { scheme: 'dark' } })]);
    // Hidden, then the whole route really removed: destroyed, nothing left.
    view.rerender(<Route mode="hidden" scheme="dark" />);
    await act(settle);
    view.unmount();
    await settle();
    expect(first.getState().status).toBe('destroyed');
  },
);

/*
 * What Next.js 16 renders with cacheComponents (layout-router.js): the active route and the last
 * ones left, each in a keyed <Activity>, most recently active first. Every other navigation
 * between two routes reorders them, and React moves the DOM of the one it hides in the same
 * commit; a frame moved that way loads again (Chromium: its URL with a spent session).
 */
function Routes({ order, scheme = 'light' }: { order: string[]; scheme?: 'light' | 'dark' }) {
  const Hideable = Activity!;
  return (
    <StrictMode>
      {order.map((route, at) => (
        <Hideable key={route} mode={at == 0 ? 'visible' : 'hidden'}>
          <main>{route == 'dashboard' ? <Sales scheme={scheme} /> : <p>{route}</p>}</main>
        </Hideable>
      ))}
    </StrictMode>
  );
}

// Records every DOM insertion of a node that holds `iframe` (it moved with it), but the frame's own moveBefore.
function watchMovesOf(iframe: HTMLIFrameElement) {
  const moved: Node[] = [];
  const { insertBefore, appendChild } = Node.prototype;
  const record = (node: Node) => node != iframe && node.contains(iframe) && moved.push(node);
  Node.prototype.insertBefore = function <T extends Node>(this: Node, node: T, child: Node | null) {
    record(node);
    return insertBefore.call(this, node, child) as T;
  };
  Node.prototype.appendChild = function <T extends Node>(this: Node, node: T) {
    record(node);
    return appendChild.call(this, node) as T;
  };
  return { moved, restore: () => Object.assign(Node.prototype, { insertBefore, appendChild }) };
}

test.skipIf(!Activity)(
  "Next.js's kept routes, dashboard → settings → dashboard 3 times: the frame is never in a route React moves (it waits in the lot, moved with moveBefore); one handle, one iframe, one session",
  async () => {
    const { moves, restore } = withMoveBefore();
    const minted = session.mock.calls.length;
    const view = render(<Routes order={['dashboard']} />);
    await act(settle);
    const first = handle!;
    const iframe = iframes()[0]!;
    const container = iframe.parentElement;
    // (jsdom gives a moved frame a new window, where Chromium's move keeps it: the SDK posts to the one it had.)
    const post = spyPost(iframe.contentWindow!).mockImplementation(() => {});
    emit(iframe, 'ready', payload('ready'));
    const watch = watchMovesOf(iframe);
    try {
      let scheme: 'light' | 'dark' = 'light';
      for (let round = 0; round < 3; round++) {
        view.rerender(<Routes order={['settings', 'dashboard']} scheme={scheme} />);
        await act(settle);
        expect(first.getState().status).toBe('ready');
        // The viewer chose another scheme in the host's settings.
        scheme = scheme == 'light' ? 'dark' : 'light';
        view.rerender(<Routes order={['dashboard', 'settings']} scheme={scheme} />);
        await act(settle);
        expect(handle).toBe(first);
        expect(iframes()).toEqual([iframe]);
        expect(iframe.closest('[data-platform-embed]')).not.toBeNull();
      }
    } finally {
      watch.restore();
      restore();
    }
    // React did move the dashboard's route (rounds 2 and 3), without the frame in it.
    expect(watch.moved).toEqual([]);
    // Each time into the lot and back into its container (StrictMode re-runs the effects of a route shown again).
    expect(moves.every(([, node]) => node == iframe)).toBe(true);
    expect(moves.filter(([to]) => to == container).length).toBeGreaterThanOrEqual(3);
    expect(moves.filter(([to]) => to != container).length).toBeGreaterThanOrEqual(3);
    expect(iframe.parentElement).toBe(container);
    expect(session.mock.calls.length - minted).toBe(1);
    expect(first.getState().status).toBe('ready');
    // The scheme set at ready, then each one changed while away, sent on the way back.
    expect(post.mock.calls.map(([m]) => (m as { payload: unknown }).payload)).toEqual(
      ['light', 'dark', 'light', 'dark'].map((scheme) => ({ scheme })),
    );
    // The routes go: destroyed, nothing left in the lot.
    view.unmount();
    await settle();
    expect(first.getState().status).toBe('destroyed');
    expect(document.querySelectorAll('iframe, [aria-hidden=true] > div')).toHaveLength(0);
  },
);

test('a re-render changes the embed where it is: the frame is not moved (it steps aside only when hidden or unmounted)', async () => {
  const { moves, restore } = withMoveBefore();
  try {
    const view = render(
      <StrictMode>
        <Sales scheme="light" />
      </StrictMode>,
    );
    await act(settle);
    const iframe = iframes()[0]!;
    const post = spyPost(iframe.contentWindow!).mockImplementation(() => {});
    emit(iframe, 'ready', payload('ready'));
    view.rerender(
      <StrictMode>
        <Sales scheme="dark" />
      </StrictMode>,
    );
    await act(settle);
    expect(moves).toEqual([]);
    expect(iframes()).toEqual([iframe]);
    expect(post).toHaveBeenLastCalledWith(expect.objectContaining({ payload: { scheme: 'dark' } }), BASE);
  } finally {
    restore();
  }
});

// Issue 22, point 8: `ready` is sticky for an adopting component.
test('a <PlatformDashboard keepAlive> that adopts a ready parked embed, or a ready preload, hears onReady once', async () => {
  const { restore } = withMoveBefore();
  try {
    const first = render(<PlatformDashboard keepAlive baseUrl={BASE} publicId="sales" session={session} />);
    await act(settle);
    const iframe = iframes()[0]!;
    // (jsdom gives a moved frame a new window, where Chromium's move keeps it: the SDK posts to the one it had.)
    spyPost(iframe.contentWindow!).mockImplementation(() => {});
    emit(iframe, 'ready', payload('ready'));
    first.unmount();
    await settle();
    expect(parkedCount()).toBe(1);
    const onReady = vi.fn();
    const again = render(
      <StrictMode>
        <PlatformDashboard keepAlive baseUrl={BASE} publicId="sales" session={session} onReady={onReady} />
      </StrictMode>,
    );
    await act(settle);
    expect(onReady).toHaveBeenCalledOnce();
    expect(onReady.mock.calls[0]![0]).toEqual(payload('ready'));
    again.unmount();
    await settle();
    // A preload, ready before the route is entered (the parked one gone first).
    configureParking({ max: 0 });
    configureParking({ max: 3 });
    const preloaded = preload('dashboard', { baseUrl: BASE, publicId: 'costs', session });
    await settle();
    spyPost(preloaded.iframe!.contentWindow!).mockImplementation(() => {});
    emit(preloaded.iframe!, 'ready', payload('ready'));
    const onPreloadReady = vi.fn();
    const adopter = React.createRef<EmbedHandle<'dashboard'>>();
    const route = render(
      <PlatformDashboard ref={adopter} keepAlive baseUrl={BASE} publicId="costs" session={session} onReady={onPreloadReady} />,
    );
    await act(settle);
    expect(adopter.current).toBe(preloaded);
    expect(onPreloadReady).toHaveBeenCalledOnce();
    route.unmount();
    preloaded.destroy();
  } finally {
    configureParking({ max: 0 });
    configureParking({ max: 3 });
    restore();
  }
});
