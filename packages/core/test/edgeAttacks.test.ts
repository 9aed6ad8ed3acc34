import { afterEach, describe, expect, onTestFinished, test, vi } from 'vitest';
import { createBinding, embedDashboard, releaseEmbeds, type EmbedBinding, type EmbedHandle } from '../src/index';
import { BASE, READY, deliver, envelope, flush, freshId, withMoveBefore } from './helpers';

/*
 * What a real app's first week does to the core, found by the attack of h/attack: each case
 * failed before its fix (see each test's name).
 */

const handles: EmbedHandle[] = [];
const bindings: EmbedBinding[] = [];
afterEach(() => {
  globalThis.__DEV__ = true;
  bindings.splice(0).forEach((b) => b.unmount());
  handles.splice(0).forEach((h) => h.destroy());
  releaseEmbeds();
  document.body.replaceChildren();
});
const box = () => document.body.appendChild(document.createElement('div'));
/** A dashboard in `container` whose sessions are fresh ids, mounted (console errors silenced: each case fails it on purpose). */
const mounted = async (container: HTMLElement) => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const session = vi.fn(async () => freshId());
  const handle = embedDashboard({ container, baseUrl: BASE, publicId: 'sales', session });
  handles.push(handle);
  await flush();
  return { handle, session };
};
/** What `fn` threw: an EmbedError's code and message, or any other error's class; `undefined` when it returned. */
const throwOf = (fn: () => unknown) => {
  try {
    const made = fn();
    if (made) handles.push(made as EmbedHandle);
  } catch (e) {
    return e instanceof Error && 'code' in e ? { code: e.code, message: e.message } : { raw: String(e) };
  }
};

/** A user object as auth libraries give them: its fields are getters of its class (JSON.stringify sees none). */
class User {
  readonly #id: string;
  constructor(id: string) {
    this.#id = id;
  }
  get id() {
    return this.#id;
  }
}

describe('viewer: only a string names a viewer', () => {
  test.each<[string, () => unknown]>([
    ['an object of getters (JSON "{}" for every user)', () => new User(freshId())],
    ['a function (user.getId, not called: JSON null, as no viewer)', () => () => 'x'],
    ['a Map', () => new Map([['id', freshId()]])],
  ])('production, %s: another viewer’s parked embed is never adopted (was: every viewer shared one keep-alive name)', async (_, viewer) => {
    globalThis.__DEV__ = false;
    const mount = () => {
      const binding = createBinding<'dashboard'>();
      bindings.push(binding as EmbedBinding);
      const options = { surface: 'dashboard', baseUrl: BASE, publicId: 'sales', keepAlive: true, viewer: viewer(), session: freshId };
      return { binding, handle: binding.mount(box(), options as never) };
    };
    const ann = mount();
    await flush();
    deliver(envelope('ready', READY), ann.handle!.iframe!.contentWindow);
    ann.binding.unmount();
    await flush();
    const bob = mount();
    expect(bob.handle).not.toBeNull();
    expect(bob.handle).not.toBe(ann.handle);
  });

  test.each<[string, () => unknown]>([
    ['a BigInt (a Prisma id)', () => 42n],
    ['an object with a cycle', () => ((user: Record<string, unknown>) => ((user.self = user), user))({ id: 'ann' })],
  ])('%s: never a raw TypeError (was: "Do not know how to serialize" / "Converting circular structure")', (_, viewer) => {
    const options = { container: box(), baseUrl: BASE, publicId: 'p', keepAlive: true, viewer: viewer() as never, session: freshId };
    // Development: refused as the option the host wrote.
    expect(throwOf(() => embedDashboard(options))).toEqual({ code: 'invalid-option', message: expect.stringContaining('"viewer"') });
    // Production: no check of the viewer's type, and no keep-alive name from it: it embeds.
    globalThis.__DEV__ = false;
    expect(throwOf(() => embedDashboard(options))).toBeUndefined();
    // keepAlive: a BigInt too.
    expect(throwOf(() => embedDashboard({ ...options, viewer: undefined, keepAlive: 1n as never }))).toBeUndefined();
  });
});

describe('preload() from a script in <head>, before <body> exists', () => {
  test('it preloads (was: a raw TypeError "Cannot read properties of null (reading \'append\')"); an adopter in the body takes it', async () => {
    const { preload } = await import('../src/index');
    const { restore } = withMoveBefore();
    onTestFinished(restore);
    const body = document.body;
    body.remove();
    let handle: EmbedHandle | undefined;
    try {
      expect(throwOf(() => (handle = preload('dashboard', { baseUrl: BASE, publicId: 'early', session: freshId })))).toBeUndefined();
    } finally {
      document.documentElement.append(body);
    }
    await flush();
    expect(handle!.iframe?.isConnected).toBe(true);
    const adopter = embedDashboard({ container: box(), baseUrl: BASE, publicId: 'early', keepAlive: true, session: freshId });
    expect(adopter).toBe(handle);
  });
});

describe('the page-wide record: a wait no copy of the SDK could have written', () => {
  const V2 = Symbol.for('platform-embed.sessions@2');
  const page = globalThis as unknown as Record<symbol, unknown>;
  afterEach(() => void delete page[V2]);
  const waitFor = async (done: () => boolean) => {
    for (let i = 0; i < 50 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  };

  // (Version 2 writes `until` at most MAX_RETRY_AFTER ahead, and `line` as 0 or a Promise of its own.)
  test.each<[string, Record<string, unknown>]>([
    ['until Infinity', { until: Infinity, line: 0 }],
    ['until a year ahead', { until: Date.now() + 365 * 864e5, line: 0 }],
    ['until NaN', { until: Number.NaN, line: 0 }],
    ['a line that never ends (a thenable)', { until: 0, line: { then() {} } }],
    [
      'a line that throws (a thenable)',
      {
        until: 0,
        line: {
          then: () => {
            throw new Error('boom');
          },
        },
      },
    ],
  ])(
    '%s: the page-record diagnostic and a private record; the session is asked for at once (was: loading forever, or "boom" as the embed’s error)',
    async (_, shape) => {
      page[V2] = { version: 2, used: new Map(), ...shape };
      const diagnostics: unknown[] = [];
      let calls = 0;
      const h = embedDashboard({
        container: box(),
        baseUrl: BASE,
        publicId: 'p',
        session: () => (calls++, freshId()),
        onDiagnostic: (d) => diagnostics.push(d),
      });
      handles.push(h);
      await waitFor(() => !!h.iframe);
      expect(calls).toBe(1);
      expect(h.getState().status).toBe('loading');
      expect(h.iframe).not.toBeNull();
      expect(diagnostics).toContainEqual({ kind: 'page-record' });
    },
  );
});

describe('debug: a value or a logger the SDK cannot call costs no embed', () => {
  const mountAndReady = async (debug: unknown) => {
    const errors: unknown[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    onTestFinished(() => void process.off('unhandledRejection', onUnhandled));
    const h = embedDashboard({
      container: box(),
      baseUrl: BASE,
      publicId: 'p',
      session: freshId,
      debug: debug as never,
      onError: (e) => errors.push(e),
    });
    handles.push(h);
    await flush();
    await new Promise((r) => setTimeout(r, 20));
    // (A throw in the SDK's message listener would be an uncaught exception of the dispatch.)
    expect(() => deliver(envelope('ready', READY), h.iframe?.contentWindow)).not.toThrow();
    await flush();
    return { status: h.getState().status, errors, unhandled };
  };

  test.each([
    ['"true" (an environment variable)', 'true'],
    ['1', 1],
  ])(
    'production, debug %s: the embed is ready, logging to console.debug (was: error "... is not a function", unhandled rejections)',
    async (_, debug) => {
      globalThis.__DEV__ = false;
      const logged = vi.spyOn(console, 'debug').mockImplementation(() => {});
      onTestFinished(() => logged.mockRestore());
      expect(await mountAndReady(debug)).toEqual({ status: 'ready', errors: [], unhandled: [] });
      expect(logged).toHaveBeenCalledWith('[platform-embed]', 'mount', expect.any(String));
    },
  );

  test('a debug logger that throws: the embed is ready, the throw written to the console (was: the embed in error, its listener throwing)', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    onTestFinished(() => consoleError.mockRestore());
    const oops = new Error('logger is not ready');
    expect(
      await mountAndReady(() => {
        throw oops;
      }),
    ).toEqual({ status: 'ready', errors: [], unhandled: [] });
    expect(consoleError).toHaveBeenCalledWith('[platform-embed] handler threw', oops);
  });
});

describe('iframe options that cannot work: said at mount, in the words of the fix', () => {
  test.each([
    ['without allow-scripts (the embed cannot run)', 'allow-same-origin allow-forms'],
    ['without allow-same-origin (its messages would come from "null")', 'allow-scripts'],
    ['empty (every restriction)', ''],
  ])(
    'production, sandbox %s: refused at mount, no session minted (was: loading until readyTimeout, each retry minting, then "sent no ready")',
    (_, sandbox) => {
      globalThis.__DEV__ = false;
      let minted = 0;
      const made = throwOf(() =>
        embedDashboard({ container: box(), baseUrl: BASE, publicId: 'p', sandbox, session: () => (minted++, freshId()) }),
      );
      expect(made).toEqual({
        code: 'invalid-option',
        message: expect.stringContaining('"sandbox" must be string with allow-scripts and allow-same-origin'),
      });
      expect(minted).toBe(0);
    },
  );

  test('production, sandbox with both tokens among others: embeds', async () => {
    globalThis.__DEV__ = false;
    const h = embedDashboard({
      container: box(),
      baseUrl: BASE,
      publicId: 'p',
      sandbox: 'allow-forms  allow-scripts\tallow-same-origin',
      session: freshId,
    });
    handles.push(h);
    await flush();
    await new Promise((r) => setTimeout(r, 0));
    expect(h.iframe?.getAttribute('sandbox')).toBe('allow-forms  allow-scripts\tallow-same-origin');
  });

  test('a style object (React habit): development names the fix; production keeps the default style (was cssText "[object Object]": no size, a border)', async () => {
    const style = { height: '400px' } as unknown as string;
    expect(throwOf(() => embedDashboard({ container: box(), baseUrl: BASE, publicId: 'p', style, session: freshId }))).toEqual({
      code: 'invalid-option',
      message: expect.stringContaining('"style" must be CSS text such as "height:400px"'),
    });
    globalThis.__DEV__ = false;
    const h = embedDashboard({ container: box(), baseUrl: BASE, publicId: 'p', style, session: freshId });
    handles.push(h);
    await flush();
    await new Promise((r) => setTimeout(r, 0));
    expect([h.iframe?.style.width, h.iframe?.style.height, h.iframe?.style.display]).toEqual(['100%', '100%', 'block']);
    // A change to one is ignored the same way.
    h.update({ style: 'height: 300px' });
    expect(h.iframe?.style.height).toBe('300px');
    h.update({ style: ['a'] as unknown as string });
    expect([h.iframe?.style.width, h.iframe?.style.height, h.iframe?.style.display]).toEqual(['100%', '100%', 'block']);
  });
});

describe('an embed unmounted and another with its keep-alive name mounted in the same task', () => {
  // React commits a key change, a list or route swap as the old component's unmount then the new
  // one's mount; the element, a removal then an insertion in one script. The old embed was parked
  // only a microtask later: the new one minted a session and loaded a second frame, and the old
  // one stayed parked beside it (until its idle timer).
  test.each([
    ['with moveBefore', true],
    ['without (Safari)', false],
  ])('%s: the new one adopts it, with its session (was: a second session and frame, the first parked)', async (_, move) => {
    const restore = move ? withMoveBefore().restore : () => {};
    onTestFinished(restore);
    let minted = 0;
    const session = () => (minted++, freshId());
    const options = { surface: 'dashboard' as const, baseUrl: BASE, publicId: 'sales', keepAlive: true, session };
    const [first, second] = [createBinding<'dashboard'>(), createBinding<'dashboard'>()];
    bindings.push(first as EmbedBinding, second as EmbedBinding);
    const oldBox = box();
    const handle = first.mount(oldBox, options)!;
    await flush();
    deliver(envelope('ready', READY), handle.iframe!.contentWindow);
    // One task: the old component goes (its container with it), the new one comes.
    first.unmount();
    oldBox.remove();
    const adopted = second.mount(box(), options);
    await flush();
    expect(adopted).toBe(handle);
    expect(minted).toBe(move ? 1 : 2);
    expect(document.querySelectorAll('iframe')).toHaveLength(1);
    expect((await import('../src/index')).parkedCount()).toBe(0);
    expect(handle.getState().status).toBe(move ? 'ready' : 'loading');
  });

  test('StrictMode’s own unmount and mount in one task keep the embed, with another embed created between them', async () => {
    onTestFinished(withMoveBefore().restore);
    let minted = 0;
    const session = () => (minted++, freshId());
    const a = createBinding<'dashboard'>();
    const b = createBinding<'dashboard'>();
    bindings.push(a as EmbedBinding, b as EmbedBinding);
    const boxA = box();
    const handle = a.mount(boxA, { surface: 'dashboard', baseUrl: BASE, publicId: 'sales', session })!;
    a.unmount();
    b.mount(box(), { surface: 'dashboard', baseUrl: BASE, publicId: 'other', session });
    expect(a.mount(boxA, { surface: 'dashboard', baseUrl: BASE, publicId: 'sales', session })).toBe(handle);
    await flush();
    expect(handle.getState().status).toBe('loading');
    expect(minted).toBe(2);
  });
});

describe('a container moved into another document (h/edges)', () => {
  test.each([
    ['an inert document', () => document.implementation.createHTMLDocument('other')],
    ["a same-origin iframe's document", () => document.body.appendChild(document.createElement('iframe')).contentDocument!],
  ])(
    'into %s and back: no-container while out, nothing minted; back, it loads again with a fresh session (was: minted there, in error until reload())',
    async (_, other) => {
      const container = box();
      const { handle, session } = await mounted(container);
      deliver(envelope('ready', READY), handle.iframe!.contentWindow);
      expect(handle.getState().status).toBe('ready');
      expect(session).toHaveBeenCalledTimes(1);
      // Moved (what a binding does next: update with the same options, as the element does when connected).
      const iframe = handle.iframe!;
      const into = other();
      into.body.append(container);
      // (A browser discards the frame's window in a document without one; jsdom keeps it.)
      if (!into.defaultView) Object.defineProperty(iframe, 'contentWindow', { value: null });
      handle.update({});
      await flush();
      expect(handle.getState().error?.code).toBe('no-container');
      expect(session).toHaveBeenCalledTimes(1);
      document.body.append(container);
      handle.update({});
      await flush();
      expect(handle.getState().status).toBe('loading');
      expect(session).toHaveBeenCalledTimes(2);
      expect(container.querySelectorAll('iframe')).toHaveLength(1);
      deliver(envelope('ready', READY), handle.iframe!.contentWindow);
      expect(handle.getState().status).toBe('ready');
    },
  );

  test('created in a container of another document: nothing minted; connected to the page, it loads', async () => {
    const container = document.implementation.createHTMLDocument('other').body.appendChild(document.createElement('div'));
    const { handle, session } = await mounted(container);
    expect(handle.getState().error?.code).toBe('no-container');
    expect(session).not.toHaveBeenCalled();
    box().append(container);
    handle.update({});
    await flush();
    expect(session).toHaveBeenCalledTimes(1);
    expect(handle.getState().status).toBe('loading');
  });
});

describe('destroy() called by a host handler, while an event is being told (h/attack3)', () => {
  type Where = 'an on() handler' | 'the on<Event> option' | 'a state listener' | 'a catch-all on("*")';
  test.each<[Where, 'ready' | 'drilldown']>([
    ['an on() handler', 'drilldown'],
    ['the on<Event> option', 'drilldown'],
    ['a catch-all on("*")', 'drilldown'],
    ['an on() handler', 'ready'],
    ['a state listener', 'ready'],
  ])(
    'from %s of %s: no handler of the destroyed embed is called after it (was: the rest of that event’s handlers, its on<Event> and onEvent)',
    async (where, name) => {
      const heard: string[] = [];
      const tell = (what: string) => () => void heard.push(`${what}:${handle.getState().status}`);
      const ends = (what: string) => () => (heard.push(what), handle.destroy());
      const prop = name == 'ready' ? 'onReady' : 'onDrilldown';
      const handle = embedDashboard({
        container: box(),
        baseUrl: BASE,
        publicId: 'sales',
        session: freshId,
        [prop]: where == 'the on<Event> option' ? ends('option') : tell('option'),
        onEvent: tell('onEvent'),
      });
      handles.push(handle);
      if (where == 'a state listener') handle.subscribe((state) => state.status == 'ready' && ends('state')());
      if (where == 'a catch-all on("*")') handle.on('*', (message) => message.type.endsWith(name) && ends('*')());
      handle.on(name, where == 'an on() handler' ? ends('on') : tell('first on'));
      handle.on(name, tell('second on'));
      await flush();
      const frame = handle.iframe!.contentWindow;
      if (name != 'ready') deliver(envelope('ready', READY), frame);
      heard.length = 0;
      deliver(envelope(name, name == 'ready' ? READY : { member: 'orders.status', value: 'open' }), frame);
      expect(handle.getState().status).toBe('destroyed');
      expect(heard.length).toBeGreaterThan(0);
      expect(heard.filter((h) => h.endsWith(':destroyed'))).toEqual([]);
    },
  );
});

describe('a frame taken out of its container by the page, the container still in the page (h/attack3)', () => {
  test('the next update fails the embed (no-container, saying why), mints nothing, and the updates after it do not reload; reload() and a change that reloads do', async () => {
    const container = box();
    const { handle, session } = await mounted(container);
    deliver(envelope('ready', READY), handle.iframe!.contentWindow);
    container.textContent = 'Loading…';
    handle.update({});
    expect(handle.getState().error).toMatchObject({
      code: 'no-container',
      message: expect.stringContaining('took the iframe out of its container'),
    });
    expect(handle.iframe).toBeNull();
    for (let i = 0; i < 3; i++) handle.update({ colorScheme: i % 2 ? 'dark' : 'light' });
    await flush();
    expect(session).toHaveBeenCalledTimes(1);
    expect(handle.getState().status).toBe('error');
    void handle.reload();
    await flush();
    expect(session).toHaveBeenCalledTimes(2);
    expect(container.querySelector('iframe')).toBe(handle.iframe);
    container.replaceChildren();
    handle.update({ publicId: 'costs' });
    await flush();
    expect(session).toHaveBeenCalledTimes(3);
    expect(handle.getState().status).toBe('loading');
  });

  test('moved to another container (an adopter) with its frame out of the document: it loads again there, as before', async () => {
    const first = box();
    const session = vi.fn(async () => freshId());
    const handle = embedDashboard({ container: first, baseUrl: BASE, publicId: 'sales', session });
    handles.push(handle);
    await flush();
    deliver(envelope('ready', READY), handle.iframe!.contentWindow);
    first.replaceChildren();
    const second = box();
    handle.update({ container: second });
    await flush();
    expect(session).toHaveBeenCalledTimes(2);
    expect(second.querySelector('iframe')).toBe(handle.iframe);
    expect(handle.getState().status).toBe('loading');
  });
});

describe('a failure of the SDK’s own with the code fatal reaches the host’s error handlers (h/attack3)', () => {
  test('a frame the browser loaded again (moved without moveBefore), with a session id string (no retry): onError hears it once (was: never, and no console line either)', async () => {
    const onError = vi.fn();
    const handle = embedDashboard({ container: box(), baseUrl: BASE, publicId: 'sales', session: freshId(), onError });
    handles.push(handle);
    await flush();
    const iframe = handle.iframe!;
    deliver(envelope('ready', READY), iframe.contentWindow);
    // What a browser does to a frame moved with appendChild: a new window, its URL loaded again.
    iframe.dispatchEvent(new Event('load'));
    Object.defineProperty(iframe, 'contentWindow', { value: {} });
    iframe.getClientRects = () => [{}] as unknown as DOMRectList;
    iframe.dispatchEvent(new Event('load'));
    expect(handle.getState().error?.code).toBe('fatal');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0]).toMatchObject({ name: 'EmbedError', context: 'fatal', fatal: true });
  });

  test('the embed’s own fatal error, retries spent: its own error event only, once (no second one from the SDK)', async () => {
    const onError = vi.fn();
    const handle = embedDashboard({ container: box(), baseUrl: BASE, publicId: 'sales', session: freshId, retry: false, onError });
    handles.push(handle);
    await flush();
    deliver(envelope('error', { message: 'expired', fatal: true }), handle.iframe!.contentWindow);
    expect(handle.getState().error?.code).toBe('fatal');
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0]).toEqual({ message: 'expired', fatal: true });
  });
});
