import { StrictMode, createRef, useEffect, useRef, useState, type Ref } from 'react';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { EVENT_SCHEMAS, listenerCount, type EmbedHandle, type EventName } from '@platform-embed/core';
import { PlatformApp, PlatformChat, PlatformDashboard, type PlatformEmbedProps } from '../src/index';
import { BASE, emit, freshId, iframes, mintSessions, payload, settle } from '../../core/test/helpers';

// An unmount destroys the embed at the end of the task (a remount in the same task, like
// StrictMode's, keeps it): `settle` lets that run.
afterEach(async () => {
  cleanup();
  await settle();
  expect(iframes()).toHaveLength(0);
  expect(listenerCount()).toBe(0);
});

const fire = (type: string, data: Record<string, unknown>, iframe = iframes()[0]!) => act(() => emit(iframe, type, data));

describe('mounting', () => {
  test('renders a container and one iframe built from the props, one session per mount', async () => {
    const session = mintSessions();
    const { container } = render(
      <PlatformDashboard baseUrl={BASE} publicId="sales" session={session} allowExport className="box" style={{ height: 300 }} />,
    );
    const div = container.firstElementChild as HTMLElement;
    expect(div.className).toBe('box');
    expect(div.style.height).toBe('300px');
    await act(settle);
    expect(session).toHaveBeenCalledOnce();
    expect(iframes()).toHaveLength(1);
    expect(div.firstElementChild).toBe(iframes()[0]);
    expect(iframes()[0]!.src).toBe(`${BASE}/embed/dashboard/sales?session=${session.id(1)}&allowExport=true`);
  });

  test.each([
    ['chat', <PlatformChat baseUrl={BASE} session="c-1" />, `${BASE}/embed/chat?sessionId=c-1`],
    ['chat (private mode)', <PlatformChat baseUrl={BASE} />, `${BASE}/embed/chat`],
    [
      'app',
      <PlatformApp baseUrl={BASE} deploymentId={12} session="a-1" showWorkbookBackButton={false} />,
      `${BASE}/embed/d/12/app?session=a-1&showWorkbookBackButton=false`,
    ],
  ])('%s surface', async (_, element, url) => {
    render(element);
    await act(settle);
    expect(iframes().map((f) => f.src)).toEqual([url]);
  });

  test('<StrictMode>: the session function runs once, one iframe; unmount leaves nothing', async () => {
    const session = mintSessions();
    const { unmount } = render(
      <StrictMode>
        <PlatformDashboard baseUrl={BASE} publicId="sales" session={session} />
      </StrictMode>,
    );
    await act(settle);
    expect(session).toHaveBeenCalledOnce();
    expect(iframes()).toHaveLength(1);
    expect(listenerCount()).toBe(1);
    unmount();
    await settle();
    expect(iframes()).toHaveLength(0);
    expect(listenerCount()).toBe(0);
  });

  test('<StrictMode> with a session id string: loaded once, not reported as reused', async () => {
    const onError = vi.fn();
    const ref = { current: null as EmbedHandle<'dashboard'> | null };
    render(
      <StrictMode>
        <PlatformDashboard ref={ref} baseUrl={BASE} publicId="sales" session="only-once" onError={onError} />
      </StrictMode>,
    );
    await act(settle);
    expect(iframes().map((f) => f.src)).toEqual([`${BASE}/embed/dashboard/sales?session=only-once`]);
    expect(ref.current!.getState().status).toBe('loading');
  });

  test('unmount while the session is pending aborts it and mounts nothing', async () => {
    let signal: AbortSignal | undefined;
    const session = vi.fn(({ signal: s }: { signal: AbortSignal }) => ((signal = s), new Promise<string>(() => {})));
    const { unmount } = render(<PlatformDashboard baseUrl={BASE} publicId="sales" session={session} />);
    await act(settle);
    expect(signal?.aborted).toBe(false);
    unmount();
    await Promise.resolve();
    expect(signal?.aborted).toBe(true);
    expect(iframes()).toHaveLength(0);
  });

  test('an unusable option costs the embed, never the app: the error state and one console line, nothing thrown', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const ref = createRef<EmbedHandle<'dashboard'>>();
    render(<PlatformDashboard ref={ref} baseUrl="ftp://tenant.example" publicId="x" session="s" />);
    expect(ref.current).toBeNull();
    expect(iframes()).toEqual([]);
    expect(error).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ code: 'invalid-option', message: expect.stringMatching(/baseUrl must be your tenant's https/) }),
    );
    vi.restoreAllMocks();
  });
});

describe('events', () => {
  const propOf: Record<EventName, keyof PlatformEmbedProps<'dashboard'>> = {
    ready: 'onReady',
    view: 'onView',
    navigate: 'onNavigate',
    'dashboard-loaded': 'onDashboardLoaded',
    download: 'onDownload',
    drilldown: 'onDrilldown',
    'ai-query': 'onAiQuery',
    error: 'onError',
  };

  test('every catalog event has its prop', () => {
    expect(Object.keys(propOf).sort()).toEqual(Object.keys(EVENT_SCHEMAS).sort());
  });

  test.each(Object.entries(propOf) as [EventName, string][])(
    '%s reaches %s with the payload and envelope, and onEvent',
    async (name, prop) => {
      const handler = vi.fn();
      const others = Object.fromEntries(
        Object.values(propOf)
          .filter((p) => p != prop)
          .map((p) => [p, vi.fn()]),
      );
      const onEvent = vi.fn();
      render(
        <PlatformDashboard baseUrl={BASE} publicId="sales" session={freshId()} {...others} {...{ [prop]: handler }} onEvent={onEvent} />,
      );
      await act(settle);
      if (name != 'ready') fire('ready', payload('ready'));
      fire(name, payload(name));
      expect(handler).toHaveBeenCalledOnce();
      expect(handler).toHaveBeenCalledWith(
        payload(name),
        expect.objectContaining({ type: `platform:event:${name}`, surface: 'dashboard' }),
      );
      for (const [p, fn] of Object.entries(others)) expect(fn, p).toHaveBeenCalledTimes(p == 'onReady' ? 1 : 0);
      expect(onEvent).toHaveBeenLastCalledWith(expect.objectContaining({ type: `platform:event:${name}`, payload: payload(name) }));
    },
  );

  test('an invalid payload, a foreign origin and an unknown type never reach a typed handler', async () => {
    const onDrilldown = vi.fn();
    const onEvent = vi.fn();
    const onDiagnostic = vi.fn();
    render(
      <PlatformDashboard
        baseUrl={BASE}
        publicId="sales"
        session={freshId()}
        onDrilldown={onDrilldown}
        onEvent={onEvent}
        onDiagnostic={onDiagnostic}
      />,
    );
    await act(settle);
    fire('drilldown', { member: 42 });
    fire('drilldown', payload('drilldown'), undefined);
    act(() => emit(iframes()[0]!, 'drilldown', payload('drilldown'), 'https://evil.example'));
    expect(onDrilldown).toHaveBeenCalledOnce();
    fire('diagnostic', { kind: 'fake' });
    expect(onDiagnostic.mock.calls.map(([d]) => d.kind)).toEqual(['invalid-message', 'origin-mismatch']);
    expect(onEvent.mock.calls.map(([m]) => m.type)).toEqual(['platform:event:drilldown', 'platform:event:diagnostic']);
  });

  test('a new handler between renders is used without remounting', async () => {
    const session = mintSessions();
    const first = vi.fn();
    const second = vi.fn();
    const { rerender } = render(<PlatformDashboard baseUrl={BASE} publicId="sales" session={session} onView={first} />);
    await act(settle);
    const iframe = iframes()[0]!;
    rerender(<PlatformDashboard baseUrl={BASE} publicId="sales" session={mintSessions()} onView={second} />);
    await act(settle);
    fire('view', payload('view'));
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledOnce();
    expect(iframes()).toEqual([iframe]);
    expect(session).toHaveBeenCalledOnce();
  });
});

describe('what is embedded', () => {
  const Host = ({ handle, ...props }: Partial<PlatformEmbedProps<'dashboard'>> & { handle?: Ref<EmbedHandle<'dashboard'>> }) => (
    <PlatformDashboard ref={handle} baseUrl={BASE} publicId="sales" filters={{ 'orders.status': { value: 'open' } }} {...props} />
  );

  test.each([
    ['publicId', { publicId: 'costs' }, '${BASE}/embed/dashboard/costs?session=SESSION&f_orders.status=%7B%22value%22%3A%22open%22%7D'],
    [
      'a launch option without an action',
      { allowExport: true },
      '${BASE}/embed/dashboard/sales?session=SESSION&allowExport=true&f_orders.status=%7B%22value%22%3A%22open%22%7D',
    ],
    [
      'the base URL',
      { baseUrl: 'https://other.example' },
      'https://other.example/embed/dashboard/sales?session=SESSION&f_orders.status=%7B%22value%22%3A%22open%22%7D',
    ],
    [
      'an iframe attribute',
      { allow: 'fullscreen' },
      '${BASE}/embed/dashboard/sales?session=SESSION&f_orders.status=%7B%22value%22%3A%22open%22%7D',
    ],
  ])('changing %s reloads in a new iframe with a fresh session', async (_, change, url) => {
    const session = mintSessions();
    const { rerender } = render(<Host session={session} />);
    await act(settle);
    const before = iframes()[0]!;
    rerender(<Host session={session} {...change} />);
    await act(settle);
    expect(session).toHaveBeenCalledTimes(2);
    expect(iframes().map((f) => f.src)).toEqual([url.replace('${BASE}', BASE).replace('SESSION', session.id(2))]);
    expect(iframes()[0]).not.toBe(before);
  });

  test('changing locale, a filter value, colorScheme or title: an action or an attribute, same iframe, no new session', async () => {
    const session = mintSessions();
    const { rerender } = render(<Host session={session} />);
    await act(settle);
    const iframe = iframes()[0]!;
    fire('ready', payload('ready'));
    const post = vi.spyOn(iframe.contentWindow!, 'postMessage');
    rerender(<Host session={session} locale="es-MX" filters={{ 'orders.status': { value: 'done' } }} colorScheme="dark" title="Sales" />);
    await act(settle);
    expect(session).toHaveBeenCalledOnce();
    expect(iframes()).toEqual([iframe]);
    expect(iframe.title).toBe('Sales');
    expect(post.mock.calls.map(([m]) => (m as { type: string }).type).sort()).toEqual([
      'platform:action:set-color-scheme',
      'platform:action:set-filter',
      'platform:action:set-locale',
    ]);
  });

  test('equal values in new objects (any key order), container styling, handlers and readyTimeout do not reload', async () => {
    const session = mintSessions();
    const { rerender } = render(<Host session={session} timeGrains={{ 'orders.shipped_at': 'day', 'orders.created_at': 'month' }} />);
    await act(settle);
    const iframe = iframes()[0]!;
    rerender(
      <Host
        session={() => session()}
        filters={{ 'orders.status': { value: 'open' } }}
        timeGrains={{ 'orders.created_at': 'month', 'orders.shipped_at': 'day' }}
        className="x"
        style={{ height: 10 }}
        onReady={() => {}}
        readyTimeout={5}
      />,
    );
    await act(settle);
    expect(session).toHaveBeenCalledOnce();
    expect(iframes()).toEqual([iframe]);
  });

  test('the latest session function is the one called on a reload', async () => {
    const first = vi.fn(async () => 'a');
    const second = vi.fn(async () => 'b');
    const ref = { current: null as EmbedHandle<'dashboard'> | null };
    const { rerender } = render(<Host handle={ref} session={first} />);
    await act(settle);
    rerender(<Host handle={ref} session={second} />);
    await act(async () => void ref.current!.reload().catch(() => {}));
    await act(settle);
    expect([first.mock.calls.length, second.mock.calls.length]).toEqual([1, 1]);
    expect(iframes()[0]!.src).toContain('session=b');
  });

  test('a new session id string loads with it; the same string is never loaded twice', async () => {
    const ref = { current: null as EmbedHandle<'dashboard'> | null };
    const [one, two] = [freshId(), freshId()];
    const { rerender } = render(<Host handle={ref} session={one} />);
    await act(settle);
    rerender(<Host handle={ref} session={two} />);
    await act(settle);
    expect(iframes().map((f) => f.src)).toEqual([
      `${BASE}/embed/dashboard/sales?session=${two}&f_orders.status=%7B%22value%22%3A%22open%22%7D`,
    ]);
    rerender(<Host handle={ref} session={two} publicId="costs" />);
    await act(settle);
    expect(iframes()).toHaveLength(0);
    expect(ref.current!.getState()).toMatchObject({ status: 'error', error: { code: 'session' } });
    expect(ref.current!.error!.message).toMatch(/session already used/);
    expect(ref.current!.error!.message).not.toContain(two);
  });
});

describe('ref handle', () => {
  test('a parent effect can call actions at once: kept, in the first URL or sent to the tenant origin after ready', async () => {
    const id = freshId();
    function Parent() {
      const ref = useRef<EmbedHandle<'dashboard'>>(null);
      useEffect(() => {
        ref.current!.setColorScheme('dark');
        ref.current!.setFilter('orders', 'status', { value: 'open' });
      }, []);
      return <PlatformDashboard ref={ref} baseUrl={BASE} publicId="sales" session={id} />;
    }
    render(<Parent />);
    await act(settle);
    const post = vi.spyOn(iframes()[0]!.contentWindow!, 'postMessage');
    fire('ready', payload('ready'));
    expect(post.mock.calls.map(([m, origin]) => [(m as { type: string }).type, origin])).toEqual([
      ['platform:action:set-color-scheme', BASE],
    ]);
    // Set before the iframe was created: the filter went into its URL.
    expect(new URL(iframes()[0]!.src).searchParams.get('f_orders.status')).toBe('{"value":"open"}');
  });

  test('reload() loads again with a fresh session from the function', async () => {
    const session = mintSessions();
    const ref = { current: null as EmbedHandle<'dashboard'> | null };
    render(<PlatformDashboard ref={ref} baseUrl={BASE} publicId="sales" session={session} />);
    await act(settle);
    act(() => void ref.current!.reload());
    await act(settle);
    expect(session).toHaveBeenCalledTimes(2);
    expect(iframes().map((f) => f.src)).toEqual([`${BASE}/embed/dashboard/sales?session=${session.id(2)}`]);
  });

  test('the ref is one controller for the component’s life: the same when what is embedded changes; cleared on unmount', async () => {
    const ref = { current: null as EmbedHandle<'dashboard'> | null };
    const { rerender, unmount } = render(<PlatformDashboard ref={ref} baseUrl={BASE} publicId="a" session={mintSessions()} />);
    const first = ref.current;
    await act(settle);
    rerender(<PlatformDashboard ref={ref} baseUrl={BASE} publicId="b" session={mintSessions()} />);
    expect(ref.current).toBe(first);
    expect(first!.getState().status).toBe('loading');
    await act(settle);
    expect(first!.iframe!.src).toContain('/embed/dashboard/b?');
    unmount();
    expect(ref.current).toBeNull();
    await settle();
    expect(first!.getState().status).toBe('destroyed');
  });
});

describe('state for the host', () => {
  test('a component showing the status re-renders on each change', async () => {
    const id = freshId();
    function Status() {
      const [status, setStatus] = useState('?');
      const ref = useRef<EmbedHandle<'dashboard'>>(null);
      useEffect(() => ref.current!.subscribe((s) => setStatus(s.status)), []);
      return (
        <>
          <p>{status}</p>
          <PlatformDashboard ref={ref} baseUrl={BASE} publicId="sales" session={id} />
        </>
      );
    }
    const { container } = render(<Status />);
    await act(settle);
    fire('ready', payload('ready'));
    expect(container.querySelector('p')!.textContent).toBe('ready');
  });
});
