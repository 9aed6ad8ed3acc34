import {
  ACTION_PREFIX,
  EVENT_PREFIX,
  EVENT_SCHEMAS,
  EmbedError,
  ErrorCode,
  SOURCE,
  checkPayload,
  isPlainObject,
  type ActionMap,
  type ActionName,
  type EventMap,
  type EventName,
  type ReadyPayload,
  type Surface,
} from '@platform-embed/core';

/*
 * The fake replaces only the frame. The SDK (or a binding) mounts its iframe as in a browser;
 * jsdom gives the iframe a `contentWindow` but never loads the tenant's page, so nothing would
 * answer. The fake notices every embed iframe as it is inserted (a MutationObserver on the
 * document: its callback runs in the microtask after the insertion, before any task of the test
 * runs), wraps that window's `postMessage` to record the actions, and posts events as the embed
 * would: a `MessageEvent` dispatched on `window` with the iframe's window as `source` and the
 * tenant origin (from the iframe URL) as `origin`. So every event still goes through the real
 * page listener, its source and origin checks, the envelope and payload validation and the handlers.
 */

/** An action the SDK posted to the embed: its short name and payload (the envelope without `timestamp`). */
export type FakeAction = { [K in ActionName]: { type: K; payload: ActionMap[K] } }[ActionName];

/** Options of {@link installFakePlatform}. */
export interface FakePlatformOptions {
  /**
   * Wraps every event the fake posts, so the host framework sees its state changes at once:
   * pass React Testing Library's `act`. Without it events are dispatched directly and each
   * method waits a few microtasks (enough for Vue's scheduler).
   * @example
   * ```ts
   * import { act } from '@testing-library/react';
   * const fake = installFakePlatform({ act });
   * ```
   */
  act?: (callback: () => Promise<void>) => unknown;
  /** Fields of every `ready` payload, over the ones derived from the iframe URL. */
  ready?: Partial<ReadyPayload>;
  /**
   * How long {@link FakePlatform.ready} and {@link FakePlatform.next} wait for an embed to mount:
   * longer than the SDK's longest retry delay (2 s with the default `retry`), shorter than Vitest's
   * and Jest's default test timeout (5 s), so a test that mounts nothing fails with this kit's
   * message rather than the runner's "Test timed out". Each call may pass its own.
   * @default 3000
   */
  timeout?: number;
}

/** Options of one {@link FakePlatform.ready} or {@link FakePlatform.next} call. */
export interface FakeWaitOptions {
  /** How long to wait for an embed to mount, in milliseconds. @default the `timeout` of {@link installFakePlatform}, 3000 */
  timeout?: number;
}

/** One embed as the fake sees it: the iframes of one container, over every load (reloads, retries). */
export interface FakeEmbed {
  /** The surface, from the iframe URL. */
  readonly surface: Surface;
  /** The tenant origin, from the iframe URL: the origin the events come from. */
  readonly origin: string;
  /** The current load's iframe. */
  readonly iframe: HTMLIFrameElement;
  /** The current load's URL (the launch options are its query parameters). */
  readonly url: URL;
  /** Whether the current iframe is still in the document (`false` after destroy or unmount). */
  readonly mounted: boolean;
  /** The session id each load used, oldest first, from the iframe URLs; `null` for a private-mode load. */
  readonly sessions: (string | null)[];
  /**
   * The actions the SDK posted to this embed's iframes, in order. The SDK holds actions until the
   * embed is ready, so none are here before {@link FakeEmbed.ready} (read before it, while empty,
   * it says so once with `console.warn`).
   */
  readonly actions: FakeAction[];
  /** Whether the current load was answered with `ready` (the SDK posts its actions from then on). */
  readonly isReady: boolean;
  /** Answers the current load with `ready`: the payload is derived from the URL, `payload` overrides fields. */
  ready(payload?: Partial<ReadyPayload>): Promise<void>;
  /**
   * Posts an event of the catalog from the embed, as the platform would.
   * @throws (rejects) when `name` is not an event of the catalog or `payload` does not match it:
   *   the SDK would drop such an event, so the test would see nothing. To test how the host copes
   *   with an invalid message, send it with {@link FakeEmbed.post}.
   * @example
   * ```ts
   * await embed.emit('drilldown', { member: 'orders.count', value: 42 });
   * ```
   */
  emit<K extends EventName>(name: K, payload: EventMap[K]): Promise<void>;
  /**
   * Posts a fatal `error` event, as the platform does when a load fails (an expired session, ...).
   * The SDK retries it with a fresh session when `session` is a function (`retry`, default 3):
   * answer the retry with {@link FakePlatform.ready}, or pass `retry: false` to see the `error` state at once.
   */
  fail(message?: string): Promise<void>;
  /** Posts any `data` from the current iframe's window, with the tenant origin unless `origin` is given (for invalid messages). */
  post(data: unknown, origin?: string): Promise<void>;
}

/** The installed fake: hands out the embeds as they mount. */
export interface FakePlatform {
  /**
   * Waits for the next load of any embed that has not been answered yet (one already mounted
   * counts), answers it with `ready`, and returns its embed.
   * @throws when no embed mounts within `timeout` milliseconds.
   */
  ready(payload?: Partial<ReadyPayload>, options?: FakeWaitOptions): Promise<FakeEmbed>;
  /** Like {@link FakePlatform.ready} without answering: the embed stays `loading` (to test a loading UI or a failure). */
  next(options?: FakeWaitOptions): Promise<FakeEmbed>;
  /** Every embed seen since install, in mount order. */
  readonly embeds: readonly FakeEmbed[];
  /** A fresh session id (`fake-session-<n>`), unique on the page, for a stubbed session endpoint. */
  createSession(): string;
  /** Stops answering; pending `ready()`/`next()` calls reject. Call it after each test. */
  uninstall(): void;
}

const EMBED_PATH = /^\/embed\/(?:dashboard\/([^/]+)|chat|d\/([^/]+)\/app)$/;
/** The default of {@link FakePlatformOptions.timeout}: see there why 3 s. */
const WAIT_MS = 3000;
const PREFIX = '[platform-embed/testing]';
let sessionCount = 0;
/** The fake installed last, while it is installed: a second install without uninstall() replaces it. */
let installedFake: FakePlatform | undefined;

/**
 * Installs a fake of the platform in a DOM test environment (jsdom, happy-dom): every embed the
 * SDK or a binding mounts from now on is answered by an in-process fake that the test drives.
 * Works in Vitest and Jest, ESM and CommonJS, with React Testing Library and Vue Test Utils.
 *
 * @example
 * ```ts
 * const fake = installFakePlatform();
 * render(<SalesDashboard />);
 * const embed = await fake.ready();
 * await embed.emit('drilldown', { member: 'orders.count' });
 * expect(embed.actions).toContainEqual({ type: 'set-color-scheme', payload: { scheme: 'dark' } });
 * fake.uninstall();
 * ```
 */
export function installFakePlatform(options: FakePlatformOptions = {}): FakePlatform {
  if (typeof document == 'undefined' || typeof MutationObserver == 'undefined')
    throw new EmbedError(
      ErrorCode.NoDom,
      'installFakePlatform needs a DOM: run the test in jsdom (Vitest `environment: "jsdom"`, Jest `testEnvironment: "jsdom"`)',
    );
  if (installedFake) {
    console.warn(
      `${PREFIX} installFakePlatform() was called while another fake platform is installed: call fake.uninstall() after each test (afterEach). The earlier one is uninstalled now, so that only this one answers the embeds.`,
    );
    installedFake.uninstall();
  }
  const embeds: FakeEmbed[] = [];
  const byContainer = new Map<Node, ReturnType<typeof track>>();
  const seen = new WeakSet<HTMLIFrameElement>();
  // Loads not handed out yet, and the calls waiting for one.
  const pending: FakeEmbed[] = [];
  const waiting: [(embed: FakeEmbed) => void, (error: Error) => void][] = [];
  let installed = true;

  // Lets a framework see a state change: React through `act`, Vue's scheduler after a few microtasks.
  const settle = async (dispatch: () => void) => {
    if (options.act) await options.act(async () => dispatch());
    else dispatch();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  function track(iframe: HTMLIFrameElement, url: URL, surface: Surface, win: Window) {
    const sessions: (string | null)[] = [];
    const actions: FakeAction[] = [];
    let current = { iframe, url, win };
    // Whether the current load got `ready`, and whether reading `actions` too early was pointed out.
    let answered = false;
    let hinted = false;
    const post = (data: unknown, origin = current.url.origin) =>
      settle(() => window.dispatchEvent(new MessageEvent('message', { origin, source: current.win, data })));
    const emit = async (name: string, payload: unknown) => {
      const problem = !Object.hasOwn(EVENT_SCHEMAS, name)
        ? `"${name}" is not an event of the catalog (${Object.keys(EVENT_SCHEMAS).join(', ')})`
        : isPlainObject(payload)
          ? checkPayload(EVENT_SCHEMAS[name as EventName], payload)
          : 'the payload must be an object';
      if (problem)
        throw new TypeError(
          `${PREFIX} embed.emit("${name}"): ${problem}. The SDK would drop this event, so the test would see nothing; to test an invalid message, send it with embed.post(data).`,
        );
      if (name == 'ready') answered = true;
      await post({ source: SOURCE, direction: 'event', type: EVENT_PREFIX + name, payload, timestamp: Date.now(), surface });
    };
    const embed: FakeEmbed = {
      surface,
      origin: url.origin,
      get iframe() {
        return current.iframe;
      },
      get url() {
        return current.url;
      },
      get mounted() {
        return current.iframe.isConnected;
      },
      sessions,
      get actions() {
        if (!answered && !actions.length && !hinted) {
          hinted = true;
          console.warn(
            `${PREFIX} embed.actions was read before this embed was answered with ready: the SDK holds actions until ready, so there are none yet. Answer it first (await fake.ready(), or await embed.ready() after fake.next()).`,
          );
        }
        return actions;
      },
      get isReady() {
        return answered;
      },
      ready: (payload) => {
        const u = current.url;
        const [, publicId, deploymentId] = EMBED_PATH.exec(u.pathname)!;
        const session = sessions.at(-1);
        return emit('ready', {
          embedTenant: null,
          deploymentId: deploymentId ? Number(deploymentId) : session ? 1 : null,
          mode: session ? 'signed' : 'private',
          surface,
          ...(publicId ? { publicId: decodeURIComponent(publicId) } : {}),
          ...options.ready,
          ...payload,
        });
      },
      emit: emit as FakeEmbed['emit'],
      fail: (message = 'the session expired') => emit('error', { message, name: 'SessionError', fatal: true }),
      post,
    };
    // A new load of this embed: a new iframe (a reload, a retry).
    const load = (iframe: HTMLIFrameElement, url: URL, win: Window) => {
      current = { iframe, url, win };
      answered = false;
      sessions.push(url.searchParams.get(surface == 'chat' ? 'sessionId' : 'session'));
      // The SDK posts only to the tenant origin: the fake records what it sent, and sends it nowhere.
      win.postMessage = (message: { type?: unknown; payload?: unknown }, targetOrigin?: unknown) => {
        if (targetOrigin === url.origin && typeof message?.type == 'string' && message.type.startsWith(ACTION_PREFIX))
          actions.push({ type: message.type.slice(ACTION_PREFIX.length), payload: message.payload } as FakeAction);
      };
    };
    load(iframe, url, win);
    return { embed, load };
  }

  const handOut = (embed: FakeEmbed) => {
    const waiter = waiting.shift();
    if (waiter) waiter[0](embed);
    else pending.push(embed);
  };

  const found = (iframe: HTMLIFrameElement) => {
    if (seen.has(iframe)) return;
    seen.add(iframe);
    let url: URL;
    try {
      url = new URL(iframe.src);
    } catch {
      return;
    }
    const path = EMBED_PATH.exec(url.pathname);
    const win = iframe.contentWindow;
    if (!path || !win || !installed) return;
    const surface: Surface = path[1] ? 'dashboard' : path[2] ? 'app' : 'chat';
    const container = iframe.parentNode!;
    let entry = byContainer.get(container);
    if (entry && entry.embed.surface == surface && entry.embed.origin == url.origin) entry.load(iframe, url, win);
    else {
      byContainer.set(container, (entry = track(iframe, url, surface, win)));
      embeds.push(entry.embed);
    }
    handOut(entry.embed);
  };

  const scan = (node: Node) => {
    if (node instanceof HTMLIFrameElement) found(node);
    else if (node instanceof Element) node.querySelectorAll('iframe').forEach(found);
  };
  const observer = new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach(scan)));
  observer.observe(document, { childList: true, subtree: true });
  // Embeds mounted before install are answered too.
  scan(document.documentElement);

  const next = ({ timeout }: FakeWaitOptions = {}) =>
    new Promise<FakeEmbed>((resolve, reject) => {
      if (!installed) return reject(new EmbedError(ErrorCode.Destroyed, 'the fake platform was uninstalled'));
      const embed = pending.shift();
      if (embed) return resolve(embed);
      const ms = timeout ?? options.timeout ?? WAIT_MS;
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(waiter), 1);
        reject(
          new EmbedError(
            ErrorCode.Timeout,
            `no embed mounted within ${ms} ms: render the component first, in a container attached to the document, and check that its session function resolves (a longer wait: fake.next({ timeout }) or installFakePlatform({ timeout }))`,
          ),
        );
      }, ms);
      const waiter: (typeof waiting)[number] = [(embed) => (clearTimeout(timer), resolve(embed)), (e) => (clearTimeout(timer), reject(e))];
      waiting.push(waiter);
    });

  const fake: FakePlatform = {
    next,
    ready: async (payload, wait) => {
      const embed = await next(wait);
      await embed.ready(payload);
      return embed;
    },
    embeds,
    createSession: () => `fake-session-${++sessionCount}`,
    uninstall() {
      if (installedFake === fake) installedFake = undefined;
      installed = false;
      observer.disconnect();
      pending.length = 0;
      waiting.splice(0).forEach(([, reject]) => reject(new EmbedError(ErrorCode.Destroyed, 'the fake platform was uninstalled')));
    },
  };
  return (installedFake = fake);
}
