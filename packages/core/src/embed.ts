import { EmbedError, ErrorCode, type EmbedErrorCode } from './errors';
import { listen, unlisten } from './listener';
import { normalizeBaseUrl } from './origin';
import {
  ACTION_PREFIX,
  EVENT_PREFIX,
  EVENT_SCHEMAS,
  createAction,
  isEventName,
  parseMessage,
  shortName,
  type ActionArgs,
  type ActionMessage,
  type ActionName,
  type ActionType,
  type ColorScheme,
  type EmbedTheme,
  type EventMap,
  type EventMessage,
  type EventName,
  type EventType,
  type ReadyPayload,
  type Surface,
  type UnknownEventMessage,
} from './protocol';
import {
  buildEmbedUrl,
  compileOptions,
  filterUrlParameter,
  redactSession,
  refuse,
  type AppLaunchOptions,
  type ChatLaunchOptions,
  type DashboardLaunchOptions,
  type FilterValue,
} from './url';

/** What a `session` function may return: the session id, or generate-session's `{ sessionId }` body. */
export type SessionResult = string | { sessionId: string };

/**
 * A session id, or a function that asks the host's backend for a fresh one.
 *
 * Sessions are single-use: the function is called once for every iframe load (first
 * mount and each `reload()`), never reused. Its `signal` aborts when the load is
 * superseded or the embed destroyed.
 */
export type SessionSource = string | ((context: { signal: AbortSignal }) => SessionResult | Promise<SessionResult>);

/** Attributes of the iframe the SDK creates. The host decides the size (through the container or `style`). */
export interface IframeOptions {
  /** Accessible title of the iframe. @default 'Analytics dashboard' | 'Analytics chat' | 'Analytics app' */
  title?: string;
  /** Permissions policy. @default 'fullscreen; clipboard-write' */
  allow?: string;
  /**
   * Optional sandbox tokens. Must include `allow-scripts` and `allow-same-origin`, without
   * which the embed cannot run or its messages would come from the origin `"null"`.
   */
  sandbox?: string;
  /** Referrer policy of the iframe request. */
  referrerPolicy?: ReferrerPolicy;
  /** Native lazy loading. */
  loading?: 'eager' | 'lazy';
  /** Class name(s) of the iframe. */
  className?: string;
  /** Inline style of the iframe. @default 'border:0;width:100%;height:100%;display:block' */
  style?: string;
}

/** Something the SDK noticed and dropped, for debugging an integration. Never contains a session id. */
export type Diagnostic =
  /** A message from our iframe's window whose origin is not the tenant origin (the frame navigated away). */
  | { kind: 'origin-mismatch'; origin: string }
  /** A message from our iframe that is not a valid event; `reason` says why. */
  | { kind: 'invalid-message'; reason: string }
  /** A host handler or state listener threw; other handlers still ran. */
  | { kind: 'handler-error'; type: string; error: unknown };

/** Options shared by all surfaces. */
export interface BaseEmbedOptions extends IframeOptions {
  /** The element to mount into, or a CSS selector for it. */
  container: HTMLElement | string;
  /** The tenant host or custom domain, e.g. `https://acme.platform.example`. Its origin is the only one trusted. */
  baseUrl: string | URL;
  /** Session id or a function minting a fresh one per load. Omit for private mode (dashboard, chat). */
  session?: SessionSource;
  /** Milliseconds to wait for `ready` before entering the `timeout` error state; `0` waits forever. @default 30000 */
  readyTimeout?: number;
  /** Receives what the SDK dropped and why. Without it, only throwing handlers are reported (console.error). */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** Logs mounts, events and actions; `true` uses `console.debug`. Session ids are redacted. @default false */
  debug?: boolean | ((...args: unknown[]) => void);
}

/** Options of {@link embedDashboard}. */
export interface DashboardEmbedOptions extends BaseEmbedOptions, DashboardLaunchOptions {
  /** The published dashboard's public id. */
  publicId: string;
}
/** Options of {@link embedChat}. */
export interface ChatEmbedOptions extends BaseEmbedOptions, ChatLaunchOptions {}
/** Options of {@link embedApp}. The app surface needs a signed session. */
export interface AppEmbedOptions extends BaseEmbedOptions, AppLaunchOptions {
  /** The deployment whose creator-mode app is embedded. */
  deploymentId: number | string;
  session: SessionSource;
}

/** Embed options by surface. */
export interface EmbedOptionsMap {
  dashboard: DashboardEmbedOptions;
  chat: ChatEmbedOptions;
  app: AppEmbedOptions;
}

/** Lifecycle status of an embed. `idle` is for adapters that have not mounted yet. */
export type EmbedStatus = 'idle' | 'loading' | 'ready' | 'error' | 'destroyed';

/** An immutable snapshot of an embed's state; a new object on every change. */
export interface EmbedState {
  status: EmbedStatus;
  /** The error of the `error` status, else `null`. */
  error: EmbedError | null;
  /** The `ready` payload of the current load, else `null`. */
  ready: ReadyPayload | null;
}

/** Handler of one event: the payload, and the whole envelope (with `surface` and `timestamp`). */
export type EventHandler<K extends EventName> = (payload: EventMap[K], message: EventMessage<K>) => void;
/** Catch-all handler: every valid event, including event types this SDK version does not know (untyped). */
export type AnyEventHandler = (message: EventMessage | UnknownEventMessage) => void;
type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

/** The handler prop of an event in framework bindings: `dashboard-loaded` → `onDashboardLoaded`. */
export type EventPropName<K extends EventName = EventName> = `on${Capitalize<Camel<K>>}`;

/**
 * One optional handler per event of the catalog (`onReady`, `onView`, `onNavigate`,
 * `onDashboardLoaded`, `onDownload`, `onDrilldown`, `onAiQuery`, `onError`), each called with
 * the validated payload and the envelope, plus `onEvent`, called with every valid event
 * (including event types this SDK version does not know). Derived from the catalog.
 */
export type EventHandlerProps = { [K in EventName as EventPropName<K>]?: EventHandler<K> } & {
  /** Catch-all: every valid event envelope, known or not, after the typed handler. */
  onEvent?: AnyEventHandler;
};

/** What a framework binding takes: the surface, that surface's options (without `container`) and `on<Event>` handlers. */
export type EmbedBindingOptions<S extends Surface> = { surface: S } & Omit<EmbedOptionsMap[S], 'container'> & EventHandlerProps;

/** Removes the handler or listener it was returned for. */
export type Unsubscribe = () => void;

/** The handle of a mounted embed. */
export interface EmbedHandle<S extends Surface = Surface> {
  /** The embedded surface. */
  readonly surface: S;
  /** The tenant origin: the only origin messages are accepted from and posted to. */
  readonly origin: string;
  /** The current iframe, or `null` while a session is fetched and after destroy. */
  readonly iframe: HTMLIFrameElement | null;
  /** Resolves with the `ready` payload of the current load; rejects when the load fails or the embed is destroyed first. */
  readonly ready: Promise<ReadyPayload>;
  /** The error of the `error` status, else `null`. */
  readonly error: EmbedError | null;
  /** The current state snapshot (stable until the next change, for `useSyncExternalStore`). */
  getState(): EmbedState;
  /** Calls `listener` after every state change. */
  subscribe(listener: (state: EmbedState) => void): Unsubscribe;
  /**
   * Adds a typed event handler (short name `'view'` or full `'platform:event:view'`), or a
   * catch-all with `'*'`. A `ready` handler added after ready is called at once.
   * @example
   * ```ts
   * handle.on('drilldown', ({ member, value }) => console.log(member, value));
   * ```
   */
  on<K extends EventName>(type: K | EventType<K>, handler: EventHandler<K>): Unsubscribe;
  /** Adds a catch-all handler: every valid event, including event types this SDK version does not know (untyped). */
  on(type: '*', handler: AnyEventHandler): Unsubscribe;
  /** Like {@link EmbedHandle.on}, removed after the first call. */
  once<K extends EventName>(type: K | EventType<K>, handler: EventHandler<K>): Unsubscribe;
  /** Like the catch-all {@link EmbedHandle.on}, removed after the first call. */
  once(type: '*', handler: AnyEventHandler): Unsubscribe;
  /** Removes a handler added with `on` or `once`. */
  off<K extends EventName>(type: K | EventType<K>, handler: EventHandler<K>): void;
  /** Removes a catch-all handler added with `on('*')` or `once('*')`. */
  off(type: '*', handler: AnyEventHandler): void;
  /**
   * Sends an action. The payload is validated first (an invalid one throws and nothing is
   * sent); before `ready` actions are queued and flushed in order once the embed is ready.
   * @throws {EmbedError} `invalid-action`, or `destroyed` after {@link EmbedHandle.destroy}.
   */
  send<K extends ActionName>(type: K | ActionType<K>, ...payload: ActionArgs<K>): void;
  /** Switches the color scheme (`auto` follows the viewer's OS). Re-applied after a reload. */
  setColorScheme(scheme: ColorScheme): void;
  /** Applies a brand theme. Re-applied after a reload. */
  setTheme(theme: EmbedTheme): void;
  /** Switches the UI language. Re-applied after a reload. */
  setLocale(locale: string): void;
  /** Pushes a filter into a dashboard, built with {@link filterUrlParameter}. */
  setFilter(view: string, dimension: string, value: FilterValue): void;
  /** Pushes a filter given as a ready-made `f_<view>.<dimension>=<JSON>` string. */
  setFilter(filterUrlParameter: string): void;
  /** Navigates to an in-embed path. */
  navigate(path: string): void;
  /** Re-runs the embed's queries. */
  refresh(): void;
  /**
   * Loads the embed again in a new iframe with a fresh session (from the `session`
   * function, or the one passed here). Queued actions are kept; the last color scheme,
   * theme and locale are applied again.
   * @returns the new load's `ready` promise.
   */
  reload(session?: string): Promise<ReadyPayload>;
  /** Removes the iframe, listeners, queued actions and timers. Idempotent. */
  destroy(): void;
}

const STICKY: string[] = /* @__PURE__ */ ['set-color-scheme', 'set-theme', 'set-locale'].map((a) => ACTION_PREFIX + a);
// Session ids used on this page, with when: a session is single-use, across all embeds. It is
// also valid for 5 minutes only, so ids older than 10 minutes are forgotten (memory stays bounded
// on a page that reloads its embeds all day; the platform refuses such an id anyway).
const USED = new Map<string, number>();
const FORGET_AFTER = 600000;
const ATTRIBUTES = ['title', 'allow', 'referrerPolicy', 'loading', 'className'] as const;
const noop = () => {};
// The controller's own options, in the descriptor language of the protocol (the URL builder checks the rest).
const checkOptions = /* @__PURE__ */ compileOptions({
  session: 'non-empty string|function?',
  sandbox: 'string with allow-scripts and allow-same-origin?',
  readyTimeout: 'number>=0?',
  debug: 'boolean|function?',
  onDiagnostic: 'function?',
});

// A handler and whether it runs once. Lists are copy-on-write: dispatch iterates the current
// array without copying it, and a change made during a dispatch builds a new one for the next event.
type Entry = [fn: Function, once?: boolean];
const NONE: readonly Entry[] = [];

/**
 * Mounts an embed of any surface. Prefer {@link embedDashboard}, {@link embedChat} and {@link embedApp}.
 * @throws {EmbedError} synchronously for unusable options (`invalid-option`, `no-container`, `no-dom`).
 */
export function createEmbed<S extends Surface>(surface: S, options: EmbedOptionsMap[S]): EmbedHandle<S> {
  const o = options as DashboardEmbedOptions & AppEmbedOptions;
  const error = (code: EmbedErrorCode, text: string, cause?: unknown) => new EmbedError(code, text, { cause });
  if (typeof document == 'undefined') throw error(ErrorCode.NoDom, 'mount in the browser (e.g. in an effect), not during server rendering');
  const origin = normalizeBaseUrl(o.baseUrl);
  const source = o.session;
  refuse(checkOptions(o as unknown as Record<string, unknown>));
  // Read once; longer than setTimeout can wait (about 24.8 days) is forever, like 0.
  const timeout = Math.min(o.readyTimeout ?? 30000, 2 ** 31 - 1) % (2 ** 31 - 1);
  // Built once now with a placeholder session, so a bad launch option throws here, not at load.
  buildEmbedUrl(surface, { ...o, session: source && '-' });
  const container = typeof o.container == 'string' ? document.querySelector<HTMLElement>(o.container) : o.container;
  if (!container?.appendChild)
    throw error(ErrorCode.NoContainer, `container ${String(o.container)} not found: pass an element or a selector`);

  // Session ids seen on this page never reach a log line or an error message.
  // This embed's current session id: redacted for the embed's whole life, even once forgotten by USED.
  let current = '';
  const redact = (text: string) => {
    for (const id of [current, ...USED.keys()]) if (id) text = text.split(id).join('[redacted]');
    return redactSession(text);
  };
  const log = o.debug === true ? console.debug.bind(console, '[platform-embed]') : o.debug || noop;
  // Event handlers by short name, and state listeners under ' state' (no event has that name).
  const handlers = new Map<string, readonly Entry[]>();
  const sticky = new Map<string, ActionMessage>();
  let queue: ActionMessage[] = [];
  let state: EmbedState = { status: 'loading', error: null, ready: null };
  let iframe: HTMLIFrameElement | null = null;
  let win: Window | null = null;
  let readyMessage: EventMessage<'ready'> | undefined;
  let loads = 0;
  let abort: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ready: Promise<ReadyPayload>;
  let settle: [(p: ReadyPayload) => void, (e: EmbedError) => void];

  const add = (name: string, fn: Function, once?: boolean) => {
    const list = handlers.get(name) ?? [];
    // The same function twice is one handler (as with addEventListener); its last `once` wins, in place.
    handlers.set(name, list.some((e) => e[0] === fn) ? list.map((e) => (e[0] === fn ? [fn, once] : e)) : [...list, [fn, once]]);
    return () => remove(name, fn);
  };
  const remove = (name: string, fn: Function) => {
    const list = handlers.get(name);
    if (list?.some((e) => e[0] === fn))
      handlers.set(
        name,
        list.filter((e) => e[0] !== fn),
      );
  };
  const diagnose = (d: Diagnostic) => {
    log('dropped', d);
    try {
      if (o.onDiagnostic) return o.onDiagnostic(d);
    } catch (error) {
      d = { kind: 'handler-error', type: 'onDiagnostic', error };
    }
    if (d.kind == 'handler-error') console.error('[platform-embed] handler threw', d.error);
  };
  // A host's bug stays the host's: a throwing handler is reported, the others still run.
  const call = (fn: Function, type: string, first: unknown, second?: unknown) => {
    try {
      fn(first, second);
    } catch (error) {
      diagnose({ kind: 'handler-error', type, error });
    }
  };
  const emit = (name: string, first: unknown, message: EventMessage | UnknownEventMessage) => {
    for (const [fn, once] of handlers.get(name) ?? NONE) {
      if (once) remove(name, fn);
      call(fn, message.type, first, message);
    }
  };
  const set = (status: EmbedStatus, error: EmbedError | null = null, payload: ReadyPayload | null = null) => {
    const next = (state = { status, error, ready: payload });
    // A listener that changed the state re-entrantly has had every listener told the newer
    // state: the rest of this, outdated, notification is dropped.
    for (const [fn] of handlers.get(' state') ?? NONE) if (state === next) call(fn, 'state', next);
  };
  const fail = (error: EmbedError) => {
    clearTimeout(timer);
    log(error.message);
    set('error', error);
    settle[1](error);
  };
  const post = (message: ActionMessage) => {
    message.timestamp = Date.now();
    if (STICKY.includes(message.type)) sticky.set(message.type, message);
    log('action', message.type);
    win!.postMessage(message, origin);
  };
  const unmount = () => {
    if (win) unlisten(win);
    iframe?.remove();
    iframe = win = null;
  };

  // Called only for messages whose event.source is our iframe's window (see listener.ts).
  const receive = (event: MessageEvent) => {
    // Our window, another origin: the frame was navigated away. Its data is not read.
    if (event.origin !== origin) return diagnose({ kind: 'origin-mismatch', origin: event.origin });
    const result = parseMessage(event.data);
    if (!result.ok) return diagnose({ kind: 'invalid-message', reason: redact(result.reason) });
    const message = result.message;
    const name = message.type.slice(EVENT_PREFIX.length);
    log('event', message.type);
    if (result.known) {
      if (name == 'ready') {
        clearTimeout(timer);
        readyMessage = message as EventMessage<'ready'>;
        // Queued actions go out before any ready handler or state listener runs, so an
        // action sent from one of those cannot overtake them.
        queue.splice(0).forEach(post);
        set('ready', null, readyMessage.payload);
        settle[0](readyMessage.payload);
      } else if (name == 'error' && (message as EventMessage<'error'>).payload.fatal)
        fail(error(ErrorCode.Fatal, `the embed failed: ${redact((message as EventMessage<'error'>).payload.message)}`));
      emit(name, message.payload, message);
    }
    emit('*', message, message);
  };

  const load = (override?: string): Promise<ReadyPayload> => {
    const id = ++loads;
    const session = override ?? source;
    abort?.abort();
    clearTimeout(timer);
    unmount();
    readyMessage = undefined;
    // What the host set before stays set: replayed first, before anything newly queued
    // (a Set, so that reloading twice before ready does not replay it twice).
    queue = [...new Set([...sticky.values(), ...queue])];
    const previous = settle;
    ready = new Promise<ReadyPayload>((...fns) => (settle = fns));
    // Whoever awaits the superseded load's `ready` gets this load's outcome instead.
    previous?.[0](ready as unknown as ReadyPayload);
    ready.catch(noop); // failures surface as state and `error`, never as an unhandled rejection
    if (state.status != 'loading') set('loading');
    const { signal } = (abort = new AbortController());
    (async () => {
      // Yield once first: a mount undone in the same tick (React StrictMode) never mints a session.
      await 0;
      if (id != loads) return;
      let sid: SessionResult | undefined = typeof session == 'function' ? await session({ signal }) : session;
      if (id != loads) return;
      if (typeof sid == 'object' && sid) sid = sid.sessionId;
      // A monotonic clock: a wall clock moved forward (sleep, NTP) must not forget ids early.
      const now = performance.now();
      // Oldest first (insertion order): stop at the first id still within its lifetime.
      for (const [used, at] of USED)
        if (now - at > FORGET_AFTER) USED.delete(used);
        else break;
      if (session !== undefined && (typeof sid != 'string' || !sid.trim() || USED.has(sid)))
        throw error(
          ErrorCode.Session,
          USED.has(sid as string)
            ? 'session already used: sessions are single-use, pass a function that mints one per load'
            : 'no session id: return the sessionId of generate-session',
        );
      if (sid) USED.set((current = sid), now);
      const url = buildEmbedUrl(surface, { ...o, session: sid });
      const frame = (iframe = document.createElement('iframe'));
      const attributes = { title: `Analytics ${surface}`, allow: 'fullscreen; clipboard-write', ...o };
      for (const name of ATTRIBUTES) if (attributes[name]) (frame as unknown as Record<string, unknown>)[name] = attributes[name];
      if (o.sandbox !== undefined) frame.setAttribute('sandbox', o.sandbox);
      frame.style.cssText = o.style ?? 'border:0;width:100%;height:100%;display:block';
      frame.src = url;
      container.appendChild(frame);
      if (!(win = frame.contentWindow)) {
        unmount();
        throw error(ErrorCode.NoContainer, 'the container is not in the document');
      }
      listen(win, receive);
      log('mount', redactSession(url));
      if (timeout) timer = setTimeout(() => fail(error(ErrorCode.Timeout, 'no ready from the embed: check baseUrl and ids')), timeout);
    })().catch((e: unknown) => {
      if (id == loads) fail(e instanceof EmbedError ? e : error(ErrorCode.Session, `session function failed: ${redact(String(e))}`, e));
    });
    return ready;
  };

  const nameOf = (type: string) => (type == '*' ? type : shortName(type, EVENT_PREFIX));
  const on = (type: string, fn: Function, once?: boolean): Unsubscribe => {
    const name = nameOf(type);
    refuse(
      name != '*' && !isEventName(name)
        ? `unknown event "${String(type)}", use ${Object.keys(EVENT_SCHEMAS).join('|')}|*`
        : typeof fn != 'function' && `"${type}" handler must be a function`,
    );
    // `ready` is sticky: a late handler is called at once with the current load's payload.
    if (name == 'ready' && readyMessage) {
      call(fn, readyMessage.type, readyMessage.payload, readyMessage);
      if (once) return noop;
    }
    return state.status == 'destroyed' ? noop : add(name, fn, once);
  };

  const send = (type: string, payload?: unknown) => {
    if (state.status == 'destroyed') throw error(ErrorCode.Destroyed, `cannot send "${String(type)}" after destroy()`);
    const message = (createAction as (t: string, p?: unknown) => ActionMessage)(type, payload);
    if (state.status == 'ready') post(message);
    else queue.push(message);
  };

  const handle: EmbedHandle<S> = {
    surface,
    origin,
    get iframe() {
      return iframe;
    },
    get ready() {
      return ready;
    },
    get error() {
      return state.error;
    },
    getState: () => state,
    subscribe: (listener) => add(' state', listener),
    on: (type: string, fn: Function) => on(type, fn),
    once: (type: string, fn: Function) => on(type, fn, true),
    off: (type: string, fn: Function) => remove(nameOf(type), fn),
    send: send as EmbedHandle<S>['send'],
    setColorScheme: (scheme) => send('set-color-scheme', { scheme }),
    setTheme: (theme) => send('set-theme', theme),
    setLocale: (locale) => send('set-locale', { locale }),
    setFilter: (view: string, dimension?: string, value?: FilterValue) =>
      send('set-filter', { filterUrlParameter: dimension === undefined ? view : filterUrlParameter(view, dimension, value!) }),
    navigate: (path) => send('navigate', { path }),
    refresh: () => send('refresh'),
    reload: (session) =>
      state.status == 'destroyed' ? Promise.reject(error(ErrorCode.Destroyed, 'cannot reload after destroy()')) : load(session),
    destroy() {
      if (state.status == 'destroyed') return;
      loads++;
      abort?.abort();
      clearTimeout(timer);
      unmount();
      readyMessage = undefined;
      queue = [];
      sticky.clear();
      settle[1](error(ErrorCode.Destroyed, 'destroyed before ready'));
      set('destroyed');
      handlers.clear();
    },
  };
  load();
  return handle;
}

/**
 * Embeds a published dashboard.
 * @example
 * ```ts
 * const dashboard = embedDashboard({
 *   container: '#dashboard',
 *   baseUrl: 'https://acme.platform.example',
 *   publicId: 'sales-overview',
 *   session: () => fetch('/api/embed-session').then((r) => r.json()),
 * });
 * dashboard.on('drilldown', ({ member, value }) => console.log(member, value));
 * dashboard.setColorScheme('dark'); // queued until ready
 * ```
 */
export const embedDashboard = (options: DashboardEmbedOptions): EmbedHandle<'dashboard'> => createEmbed('dashboard', options);

/** Embeds the standalone analytics chat. Without `session` it opens in private mode. */
export const embedChat = (options: ChatEmbedOptions): EmbedHandle<'chat'> => createEmbed('chat', options);

/** Embeds the creator-mode app of a deployment (needs a signed session). */
export const embedApp = (options: AppEmbedOptions): EmbedHandle<'app'> => createEmbed('app', options);
