import {
  ACTION_PREFIX,
  EVENT_PREFIX,
  EVENT_SCHEMAS,
  EmbedError,
  ErrorCode,
  SOURCE,
  checkPayload,
  isPlainObject,
  releaseEmbeds,
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
  /**
   * Stops answering; pending `ready()`/`next()` calls reject; the page-wide wait a `Retry-After`
   * set ends (as it does at install). Call it after each test. It also releases every embed
   * parked, preloaded or set aside (`releaseEmbeds()`): the next test's `keepAlive` component must
   * not adopt this test's embed, with this test's state.
   */
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
 * Ends the page-wide `Retry-After` wait (the page's session record, shared by every copy of the
 * SDK: see the core's sessions.ts), so that a test that made the platform answer 429 does not
 * hold the next test's session calls. The ids used stay used (an id is single-use on a page).
 * Nothing is created where there is no record, and a record of another shape is left alone.
 */
function resetPageWait(page: object = globalThis): void {
  try {
    const record = (page as Record<symbol, { version?: unknown; until?: unknown; line?: unknown } | undefined>)[
      Symbol.for('platform-embed.sessions@2')
    ];
    if (record?.version === 2) Object.assign(record, { until: 0, line: 0 });
  } catch {}
}

/** One load of an embed: its iframe, the iframe's URL and window. */
interface Load {
  iframe: HTMLIFrameElement;
  url: URL;
  win: Window;
}

/** What the fake keeps of one embed: the embed it hands out, and how a new load of it is recorded. */
interface Tracked {
  embed: FakeEmbed;
  load(next: Load): void;
}

/** Dispatches `dispatch`'s event so that a framework sees the state change (see {@link FakePlatformOptions.act}). */
type Settle = (dispatch: () => void) => Promise<void>;

// Lets a framework see a state change: React through `act`, Vue's scheduler after a few microtasks.
const settleWith =
  (act: FakePlatformOptions['act']): Settle =>
  async (dispatch) => {
    if (act) await act(async () => dispatch());
    else dispatch();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

/** Why the SDK would drop an event `name` with `payload`, or `undefined` when it is a valid event of the catalog. */
function eventProblem(name: string, payload: unknown): string | undefined {
  if (!Object.hasOwn(EVENT_SCHEMAS, name)) return `"${name}" is not an event of the catalog (${Object.keys(EVENT_SCHEMAS).join(', ')})`;
  if (!isPlainObject(payload)) return 'the payload must be an object';
  return checkPayload(EVENT_SCHEMAS[name as EventName], payload);
}

/** The `ready` payload the platform would send for a load of `url` with `session`, with `overrides` over it. */
function readyPayloadFor(url: URL, surface: Surface, session: string | null | undefined, overrides: Partial<ReadyPayload>) {
  const [, publicId, deploymentId] = EMBED_PATH.exec(url.pathname)!;
  let deployment: number | null = null;
  if (deploymentId) deployment = Number(deploymentId);
  else if (session) deployment = 1;
  const payload: Partial<ReadyPayload> = { embedTenant: null, deploymentId: deployment, mode: session ? 'signed' : 'private', surface };
  if (publicId) payload.publicId = decodeURIComponent(publicId);
  return { ...payload, ...overrides };
}

/** Replaces `win.postMessage`: what the SDK posts to the tenant origin is recorded in `actions`, and sent nowhere. */
function recordActions(win: Window, tenantOrigin: string, actions: FakeAction[]): void {
  win.postMessage = (message: { type?: unknown; payload?: unknown }, targetOrigin?: unknown) => {
    if (targetOrigin === tenantOrigin && typeof message?.type == 'string' && message.type.startsWith(ACTION_PREFIX))
      actions.push({ type: message.type.slice(ACTION_PREFIX.length), payload: message.payload } as FakeAction);
  };
}

/** The embed of a container, over every load of it (`first`, then each reload and retry). */
function trackEmbed(first: Load, surface: Surface, settle: Settle, options: FakePlatformOptions): Tracked {
  const sessions: (string | null)[] = [];
  const actions: FakeAction[] = [];
  let current = first;
  // Whether the current load got `ready`, and whether reading `actions` too early was pointed out.
  let answered = false;
  let hinted = false;
  const post = (data: unknown, origin = current.url.origin) =>
    settle(() => window.dispatchEvent(new MessageEvent('message', { origin, source: current.win, data })));
  const emit = async (name: string, payload: unknown) => {
    const problem = eventProblem(name, payload);
    if (problem)
      throw new TypeError(
        `${PREFIX} embed.emit("${name}"): ${problem}. The SDK would drop this event, so the test would see nothing; to test an invalid message, send it with embed.post(data).`,
      );
    if (name == 'ready') answered = true;
    await post({ source: SOURCE, direction: 'event', type: EVENT_PREFIX + name, payload, timestamp: Date.now(), surface });
  };
  const embed: FakeEmbed = {
    surface,
    origin: first.url.origin,
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
    ready: (payload) => emit('ready', readyPayloadFor(current.url, surface, sessions.at(-1), { ...options.ready, ...payload })),
    emit: emit as FakeEmbed['emit'],
    fail: (message = 'the session expired') => emit('error', { message, name: 'SessionError', fatal: true }),
    post,
  };
  // A new load of this embed: a new iframe (a reload, a retry).
  const load = (next: Load) => {
    current = next;
    answered = false;
    sessions.push(next.url.searchParams.get(surface == 'chat' ? 'sessionId' : 'session'));
    // The SDK posts only to the tenant origin: the fake records what it sent, and sends it nowhere.
    recordActions(next.win, next.url.origin, actions);
  };
  load(first);
  return { embed, load };
}

/** An iframe the SDK mounted (its URL is an embed URL and it has a window), as a load of which surface; else `undefined`. */
function embedLoad(iframe: HTMLIFrameElement): [Load, Surface] | undefined {
  let url: URL;
  try {
    url = new URL(iframe.src);
  } catch {
    return;
  }
  const path = EMBED_PATH.exec(url.pathname);
  const win = iframe.contentWindow;
  if (!path || !win) return;
  let surface: Surface = 'chat';
  if (path[1]) surface = 'dashboard';
  else if (path[2]) surface = 'app';
  return [{ iframe, url, win }, surface];
}

/**
 * Gives iframes a window where the DOM gives them none: happy-dom loads no iframe page in a test
 * (its `contentWindow` is `null`), so the SDK would have no window to route and post to, and the
 * fake none to post from. A stand-in per iframe in the document, which only takes `postMessage`,
 * is enough for both. Where the DOM gives one (jsdom), that one is used.
 * @returns undoes it (at uninstall)
 */
function lendWindows(): () => void {
  const prototype = HTMLIFrameElement.prototype;
  const own = Object.getOwnPropertyDescriptor(prototype, 'contentWindow');
  if (!own?.get || !own.configurable) return () => {};
  const standIns = new WeakMap<HTMLIFrameElement, Window>();
  Object.defineProperty(prototype, 'contentWindow', {
    ...own,
    get(this: HTMLIFrameElement) {
      const real = own.get!.call(this) as Window | null;
      // (As in a browser, an iframe out of the document has no window, and one put back another.)
      if (real || !this.isConnected) {
        standIns.delete(this);
        return real;
      }
      let standIn = standIns.get(this);
      if (!standIn) standIns.set(this, (standIn = { postMessage() {} } as unknown as Window));
      return standIn;
    },
  });
  return () => Object.defineProperty(prototype, 'contentWindow', own);
}

/**
 * Calls `found` once for each embed iframe in the document: those there now (mounted before
 * install), then each one inserted, in the microtask after its insertion.
 * @returns the observer, to disconnect
 */
function watchEmbeds(found: (mounted: [Load, Surface]) => void): MutationObserver {
  const seen = new WeakSet<HTMLIFrameElement>();
  const check = (iframe: HTMLIFrameElement) => {
    if (seen.has(iframe)) return;
    seen.add(iframe);
    const mounted = embedLoad(iframe);
    if (mounted) found(mounted);
  };
  const scan = (node: Node) => {
    if (node instanceof HTMLIFrameElement) check(node);
    else if (node instanceof Element) node.querySelectorAll('iframe').forEach(check);
  };
  const observer = new MutationObserver((records) => records.forEach((r) => r.addedNodes.forEach(scan)));
  observer.observe(document, { childList: true, subtree: true });
  scan(document.documentElement);
  return observer;
}

const uninstalledError = () => new EmbedError(ErrorCode.Destroyed, 'the fake platform was uninstalled');

/** The loads not handed out yet, and the calls waiting for one (`next`, with a timeout). */
function createHandOut(defaultTimeout: number) {
  const pending: FakeEmbed[] = [];
  const waiting: [(embed: FakeEmbed) => void, (error: Error) => void][] = [];
  let open = true;
  const next = ({ timeout }: FakeWaitOptions = {}) =>
    new Promise<FakeEmbed>((resolve, reject) => {
      if (!open) return reject(uninstalledError());
      const embed = pending.shift();
      if (embed) return resolve(embed);
      const ms = timeout ?? defaultTimeout;
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
  return {
    next,
    /** Hands a new load out: to the oldest waiting call, else to the next one. */
    handOut(embed: FakeEmbed) {
      const waiter = waiting.shift();
      if (waiter) waiter[0](embed);
      else pending.push(embed);
    },
    /** No more loads: the waiting calls reject. */
    close() {
      open = false;
      pending.length = 0;
      waiting.splice(0).forEach(([, reject]) => reject(uninstalledError()));
    },
  };
}

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
  // Each test starts without the wait a 429 of an earlier one left (and ends without its own: see uninstall).
  resetPageWait();
  const returnWindows = lendWindows();
  const embeds: FakeEmbed[] = [];
  const byContainer = new Map<Node, Tracked>();
  const loads = createHandOut(options.timeout ?? WAIT_MS);
  let installed = true;

  const settle = settleWith(options.act);

  const observer = watchEmbeds(([load, surface]) => {
    if (!installed) return;
    const container = load.iframe.parentNode!;
    let entry = byContainer.get(container);
    if (entry && entry.embed.surface == surface && entry.embed.origin == load.url.origin) entry.load(load);
    else {
      byContainer.set(container, (entry = trackEmbed(load, surface, settle, options)));
      embeds.push(entry.embed);
    }
    loads.handOut(entry.embed);
  });

  const fake: FakePlatform = {
    next: loads.next,
    ready: async (payload, wait) => {
      const embed = await loads.next(wait);
      await embed.ready(payload);
      return embed;
    },
    embeds,
    createSession: () => `fake-session-${++sessionCount}`,
    uninstall() {
      if (installedFake === fake) installedFake = undefined;
      installed = false;
      observer.disconnect();
      loads.close();
      releaseEmbeds();
      resetPageWait();
      returnWindows();
    },
  };
  return (installedFake = fake);
}
