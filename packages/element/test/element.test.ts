import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  EmbedError,
  PlatformAppElement,
  PlatformChatElement,
  PlatformDashboardElement,
  PlatformElement,
  defineElements,
  listenerCount,
  type EmbedState,
  type PlatformEvent,
} from '../src/index';
import { withMoveBefore } from '../../core/test/helpers';
import { READY, TENANT, fromFrame } from './frame';

const tick = () => new Promise((r) => setTimeout(r, 0));

/** Parses markup into the body and returns its first element once mounted (iframe present). */
async function mount<T extends PlatformElement = PlatformDashboardElement>(html: string): Promise<T> {
  document.body.innerHTML = html;
  const el = document.body.firstElementChild as T;
  await vi.waitFor(() => expect(el.handle?.iframe).toBeTruthy());
  return el;
}

function actionsPosted(el: PlatformElement) {
  return vi.spyOn(el.handle!.iframe!.contentWindow!, 'postMessage');
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('definition and upgrade', () => {
  test('importing the package defines the three tags; defining again is a no-op', () => {
    expect(customElements.get('platform-dashboard')).toBe(PlatformDashboardElement);
    expect(customElements.get('platform-chat')).toBe(PlatformChatElement);
    expect(customElements.get('platform-app')).toBe(PlatformAppElement);
    expect(() => defineElements()).not.toThrow();
    expect(document.createElement('platform-chat')).toBeInstanceOf(PlatformChatElement);
  });

  test('an element created after definition mounts its iframe inside itself', async () => {
    const el = await mount(`<platform-dashboard base-url="${TENANT}" public-id="p1" session="s-1"></platform-dashboard>`);
    expect(el).toBeInstanceOf(PlatformDashboardElement);
    expect(el.querySelector('iframe')).toBe(el.handle!.iframe);
    expect(el.handle!.iframe!.src).toBe(`${TENANT}/embed/dashboard/p1?session=s-1`);
    expect(el.state.status).toBe('loading');
  });

  test('an element parsed before its definition is upgraded, keeping a session property set before', async () => {
    document.body.innerHTML = `<late-dashboard base-url="${TENANT}" public-id="p2"></late-dashboard>`;
    const el = document.body.firstElementChild as PlatformDashboardElement;
    const session = vi.fn(async () => 'early-session');
    (el as { session?: unknown }).session = session;
    await tick();
    expect(el.querySelector('iframe')).toBeNull();
    customElements.define('late-dashboard', class extends PlatformDashboardElement {});
    expect(el).toBeInstanceOf(PlatformDashboardElement);
    await vi.waitFor(() => expect(el.handle?.iframe?.src).toBe(`${TENANT}/embed/dashboard/p2?session=early-session`));
    expect(session).toHaveBeenCalledOnce();
    expect(Object.hasOwn(el, 'session')).toBe(false);
  });

  test('without a required attribute: the error state naming it; given it, mounts once', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    document.body.innerHTML = `<platform-app base-url="${TENANT}" session="s-a"></platform-app>`;
    const el = document.body.firstElementChild as PlatformAppElement;
    await tick();
    expect(el.state.status).toBe('error');
    expect(el.state.error!.message).toBe('[platform-embed] <platform-app> needs a deployment-id attribute');
    expect(el.querySelector('iframe')).toBeNull();
    el.setAttribute('deployment-id', '42');
    await vi.waitFor(() => expect(el.handle?.iframe?.src).toBe(`${TENANT}/embed/d/42/app?session=s-a`));
    expect(el.querySelectorAll('iframe')).toHaveLength(1);
  });
});

describe('attributes to options', () => {
  test.each([
    ['allow-export', 'allowExport=true'],
    ['allow-export="true"', 'allowExport=true'],
    ['show-dashboard-header="false"', 'showDashboardHeader=false'],
    ['show-dashboard-export-menu="false" show-dashboard-title="false"', 'showDashboardExportMenu=false&showDashboardTitle=false'],
    ['show-dashboard-header="true"', ''],
    ['locale="es-MX"', 'locale=es-MX'],
    [`filters='{"orders.status":{"value":"completed"}}'`, 'f_orders.status=' + encodeURIComponent('{"value":"completed"}')],
    [`time-grains='{"orders.created_at":"month"}'`, 'tg_orders.created_at=month'],
    [`field-switches='{"orders.revenue":"profit"}'`, 'ms_orders.revenue=profit'],
  ])('%s → %s', async (attributes, query) => {
    const el = await mount(`<platform-dashboard base-url="${TENANT}" public-id="p1" ${attributes}></platform-dashboard>`);
    expect(el.handle!.iframe!.src).toBe(`${TENANT}/embed/dashboard/p1${query ? '?' + query : ''}`);
  });

  test('iframe attributes', async () => {
    const el = await mount(
      `<platform-chat base-url="${TENANT}" session="c-1" iframe-title="Sales chat" allow="fullscreen" sandbox="allow-scripts allow-same-origin" referrer-policy="no-referrer" loading="lazy"></platform-chat>`,
    );
    const iframe = el.handle!.iframe!;
    expect(iframe.src).toBe(`${TENANT}/embed/chat?sessionId=c-1`);
    expect([iframe.title, iframe.allow, iframe.getAttribute('sandbox'), iframe.referrerPolicy, iframe.loading]).toEqual([
      'Sales chat',
      'fullscreen',
      'allow-scripts allow-same-origin',
      'no-referrer',
      'lazy',
    ]);
  });

  test('ready-timeout enters the timeout error state', async () => {
    vi.useFakeTimers();
    try {
      const el = await mount(`<platform-dashboard base-url="${TENANT}" public-id="p1" ready-timeout="50"></platform-dashboard>`);
      vi.advanceTimersByTime(60);
      expect(el.state.error?.code).toBe('timeout');
    } finally {
      vi.useRealTimers();
    }
  });

  test.each([
    ['base-url="ftp://tenant.example"', "base-url must be your tenant's https:// address"],
    ['base-url="http://tenant.example"', "base-url must be your tenant's https:// address"],
    [`filters='{"orders.status":'`, 'attribute filters must be a JSON object'],
    [`time-grains='{"orders.created_at":"fortnight"}'`, 'time-grains: "orders.created_at" must be second|minute'],
    ['allow-export="yes"', 'attribute allow-export must be "true", "false" or empty (got "yes")'],
    ['ready-timeout="soon"', 'attribute ready-timeout must be a number'],
    ['color-scheme="purple"', '"color-scheme" must be light|dark|auto (got "purple")'],
    [`theme='["red"]'`, 'attribute theme must be a JSON object'],
    ['sandbox="allow-forms"', '"sandbox" must be string with allow-scripts and allow-same-origin'],
  ])('invalid %s: error state naming it, no throw, no iframe', async (attributes, message) => {
    const states: EmbedState[] = [];
    document.addEventListener('platform-statechange', (e) => states.push(e.detail), { once: true });
    const base = attributes.startsWith('base-url') ? '' : `base-url="${TENANT}"`;
    document.body.innerHTML = `<platform-dashboard ${base} public-id="p1" ${attributes}></platform-dashboard>`;
    const el = document.body.firstElementChild as PlatformDashboardElement;
    await tick();
    expect(el.state.status).toBe('error');
    expect(el.state.error).toBeInstanceOf(EmbedError);
    expect(el.state.error!.message).toContain(message);
    expect(states[0]).toBe(el.state);
    expect(el.querySelector('iframe')).toBeNull();
    expect(listenerCount()).toBe(0);
  });

  test.each([
    ['allow-export="yes"', 'allow-export'],
    ['keep-alive="false"', null],
    [`filters='[1]'`, 'filters'],
    ['ready-timeout="soon"', 'ready-timeout'],
    ['retry="false"', null],
    ['session-timeout="false"', 'session-timeout'],
    ['retry="-1"', 'retry'],
  ])('production: invalid %s names the attribute only', async (attributes, named) => {
    globalThis.__DEV__ = false;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      document.body.innerHTML = `<platform-dashboard base-url="${TENANT}" public-id="p1" ${attributes}></platform-dashboard>`;
      const el = document.body.firstElementChild as PlatformDashboardElement;
      await tick();
      if (named) expect(el.state.error!.message).toBe(`[platform-embed] ${named}`);
      else expect(el.state.error).toBeNull();
    } finally {
      globalThis.__DEV__ = true;
    }
  });

  test("production: the core's refusal, which names the option, in the markup's words", async () => {
    globalThis.__DEV__ = false;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      document.body.innerHTML = `<platform-dashboard base-url="${TENANT}" public-id=".."></platform-dashboard>`;
      const el = document.body.firstElementChild as PlatformDashboardElement;
      await tick();
      expect(el.state.error!.message).toMatch(/\bpublic-id\b/);
      expect(el.state.error!.message).not.toContain('publicId');
    } finally {
      globalThis.__DEV__ = true;
    }
  });

  test('fixing an invalid attribute mounts', async () => {
    document.body.innerHTML = `<platform-dashboard base-url="${TENANT}" public-id="p1" allow-export="yes"></platform-dashboard>`;
    const el = document.body.firstElementChild as PlatformDashboardElement;
    await tick();
    expect(el.state.status).toBe('error');
    el.setAttribute('allow-export', '');
    await vi.waitFor(() => expect(el.handle?.iframe?.src).toBe(`${TENANT}/embed/dashboard/p1?allowExport=true`));
    expect(el.state.status).toBe('loading');
  });
});

describe('session-url', () => {
  test('POSTs to the endpoint with same-origin credentials for every load, and uses the sessionId', async () => {
    let n = 0;
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response(JSON.stringify({ sessionId: `minted-${++n}` })));
    vi.stubGlobal('fetch', fetch);
    const el = await mount(`<platform-dashboard base-url="${TENANT}" public-id="p1" session-url="/api/session"></platform-dashboard>`);
    expect(el.handle!.iframe!.src).toBe(`${TENANT}/embed/dashboard/p1?session=minted-1`);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/session');
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin' });
    const first = el.handle!.iframe;
    void el.reload();
    await vi.waitFor(() => expect(el.handle!.iframe?.src).toBe(`${TENANT}/embed/dashboard/p1?session=minted-2`));
    expect(first!.isConnected).toBe(false);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  test('an HTTP error becomes the session error state', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('nope', { status: 500 })),
    );
    // Without retries (a failed session call is retried by default; the core's tests cover that).
    document.body.innerHTML = `<platform-dashboard base-url="${TENANT}" public-id="p1" session-url="/api/session" retry="false"></platform-dashboard>`;
    const el = document.body.firstElementChild as PlatformDashboardElement;
    await vi.waitFor(() => expect(el.state.status).toBe('error'));
    expect(el.state.error!.code).toBe('session');
    expect(el.state.error!.message).toContain('session route answered HTTP 500: it could not mint a session');
  });

  test('the session property takes precedence over the attributes', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    document.body.innerHTML = `<platform-dashboard base-url="${TENANT}" public-id="p1" session-url="/api/session" session="attr"></platform-dashboard>`;
    const el = document.body.firstElementChild as PlatformDashboardElement;
    el.session = () => ({ sessionId: 'from-property' });
    await vi.waitFor(() => expect(el.handle?.iframe?.src).toBe(`${TENANT}/embed/dashboard/p1?session=from-property`));
    expect(fetch).not.toHaveBeenCalled();
  });

  test('a session property of null is no session property: the session-url attribute mints (not private mode)', async () => {
    const fetch = vi.fn(async () => Response.json({ sessionId: 'from-route' }));
    vi.stubGlobal('fetch', fetch);
    document.body.innerHTML = `<platform-dashboard base-url="${TENANT}" public-id="p1" session-url="/api/session"></platform-dashboard>`;
    const el = document.body.firstElementChild as PlatformDashboardElement;
    // (As a framework sets a property it has no value for yet.)
    el.session = null;
    await vi.waitFor(() => expect(el.handle?.iframe?.src).toBe(`${TENANT}/embed/dashboard/p1?session=from-route`));
    expect(fetch).toHaveBeenCalledOnce();
  });
});

describe('events', () => {
  test('protocol events are bubbling CustomEvents: payload in detail, envelope in message', async () => {
    const el = await mount(`<platform-dashboard base-url="${TENANT}" public-id="p1"></platform-dashboard>`);
    const seen: PlatformEvent[] = [];
    const states: string[] = [];
    document.body.addEventListener('platform-ready', (e) => seen.push(e));
    el.addEventListener('platform-drilldown', (e) => seen.push(e));
    el.addEventListener('platform-statechange', (e) => states.push(e.detail.status));
    fromFrame(el, 'ready', READY);
    fromFrame(el, 'drilldown', { member: 'orders.count', value: 3 });
    fromFrame(el, 'drilldown', { member: 7 }); // fails its schema: never dispatched
    fromFrame(el, 'navigate', { path: '/x' }, 'https://evil.example'); // wrong origin
    expect(seen.map((e) => [e.type, e.detail])).toEqual([
      ['platform-ready', READY],
      ['platform-drilldown', { member: 'orders.count', value: 3 }],
    ]);
    expect(seen[0]).toBeInstanceOf(CustomEvent);
    expect(seen[0]!.message).toMatchObject({ type: 'platform:event:ready', surface: 'dashboard', timestamp: 5 });
    expect(states).toEqual(['ready']);
    expect(el.state.ready).toEqual(READY);
  });

  test('no event name collides with a native one', async () => {
    const el = await mount(`<platform-dashboard base-url="${TENANT}" public-id="p1"></platform-dashboard>`);
    const native = vi.fn();
    const ours = vi.fn();
    el.addEventListener('error', native);
    el.addEventListener('platform-error', ours);
    fromFrame(el, 'error', { message: 'widget failed' });
    expect(native).not.toHaveBeenCalled();
    expect(ours).toHaveBeenCalledWith(expect.objectContaining({ detail: { message: 'widget failed' } }));
  });
});

describe('actions', () => {
  test('methods send through the core handle to the tenant origin', async () => {
    const el = await mount(`<platform-dashboard base-url="${TENANT}" public-id="p1"></platform-dashboard>`);
    fromFrame(el, 'ready', READY);
    const post = actionsPosted(el);
    el.setColorScheme('dark');
    el.setTheme({ primaryColor: '#7c5cff', borderRadius: 8 });
    el.setLocale('es-MX');
    el.setFilter('orders', 'status', { value: 'completed' });
    el.setFilter('f_orders.city={"value":"Lima"}');
    el.navigate('/reports');
    el.refresh();
    el.send('platform:action:navigate', { path: '/full-name' });
    expect(post.mock.calls.map(([m, origin]) => [m.type.slice(16), m.payload, origin])).toEqual([
      ['set-color-scheme', { scheme: 'dark' }, TENANT],
      ['set-theme', { primaryColor: '#7c5cff', borderRadius: 8 }, TENANT],
      ['set-locale', { locale: 'es-MX' }, TENANT],
      ['set-filter', { filterUrlParameter: 'f_orders.status={"value":"completed"}' }, TENANT],
      ['set-filter', { filterUrlParameter: 'f_orders.city={"value":"Lima"}' }, TENANT],
      ['navigate', { path: '/reports' }, TENANT],
      ['refresh', {}, TENANT],
      ['navigate', { path: '/full-name' }, TENANT],
    ]);
    expect(() => el.setColorScheme('purple' as 'dark')).toThrow(EmbedError);
    expect(post).toHaveBeenCalledTimes(8);
  });

  test('color-scheme and theme attributes, and methods called before connecting, are held until ready', async () => {
    const el = document.createElement('platform-dashboard');
    el.setAttribute('base-url', TENANT);
    el.setAttribute('public-id', 'p1');
    el.setAttribute('color-scheme', 'dark');
    el.setAttribute('theme', '{"primaryColor":"#123456"}');
    el.navigate('/start');
    document.body.append(el);
    await vi.waitFor(() => expect(el.handle?.iframe).toBeTruthy());
    const post = actionsPosted(el);
    await tick();
    expect(post).not.toHaveBeenCalled();
    fromFrame(el, 'ready', READY);
    expect(post.mock.calls.map(([m]) => [m.type, m.payload])).toEqual([
      ['platform:action:set-color-scheme', { scheme: 'dark' }],
      ['platform:action:set-theme', { primaryColor: '#123456' }],
      ['platform:action:navigate', { path: '/start' }],
    ]);
  });

  test('color-scheme, theme and locale changes after mount are actions, not reloads', async () => {
    const el = await mount(`<platform-dashboard base-url="${TENANT}" public-id="p1" locale="en"></platform-dashboard>`);
    const iframe = el.handle!.iframe;
    fromFrame(el, 'ready', READY);
    const post = actionsPosted(el);
    el.setAttribute('color-scheme', 'light');
    el.setAttribute('locale', 'fr');
    await tick();
    // Removing a state attribute leaves the embed as it is.
    el.removeAttribute('color-scheme');
    await tick();
    expect(el.handle!.iframe).toBe(iframe);
    expect(post.mock.calls.map(([m]) => JSON.stringify(m.payload)).sort()).toEqual(['{"locale":"fr"}', '{"scheme":"light"}']);
    // An invalid change is refused: the embed goes on as it was.
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    el.setAttribute('theme', 'not json');
    await tick();
    expect(el.state.status).toBe('ready');
    expect(el.handle!.iframe).toBe(iframe);
    expect(error).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({ message: expect.stringContaining('attribute theme must be a JSON object') }),
    );
  });
});

describe('reloads and cleanup', () => {
  test('changing an attribute that defines the embed reloads the same controller with a fresh session, keeping the color scheme', async () => {
    let n = 0;
    const session = vi.fn(async () => `reload-${++n}`);
    document.body.innerHTML = `<platform-dashboard base-url="${TENANT}" public-id="p1"></platform-dashboard>`;
    const el = document.body.firstElementChild as PlatformDashboardElement;
    el.session = session;
    await vi.waitFor(() => expect(el.handle?.iframe).toBeTruthy());
    const first = el.handle!;
    fromFrame(el, 'ready', READY);
    el.setColorScheme('dark');
    el.setAttribute('public-id', 'p2');
    el.setAttribute('allow-export', ''); // same task: one reload
    await vi.waitFor(() => expect(el.handle?.iframe?.src).toBe(`${TENANT}/embed/dashboard/p2?session=reload-2&allowExport=true`));
    expect(el.handle).toBe(first);
    expect(el.querySelectorAll('iframe')).toHaveLength(1);
    expect(session).toHaveBeenCalledTimes(2);
    expect(listenerCount()).toBe(1);
    const post = actionsPosted(el);
    fromFrame(el, 'ready', READY);
    expect(post).toHaveBeenCalledWith(expect.objectContaining({ payload: { scheme: 'dark' } }), TENANT);
  });

  test('removal destroys the embed: no iframe, no listener, destroyed state', async () => {
    const el = await mount(`<platform-dashboard base-url="${TENANT}" public-id="p1"></platform-dashboard>`);
    const handle = el.handle!;
    const states: string[] = [];
    el.addEventListener('platform-statechange', (e) => states.push(e.detail.status));
    expect(listenerCount()).toBe(1);
    el.remove();
    await tick();
    expect(el.querySelector('iframe')).toBeNull();
    expect(listenerCount()).toBe(0);
    expect(handle.getState().status).toBe('destroyed');
    expect(el.handle).toBeNull();
    expect(states).toEqual(['destroyed']);
    // Back in the document, it mounts again.
    document.body.append(el);
    await vi.waitFor(() => expect(el.handle?.iframe).toBeTruthy());
    expect(listenerCount()).toBe(1);
  });

  // The browser gives an iframe moved in the DOM a new window, which loads its URL again: with
  // the spent session, which the platform refuses. (jsdom gives it a new window too.)
  test('a move in the DOM keeps the embed (the same handle); its frame, loaded again by the browser, loads again with a fresh session', async () => {
    let minted = 0;
    const session = vi.fn(async () => `moved-${++minted}`);
    document.body.innerHTML = `<div id="a"><platform-dashboard base-url="${TENANT}" public-id="p1"></platform-dashboard></div><div id="b"></div>`;
    const el = document.querySelector('platform-dashboard')!;
    el.session = session;
    await vi.waitFor(() => expect(el.handle?.iframe).toBeTruthy());
    fromFrame(el, 'ready', READY);
    const handle = el.handle;
    const states: string[] = [];
    el.addEventListener('platform-statechange', (e) => states.push(e.detail.status));
    document.getElementById('b')!.append(el);
    await vi.waitFor(() => expect(el.handle?.iframe?.src).toBe(`${TENANT}/embed/dashboard/p1?session=moved-2`));
    expect(el.handle).toBe(handle);
    expect(el.querySelectorAll('iframe')).toHaveLength(1);
    expect(states).toEqual(['loading']);
    expect(session).toHaveBeenCalledTimes(2);
  });

  test('moved with moveBefore: the same iframe and document, no session (connectedMoveCallback)', async () => {
    const moveBefore = withMoveBefore();
    try {
      const session = vi.fn(async () => 'moved-once');
      document.body.innerHTML = `<div id="a"><platform-dashboard base-url="${TENANT}" public-id="p1"></platform-dashboard></div><div id="b"></div>`;
      const el = document.querySelector('platform-dashboard')!;
      el.session = session;
      await vi.waitFor(() => expect(el.handle?.iframe).toBeTruthy());
      fromFrame(el, 'ready', READY);
      const iframe = el.handle!.iframe;
      const handle = el.handle;
      (document.getElementById('b') as unknown as { moveBefore(node: Node, child: Node | null): void }).moveBefore(el, null);
      await tick();
      expect(el.handle).toBe(handle);
      expect(el.querySelector('iframe')).toBe(iframe);
      expect(handle!.getState().status).toBe('ready');
      expect(session).toHaveBeenCalledOnce();
    } finally {
      moveBefore.restore();
    }
  });

  test('reload() without a mount rejects with what is missing', async () => {
    const el = document.createElement('platform-dashboard');
    await expect(el.reload()).rejects.toThrow('<platform-dashboard> mounts once connected with base-url and public-id');
  });

  test('production: reload() without a mount rejects naming the element', async () => {
    globalThis.__DEV__ = false;
    try {
      await expect(document.createElement('platform-chat').reload()).rejects.toThrow(/^\[platform-embed\] platform-chat$/);
    } finally {
      globalThis.__DEV__ = true;
    }
  });
});

describe('attributes come from the option tables', () => {
  test('observed: every option that is an attribute (by its attribute name), and session-url', async () => {
    const { bindingOptions } = await import('@platform-embed/core');
    const fromTables = bindingOptions().flatMap((o) => (o.attribute ? [o.attributeName] : []));
    expect(PlatformDashboardElement.observedAttributes.sort()).toEqual([...fromTables, 'session-url'].sort());
    expect(fromTables).toEqual(
      expect.arrayContaining(['retry', 'session-timeout', 'ready-timeout', 'debug', 'iframe-title', 'color-scheme']),
    );
  });

  test('the action helpers are the core catalog-derived ones, held until the embed exists', async () => {
    const el = document.createElement('platform-dashboard') as PlatformDashboardElement;
    expect(() => el.setColorScheme('purple' as never)).toThrow(/"scheme" must be light\|dark\|auto/);
    for (const name of ['setColorScheme', 'setTheme', 'setLocale', 'setFilter', 'navigate', 'refresh'])
      expect(typeof (el as unknown as Record<string, unknown>)[name]).toBe('function');
  });
});

// Issue 22: the keep-alive side of the elements.
describe('keep-alive', () => {
  test('an element that adopts a ready preload dispatches platform-ready once, and a state event for the state it shows', async () => {
    const moveBefore = withMoveBefore();
    const { preload, configureParking } = await import('@platform-embed/core');
    try {
      const handle = preload('dashboard', { baseUrl: TENANT, publicId: 'p1', session: vi.fn(async () => 'preloaded-1') });
      await vi.waitFor(() => expect(handle.iframe).toBeTruthy());
      const win = handle.iframe!.contentWindow!;
      vi.spyOn(win, 'postMessage').mockImplementation(() => {});
      fromFrame({ handle, surface: 'dashboard' }, 'ready', READY);
      const events: string[] = [];
      const el = document.createElement('platform-dashboard');
      for (const type of ['platform-ready', 'platform-statechange'])
        el.addEventListener(type, (e) =>
          events.push(type == 'platform-ready' ? type : `statechange ${(e as CustomEvent<EmbedState>).detail.status}`),
        );
      el.setAttribute('base-url', TENANT);
      el.setAttribute('public-id', 'p1');
      el.setAttribute('keep-alive', '');
      document.body.append(el);
      await tick();
      expect(el.handle).toBe(handle);
      expect(events).toEqual(['platform-ready', 'statechange ready']);
      el.remove();
      await tick();
    } finally {
      configureParking({ max: 0 });
      configureParking({ max: 3 });
      moveBefore.restore();
    }
  });

  test.each([true, false])(
    'removed with keep-alive (moveBefore: %s): one statechange to idle, parked; put back, the same handle',
    async (moves) => {
      const moveBefore = moves ? withMoveBefore() : undefined;
      const { configureParking, parkedCount } = await import('@platform-embed/core');
      try {
        let minted = 0;
        const el = await mount(`<platform-dashboard base-url="${TENANT}" public-id="p1" keep-alive></platform-dashboard>`);
        el.session = vi.fn(async () => `kept-${++minted}`);
        await tick();
        fromFrame(el, 'ready', READY);
        const handle = el.handle;
        const states: string[] = [];
        el.addEventListener('platform-statechange', (e) => states.push(e.detail.status));
        el.remove();
        await tick();
        expect(parkedCount()).toBe(1);
        expect(states).toEqual(['idle']);
        document.body.append(el);
        await tick();
        expect(el.handle).toBe(handle);
        expect(parkedCount()).toBe(0);
      } finally {
        configureParking({ max: 0 });
        configureParking({ max: 3 });
        moveBefore?.restore();
      }
    },
  );
});

describe('attribute mistakes are answered within the parse task, in the words of the markup', () => {
  const parsed = async (html: string) => {
    document.body.innerHTML = html;
    await Promise.resolve();
    return document.body.firstElementChild as PlatformElement;
  };

  test.each([
    [
      'development',
      true,
      `<platform-dashboard base-url="${TENANT}" pubilc-id="sales"></platform-dashboard>`,
      '[platform-embed] <platform-dashboard> needs a public-id attribute (pubilc-id is not one: did you mean public-id?)',
    ],
    ['production', false, `<platform-dashboard base-url="${TENANT}" pubilc-id="sales"></platform-dashboard>`, '[platform-embed] public-id'],
    [
      'development',
      true,
      `<platform-dashboard base-ur="${TENANT}" public-id="sales"></platform-dashboard>`,
      '[platform-embed] <platform-dashboard> needs a base-url attribute (base-ur is not one: did you mean base-url?)',
    ],
    ['production', false, `<platform-chat base-ur="${TENANT}"></platform-chat>`, '[platform-embed] base-url'],
    [
      'development',
      true,
      `<platform-app base-url="${TENANT}" session="s"></platform-app>`,
      '[platform-embed] <platform-app> needs a deployment-id attribute',
    ],
  ])(
    '%s: a required attribute missing or misspelled: the error state at the first microtask, naming it, one console line',
    async (_, development, html, message) => {
      globalThis.__DEV__ = development;
      const error = vi.spyOn(console, 'error').mockImplementation(() => {});
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        const el = await parsed(html);
        // (The misspelling is named by the error, not warned about too.)
        expect(warn).not.toHaveBeenCalled();
        expect(el.state.status).toBe('error');
        expect(el.state.error!.code).toBe('invalid-option');
        expect(el.state.error!.message).toBe(message);
        expect(error).toHaveBeenCalledExactlyOnceWith(el.state.error);
        expect(el.querySelector('iframe')).toBeNull();
      } finally {
        globalThis.__DEV__ = true;
      }
    },
  );

  test.each([
    [
      'development',
      true,
      '[platform-embed] sesion-url is not an attribute of <platform-chat>: did you mean session-url? (Without a session it opens in private mode, where the viewer signs in.)',
    ],
    ['production', false, '[platform-embed] sesion-url'],
  ])('%s: a misspelled session attribute never opens private mode', async (_, development, message) => {
    globalThis.__DEV__ = development;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const el = await parsed(`<platform-chat base-url="${TENANT}" sesion-url="/api/session"></platform-chat>`);
      expect(el.state.error?.message).toBe(message);
      expect(el.querySelector('iframe')).toBeNull();
      // Spelled right, it mounts with a session.
      vi.stubGlobal('fetch', async () => Response.json({ sessionId: `minted-${development}` }));
      el.removeAttribute('sesion-url');
      el.setAttribute('session-url', '/api/session');
      await vi.waitFor(() => expect(el.handle?.iframe?.src).toBe(`${TENANT}/embed/chat?sessionId=minted-${development}`));
    } finally {
      globalThis.__DEV__ = true;
    }
  });

  test('development: an unknown attribute like one of ours is ignored with a did-you-mean, once; the embed mounts', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const el = await parsed(`<platform-dashboard base-url="${TENANT}" public-id="p1" allow-exprt color-schme="dark"></platform-dashboard>`);
    await vi.waitFor(() => expect(el.handle?.iframe?.src).toBe(`${TENANT}/embed/dashboard/p1`));
    expect(warn.mock.calls).toEqual([
      ['[platform-embed] <platform-dashboard>: unknown attribute "allow-exprt" is ignored: did you mean "allow-export"?'],
      ['[platform-embed] <platform-dashboard>: unknown attribute "color-schme" is ignored: did you mean "color-scheme"?'],
    ]);
    el.setAttribute('iframe-title', 'Sales');
    await tick();
    expect(warn).toHaveBeenCalledTimes(2);
  });

  test("the page's own attributes are not ours to question: HTML's, data-, aria-, frameworks'", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await mount(
      `<platform-dashboard base-url="${TENANT}" public-id="p1" id="d" class="x" style="height:1px" title="t" hidden lang="en" dir="ltr" tabindex="0" role="region" slot="s" data-session="x" aria-label="Sales" _ngcontent-ng-c1="" data-v-7ba5bd90=""></platform-dashboard>`,
    );
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });

  test('production: unknown attributes are ignored without a word', async () => {
    globalThis.__DEV__ = false;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await mount(`<platform-dashboard base-url="${TENANT}" public-id="p1" allow-exprt></platform-dashboard>`);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      globalThis.__DEV__ = true;
    }
  });

  test("a platform-error listener on the element hears the mistake instead of the console; the embed's own error events still bubble", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const el = document.createElement('platform-dashboard');
    const heard = vi.fn();
    el.addEventListener('platform-error', heard);
    el.setAttribute('base-url', TENANT);
    el.setAttribute('color-scheme', 'drak');
    document.body.append(el);
    await tick();
    expect(heard).toHaveBeenCalledOnce();
    expect(heard.mock.calls[0]![0].detail).toEqual({
      message: '[platform-embed] <platform-dashboard> needs a public-id attribute',
      name: 'EmbedError',
      context: 'invalid-option',
      fatal: true,
    });
    expect(error).not.toHaveBeenCalled();
    // Without a listener on the element (one on the document), the platform's error events bubble as before.
    el.removeEventListener('platform-error', heard);
    const bubbled = vi.fn();
    document.addEventListener('platform-error', bubbled);
    el.setAttribute('public-id', 'p1');
    el.setAttribute('color-scheme', 'dark');
    await vi.waitFor(() => expect(el.handle?.iframe).toBeTruthy());
    fromFrame(el, 'error', { message: 'widget failed' });
    document.removeEventListener('platform-error', bubbled);
    expect(bubbled).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ detail: { message: 'widget failed' } }));
    expect(heard).toHaveBeenCalledOnce();
  });
});
