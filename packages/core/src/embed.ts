import { createActionQueue, type HostState } from './actionQueue';
import { EmbedError, ErrorCode, type EmbedErrorCode } from './errors';
import { mountFrame, present, type Frame, type IframeOptions } from './frame';
import { normalizeBaseUrl } from './origin';
import { CHANGES, PRESENT, RELOAD, checkOptions } from './optionTable';
import {
  EVENT_PREFIX,
  EVENT_SCHEMAS,
  createAction,
  eventProp,
  isEventName,
  isPlainObject,
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
  type EventPropName,
  type EventType,
  type ReadyPayload,
  type Surface,
  type UnknownEventMessage,
} from './protocol';
import { createRegistry, type Unsubscribe } from './registry';
import { claimSession, redactSessions } from './sessions';
import {
  buildEmbedUrl,
  filterUrlParameter,
  redactSession,
  type AppLaunchOptions,
  type ChatLaunchOptions,
  type DashboardLaunchOptions,
  type EmbedUrlOptions,
  type FilterValue,
} from './url';

export type { IframeOptions } from './frame';
export type { Unsubscribe } from './registry';

/** What a `session` function may return: the session id, or generate-session's `{ sessionId }` body. */
export type SessionResult = string | { sessionId: string };

/**
 * A session id, or a function that asks the host's backend for a fresh one.
 *
 * Sessions are single-use: the function is called once for every iframe load (first
 * mount, each `reload()`, each retry, each change of what is embedded), never reused. Its
 * `signal` aborts when the load is superseded, times out or the embed is destroyed.
 */
export type SessionSource = string | ((context: { signal: AbortSignal }) => SessionResult | Promise<SessionResult>);

/** Something the SDK noticed, dropped or did on its own, for debugging an integration. Never contains a session id. */
export type Diagnostic =
  /** A message from our iframe's window whose origin is not the tenant origin (the frame navigated away). */
  | { kind: 'origin-mismatch'; origin: string }
  /** A message from our iframe that is not a valid event; `reason` says why. */
  | { kind: 'invalid-message'; reason: string }
  /** A host handler or state listener threw; other handlers still ran. */
  | { kind: 'handler-error'; type: string; error: unknown }
  /** A load failed with `error` and is tried again, with a fresh session, in `delay` ms: attempt `attempt` of `of`. */
  | { kind: 'retry'; attempt: number; of: number; delay: number; error: EmbedError };

/** Handler of one event: the payload, and the whole envelope (with `surface` and `timestamp`). */
export type EventHandler<K extends EventName> = (payload: EventMap[K], message: EventMessage<K>) => void;
/** Catch-all handler: every valid event, including event types this SDK version does not know (untyped). */
export type AnyEventHandler = (message: EventMessage | UnknownEventMessage) => void;
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

/**
 * The state an embed is in that the host may set declaratively. Changing one of these on a
 * mounted embed sends its action to the same iframe (no reload, no new session), and the
 * value is brought back after every reload.
 */
export interface EmbedStateOptions {
  /** Color scheme, sent as `set-color-scheme` right after `ready`. */
  colorScheme?: ColorScheme;
  /** Brand theme, sent as `set-theme` right after `ready`. */
  theme?: EmbedTheme;
  /** In-embed route, sent as `navigate` right after `ready`. */
  path?: string;
}

/** Options shared by all surfaces. */
export interface BaseEmbedOptions extends IframeOptions, EmbedStateOptions, EventHandlerProps {
  /** The element to mount into, or a CSS selector for it. */
  container: HTMLElement | string;
  /** The tenant host or custom domain, e.g. `https://acme.platform.example`. Its origin is the only one trusted. */
  baseUrl: string | URL;
  /** Session id or a function minting a fresh one per load. Omit for private mode (dashboard, chat). */
  session?: SessionSource;
  /**
   * A session id minted while the page was rendered on the server, used for the first load only
   * (later loads call `session`). Only on pages that are never cached or shared
   * (`Cache-Control: private, no-store`): a session is single-use and belongs to one viewer.
   */
  initialSession?: string;
  /**
   * How many times a failed load (a fatal `error` from the embed, a ready timeout, a failed or
   * timed-out session call) is tried again with a fresh session, with exponential backoff and
   * jitter. Needs `session` to be a function. `false` turns it off. @default 3
   */
  retry?: number | false;
  /** Milliseconds to wait for the `session` function before the load fails (and is retried). @default 15000 */
  sessionTimeout?: number;
  /** Milliseconds from the iframe's creation to `ready` before the load fails (and is retried); `0` waits forever. @default 30000 */
  readyTimeout?: number;
  /** Receives what the SDK dropped and why, and each retry. Without it, only throwing handlers are reported (console.error). */
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

/** Lifecycle status of an embed. `idle`: not loading yet (a lazy embed out of view, or a binding not mounted). */
export type EmbedStatus = 'idle' | 'loading' | 'ready' | 'error' | 'destroyed';

/** An immutable snapshot of an embed's state; a new object on every change. */
export interface EmbedState {
  status: EmbedStatus;
  /** The error of the `error` status (its message says the cause and the fix), else `null`. */
  error: EmbedError | null;
  /** The `ready` payload of the current load, else `null`. */
  ready: ReadyPayload | null;
}

/** What a framework binding takes: the surface, that surface's options (without `container`) and `on<Event>` handlers. */
export type EmbedBindingOptions<S extends Surface> = { surface: S } & Omit<EmbedOptionsMap[S], 'container'>;

/** The handle of an embed: one controller for the embed's whole life, stable across reloads. */
export interface EmbedHandle<S extends Surface = Surface> {
  /** The embedded surface. */
  readonly surface: S;
  /** The tenant origin: the only origin messages are accepted from and posted to. */
  readonly origin: string;
  /** The current iframe, or `null` while a session is fetched, before a lazy embed is seen and after destroy. */
  readonly iframe: HTMLIFrameElement | null;
  /** Resolves with the `ready` payload of the current load; rejects when the load fails for good or the embed is destroyed first. */
  readonly ready: Promise<ReadyPayload>;
  /** The error of the `error` status, else `null`. */
  readonly error: EmbedError | null;
  /** The current state snapshot (stable until the next change, for `useSyncExternalStore`). */
  getState(): EmbedState;
  /** Calls `listener` after every state change. */
  subscribe(listener: (state: EmbedState) => void): Unsubscribe;
  /**
   * Changes options of the mounted embed. What a change means is decided per option:
   * - what is embedded (`baseUrl`, ids, launch options without an action such as
   *   `allowExport`, `timeGrains`, `sandbox`, `allow`, `container`, a session id string):
   *   reload in a new iframe with a fresh session;
   * - state with an action (`colorScheme`, `theme`, `locale`, `filters`, `path`): sent to the same
   *   iframe; a filter removed from `filters` reloads (no action clears one);
   * - handlers, the `session` function, `onDiagnostic`, `debug`, timeouts, `retry`: swapped, used from the next event or load;
   * - `title`, `className`, `style`: applied to the current iframe.
   *
   * Options not named are kept; an option set to `undefined` is removed. Checked first: an
   * invalid update throws and changes nothing.
   * @example
   * ```ts
   * dashboard.update({ colorScheme: 'dark', filters: { 'orders.status': { value: 'open' } } }); // no reload
   * dashboard.update({ publicId: 'costs' }); // a new iframe; scheme and filters come along
   * ```
   */
  update(options: Partial<EmbedOptionsMap[S]>): void;
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
   * Actions that set state (scheme, theme, locale, filter, path) are kept and brought back after every reload.
   * @throws {EmbedError} `invalid-action`, or `destroyed` after {@link EmbedHandle.destroy}.
   */
  send<K extends ActionName>(type: K | ActionType<K>, ...payload: ActionArgs<K>): void;
  /** Switches the color scheme (`auto` follows the viewer's OS). Kept across reloads. */
  setColorScheme(scheme: ColorScheme): void;
  /** Applies a brand theme. Kept across reloads. */
  setTheme(theme: EmbedTheme): void;
  /** Switches the UI language. Kept across reloads. */
  setLocale(locale: string): void;
  /** Pushes a filter into a dashboard, built with {@link filterUrlParameter}. Kept across reloads. */
  setFilter(view: string, dimension: string, value: FilterValue): void;
  /** Pushes a filter given as a ready-made `f_<view>.<dimension>=<JSON>` string. */
  setFilter(filterUrlParameter: string): void;
  /** Navigates to an in-embed path. Kept across reloads (as is the last path the embed reports). */
  navigate(path: string): void;
  /** Re-runs the embed's queries. */
  refresh(): void;
  /**
   * Loads the embed again in a new iframe with a fresh session (from the `session`
   * function, or the one passed here), and resets the retry count. Queued actions are kept;
   * the host state (scheme, theme, locale, filters, path) comes back.
   * @returns the new load's `ready` promise.
   */
  reload(session?: string): Promise<ReadyPayload>;
  /** Removes the iframe, listeners, queued actions and timers. Idempotent. */
  destroy(): void;
}

type Options = BaseEmbedOptions & DashboardEmbedOptions & { [key: string]: unknown };

const noop = () => {};
// The first retry waits 250-500 ms, then twice as long each time (full range halved: jitter
// spreads the retries of many embeds that failed together).
const RETRY_BASE = 500;
// How far outside the viewport a lazy embed starts loading: its session and frame are ready by
// the time it scrolls in, without minting sessions for embeds far below the fold.
const LAZY_MARGIN = '300px';
// setTimeout's longest wait (about 24.8 days); longer is forever, like 0.
const clampTimeout = (ms: number) => Math.min(ms, 2 ** 31 - 1) % (2 ** 31 - 1);
// Options are compared by value where a framework re-creates them on every render: objects
// (whatever their key order, with a property list replacer of the sorted keys), URLs.
const stable = (value: unknown) => {
  const keys: string[] = [];
  JSON.stringify(value, (key, v: unknown) => (keys.push(key), v));
  return JSON.stringify(value, keys.sort());
};
const same = (a: unknown, b: unknown): boolean =>
  a === b ||
  (a instanceof URL || b instanceof URL ? String(a) == String(b) : isPlainObject(a) && isPlainObject(b) && stable(a) == stable(b));
const PROPS = /* @__PURE__ */ new Map(Object.keys(EVENT_SCHEMAS).map((name) => [name, eventProp(name as EventName)]));

/**
 * Creates the controller of an embed of any surface and starts its first load. Prefer
 * {@link embedDashboard}, {@link embedChat} and {@link embedApp}.
 * @throws {EmbedError} synchronously for unusable options (`invalid-option`, `no-container`, `no-dom`).
 */
export function createEmbed<S extends Surface>(surface: S, options: EmbedOptionsMap[S]): EmbedHandle<S> {
  const error = (code: EmbedErrorCode, text: string, cause?: unknown) => new EmbedError(code, text, { cause });
  if (typeof document == 'undefined')
    throw error(ErrorCode.NoDom, __DEV__ ? 'mount in the browser (e.g. in an effect), not during server rendering' : 'document');

  let o = {} as Options;
  let origin = '';
  let container!: HTMLElement;
  // Checks `next` whole before anything changes: a refused option throws and leaves the embed as it was.
  const configure = (next: Options) => {
    if (__DEV__) checkOptions(surface, next);
    const nextOrigin = normalizeBaseUrl(next.baseUrl);
    const box = typeof next.container == 'string' ? document.querySelector<HTMLElement>(next.container) : next.container;
    if (!box?.appendChild)
      throw error(
        ErrorCode.NoContainer,
        __DEV__ ? `container ${String(next.container)} not found: pass an element or a selector` : 'container',
      );
    return () => {
      o = next;
      origin = nextOrigin;
      container = box;
    };
  };
  configure({ ...options } as Options)();

  const host: HostState = { filters: {} };
  const queue = createActionQueue(host);
  let state: EmbedState = { status: 'idle', error: null, ready: null };
  let frame: Frame | null = null;
  let readyMessage: EventMessage<'ready'> | undefined;
  // This embed's current session id: redacted for the embed's whole life, even once the page forgot it.
  let current = '';
  // A session to use before calling the `session` function: `initialSession`, or the one given to reload().
  let given = o.initialSession;
  // Whether a used `given` id may be replaced by a fresh one: yes for initialSession (a restored page), not for reload(id).
  let replaceable = true;
  let attempt = 0;
  let retrying = false;
  let seen = false;
  // Every load, retry and destroy bumps it: async work of an older attempt sees it changed and stops.
  let loads = 0;
  // What the current attempt must undo when it ends: timers, observers, listeners, the session call.
  const scope = new Set<() => void>();
  const later = (undo: () => void) => (scope.add(undo), () => scope.delete(undo));
  const stop = () => {
    loads++;
    scope.forEach((undo) => undo());
    scope.clear();
  };
  let ready!: Promise<ReadyPayload>;
  let settle: ((payload: ReadyPayload | null, failure?: EmbedError) => void) | undefined;
  // One promise per stretch of loading: reloads and retries before it settles share it.
  const expect = () => {
    if (!settle) {
      ready = new Promise(
        (resolve, reject) => (settle = (payload, failure) => ((settle = undefined), failure ? reject(failure) : resolve(payload!))),
      );
      ready.catch(noop); // failures surface as state and `error`, never as an unhandled rejection
    }
  };

  const redact = (text: string) => redactSessions(text, current);
  const log = (...args: unknown[]) => {
    const debug = o.debug;
    if (debug) (debug === true ? console.debug.bind(console, '[platform-embed]') : debug)(...args);
  };
  const diagnose = (d: Diagnostic) => {
    log(d.kind, d);
    try {
      if (o.onDiagnostic) return o.onDiagnostic(d);
    } catch (error) {
      d = { kind: 'handler-error', type: 'onDiagnostic', error };
    }
    if (d.kind == 'handler-error') console.error('[platform-embed] handler threw', d.error);
  };
  // A host's bug stays the host's: a throwing handler is reported, the others still run.
  const call = (fn: Function | undefined, type: string, args: unknown[]) => {
    try {
      fn?.(...args);
    } catch (error) {
      diagnose({ kind: 'handler-error', type, error });
    }
  };
  // Handlers get (payload, message) or, the catch-all, (message): the message is the last argument.
  const events = createRegistry((fn, args) => call(fn, (args.at(-1) as EventMessage).type, args));
  const listeners = createRegistry((fn, args) => call(fn, 'state', args));
  const emit = (name: string, args: unknown[], prop: string) => {
    events.emit(name, args);
    call(o[prop] as Function | undefined, (args.at(-1) as EventMessage).type, args);
  };
  const set = (status: EmbedStatus, failure: EmbedError | null = null, payload: ReadyPayload | null = null) => {
    const next = (state = { status, error: failure, ready: payload });
    // A listener that changed the state re-entrantly has had every listener told the newer
    // state: the rest of this, outdated, notification is dropped.
    listeners.emit('state', [next], () => state === next);
  };
  const post = (message: ActionMessage) => {
    message.timestamp = Date.now();
    log('action', message.type);
    frame!.window.postMessage(message, origin);
  };

  // Fails the current attempt. A failure a fresh session can cure is tried again while attempts remain.
  const fail = (failure: EmbedError, renewable?: boolean) => {
    stop();
    const max = typeof o.retry == 'number' ? o.retry : o.retry === false ? 0 : 3;
    if (renewable && typeof o.session == 'function' && attempt < max) {
      const delay = Math.round(RETRY_BASE * 2 ** attempt++ * (0.5 + Math.random() / 2));
      diagnose({ kind: 'retry', attempt, of: max, delay, error: failure });
      if (state.status != 'loading') {
        expect();
        set('loading');
      }
      retrying = true;
      const timer = setTimeout(() => whenUp(start), delay);
      later(() => clearTimeout(timer));
    } else {
      log(failure.message);
      set('error', failure);
      settle?.(null, failure);
    }
  };
  // Offline, a retry waits for the network; in a hidden tab, for the tab to be shown.
  const whenUp = (go: () => void) => {
    const [target, type] =
      navigator.onLine === false ? [window, 'online'] : document.visibilityState == 'hidden' ? [document, 'visibilitychange'] : [];
    if (!target) return go();
    const on = () => (target.removeEventListener(type!, on), whenUp(go));
    target.addEventListener(type!, on);
    later(() => target.removeEventListener(type!, on));
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
      const payload = message.payload as EventMap[EventName] & { path?: string; fatal?: boolean; message?: string };
      if (name == 'ready') {
        stop();
        attempt = 0;
        readyMessage = message as EventMessage<'ready'>;
        // The host state and the queued actions go out before any ready handler or state
        // listener runs, so an action sent from one of those cannot overtake them.
        queue.drain().forEach(post);
        set('ready', null, readyMessage.payload);
        settle?.(readyMessage.payload);
      } else if (name == 'error' && payload.fatal && !retrying)
        // (A frame that already failed and waits for its retry may say so again: one failure, one attempt.)
        fail(error(ErrorCode.Fatal, `the embed failed: ${redact(payload.message!)}${renewHint()}`), true);
      // The viewer's place, brought back after a reload.
      else if (name == 'view' || name == 'navigate') host.path = payload.path;
      emit(name, [payload, message], PROPS.get(name)!);
    }
    emit('*', [message], 'onEvent');
  };
  // Why a failure a fresh session would cure was not retried.
  const renewHint = () =>
    typeof o.session == 'function' ? '' : __DEV__ ? '; a session id string cannot be renewed: pass session as a function' : '';

  // Whether the current attempt waits for the `session` function: its failure is renewable.
  let calling = false;
  // Gets this load's session id: one given (initialSession, reload(id)) first, else from `session`.
  const getSession = async (signal: AbortSignal): Promise<string | undefined> => {
    const source = o.session;
    let id: SessionResult | undefined = given;
    given = undefined;
    const used = () =>
      error(
        ErrorCode.Session,
        `session already used${__DEV__ ? `: sessions are single-use${renewHint() || ', return a fresh one for every call'}` : ''}`,
      );
    if (id !== undefined) {
      if (claimSession(id)) return (current = id);
      // An initialSession already used on this page (a restored page) is replaced by a fresh one, if we can mint one.
      if (!replaceable || typeof source != 'function') throw used();
    }
    if (typeof source == 'function') {
      const ms = clampTimeout(o.sessionTimeout ?? 15000);
      let timer: ReturnType<typeof setTimeout> | undefined;
      calling = true;
      id = await new Promise<SessionResult>((resolve, reject) => {
        if (ms) timer = setTimeout(() => reject(error(ErrorCode.Session, `the session function did not answer within ${ms} ms`)), ms);
        // A function that throws at once fails like one that rejects.
        new Promise<SessionResult>((r) => r(source({ signal }))).then(resolve, (e: unknown) =>
          reject(e instanceof EmbedError ? e : error(ErrorCode.Session, `session function failed: ${redact(String(e))}`, e)),
        );
      }).finally(() => clearTimeout(timer));
      calling = false;
      if (isPlainObject(id)) id = id.sessionId;
    } else if ((id = source) === undefined) return id; // private mode
    // Not renewable: a used id, or none, is the host's bug, which another call would repeat.
    if (typeof id != 'string' || !id.trim())
      throw error(ErrorCode.Session, __DEV__ ? 'no session id: return the sessionId of generate-session' : 'no session id');
    if (!claimSession(id)) throw used();
    return (current = id);
  };

  // One attempt: a fresh session, a new iframe, and the watch for ready, timeout and CSP.
  const start = async () => {
    stop();
    retrying = false;
    frame?.remove();
    frame = null;
    readyMessage = undefined;
    const id = loads;
    const abort = new AbortController();
    later(() => abort.abort());
    try {
      // Yield twice first: a mount undone in the same task, at once or by a binding's unmount
      // deferred one microtask (see binding.ts), never mints a session.
      await 0;
      await 0;
      if (id != loads) return;
      const session = await getSession(abort.signal);
      if (id != loads) return;
      const url = buildEmbedUrl(surface, { ...(o as EmbedUrlOptions), ...queue.url(), session });
      // The browser reports a frame blocked by the page's CSP at once: fail at once, naming the fix.
      const blocked = (e: SecurityPolicyViolationEvent) => {
        let from = '';
        try {
          from = new URL(e.blockedURI).origin;
        } catch {}
        if (from === origin && /^(frame|child|default)-src/.test(e.effectiveDirective))
          fail(
            error(
              ErrorCode.Blocked,
              // The cause in production (directive and origin), the fix too in development.
              __DEV__
                ? `the page's Content-Security-Policy (${e.effectiveDirective}) blocks ${origin}: add ${origin} to its frame-src directive`
                : `${e.effectiveDirective} blocks ${origin}`,
            ),
          );
      };
      document.addEventListener('securitypolicyviolation', blocked);
      later(() => document.removeEventListener('securitypolicyviolation', blocked));
      const mounted = (frame = mountFrame(container, url, o, surface, receive));
      log('mount', redactSession(url));
      const ms = clampTimeout(o.readyTimeout ?? 30000);
      if (ms) {
        const timer = setTimeout(
          () =>
            fail(
              error(
                ErrorCode.Timeout,
                !__DEV__
                  ? `no ready in ${ms} ms, frame ${mounted.loaded ? '' : 'not '}loaded`
                  : mounted.loaded
                    ? `the frame loaded but sent no ready within ${ms} ms: the platform may refuse this page's origin (allow ${location.origin} for embedding), or the session or ${surface == 'app' ? 'deploymentId' : surface == 'chat' ? 'session' : 'publicId'} is wrong`
                    : `the frame did not finish loading within ${ms} ms: check baseUrl (${origin}) and the network`,
              ),
              true,
            ),
          ms,
        );
        later(() => clearTimeout(timer));
      }
    } catch (e) {
      // A session call that failed or timed out is renewable; a refused session or a missing container is not.
      if (id == loads) fail(e as EmbedError, calling);
      calling = false;
    }
  };

  // A new load: once a lazy embed is (near) in view, mount with a fresh session.
  const load = () => {
    stop();
    expect();
    const go = () => {
      seen = true;
      if (state.status != 'loading') set('loading');
      start();
    };
    if (seen || o.loading != 'lazy' || typeof IntersectionObserver == 'undefined') return go();
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && go(), { rootMargin: LAZY_MARGIN });
    observer.observe(container);
    later(() => observer.disconnect());
  };

  const nameOf = (type: string) => (type == '*' ? type : shortName(type, EVENT_PREFIX));
  const on = (type: string, fn: Function, once?: boolean): Unsubscribe => {
    const name = nameOf(type);
    if (__DEV__ && name != '*' && !isEventName(name))
      throw error(ErrorCode.InvalidOption, `unknown event "${String(type)}", use ${Object.keys(EVENT_SCHEMAS).join('|')}|*`);
    if (__DEV__ && typeof fn != 'function') throw error(ErrorCode.InvalidOption, `"${type}" handler must be a function`);
    // `ready` is sticky: a late handler is called at once with the current load's payload.
    if (name == 'ready' && readyMessage) {
      call(fn, readyMessage.type, [readyMessage.payload, readyMessage]);
      if (once) return noop;
    }
    return state.status == 'destroyed' ? noop : events.add(name, fn, once);
  };

  const destroyed = (what: string) => error(ErrorCode.Destroyed, __DEV__ ? `cannot ${what} after destroy()` : what);
  // State-setting actions are kept in the host state (replayed at ready), the others queued until ready.
  const dispatch = (message: ActionMessage) => {
    const kept = queue.record(message);
    if (state.status == 'ready') post(message);
    else if (!kept) queue.push(message);
  };
  const send = (type: string, payload?: unknown) => {
    if (state.status == 'destroyed') throw destroyed(`send "${String(type)}"`);
    dispatch((createAction as (t: string, p?: unknown) => ActionMessage)(type, payload));
  };

  const update = (partial: Partial<Options>) => {
    if (state.status == 'destroyed') throw destroyed('update');
    const previous = o;
    const next = { ...o, ...partial } as Options;
    const commit = configure(next);
    let reload = false;
    let restyle = false;
    const removed: string[] = [];
    const actions: ActionMessage[] = [];
    const act = (name: ActionName, payload: unknown) =>
      actions.push((createAction as (t: string, p?: unknown) => ActionMessage)(name, payload));
    for (const key in partial) {
      const before = previous[key] as Record<string, FilterValue> | undefined;
      const after = next[key] as Record<string, FilterValue> | undefined;
      if (same(before, after)) continue;
      const change = CHANGES[key];
      if (change === RELOAD || (key == 'session' && typeof after == 'string') || (key == 'loading' && state.status == 'idle'))
        reload = true;
      else if (key == 'filters') {
        // A changed or added filter is an action; a removed one needs a reload (no action clears a filter).
        for (const member in before) if (!(after && member in after)) removed.push(member);
        for (const member in after)
          if (!same(before?.[member], after[member]))
            act('set-filter', { filterUrlParameter: `f_${member}=${JSON.stringify(after[member])}` });
      } else if (change === PRESENT) restyle = true;
      else if (change && after !== undefined) act(change[0], change[1] ? { [change[1]]: after } : after);
    }
    // Everything is checked (options and action payloads): only now does anything change.
    commit();
    // Another dashboard or app: the viewer's place in the old one means nothing there.
    if (['baseUrl', 'publicId', 'deploymentId'].some((key) => !same(previous[key], next[key]))) host.path = next.path;
    if (removed[0]) {
      host.filters = Object.fromEntries(Object.entries(host.filters).filter(([member]) => !removed.includes(member)));
      reload = true;
    }
    if (reload) {
      actions.forEach(queue.record);
      return load();
    }
    actions.forEach(dispatch);
    if (restyle && frame) present(frame.iframe, o, surface);
  };

  const handle: EmbedHandle<S> = {
    surface,
    get origin() {
      return origin;
    },
    get iframe() {
      return frame?.iframe ?? null;
    },
    get ready() {
      return ready;
    },
    get error() {
      return state.error;
    },
    getState: () => state,
    subscribe: (listener) => listeners.add('state', listener),
    update: update as EmbedHandle<S>['update'],
    on: (type: string, fn: Function) => on(type, fn),
    once: (type: string, fn: Function) => on(type, fn, true),
    off: (type: string, fn: Function) => events.remove(nameOf(type), fn),
    send: send as EmbedHandle<S>['send'],
    setColorScheme: (scheme) => send('set-color-scheme', { scheme }),
    setTheme: (theme) => send('set-theme', theme),
    setLocale: (locale) => send('set-locale', { locale }),
    setFilter: (view: string, dimension?: string, value?: FilterValue) =>
      send('set-filter', { filterUrlParameter: dimension === undefined ? view : filterUrlParameter(view, dimension, value!) }),
    navigate: (path) => send('navigate', { path }),
    refresh: () => send('refresh'),
    reload(session) {
      if (state.status == 'destroyed') return Promise.reject(destroyed('reload'));
      attempt = 0;
      given = session;
      replaceable = false;
      load();
      return ready;
    },
    destroy() {
      if (state.status == 'destroyed') return;
      stop();
      frame?.remove();
      frame = null;
      readyMessage = undefined;
      queue.clear();
      settle?.(null, destroyed('wait for ready'));
      set('destroyed');
      events.clear();
      listeners.clear();
    },
  };
  // The declarative state options are the first host state: validated as actions, kept for every load.
  for (const key of ['colorScheme', 'theme', 'locale', 'path'] as const) {
    const change = CHANGES[key] as [ActionName, string?];
    if (o[key] !== undefined)
      queue.record((createAction as (t: string, p?: unknown) => ActionMessage)(change[0], change[1] ? { [change[1]]: o[key] } : o[key]));
  }
  host.filters = { ...o.filters };
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
