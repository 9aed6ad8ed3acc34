import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  EmbedError,
  embedApp,
  embedChat,
  embedDashboard,
  listenerCount,
  type DashboardEmbedOptions,
  type Diagnostic,
  type EmbedHandle,
  type EmbedState,
} from '../src/index';
import { BASE, READY, deliver, envelope, flush, spyPost, thrown, type PostSpy } from './helpers';

let handles: EmbedHandle[] = [];
let sessions = 0;
/** A session function minting a new id per call, like a host backend would. */
const minting = () => vi.fn(async (_: { signal: AbortSignal }) => `sess-${++sessions}`);

/** Registers a handle for destruction after the test, so one failing test cannot leak into the next. */
function track<H extends EmbedHandle>(h: H): H {
  handles.push(h);
  return h;
}

// Without retries: these tests are about what one load does (test/lifecycle.test.ts tests retries).
function dashboard(options: Partial<DashboardEmbedOptions> = {}) {
  return track(embedDashboard({ container: '#c', baseUrl: BASE, publicId: 'sales', session: minting(), retry: false, ...options }));
}

/** Waits for the iframe of the current load and returns its window. */
async function mounted(h: EmbedHandle): Promise<Window> {
  await flush();
  expect(h.iframe, 'the iframe should be mounted').not.toBeNull();
  return h.iframe!.contentWindow!;
}

/** Mounts, spies on the iframe's postMessage, and makes the embed ready. */
async function ready(h: EmbedHandle) {
  const win = await mounted(h);
  const post = spyPost(win);
  deliver(envelope('ready', READY), win);
  return { win, post };
}

const types = (post: PostSpy) => post.mock.calls.map(([m]) => (m as { type: string }).type);

/** Another iframe on the page, not managed by the SDK (e.g. a second tenant frame or an ad). */
function foreignFrame(): Window {
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  return frame.contentWindow!;
}

beforeEach(() => {
  document.body.innerHTML = '<div id="c"></div><div id="d"></div>';
});

afterEach(() => {
  for (const h of handles) h.destroy();
  handles = [];
  vi.useRealTimers();
  vi.restoreAllMocks();
  expect(listenerCount()).toBe(0);
});

describe('mounting', () => {
  test('creates one iframe in the container with the signed URL and default attributes', async () => {
    const h = dashboard({ allowExport: true });
    expect(h.iframe).toBeNull();
    expect(h.getState()).toEqual({ status: 'loading', error: null, ready: null });
    await mounted(h);
    const frames = document.querySelectorAll('#c iframe');
    expect(frames).toHaveLength(1);
    expect(frames[0]).toBe(h.iframe);
    expect(h.iframe!.src).toBe('https://tenant.example/embed/dashboard/sales?session=sess-' + sessions + '&allowExport=true');
    expect(h.iframe!.title).toBe('Analytics dashboard');
    // jsdom does not reflect `allow` to the attribute as browsers do; the property is what the SDK sets.
    expect((h.iframe as HTMLIFrameElement & { allow: string }).allow).toBe('fullscreen; clipboard-write');
    expect(h.iframe!.getAttribute('sandbox')).toBeNull();
    expect(h.iframe!.style.cssText).toContain('width: 100%');
    expect(h.surface).toBe('dashboard');
    expect(h.origin).toBe(BASE);
  });

  test('iframe options are applied', async () => {
    const container = document.getElementById('d')!;
    const h = dashboard({
      container,
      title: 'Sales',
      allow: 'fullscreen',
      sandbox: 'allow-scripts allow-same-origin allow-popups',
      referrerPolicy: 'no-referrer',
      loading: 'lazy',
      className: 'embed big',
      style: 'height: 600px',
    });
    await mounted(h);
    const f = container.querySelector('iframe')!;
    expect(f).toBe(h.iframe);
    const g = f as HTMLIFrameElement & { allow: string; loading: string };
    expect([g.title, g.allow, g.getAttribute('sandbox'), g.referrerPolicy, g.loading, g.className, g.style.height]).toEqual([
      'Sales',
      'fullscreen',
      'allow-scripts allow-same-origin allow-popups',
      'no-referrer',
      'lazy',
      'embed big',
      '600px',
    ]);
  });

  test.each([
    [
      'chat, signed',
      () => embedChat({ container: '#c', baseUrl: BASE, session: 'chat-s1' }),
      'https://tenant.example/embed/chat?sessionId=chat-s1',
      'Analytics chat',
    ],
    ['chat, private', () => embedChat({ container: '#c', baseUrl: BASE }), 'https://tenant.example/embed/chat', 'Analytics chat'],
    [
      'dashboard, private',
      () => embedDashboard({ container: '#c', baseUrl: BASE, publicId: 'p' }),
      'https://tenant.example/embed/dashboard/p',
      'Analytics dashboard',
    ],
    [
      'app',
      () => embedApp({ container: '#c', baseUrl: BASE, deploymentId: 9, session: async () => ({ sessionId: 'app-s1' }) }),
      'https://tenant.example/embed/d/9/app?session=app-s1',
      'Analytics app',
    ],
  ])('%s', async (_what, create, src, title) => {
    const h = track(create());
    await mounted(h);
    expect(h.iframe!.src).toBe(src);
    expect(h.iframe!.title).toBe(title);
  });

  test('a container detached from the document gives a no-container error, no iframe and no listener', async () => {
    const detached = document.createElement('div');
    const h = dashboard({ container: detached });
    await flush();
    expect(h.getState().status).toBe('error');
    expect(h.error?.code).toBe('no-container');
    expect(h.iframe).toBeNull();
    expect(detached.querySelector('iframe')).toBeNull();
    expect(listenerCount()).toBe(0);
  });
});

describe('option validation (thrown synchronously, nothing mounted)', () => {
  const base = { container: '#c', baseUrl: BASE, publicId: 'p', session: 's' };
  test.each<[string, Record<string, unknown>, string, RegExp]>([
    ['http baseUrl', { baseUrl: 'http://tenant.example' }, 'invalid-option', /baseUrl/],
    ['star baseUrl', { baseUrl: '*' }, 'invalid-option', /baseUrl/],
    ['empty baseUrl', { baseUrl: '' }, 'invalid-option', /baseUrl/],
    ['missing baseUrl', { baseUrl: undefined }, 'invalid-option', /baseUrl/],
    [
      'selector not found',
      { container: '#nope' },
      'no-container',
      /container "#nope" matches no element: render it before embedding, or pass the element itself/,
    ],
    ['missing container', { container: undefined }, 'no-container', /container/],
    ['container not an element', { container: {} }, 'no-container', /container/],
    [
      'sandbox without allow-same-origin',
      { sandbox: 'allow-scripts' },
      'invalid-option',
      /"sandbox" must be string with allow-scripts and allow-same-origin when present \(got "allow-scripts"\)/,
    ],
    ['sandbox without allow-scripts', { sandbox: 'allow-same-origin' }, 'invalid-option', /sandbox/],
    ['empty sandbox', { sandbox: '' }, 'invalid-option', /sandbox/],
    ['sandbox with look-alike tokens', { sandbox: 'allow-scripts-x allow-same-origin-x' }, 'invalid-option', /sandbox/],
    ['allowExport as a string', { allowExport: 'true' }, 'invalid-option', /"allowExport" must be boolean when present \(got "true"\)/],
    ['showDashboardHeader as 0', { showDashboardHeader: 0 }, 'invalid-option', /showDashboardHeader/],
    [
      'bad time grain',
      { timeGrains: { 'orders.created_at': 'Month' } },
      'invalid-option',
      /timeGrains: "orders.created_at" must be second\|minute/,
    ],
    ['bad filter member', { filters: { orders: { value: 1 } } }, 'invalid-option', /<semantic_view>.<dimension>/],
    ['empty publicId', { publicId: '' }, 'invalid-option', /publicId/],
    ['empty locale', { locale: '' }, 'invalid-option', /locale/],
    ['session of a wrong type', { session: 42 }, 'invalid-option', /"session" must be non-empty string\|function when present \(got 42\)/],
    ['empty session string', { session: '' }, 'invalid-option', /session/],
    ['negative readyTimeout', { readyTimeout: -1 }, 'invalid-option', /readyTimeout/],
    ['NaN readyTimeout', { readyTimeout: NaN }, 'invalid-option', /readyTimeout/],
    ['readyTimeout as a string', { readyTimeout: '5s' }, 'invalid-option', /readyTimeout/],
    ['debug neither boolean nor function', { debug: 'yes' }, 'invalid-option', /debug/],
    ['onDiagnostic not a function', { onDiagnostic: 'log' }, 'invalid-option', /onDiagnostic/],
  ])('%s', (_what, override, code, message) => {
    // Should it not throw, the handle is destroyed at once so that its load cannot disturb later tests.
    const error = thrown(() => track(embedDashboard({ ...base, ...override } as unknown as DashboardEmbedOptions)).destroy());
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(document.querySelector('iframe')).toBeNull();
    expect(listenerCount()).toBe(0);
  });

  test('app without a session', () => {
    const error = thrown(() =>
      track(embedApp({ container: '#c', baseUrl: BASE, deploymentId: 1 } as unknown as Parameters<typeof embedApp>[0])),
    );
    expect(error.code).toBe('invalid-option');
    expect(error.message).toContain('"session" must be signed session id (the app surface has no private mode) (got undefined)');
  });

  test('a session given as a string is not echoed in option errors', () => {
    const error = thrown(() =>
      track(embedDashboard({ ...base, session: 'SECRET-SESSION', allowExport: 'yes' } as unknown as DashboardEmbedOptions)),
    );
    expect(error.message).not.toContain('SECRET-SESSION');
  });
});

describe('rule 1: who sent it, before what it says', () => {
  test('a message from a window that is not ours: neither origin nor data is read', async () => {
    const onDiagnostic = vi.fn();
    const h = dashboard({ onDiagnostic });
    await mounted(h);
    const onAny = vi.fn();
    h.on('*', onAny);
    for (const source of [foreignFrame(), window, null]) {
      const event = new MessageEvent('message', { source });
      const reads = { data: 0, origin: 0 };
      Object.defineProperty(event, 'data', { get: () => (reads.data++, envelope('ready', READY)) });
      Object.defineProperty(event, 'origin', { get: () => (reads.origin++, BASE) });
      window.dispatchEvent(event);
      expect(reads).toEqual({ data: 0, origin: 0 });
    }
    expect(onAny).not.toHaveBeenCalled();
    expect(onDiagnostic).not.toHaveBeenCalled();
  });

  test('our window with the wrong origin: origin is read, data is not', async () => {
    const onDiagnostic = vi.fn();
    const h = dashboard({ onDiagnostic });
    const win = await mounted(h);
    const event = new MessageEvent('message', { source: win, origin: 'https://evil.example' });
    let reads = 0;
    Object.defineProperty(event, 'data', { get: () => (reads++, envelope('ready', READY)) });
    window.dispatchEvent(event);
    expect(reads).toBe(0);
    expect(onDiagnostic).toHaveBeenCalledWith({ kind: 'origin-mismatch', origin: 'https://evil.example' });
    expect(h.getState().status).toBe('loading');
  });

  test('positive control: our window and origin, data is read and ready handled', async () => {
    const h = dashboard();
    const win = await mounted(h);
    const event = new MessageEvent('message', { source: win, origin: BASE });
    let reads = 0;
    Object.defineProperty(event, 'data', { get: () => (reads++, envelope('ready', READY)) });
    window.dispatchEvent(event);
    expect(reads).toBeGreaterThan(0);
    expect(h.getState().status).toBe('ready');
  });
});

describe('rules 2 and 3: both checks, exact origins', () => {
  test.each([
    'https://evil.example',
    'https://tenant.example.evil.example',
    'https://eviltenant.example',
    'https://tenant.example:8443',
    'https://tenant.example:443',
    'http://tenant.example',
    'https://TENANT.example',
    'https://tenant.example/',
    'https://tenant.exampl',
    'null',
    '',
  ])('same window, origin %j: ignored with an origin-mismatch diagnostic', async (origin) => {
    const onDiagnostic = vi.fn();
    const h = dashboard({ onDiagnostic });
    const win = await mounted(h);
    const onReady = vi.fn();
    const onAny = vi.fn();
    h.on('ready', onReady);
    h.on('*', onAny);
    deliver(envelope('ready', READY), win, origin);
    expect(onReady).not.toHaveBeenCalled();
    expect(onAny).not.toHaveBeenCalled();
    expect(h.getState().status).toBe('loading');
    expect(onDiagnostic.mock.calls).toEqual([[{ kind: 'origin-mismatch', origin }]]);
  });

  test('the origin is compared after normalizing the configured baseUrl', async () => {
    const h = dashboard({ baseUrl: 'https://Tenant.Example:443/some/path' });
    const win = await mounted(h);
    deliver(envelope('ready', READY), win, 'https://tenant.example');
    expect(h.getState().status).toBe('ready');
  });

  test('right origin, wrong window (another iframe of the same tenant): ignored', async () => {
    const onDiagnostic = vi.fn();
    const h = dashboard({ onDiagnostic });
    await mounted(h);
    const onAny = vi.fn();
    h.on('*', onAny);
    deliver(envelope('ready', READY), foreignFrame());
    deliver(envelope('ready', READY), window);
    expect(onAny).not.toHaveBeenCalled();
    expect(h.getState().status).toBe('loading');
    expect(onDiagnostic).not.toHaveBeenCalled();
  });

  test('two embeds of the same tenant: each message reaches only its own handle', async () => {
    const a = dashboard();
    const b = dashboard({ container: '#d', publicId: 'other' });
    const [winA, winB] = [await mounted(a), await mounted(b)];
    expect(winA).not.toBe(winB);
    expect(listenerCount()).toBe(2);
    const onA = vi.fn();
    const onB = vi.fn();
    a.on('view', onA);
    b.on('view', onB);
    deliver(envelope('view', { surface: 'dashboard', path: '/a' }), winA);
    deliver(envelope('view', { surface: 'dashboard', path: '/b' }), winB);
    deliver(envelope('view', { surface: 'dashboard', path: '/b2' }), winB);
    expect(onA.mock.calls.map(([p]) => p.path)).toEqual(['/a']);
    expect(onB.mock.calls.map(([p]) => p.path)).toEqual(['/b', '/b2']);
  });

  test('two embeds of different tenants: a message from B with A’s origin is dropped by B', async () => {
    const onDiagnostic = vi.fn();
    const a = dashboard();
    const b = dashboard({ container: '#d', baseUrl: 'https://other.example', onDiagnostic });
    await mounted(a);
    const winB = await mounted(b);
    deliver(envelope('ready', READY), winB, BASE);
    expect(b.getState().status).toBe('loading');
    expect(a.getState().status).toBe('loading');
    expect(onDiagnostic).toHaveBeenCalledWith({ kind: 'origin-mismatch', origin: BASE });
  });
});

describe('rules 4 and 5: the envelope is data, typed handlers get typed payloads', () => {
  test('a valid event reaches its typed handler with payload and envelope, then the catch-all', async () => {
    const h = dashboard();
    const win = await mounted(h);
    const calls: string[] = [];
    const onDownload = vi.fn(() => calls.push('download'));
    const onAny = vi.fn(() => calls.push('*'));
    h.on('*', onAny);
    h.on('download', onDownload);
    const data = envelope('download', { format: 'csv', target: 'widget', widgetId: 'w1', rowCount: 3, future: 'kept' });
    deliver(data, win);
    expect(onDownload).toHaveBeenCalledExactlyOnceWith(data.payload, data);
    expect(onAny).toHaveBeenCalledExactlyOnceWith(data);
    expect(calls).toEqual(['download', '*']);
  });

  test('the full type string subscribes to the same event', async () => {
    const h = dashboard();
    const win = await mounted(h);
    const fn = vi.fn();
    h.on('platform:event:navigate', fn);
    deliver(envelope('navigate', { path: '/x' }), win);
    expect(fn).toHaveBeenCalledOnce();
    h.off('navigate', fn);
    deliver(envelope('navigate', { path: '/y' }), win);
    expect(fn).toHaveBeenCalledOnce();
  });

  test.each<[string, unknown, RegExp]>([
    ['download with a wrong enum', envelope('download', { format: 'CSV', target: 'widget' }), /"format"/],
    ['navigate without path', envelope('navigate', {}), /"path"/],
    ['dashboard-loaded with a negative count', envelope('dashboard-loaded', { widgetCount: -1 }), /"widgetCount"/],
    ['error with a string fatal', envelope('error', { message: 'x', fatal: 'true' }), /"fatal"/],
    ['our own action echoed back', { ...envelope('navigate', { path: '/x' }), direction: 'action' }, /"direction"/],
    ['a wrong source', { ...envelope('navigate', { path: '/x' }), source: 'other-sdk' }, /"source"/],
    ['a NaN timestamp', { ...envelope('navigate', { path: '/x' }), timestamp: NaN }, /"timestamp"/],
    ['no surface', { ...envelope('navigate', { path: '/x' }), surface: undefined }, /"surface"/],
    ['a string', 'platform:event:ready', /not an object/],
    ['null', null, /not an object/],
    ['an array', [envelope('navigate', { path: '/x' })], /not an object/],
  ])('%s: no handler, an invalid-message diagnostic with the reason', async (_what, data, reason) => {
    const diagnostics: Diagnostic[] = [];
    const h = dashboard({ onDiagnostic: (d) => diagnostics.push(d) });
    const win = await mounted(h);
    const typed = vi.fn();
    const onAny = vi.fn();
    for (const name of ['download', 'navigate', 'dashboard-loaded', 'error', 'ready'] as const) h.on(name, typed);
    h.on('*', onAny);
    expect(() => deliver(data, win)).not.toThrow();
    expect(typed).not.toHaveBeenCalled();
    expect(onAny).not.toHaveBeenCalled();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ kind: 'invalid-message', reason: expect.stringMatching(reason) });
    expect(h.getState().status).toBe('loading');
  });

  test('a well-formed unknown event type reaches only the catch-all, untyped', async () => {
    const onDiagnostic = vi.fn();
    const h = dashboard({ onDiagnostic });
    const win = await mounted(h);
    const typed = vi.fn();
    const onAny = vi.fn();
    h.on('view', typed);
    h.on('*', onAny);
    const data = envelope('widget-hover', { widgetId: 'w1' });
    deliver(data, win);
    expect(onAny).toHaveBeenCalledExactlyOnceWith(data);
    expect(typed).not.toHaveBeenCalled();
    expect(onDiagnostic).not.toHaveBeenCalled();
  });
});

describe('rule 6: no prototype games', () => {
  test.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'event type platform:event:%s is just an unknown type',
    async (name) => {
      const h = dashboard();
      const win = await mounted(h);
      const onAny = vi.fn();
      h.on('*', onAny);
      expect(() => deliver(envelope(name, { x: 1 }), win)).not.toThrow();
      expect(onAny).toHaveBeenCalledOnce();
    },
  );

  test.each<unknown>(['__proto__', 'constructor', 'toString', 'platform:event:__proto__', 'clicked', '', ['ready'], 7, Symbol('ready')])(
    'on(%s) is refused: not a known event',
    (name) => {
      const h = dashboard();
      const error = thrown(() => h.on(name as 'view', () => {}));
      expect(error.code).toBe('invalid-option');
      expect(error.message).toContain('unknown event');
    },
  );

  test('a handler that is not a function is refused', () => {
    const h = dashboard();
    expect(thrown(() => h.on('view', 'nope' as never)).message).toContain('handler must be a function');
  });

  test('a payload with a "__proto__" key does not pollute anything', async () => {
    const h = dashboard();
    const win = await mounted(h);
    const fn = vi.fn();
    h.on('drilldown', fn);
    const data = JSON.parse(
      '{"source":"platform-embed","direction":"event","type":"platform:event:drilldown","timestamp":1,"surface":"dashboard","payload":{"member":"m","__proto__":{"polluted":true}}}',
    );
    deliver(data, win);
    expect(fn).toHaveBeenCalledOnce();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(h.getState()).not.toHaveProperty('polluted');
  });
});

describe('rule 7: send only to the tenant origin, never before ready', () => {
  test('actions before ready are queued and flushed in order, to the exact tenant origin; state-setting ones keep their last value', async () => {
    const h = dashboard({ baseUrl: 'https://Tenant.Example:443/path' });
    h.setColorScheme('dark');
    const win = await mounted(h);
    const post = spyPost(win);
    h.setTheme({ primaryColor: '#7c5cff', borderRadius: 8 });
    h.setLocale('es-MX');
    h.setFilter('orders', 'status', { value: 'completed' });
    h.setFilter('f_orders.region={"value":"EU"}');
    h.navigate('/d/1');
    h.refresh();
    h.send('platform:action:set-locale', { locale: 'fr' });
    expect(post).not.toHaveBeenCalled();
    deliver(envelope('ready', READY), win);
    // The host state first (the locale set last wins: sending es-MX first would be wasted), then the rest in order.
    expect(types(post)).toEqual([
      'platform:action:set-color-scheme',
      'platform:action:set-theme',
      'platform:action:set-locale',
      'platform:action:set-filter',
      'platform:action:set-filter',
      'platform:action:navigate',
      'platform:action:refresh',
    ]);
    expect(post.mock.calls.map(([, target]) => target)).toEqual(Array(7).fill('https://tenant.example'));
    expect(post.mock.calls.map(([m]) => (m as { payload: unknown }).payload)).toEqual([
      { scheme: 'dark' },
      { primaryColor: '#7c5cff', borderRadius: 8 },
      { locale: 'fr' },
      { filterUrlParameter: 'f_orders.status={"value":"completed"}' },
      { filterUrlParameter: 'f_orders.region={"value":"EU"}' },
      { path: '/d/1' },
      {},
    ]);
    for (const [m] of post.mock.calls)
      expect(m).toMatchObject({ source: 'platform-embed', direction: 'action', timestamp: expect.any(Number) });
    for (const [m] of post.mock.calls) expect(m).not.toHaveProperty('surface');
  });

  test('after ready, actions go out at once', async () => {
    const h = dashboard();
    const { post } = await ready(h);
    h.navigate('/now');
    expect(post).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ type: 'platform:action:navigate', payload: { path: '/now' } }),
      BASE,
    );
  });

  test('queued actions go out before ready handlers run, so a handler’s action comes after them', async () => {
    const h = dashboard();
    h.navigate('/queued');
    const win = await mounted(h);
    const post = spyPost(win);
    h.on('ready', () => h.refresh());
    deliver(envelope('ready', READY), win);
    expect(types(post)).toEqual(['platform:action:navigate', 'platform:action:refresh']);
  });

  test('queued actions go out before state listeners run, so a listener’s action comes after them', async () => {
    const h = dashboard();
    h.navigate('/queued');
    const win = await mounted(h);
    const post = spyPost(win);
    h.subscribe((s) => s.status == 'ready' && h.refresh());
    deliver(envelope('ready', READY), win);
    expect(types(post)).toEqual(['platform:action:navigate', 'platform:action:refresh']);
  });

  test('an invalid action throws before anything is sent or queued', async () => {
    const h = dashboard();
    const win = await mounted(h);
    const post = spyPost(win);
    expect(thrown(() => h.send('set-color-scheme', { scheme: 'DARK' } as never)).code).toBe('invalid-action');
    expect(thrown(() => h.setLocale('')).code).toBe('invalid-action');
    expect(thrown(() => (h.send as (type: string) => void)('reload')).code).toBe('invalid-action');
    expect(thrown(() => h.setFilter('orders', 'sta.tus', { value: 1 })).code).toBe('invalid-option');
    expect(thrown(() => h.setFilter('status=done')).code).toBe('invalid-action');
    h.refresh();
    deliver(envelope('ready', READY), win);
    expect(types(post)).toEqual(['platform:action:refresh']);
    expect(thrown(() => h.setColorScheme('sepia' as never)).code).toBe('invalid-action');
    expect(post).toHaveBeenCalledOnce();
  });

  test('the queued payload is a copy: changing the caller’s object later changes nothing', async () => {
    const h = dashboard();
    const theme = { primaryColor: 'red' };
    h.setTheme(theme);
    theme.primaryColor = 'blue';
    const { post } = await ready(h);
    expect(post.mock.calls[0]![0]).toMatchObject({ payload: { primaryColor: 'red' } });
  });

  test('nothing is posted while loading after an error until the next ready', async () => {
    const h = dashboard();
    const { win, post } = await ready(h);
    deliver(envelope('error', { message: 'down', fatal: true }), win);
    h.refresh();
    expect(post).not.toHaveBeenCalled();
  });
});

describe('rule 8: a host’s bug stays the host’s', () => {
  test('a throwing handler does not stop the others or later messages; it is reported', async () => {
    const diagnostics: Diagnostic[] = [];
    const h = dashboard({ onDiagnostic: (d) => diagnostics.push(d) });
    const win = await mounted(h);
    const boom = new Error('host bug');
    const after = vi.fn();
    const onAny = vi.fn();
    h.on('view', () => {
      throw boom;
    });
    h.on('view', after);
    h.on('*', onAny);
    h.subscribe(() => {
      throw boom;
    });
    expect(() => deliver(envelope('view', { surface: 'dashboard', path: '/1' }), win)).not.toThrow();
    deliver(envelope('view', { surface: 'dashboard', path: '/2' }), win);
    expect(after).toHaveBeenCalledTimes(2);
    expect(onAny).toHaveBeenCalledTimes(2);
    expect(diagnostics).toEqual([
      { kind: 'handler-error', type: 'platform:event:view', error: boom },
      { kind: 'handler-error', type: 'platform:event:view', error: boom },
    ]);
    deliver(envelope('ready', READY), win);
    expect(h.getState().status).toBe('ready');
    expect(diagnostics.at(-1)).toEqual({ kind: 'handler-error', type: 'state', error: boom });
  });

  test('without onDiagnostic a throwing handler is logged with console.error', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const h = dashboard({ onDiagnostic: undefined });
    const win = await mounted(h);
    const boom = new Error('host bug');
    h.on('ready', () => {
      throw boom;
    });
    deliver(envelope('ready', READY), win);
    expect(error).toHaveBeenCalledWith('[platform-embed] handler threw', boom);
    expect(h.getState().status).toBe('ready');
  });

  test('an onDiagnostic that throws does not stop the other handlers or later messages', async () => {
    // What escapes a message listener is reported by the browser as an uncaught error; catch that report here.
    const escaped: unknown[] = [];
    const onWindowError = (e: ErrorEvent) => (escaped.push(e.error), e.preventDefault());
    window.addEventListener('error', onWindowError);
    // A throwing onDiagnostic is itself reported with console.error (it cannot report itself).
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const bug = new Error('diagnostic hook bug');
    try {
      const h = dashboard({
        onDiagnostic: () => {
          throw bug;
        },
      });
      const win = await mounted(h);
      const after = vi.fn();
      h.on('view', () => {
        throw new Error('host bug');
      });
      h.on('view', after);
      deliver(envelope('view', { surface: 'dashboard', path: '/' }), win);
      expect(after).toHaveBeenCalledOnce();
      deliver('garbage', win);
      deliver(envelope('ready', READY), win);
      expect(h.getState().status).toBe('ready');
      // The view handler's throw and the garbage message, each a diagnostic that threw.
      expect(error.mock.calls).toEqual([
        ['[platform-embed] handler threw', bug],
        ['[platform-embed] handler threw', bug],
      ]);
    } finally {
      window.removeEventListener('error', onWindowError);
    }
  });
});

describe('ready', () => {
  test('the ready promise resolves with the payload; state carries it', async () => {
    const h = dashboard();
    const promise = h.ready;
    await ready(h);
    await expect(promise).resolves.toEqual(READY);
    expect(h.getState()).toEqual({ status: 'ready', error: null, ready: READY });
  });

  test('ready is sticky: a late on/once handler is called at once, once', async () => {
    const h = dashboard();
    const { win } = await ready(h);
    const late = vi.fn();
    const lateOnce = vi.fn();
    h.on('ready', late);
    h.once('platform:event:ready', lateOnce);
    expect(late).toHaveBeenCalledExactlyOnceWith(READY, expect.objectContaining({ type: 'platform:event:ready' }));
    expect(lateOnce).toHaveBeenCalledOnce();
    deliver(envelope('ready', READY), win);
    expect(late).toHaveBeenCalledTimes(2);
    expect(lateOnce).toHaveBeenCalledOnce();
  });

  test('once: called for the first matching event only', async () => {
    const h = dashboard();
    const win = await mounted(h);
    const fn = vi.fn();
    h.once('view', fn);
    deliver(envelope('view', { surface: 'dashboard', path: '/1' }), win);
    deliver(envelope('view', { surface: 'dashboard', path: '/2' }), win);
    expect(fn.mock.calls.map(([p]) => p.path)).toEqual(['/1']);
  });

  test('the unsubscribe returned by on removes the handler', async () => {
    const h = dashboard();
    const win = await mounted(h);
    const fn = vi.fn();
    const off = h.on('navigate', fn);
    off();
    deliver(envelope('navigate', { path: '/1' }), win);
    expect(fn).not.toHaveBeenCalled();
  });

  test('readyTimeout: no ready in time gives the timeout error state', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const h = dashboard({ readyTimeout: 1000 });
    const promise = h.ready;
    await mounted(h);
    vi.advanceTimersByTime(999);
    expect(h.getState().status).toBe('loading');
    vi.advanceTimersByTime(1);
    expect(h.getState().status).toBe('error');
    expect(h.error?.code).toBe('timeout');
    await expect(promise).rejects.toMatchObject({ code: 'timeout' });
  });

  test('readyTimeout: ready in time clears the timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const h = dashboard({ readyTimeout: 1000 });
    await ready(h);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(h.getState().status).toBe('ready');
  });

  test('readyTimeout defaults to 30 s; 0 waits forever', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const a = dashboard();
    await mounted(a);
    vi.advanceTimersByTime(29_999);
    expect(a.getState().status).toBe('loading');
    vi.advanceTimersByTime(1);
    expect(a.error?.code).toBe('timeout');
    const b = dashboard({ container: '#d', readyTimeout: 0 });
    await mounted(b);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('a readyTimeout longer than setTimeout can wait (2^31-1 ms) waits forever, not 1 ms', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const h = dashboard({ readyTimeout: 2 ** 31 + 5 });
    await mounted(h);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(h.getState().status).toBe('loading');
  });

  test('a fatal error event gives the fatal error state; the error handler still runs', async () => {
    const h = dashboard();
    const { win } = await ready(h);
    const onError = vi.fn();
    h.on('error', onError);
    deliver(envelope('error', { message: 'session expired', fatal: true }), win);
    expect(h.getState().status).toBe('error');
    expect(h.error).toBeInstanceOf(EmbedError);
    expect(h.error?.code).toBe('fatal');
    expect(h.error?.message).toContain('session expired');
    expect(onError).toHaveBeenCalledExactlyOnceWith({ message: 'session expired', fatal: true }, expect.anything());
  });

  test('a fatal error before ready rejects the ready promise', async () => {
    const h = dashboard();
    const win = await mounted(h);
    deliver(envelope('error', { message: 'bad session', fatal: true }), win);
    await expect(h.ready).rejects.toMatchObject({ code: 'fatal' });
  });

  test('a non-fatal error event leaves the state alone', async () => {
    const h = dashboard();
    const { win } = await ready(h);
    deliver(envelope('error', { message: 'widget failed', fatal: false }), win);
    deliver(envelope('error', { message: 'widget failed' }), win);
    expect(h.getState().status).toBe('ready');
  });
});

describe('state snapshots and subscribe', () => {
  test('each change is a new snapshot, stable in between; listeners see every change', async () => {
    const h = dashboard();
    const seen: EmbedState[] = [];
    const unsubscribe = h.subscribe((s) => seen.push(s));
    const first = h.getState();
    expect(h.getState()).toBe(first);
    await ready(h);
    const second = h.getState();
    expect(second === first).toBe(false);
    expect(h.getState()).toBe(second);
    const reloaded = h.reload();
    await ready(h);
    await reloaded;
    expect(seen.map((s) => s.status)).toEqual(['ready', 'loading', 'ready']);
    expect(seen[0]).toBe(second);
    unsubscribe();
    h.destroy();
    expect(seen).toHaveLength(3);
  });

  test('a listener that changes the state re-entrantly: the listeners after it end on the current state', async () => {
    const h = dashboard();
    const { win } = await ready(h);
    const seen: string[] = [];
    h.subscribe((s) => s.status == 'error' && void h.reload());
    h.subscribe((s) => seen.push(s.status));
    deliver(envelope('error', { message: 'expired', fatal: true }), win);
    expect(h.getState().status).toBe('loading');
    expect(seen.at(-1)).toBe('loading');
    expect(seen).not.toContain('error');
  });

  test('destroy notifies listeners once with destroyed, then forgets them', () => {
    const h = dashboard();
    const fn = vi.fn();
    h.subscribe(fn);
    h.destroy();
    h.destroy();
    expect(fn).toHaveBeenCalledOnce();
    expect(fn.mock.calls[0]![0]).toEqual({ status: 'destroyed', error: null, ready: null });
  });
});

describe('sessions', () => {
  test('reload() asks the session function again and mounts a new iframe', async () => {
    const session = minting();
    const h = dashboard({ session });
    const { win: first } = await ready(h);
    const oldFrame = h.iframe!;
    const promise = h.reload();
    expect(h.getState().status).toBe('loading');
    expect(oldFrame.isConnected).toBe(false);
    const second = await mounted(h);
    expect(session).toHaveBeenCalledTimes(2);
    expect(h.iframe).not.toBe(oldFrame);
    expect(second === first).toBe(false);
    expect(h.iframe!.src).toMatch(/session=sess-\d+$/);
    expect(h.iframe!.src).not.toBe(oldFrame.src);
    expect(document.querySelectorAll('iframe')).toHaveLength(1);
    expect(listenerCount()).toBe(1);
    // The old window is no longer ours.
    const onAny = vi.fn();
    h.on('*', onAny);
    deliver(envelope('ready', READY), first);
    expect(onAny).not.toHaveBeenCalled();
    deliver(envelope('ready', READY), second);
    await expect(promise).resolves.toEqual(READY);
  });

  test('after reload, a new ready handler waits for the new load’s ready', async () => {
    const h = dashboard();
    await ready(h);
    h.reload();
    const win = await mounted(h);
    const fn = vi.fn();
    h.on('ready', fn);
    expect(fn).not.toHaveBeenCalled();
    expect(h.getState().ready).toBeNull();
    deliver(envelope('ready', { ...READY, mode: 'private' }), win);
    expect(fn).toHaveBeenCalledExactlyOnceWith({ ...READY, mode: 'private' }, expect.anything());
  });

  test('a ready promise superseded by reload() still settles', async () => {
    const h = dashboard();
    const first = h.ready;
    const settled = vi.fn();
    first.then(settled, settled);
    await mounted(h);
    h.reload();
    await ready(h);
    await flush();
    expect(settled).toHaveBeenCalledOnce();
  });

  test('reload(session) uses the given session', async () => {
    const h = dashboard();
    await mounted(h);
    h.reload('given-1');
    await mounted(h);
    expect(h.iframe!.src).toBe('https://tenant.example/embed/dashboard/sales?session=given-1');
  });

  test('a session function may return generate-session’s { sessionId } body', async () => {
    const h = dashboard({ session: () => ({ sessionId: 'body-1' }) });
    await mounted(h);
    expect(h.iframe!.src).toBe('https://tenant.example/embed/dashboard/sales?session=body-1');
  });

  test('a session function returning the same id twice: error state with code session, no second load', async () => {
    const session = vi.fn(() => 'same-id');
    const h = dashboard({ session });
    await ready(h);
    const promise = h.reload();
    await flush();
    expect(session).toHaveBeenCalledTimes(2);
    expect(h.getState().status).toBe('error');
    expect(h.error?.code).toBe('session');
    expect(h.error?.message).toContain('single-use');
    expect(h.error?.message).not.toContain('same-id');
    expect(h.iframe).toBeNull();
    expect(document.querySelector('iframe')).toBeNull();
    expect(listenerCount()).toBe(0);
    await expect(promise).rejects.toMatchObject({ code: 'session' });
  });

  test('a string session and reload(): error state with code session, no iframe load', async () => {
    const h = dashboard({ session: 'one-shot' });
    await ready(h);
    h.reload();
    await flush();
    expect(h.error?.code).toBe('session');
    expect(document.querySelector('iframe')).toBeNull();
  });

  test('private mode reloads without a session', async () => {
    const h = track(embedChat({ container: '#c', baseUrl: BASE }));
    await mounted(h);
    h.reload();
    await mounted(h);
    expect(h.iframe!.src).toBe('https://tenant.example/embed/chat');
    expect(h.getState().status).toBe('loading');
  });

  test.each<[string, () => unknown]>([
    [
      'throws',
      () => {
        throw new Error('backend down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('backend down'))],
    ['rejects with a non-error', () => Promise.reject('nope')],
    ['returns an empty string', async () => ''],
    ['returns undefined', async () => undefined],
    ['returns an object without sessionId', async () => ({})],
    ['returns a number', async () => 42],
  ])('a session function that %s: error state with code session, no iframe, no unhandled rejection', async (_what, fn) => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const h = dashboard({ session: fn as () => string });
      await flush();
      expect(h.getState().status).toBe('error');
      expect(h.error).toBeInstanceOf(EmbedError);
      expect(h.error?.code).toBe('session');
      expect(h.getState().error).toBe(h.error);
      expect(h.iframe).toBeNull();
      expect(document.querySelector('iframe')).toBeNull();
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  test('a session function returning blank white space is a session error', async () => {
    const h = dashboard({ session: async () => '   ' });
    await flush();
    expect(h.getState().status).toBe('error');
    expect(h.error?.code).toBe('session');
  });

  test('the session error keeps the cause', async () => {
    const cause = new Error('backend down');
    const h = dashboard({ session: () => Promise.reject(cause) });
    await flush();
    expect(h.error?.cause).toBe(cause);
  });

  test('no unhandled rejection when destroyed before ready, or on timeout, with nobody awaiting ready', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const a = dashboard();
      await mounted(a);
      a.destroy();
      const b = dashboard({ readyTimeout: 1 });
      await mounted(b);
      await new Promise((r) => setTimeout(r, 30));
      expect(b.error?.code).toBe('timeout');
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  test('the session function gets an AbortSignal that aborts on reload and on destroy', async () => {
    const signals: AbortSignal[] = [];
    const h = dashboard({ session: ({ signal }) => (signals.push(signal), `s-${signals.length}`) });
    await mounted(h);
    h.reload();
    await mounted(h);
    expect(signals).toHaveLength(2);
    expect(signals.map((s) => s.aborted)).toEqual([true, false]);
    h.destroy();
    expect(signals[1]!.aborted).toBe(true);
  });

  test('a session that resolves after destroy mounts nothing', async () => {
    let resolve!: (id: string) => void;
    const h = dashboard({ session: () => new Promise<string>((r) => (resolve = r)) });
    await flush();
    h.destroy();
    resolve('late');
    await flush();
    expect(document.querySelector('iframe')).toBeNull();
    expect(listenerCount()).toBe(0);
  });

  test('a slow first session superseded by reload() does not mount', async () => {
    const resolvers: ((id: string) => void)[] = [];
    const h = dashboard({ session: () => new Promise<string>((r) => resolvers.push(r)) });
    await flush();
    h.reload();
    await flush();
    resolvers[1]!('second');
    resolvers[0]!('first');
    await flush();
    expect(document.querySelectorAll('iframe')).toHaveLength(1);
    expect(h.iframe!.src).toContain('session=second');
  });

  test('destroy in the same tick as mount never calls the session function (StrictMode)', async () => {
    const session = minting();
    const h = dashboard({ session });
    h.destroy();
    await flush();
    expect(session).not.toHaveBeenCalled();
    expect(document.querySelector('iframe')).toBeNull();
  });

  test('after reload, the host state comes back: scheme, theme and path as actions, locale and filters in the URL (and nothing else)', async () => {
    const h = dashboard();
    await ready(h);
    h.setColorScheme('dark');
    h.setColorScheme('light');
    h.setTheme({ primaryColor: '#111' });
    h.setLocale('fr');
    h.navigate('/x');
    h.refresh();
    h.setFilter('orders', 'status', { value: 1 });
    h.reload();
    const { post } = await ready(h);
    expect(post.mock.calls.map(([m]) => [(m as { type: string }).type, (m as { payload: unknown }).payload])).toEqual([
      ['platform:action:set-color-scheme', { scheme: 'light' }],
      ['platform:action:set-theme', { primaryColor: '#111' }],
      ['platform:action:navigate', { path: '/x' }],
    ]);
    const url = new URL(h.iframe!.src);
    expect(url.searchParams.get('locale')).toBe('fr');
    expect(url.searchParams.get('f_orders.status')).toBe('{"value":1}');
  });

  test('after reload, replayed settings come before actions queued since, and each goes once', async () => {
    const h = dashboard();
    await ready(h);
    h.setColorScheme('dark');
    h.reload();
    h.navigate('/after');
    h.reload();
    const { post } = await ready(h);
    expect(types(post)).toEqual(['platform:action:set-color-scheme', 'platform:action:navigate']);
  });

  test('reload() after destroy rejects with destroyed', async () => {
    const h = dashboard();
    h.destroy();
    await expect(h.reload()).rejects.toMatchObject({ code: 'destroyed' });
  });
});

describe('rule 9: leave nothing behind', () => {
  test('destroy() removes iframe, listener, timers; is idempotent; rejects ready', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const h = dashboard();
    const promise = h.ready;
    const win = await mounted(h);
    expect(listenerCount()).toBe(1);
    expect(vi.getTimerCount()).toBe(1);
    h.destroy();
    expect(() => h.destroy()).not.toThrow();
    expect(h.iframe).toBeNull();
    expect(document.querySelector('iframe')).toBeNull();
    expect(listenerCount()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(h.getState().status).toBe('destroyed');
    await expect(promise).rejects.toMatchObject({ code: 'destroyed' });
    const post = spyPost(win);
    deliver(envelope('ready', READY), win);
    expect(post).not.toHaveBeenCalled();
    expect(h.getState().status).toBe('destroyed');
  });

  test('the page message listener is removed with the last embed only', async () => {
    const add = vi.spyOn(window, 'addEventListener');
    const remove = vi.spyOn(window, 'removeEventListener');
    const a = dashboard();
    const b = dashboard({ container: '#d' });
    await mounted(a);
    await mounted(b);
    expect(add.mock.calls.filter(([t]) => t == 'message')).toHaveLength(1);
    a.destroy();
    expect(remove.mock.calls.filter(([t]) => t == 'message')).toHaveLength(0);
    b.destroy();
    expect(remove.mock.calls.filter(([t]) => t == 'message')).toHaveLength(1);
    expect(remove.mock.calls.find(([t]) => t == 'message')![1]).toBe(add.mock.calls.find(([t]) => t == 'message')![1]);
  });

  test('queued actions are dropped on destroy and send() after destroy throws', async () => {
    const h = dashboard();
    h.setColorScheme('dark');
    h.navigate('/x');
    const win = await mounted(h);
    const post = spyPost(win);
    h.destroy();
    deliver(envelope('ready', READY), win);
    expect(post).not.toHaveBeenCalled();
    expect(thrown(() => h.refresh()).code).toBe('destroyed');
    expect(thrown(() => h.setColorScheme('dark')).code).toBe('destroyed');
  });

  test('handlers registered after destroy are never called', async () => {
    const h = dashboard();
    await ready(h);
    h.destroy();
    const late = vi.fn();
    h.on('ready', late);
    h.on('view', late);
    expect(late).not.toHaveBeenCalled();
  });

  test('mount, destroy, mount again: one message, one handler call', async () => {
    const first = dashboard();
    const firstHandler = vi.fn();
    first.on('view', firstHandler);
    await mounted(first);
    first.destroy();
    const second = dashboard();
    const handler = vi.fn();
    second.on('view', handler);
    const win = await mounted(second);
    deliver(envelope('view', { surface: 'dashboard', path: '/' }), win);
    expect(handler).toHaveBeenCalledOnce();
    expect(firstHandler).not.toHaveBeenCalled();
    expect(listenerCount()).toBe(1);
  });

  test('many mount/destroy cycles leave no listener, iframe or timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    for (let i = 0; i < 20; i++) {
      const h = dashboard();
      if (i % 2) await mounted(h);
      h.destroy();
    }
    await flush();
    expect(listenerCount()).toBe(0);
    expect(document.querySelector('iframe')).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('rule 10: secrets stay secret', () => {
  test('debug: true logs through console.debug and never prints a session id', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let n = 0;
    const h = dashboard({ debug: true, session: () => `SECRET-${++n}` });
    const win = await mounted(h);
    h.setColorScheme('dark');
    deliver(envelope('ready', READY), win);
    deliver('garbage', win);
    deliver(envelope('ready', READY), win, 'https://evil.example');
    deliver(envelope('error', { message: 'expired: https://tenant.example/embed/dashboard/sales?session=SECRET-1', fatal: true }), win);
    h.reload();
    await mounted(h);
    h.on('view', () => {
      throw new Error('host bug');
    });
    deliver(envelope('view', { surface: 'dashboard', path: '/' }), h.iframe!.contentWindow);
    h.reload('SECRET-2'); // already used: a session error
    await flush();
    expect(h.error?.code).toBe('session');
    const logged = debug.mock.calls.map((args) =>
      args.map((a) => (a instanceof Error ? a.message : typeof a == 'string' ? a : JSON.stringify(a))).join(' '),
    );
    expect(logged.length).toBeGreaterThan(5);
    expect(logged.some((l) => l.includes('[redacted]'))).toBe(true);
    expect(logged.some((l) => l.startsWith('[platform-embed]'))).toBe(true);
    for (const line of logged) expect(line).not.toContain('SECRET');
    expect(h.error?.message).not.toContain('SECRET');
  });

  test('a debug function receives the logs', async () => {
    const debug = vi.fn();
    const h = dashboard({ debug, session: 'SECRET-X' });
    await ready(h);
    expect(debug).toHaveBeenCalled();
    expect(JSON.stringify(debug.mock.calls)).not.toContain('SECRET-X');
  });

  test('without debug nothing is logged', async () => {
    const spies = (['debug', 'log', 'info', 'warn', 'error'] as const).map((m) => vi.spyOn(console, m));
    const h = dashboard();
    const { win } = await ready(h);
    deliver('garbage', win);
    deliver(envelope('ready', READY), win, 'https://evil.example');
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  test('a fatal error message quoting the session id is redacted in the error state', async () => {
    const h = dashboard({ session: 'SECRET-F' });
    const { win } = await ready(h);
    deliver(envelope('error', { message: 'session SECRET-F was already used', fatal: true }), win);
    expect(h.error?.code).toBe('fatal');
    expect(h.error?.message).not.toContain('SECRET-F');
  });

  test('an invalid message quoting the session id is redacted in the diagnostic reason', async () => {
    const diagnostics: Diagnostic[] = [];
    const h = dashboard({ session: 'SECRET-R', onDiagnostic: (d) => diagnostics.push(d) });
    const win = await mounted(h);
    deliver(envelope('error', { message: 'x', fatal: 'SECRET-R' }), win);
    expect(diagnostics).toMatchObject([{ kind: 'invalid-message', reason: expect.stringContaining('"fatal"') }]);
    expect(JSON.stringify(diagnostics)).not.toContain('SECRET-R');
  });

  test('diagnostics never contain the session id', async () => {
    const diagnostics: Diagnostic[] = [];
    const h = dashboard({ session: 'SECRET-D', onDiagnostic: (d) => diagnostics.push(d) });
    const win = await mounted(h);
    deliver(envelope('navigate', { path: 1 }), win);
    deliver(envelope('navigate', { path: 1 }), win, 'https://evil.example');
    expect(diagnostics).toHaveLength(2);
    expect(JSON.stringify(diagnostics)).not.toContain('SECRET-D');
  });
});

describe('sessions are single-use across the whole page', () => {
  test('a session id spent by one embed is refused by another, which never loads it', async () => {
    document.body.innerHTML = '<div id="c"></div><div id="d"></div>';
    const first = dashboard({ session: 'PAGE-WIDE-1' });
    await mounted(first);
    const second = track(embedDashboard({ container: '#d', baseUrl: BASE, publicId: 'sales', session: 'PAGE-WIDE-1' }));
    await flush();
    expect(second.iframe).toBeNull();
    expect(second.getState().status).toBe('error');
    expect(second.error?.code).toBe('session');
    expect(second.error?.message).not.toContain('PAGE-WIDE-1');
    expect(document.querySelectorAll('iframe')).toHaveLength(1);
  });

  /**
   * Runs `body` on a fake monotonic clock set `ahead` ms past the real one, so that the ids of
   * earlier tests (used at real time, or on an earlier test's clock) are all older.
   */
  async function onClockAhead(ahead: number, body: () => Promise<void>) {
    const t0 = performance.now() + ahead;
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      vi.advanceTimersByTime(t0 - performance.now());
      await body();
    } finally {
      vi.useRealTimers();
    }
  }

  test('a used id is refused for 10 minutes (a session lives 5), then forgotten, so memory stays bounded', () =>
    onClockAhead(3_600_000, async () => {
      document.body.innerHTML = '<div id="c"></div><div id="d"></div><div id="e"></div>';
      await mounted(dashboard({ session: 'AGED-1' }));
      vi.advanceTimersByTime(599_000);
      const early = track(embedDashboard({ container: '#d', baseUrl: BASE, publicId: 'sales', session: 'AGED-1' }));
      await flush();
      expect(early.error?.code).toBe('session');
      vi.advanceTimersByTime(2_000);
      const late = track(embedDashboard({ container: '#e', baseUrl: BASE, publicId: 'sales', session: 'AGED-1' }));
      await mounted(late);
      expect(late.iframe!.src).toContain('session=AGED-1');
    }));

  test('an embed still redacts its own session id once the page has forgotten it', () =>
    onClockAhead(7_200_000, async () => {
      document.body.innerHTML = '<div id="c"></div><div id="d"></div>';
      const a = dashboard({ session: 'LIVE-SECRET' });
      const { win } = await ready(a);
      vi.advanceTimersByTime(660_000);
      await mounted(track(embedDashboard({ container: '#d', baseUrl: BASE, publicId: 'sales', session: 'OTHER-1' })));
      deliver(envelope('error', { message: 'session LIVE-SECRET expired', fatal: true }), win);
      expect(a.error?.message).toContain('session [redacted] expired');
    }));
});
