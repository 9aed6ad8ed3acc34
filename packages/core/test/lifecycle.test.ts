import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  ACTION_SCHEMAS,
  EmbedError,
  embedDashboard,
  listenerCount,
  type DashboardEmbedOptions,
  type Diagnostic,
  type EmbedHandle,
  type EmbedStatus,
} from '../src/index';
import { BASE, READY, deliver, envelope, flush, mintSessions, spyPost, type PostSpy } from './helpers';

/*
 * The embed's life over time: update(), the host state kept across reloads, lazy loads,
 * self-healing retries, failures that name their cause, and a first session minted on the server.
 */

let handles: EmbedHandle[] = [];
const track = <H extends EmbedHandle>(h: H): H => (handles.push(h), h);

function dashboard(options: Partial<DashboardEmbedOptions> = {}) {
  const session = mintSessions();
  const h = track(embedDashboard({ container: '#c', baseUrl: BASE, publicId: 'sales', session, ...options }));
  return Object.assign(h, { minted: session });
}

/** Waits for the current load's iframe and returns it. */
async function frame(h: EmbedHandle): Promise<HTMLIFrameElement> {
  await flush();
  expect(h.iframe, 'the iframe should be mounted').not.toBeNull();
  return h.iframe!;
}

const spy = (iframe: HTMLIFrameElement) => spyPost(iframe.contentWindow!);
const sent = (post: PostSpy) => post.mock.calls.map(([m]) => [(m as { type: string }).type.slice(16), (m as { payload: unknown }).payload]);

/** Mounts, spies on the frame, makes it ready. */
async function ready(h: EmbedHandle) {
  const iframe = await frame(h);
  const post = spy(iframe);
  deliver(envelope('ready', READY), iframe.contentWindow);
  return { iframe, post };
}
const param = (h: EmbedHandle, name: string) => new URL(h.iframe!.src).searchParams.get(name);

beforeEach(() => {
  document.body.innerHTML = '<div id="c"></div><div id="d"></div>';
});

afterEach(() => {
  for (const h of handles) h.destroy();
  handles = [];
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  globalThis.__DEV__ = true;
  expect(listenerCount()).toBe(0);
});

describe('update(): the core decides what a change means', () => {
  test('colorScheme, theme, locale, path: an action to the same iframe, no reload, no new session', async () => {
    const h = dashboard();
    const { iframe, post } = await ready(h);
    h.update({ colorScheme: 'dark', theme: { primaryColor: '#123' }, locale: 'es-MX', path: '/d/costs' });
    expect(h.iframe).toBe(iframe);
    expect(h.minted).toHaveBeenCalledTimes(1);
    expect(sent(post)).toEqual([
      ['set-color-scheme', { scheme: 'dark' }],
      ['set-theme', { primaryColor: '#123' }],
      ['set-locale', { locale: 'es-MX' }],
      ['navigate', { path: '/d/costs' }],
    ]);
  });

  test('the same values again (new objects, same content) send nothing', async () => {
    const h = dashboard({ colorScheme: 'dark', theme: { primaryColor: '#1' }, filters: { 'o.s': { value: 1 } } });
    const { post } = await ready(h);
    post.mockClear();
    h.update({ colorScheme: 'dark', theme: { primaryColor: '#1' }, filters: { 'o.s': { value: 1 } }, baseUrl: new URL(BASE) });
    expect(post).not.toHaveBeenCalled();
    expect(h.minted).toHaveBeenCalledTimes(1);
  });

  test('filters: an added or changed filter is set-filter; a removed one reloads with a fresh session', async () => {
    const h = dashboard({ filters: { 'orders.status': { value: 'open' } } });
    expect(h.getState().status).toBe('loading');
    const { iframe, post } = await ready(h);
    expect(param(h, 'f_orders.status')).toBe('{"value":"open"}');
    h.update({ filters: { 'orders.status': { value: 'done' }, 'orders.region': { value: 'EU' } } });
    expect(h.iframe).toBe(iframe);
    expect(sent(post)).toEqual([
      ['set-filter', { filterUrlParameter: 'f_orders.status={"value":"done"}' }],
      ['set-filter', { filterUrlParameter: 'f_orders.region={"value":"EU"}' }],
    ]);
    h.update({ filters: { 'orders.region': { value: 'EU' } } });
    const next = await frame(h);
    expect(next).not.toBe(iframe);
    expect(h.minted).toHaveBeenCalledTimes(2);
    expect(param(h, 'f_orders.status')).toBeNull();
    expect(param(h, 'f_orders.region')).toBe('{"value":"EU"}');
  });

  test.each<[string, Partial<DashboardEmbedOptions>]>([
    ['publicId', { publicId: 'costs' }],
    ['baseUrl', { baseUrl: 'https://other.example' }],
    ['allowExport', { allowExport: true }],
    ['showDashboardHeader', { showDashboardHeader: false }],
    ['timeGrains', { timeGrains: { 'orders.created_at': 'month' } }],
    ['fieldSwitches', { fieldSwitches: { 'orders.revenue': 'profit' } }],
    ['sandbox', { sandbox: 'allow-scripts allow-same-origin' }],
    ['allow', { allow: 'fullscreen' }],
    ['referrerPolicy', { referrerPolicy: 'no-referrer' }],
    ['container', { container: '#d' }],
  ])('what is embedded (%s): a new iframe with a fresh session', async (_, change) => {
    const h = dashboard();
    const { iframe } = await ready(h);
    h.update(change);
    expect(h.getState().status).toBe('loading');
    const next = await frame(h);
    expect(next).not.toBe(iframe);
    expect(iframe.isConnected).toBe(false);
    expect(h.minted).toHaveBeenCalledTimes(2);
    expect(new URL(next.src).searchParams.get('session')).toBe(h.minted.id(2));
  });

  test('the React case: scheme set, publicId changed, the new iframe receives the scheme', async () => {
    const h = dashboard();
    await ready(h);
    h.setColorScheme('dark');
    h.update({ publicId: 'costs' });
    const { post } = await ready(h);
    expect(h.iframe!.src).toContain('/embed/dashboard/costs?');
    expect(sent(post)).toEqual([['set-color-scheme', { scheme: 'dark' }]]);
  });

  test('handlers, the session function, onDiagnostic and debug are swapped in place', async () => {
    const first = vi.fn();
    const second = vi.fn();
    const h = dashboard({ onDrilldown: first });
    const { iframe } = await ready(h);
    const session = vi.fn(async () => 'swapped-1');
    const onDiagnostic = vi.fn();
    h.update({ onDrilldown: second, session, onDiagnostic, debug: false });
    expect(h.iframe).toBe(iframe);
    deliver(envelope('drilldown', { member: 'orders.count' }), iframe.contentWindow);
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith({ member: 'orders.count' }, expect.objectContaining({ type: 'platform:event:drilldown' }));
    deliver('garbage', iframe.contentWindow);
    expect(onDiagnostic).toHaveBeenCalledWith({ kind: 'invalid-message', reason: 'not an object' });
    h.reload();
    await frame(h);
    expect(session).toHaveBeenCalledTimes(1);
    expect(h.minted).toHaveBeenCalledTimes(1);
  });

  test('title, className and style are applied to the current iframe', async () => {
    const h = dashboard();
    const { iframe } = await ready(h);
    h.update({ title: 'Sales', className: 'embed', style: 'height:300px' });
    expect(h.iframe).toBe(iframe);
    expect([iframe.title, iframe.className, iframe.style.height]).toEqual(['Sales', 'embed', '300px']);
    expect(h.minted).toHaveBeenCalledTimes(1);
  });

  test('an update that changes no presentation option leaves the iframe’s attributes alone', async () => {
    const h = dashboard();
    const { iframe } = await ready(h);
    iframe.style.height = '123px';
    h.update({ colorScheme: 'dark', onReady: () => {} });
    expect(iframe.style.height).toBe('123px');
  });

  test('a string session: a new one reloads with it', async () => {
    const h = dashboard({ session: 'lit-1' });
    const { iframe } = await ready(h);
    h.update({ session: 'lit-2' });
    expect((await frame(h)) === iframe).toBe(false);
    expect(param(h, 'session')).toBe('lit-2');
  });

  test('an invalid update throws and changes nothing', async () => {
    const h = dashboard({ colorScheme: 'light' });
    const { iframe, post } = await ready(h);
    post.mockClear();
    expect(() => h.update({ colorScheme: 'purple' as never, publicId: 'costs' })).toThrow(EmbedError);
    expect(() => h.update({ baseUrl: 'ftp://x', colorScheme: 'dark' })).toThrow(/baseUrl/);
    expect(() => h.update({ container: '#missing', colorScheme: 'dark' })).toThrow(/container/);
    expect(() => h.update({ allowExport: 'yes' as never })).toThrow(/allowExport/);
    expect(post).not.toHaveBeenCalled();
    expect(h.iframe).toBe(iframe);
    h.reload();
    expect((await ready(h)).post.mock.calls[0]![0]).toMatchObject({ payload: { scheme: 'light' } });
  });

  test('update after destroy throws destroyed', () => {
    const h = dashboard();
    h.destroy();
    expect(() => h.update({ colorScheme: 'dark' })).toThrow(expect.objectContaining({ code: 'destroyed' }));
  });

  test('declarative state options go out right after ready; locale and filters in the first URL', async () => {
    const h = dashboard({ colorScheme: 'dark', theme: { font: 'Inter' }, path: '/d/1', locale: 'fr', filters: { 'o.s': { value: 1 } } });
    const iframe = await frame(h);
    expect(param(h, 'locale')).toBe('fr');
    expect(param(h, 'f_o.s')).toBe('{"value":1}');
    const post = spy(iframe);
    deliver(envelope('ready', READY), iframe.contentWindow);
    expect(sent(post)).toEqual([
      ['set-color-scheme', { scheme: 'dark' }],
      ['set-theme', { font: 'Inter' }],
      ['navigate', { path: '/d/1' }],
    ]);
  });
});

describe('the host state comes back after every reload', () => {
  test('the last path the embed reported is navigated to; set state is replayed; the URL carries locale and filters', async () => {
    const h = dashboard();
    const { iframe } = await ready(h);
    h.setTheme({ primaryColor: '#abc' });
    h.setLocale('de');
    h.setFilter('orders', 'status', { value: 'x' });
    deliver(envelope('view', { surface: 'dashboard', path: '/d/sales/tab-2' }), iframe.contentWindow);
    h.reload();
    const { post } = await ready(h);
    expect(param(h, 'locale')).toBe('de');
    expect(param(h, 'f_orders.status')).toBe('{"value":"x"}');
    expect(sent(post)).toEqual([
      ['set-theme', { primaryColor: '#abc' }],
      ['navigate', { path: '/d/sales/tab-2' }],
    ]);
  });

  test('another dashboard forgets the old one’s path, keeps the host-set rest', async () => {
    const h = dashboard({ path: '/start' });
    const { iframe } = await ready(h);
    h.setColorScheme('dark');
    deliver(envelope('navigate', { path: '/deep/link' }), iframe.contentWindow);
    h.update({ publicId: 'costs' });
    const { post } = await ready(h);
    expect(sent(post)).toEqual([
      ['set-color-scheme', { scheme: 'dark' }],
      ['navigate', { path: '/start' }],
    ]);
  });

  test('set while the session is fetched: the URL carries it; set after the iframe exists: sent at ready', async () => {
    const h = dashboard();
    h.setLocale('it');
    const iframe = await frame(h);
    expect(param(h, 'locale')).toBe('it');
    h.setFilter('o', 'p', { value: 2 });
    const post = spy(iframe);
    deliver(envelope('ready', READY), iframe.contentWindow);
    expect(sent(post)).toEqual([['set-filter', { filterUrlParameter: 'f_o.p={"value":2}' }]]);
  });
});

/** An IntersectionObserver stub: `show(true)` reports the observed elements as intersecting. */
function stubObserver() {
  const observers: { callback: IntersectionObserverCallback; targets: Element[]; options?: IntersectionObserverInit }[] = [];
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      record: (typeof observers)[number];
      constructor(callback: IntersectionObserverCallback, options?: IntersectionObserverInit) {
        observers.push((this.record = { callback, targets: [], options }));
      }
      observe(target: Element) {
        this.record.targets.push(target);
      }
      disconnect() {
        this.record.targets = [];
      }
    },
  );
  return {
    observers,
    show(isIntersecting: boolean) {
      for (const o of observers)
        o.callback(
          o.targets.map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry),
          {} as IntersectionObserver,
        );
    },
  };
}

describe('lazy: no session and no iframe until the container comes near the viewport', () => {
  test('idle until seen, then loading with a session; the ready timeout counts from the iframe', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const io = stubObserver();
    const h = dashboard({ loading: 'lazy', readyTimeout: 1000 });
    await flush();
    expect(h.getState().status).toBe('idle');
    expect(h.minted).not.toHaveBeenCalled();
    expect(h.iframe).toBeNull();
    expect(io.observers[0]!.options?.rootMargin).toMatch(/px/);
    vi.advanceTimersByTime(60_000);
    expect(h.getState().status).toBe('idle');
    io.show(false); // a hidden container, or still far away
    await flush();
    expect(h.minted).not.toHaveBeenCalled();
    io.show(true);
    expect(h.getState().status).toBe('loading');
    const iframe = await frame(h);
    expect(h.minted).toHaveBeenCalledTimes(1);
    expect(iframe.loading).toBe('lazy');
    vi.advanceTimersByTime(999);
    expect(h.getState().status).toBe('loading');
  });

  test('destroyed before it was seen: nothing minted, nothing observed', async () => {
    const io = stubObserver();
    const h = dashboard({ loading: 'lazy' });
    h.destroy();
    io.show(true);
    await flush();
    expect(h.minted).not.toHaveBeenCalled();
    expect(io.observers[0]!.targets).toEqual([]);
  });

  test('without IntersectionObserver it loads at once', async () => {
    vi.stubGlobal('IntersectionObserver', undefined);
    const h = dashboard({ loading: 'lazy' });
    await frame(h);
    expect(h.minted).toHaveBeenCalledTimes(1);
  });

  test('switching to eager while idle loads now', async () => {
    stubObserver();
    const h = dashboard({ loading: 'lazy' });
    await flush();
    h.update({ loading: 'eager' });
    await frame(h);
    expect(h.minted).toHaveBeenCalledTimes(1);
  });
});

describe('self-healing: a failure a fresh session can cure loads again', () => {
  const retrying = () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.spyOn(Math, 'random').mockReturnValue(1); // no jitter: delays of 500, 1000, 2000 ms
    const diagnostics: Diagnostic[] = [];
    const statuses: EmbedStatus[] = [];
    return { diagnostics, statuses, onDiagnostic: (d: Diagnostic) => diagnostics.push(d) };
  };
  const retries = (diagnostics: Diagnostic[]) =>
    diagnostics.filter((d) => d.kind == 'retry').map((d) => d.kind == 'retry' && [d.attempt, d.of, d.delay, d.error.code]);

  test('a fatal error after ready: loading, a fresh session after the backoff, ready again at the viewer’s path', async () => {
    const t = retrying();
    const h = dashboard({ onDiagnostic: t.onDiagnostic });
    h.subscribe((s) => t.statuses.push(s.status));
    const { iframe } = await ready(h);
    deliver(envelope('navigate', { path: '/d/sales/q3' }), iframe.contentWindow);
    deliver(envelope('error', { message: 'session expired', fatal: true }), iframe.contentWindow);
    expect(h.getState().status).toBe('loading');
    expect(retries(t.diagnostics)).toEqual([[1, 3, 500, 'fatal']]);
    vi.advanceTimersByTime(499);
    await flush();
    expect(h.minted).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    const { post } = await ready(h);
    expect(h.minted).toHaveBeenCalledTimes(2);
    expect(param(h, 'session')).toBe(h.minted.id(2));
    expect(sent(post)).toEqual([['navigate', { path: '/d/sales/q3' }]]);
    expect(t.statuses).toEqual(['ready', 'loading', 'ready']);
    await expect(h.ready).resolves.toEqual(READY);
  });

  test('bounded: after 3 retries (500, 1000, 2000 ms) the error state with the last cause; ready rejects', async () => {
    const t = retrying();
    const h = dashboard({ onDiagnostic: t.onDiagnostic, readyTimeout: 100 });
    const promise = h.ready;
    // Each attempt: the ready timeout, then the backoff (async: the session and mount run in between).
    await vi.advanceTimersByTimeAsync(100 + 500 + 100 + 1000 + 100 + 2000 + 100);
    expect(retries(t.diagnostics)).toEqual([
      [1, 3, 500, 'timeout'],
      [2, 3, 1000, 'timeout'],
      [3, 3, 2000, 'timeout'],
    ]);
    expect(h.getState().status).toBe('error');
    expect(h.error?.code).toBe('timeout');
    expect(h.minted).toHaveBeenCalledTimes(4);
    await expect(promise).rejects.toMatchObject({ code: 'timeout' });
    // reload() resets the count.
    h.reload();
    await flush();
    vi.advanceTimersByTime(100);
    expect(retries(t.diagnostics)).toHaveLength(4);
    expect(h.getState().status).toBe('loading');
  });

  test('retry: false fails at once; retry: 1 retries once', async () => {
    const t = retrying();
    const a = dashboard({ retry: false, onDiagnostic: t.onDiagnostic });
    const { iframe } = await ready(a);
    deliver(envelope('error', { message: 'gone', fatal: true }), iframe.contentWindow);
    expect(a.getState().status).toBe('error');
    expect(t.diagnostics).toEqual([]);
    const b = dashboard({ container: '#d', retry: 1, readyTimeout: 100, onDiagnostic: t.onDiagnostic });
    await vi.advanceTimersByTimeAsync(100 + 500 + 100);
    expect(retries(t.diagnostics)).toEqual([[1, 1, 500, 'timeout']]);
    expect(b.getState().status).toBe('error');
  });

  test('a session call that fails or times out (15 s by default) is retried', async () => {
    const t = retrying();
    let calls = 0;
    const session = vi.fn(() =>
      ++calls == 1 ? Promise.reject(new Error('502')) : calls == 2 ? new Promise<string>(() => {}) : `ok-${calls}`,
    );
    const h = track(embedDashboard({ container: '#c', baseUrl: BASE, publicId: 'p', session, onDiagnostic: t.onDiagnostic }));
    await flush();
    expect(retries(t.diagnostics)).toEqual([[1, 3, 500, 'session']]);
    expect(t.diagnostics[0]).toMatchObject({ error: { message: expect.stringContaining('session function failed: Error: 502') } });
    vi.advanceTimersByTime(500);
    await flush();
    vi.advanceTimersByTime(14_999);
    await flush();
    expect(retries(t.diagnostics)).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await flush();
    expect(t.diagnostics[1]).toMatchObject({ error: { message: expect.stringContaining('did not answer within 15000 ms') } });
    vi.advanceTimersByTime(1000);
    await ready(h);
    expect(session).toHaveBeenCalledTimes(3);
  });

  test('a string session cannot be renewed: error at once, saying so', async () => {
    const t = retrying();
    const h = dashboard({ session: 'only-once', onDiagnostic: t.onDiagnostic });
    const { iframe } = await ready(h);
    deliver(envelope('error', { message: 'expired', fatal: true }), iframe.contentWindow);
    expect(h.getState().status).toBe('error');
    expect(h.error?.message).toMatch(/expired.*cannot be renewed.*function/);
    expect(t.diagnostics).toEqual([]);
  });

  test('offline: the retry waits for online', async () => {
    const t = retrying();
    const h = dashboard({ onDiagnostic: t.onDiagnostic });
    const { iframe } = await ready(h);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    deliver(envelope('error', { message: 'network', fatal: true }), iframe.contentWindow);
    vi.advanceTimersByTime(10_000);
    await flush();
    expect(h.minted).toHaveBeenCalledTimes(1);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await frame(h);
    expect(h.minted).toHaveBeenCalledTimes(2);
  });

  test('a hidden tab: the retry waits until the tab is shown', async () => {
    const t = retrying();
    const h = dashboard({ onDiagnostic: t.onDiagnostic });
    const { iframe } = await ready(h);
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    deliver(envelope('error', { message: 'expired', fatal: true }), iframe.contentWindow);
    vi.advanceTimersByTime(10_000);
    await flush();
    expect(h.minted).toHaveBeenCalledTimes(1);
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    await frame(h);
    expect(h.minted).toHaveBeenCalledTimes(2);
  });

  test('the failed frame saying so again during the backoff costs no second attempt; retry: true is the default 3', async () => {
    const t = retrying();
    const h = dashboard({ onDiagnostic: t.onDiagnostic, retry: true as never });
    const { iframe } = await ready(h);
    deliver(envelope('error', { message: 'expired', fatal: true }), iframe.contentWindow);
    deliver(envelope('error', { message: 'expired', fatal: true }), iframe.contentWindow);
    expect(retries(t.diagnostics)).toEqual([[1, 3, 500, 'fatal']]);
  });

  test('destroy during the backoff: nothing more is minted', async () => {
    const t = retrying();
    const h = dashboard({ onDiagnostic: t.onDiagnostic });
    const { iframe } = await ready(h);
    deliver(envelope('error', { message: 'expired', fatal: true }), iframe.contentWindow);
    h.destroy();
    vi.advanceTimersByTime(10_000);
    await flush();
    expect(h.minted).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('never silent: every failure names its cause and the fix', () => {
  const violation = (blockedURI: string, effectiveDirective = 'frame-src', disposition = 'enforce') =>
    Object.assign(new Event('securitypolicyviolation'), { blockedURI, effectiveDirective, disposition });

  test('a CSP frame-src violation for the tenant: error at once, naming the directive and the origin; not retried', async () => {
    const onDiagnostic = vi.fn();
    const h = dashboard({ onDiagnostic });
    await frame(h);
    document.dispatchEvent(violation('https://other.example/x'));
    document.dispatchEvent(violation(BASE, 'script-src'));
    expect(h.getState().status).toBe('loading');
    document.dispatchEvent(violation(BASE));
    expect(h.getState().status).toBe('error');
    expect(h.error?.code).toBe('blocked');
    expect(h.error?.message).toContain(`frame-src`);
    expect(h.error?.message).toContain(`add ${BASE}`);
    expect(onDiagnostic).not.toHaveBeenCalled();
  });

  test('a report-only policy (Content-Security-Policy-Report-Only) blocks nothing: its violation is no failure', async () => {
    const onDiagnostic = vi.fn();
    const h = dashboard({ onDiagnostic });
    const iframe = await frame(h);
    document.dispatchEvent(violation(BASE, 'frame-src', 'report'));
    expect(h.getState().status).toBe('loading');
    deliver(envelope('ready', READY), iframe.contentWindow);
    expect(h.getState().status).toBe('ready');
    expect(onDiagnostic).not.toHaveBeenCalled();
  });

  test('the ready timeout says whether the frame loaded', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const a = dashboard({ readyTimeout: 100, retry: false });
    await frame(a);
    vi.advanceTimersByTime(100);
    expect(a.error?.message).toMatch(/did not finish loading within 100 ms: check baseUrl/);
    const b = dashboard({ container: '#d', readyTimeout: 100, retry: false });
    (await frame(b)).dispatchEvent(new Event('load'));
    vi.advanceTimersByTime(100);
    expect(b.error?.message).toMatch(/loaded but sent no ready.*origin.*publicId/);
  });
});

describe('initialSession: a first session minted on the server', () => {
  test('the first load uses it without calling session; later loads call session', async () => {
    const h = dashboard({ initialSession: 'from-server-1' });
    await ready(h);
    expect(param(h, 'session')).toBe('from-server-1');
    expect(h.minted).not.toHaveBeenCalled();
    h.reload();
    await frame(h);
    expect(param(h, 'session')).toBe(h.minted.id(1));
  });

  test('an initial session already used on this page (a restored page) is replaced by a fresh one', async () => {
    const first = dashboard({ initialSession: 'from-server-2' });
    await frame(first);
    const second = dashboard({ container: '#d', initialSession: 'from-server-2' });
    await frame(second);
    expect(param(second, 'session')).toBe(second.minted.id(1));
  });

  test('an expired initial session heals through a retry', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const h = dashboard({ initialSession: 'from-server-3' });
    const iframe = await frame(h);
    deliver(envelope('error', { message: 'session expired', fatal: true }), iframe.contentWindow);
    vi.advanceTimersByTime(600);
    await ready(h);
    expect(param(h, 'session')).toBe(h.minted.id(1));
  });
});

describe('production build: developer checks and long messages are gone, the page’s checks stay', () => {
  test('errors keep their code and the field they are about', async () => {
    globalThis.__DEV__ = false;
    const baseUrl = (() => {
      try {
        dashboard({ baseUrl: 'javascript:alert(1)' });
      } catch (e) {
        return e as EmbedError;
      }
    })();
    expect(baseUrl).toMatchObject({ code: 'invalid-option', message: '[platform-embed] baseUrl' });
    expect(() => dashboard({ container: '#nope' })).toThrow(
      expect.objectContaining({ code: 'no-container', message: '[platform-embed] container' }),
    );
    // Option checks are development-only: a bad flag is not refused...
    expect(() => dashboard({ allowExport: 'yes' as never })).not.toThrow();
    // ...but actions are still validated, and so is every incoming message.
    const h = dashboard({ container: '#d' });
    expect(() => h.setColorScheme('purple' as never)).toThrow(expect.objectContaining({ code: 'invalid-action' }));
    const iframe = await frame(h);
    const onDrilldown = vi.fn();
    h.on('drilldown', onDrilldown);
    deliver(envelope('drilldown', { member: 42 }), iframe.contentWindow);
    deliver(envelope('drilldown', { member: 'm' }), iframe.contentWindow, 'https://evil.example');
    expect(onDrilldown).not.toHaveBeenCalled();
  });

  test('a refused action and a session call that timed out say what failed in a few words', async () => {
    const refusal = (run: () => void) => {
      try {
        run();
      } catch (e) {
        return (e as EmbedError).message;
      }
    };
    const h = dashboard({ session: () => new Promise<string>(() => {}), sessionTimeout: 50, retry: false });
    const send = h.send as (type: string, payload?: unknown) => void;
    // Development explains: the actions there are, what cannot be cloned.
    expect(refusal(() => send('reload'))).toBe(
      '[platform-embed] action "reload": unknown action, use ' + Object.keys(ACTION_SCHEMAS).join('|'),
    );
    expect(refusal(() => send('navigate', { path: '/x', fn: () => {} }))).toMatch(/cannot be cloned \(no functions/);
    globalThis.__DEV__ = false;
    expect(refusal(() => send('reload'))).toBe('[platform-embed] action "reload": unknown action');
    expect(refusal(() => send('navigate', { path: '/x', fn: () => {} }))).toBe('[platform-embed] action "navigate": payload not cloneable');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const timed = dashboard({ container: '#d', session: () => new Promise<string>(() => {}), sessionTimeout: 50, retry: false });
    await flush();
    vi.advanceTimersByTime(50);
    await flush();
    expect(timed.error).toMatchObject({ code: 'session', message: '[platform-embed] session timeout 50 ms' });
  });
});
