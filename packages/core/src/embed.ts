import { actionHelpers } from './actionHelpers';
import { checkOptions } from './checkOptions';
import type {
  AnyEventHandler,
  AnyOptions,
  AppEmbedOptions,
  ChatEmbedOptions,
  DashboardEmbedOptions,
  EmbedOptionsMap,
  EventHandler,
} from './embedOptions';
import { EmbedError, ErrorCode } from './errors';
import { present } from './frame';
import { NO_HANDLERS, createHandlers } from './handlers';
import { createHostState } from './hostState';
import { createLazyStart } from './lazyStart';
import { createLoadAttempt, type Fail } from './loadAttempt';
import { adopt, canMove, keepAliveName, keepers, move, park as parkIn, parkedUnder, slot, unpark } from './parking';
import { planUpdate } from './planUpdate';
import {
  EVENT_PREFIX,
  createActionOf,
  parseMessage,
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
} from './protocol';
import type { Unsubscribe } from './registry';
import { createRetryPolicy } from './retryPolicy';
import { createScope } from './scope';
import { createSessionSource, renewHint } from './sessionSource';
import { redactSessions } from './sessions';
import { createStatus, type EmbedState } from './status';
import type { FilterValue } from './launchOptions';

/*
 * The embed controller: one per embed, for its whole life, composing the parts below. It only
 * decides what each event of the lifecycle means; each part owns one concern.
 *
 *   idle       created, not loading yet: a lazy embed out of view (lazyStart.ts)
 *     ↓ load
 *   loading    a load attempt (loadAttempt.ts): a session (sessionSource.ts), an iframe, the
 *              wait for `ready`; a failure a fresh session can cure is tried again
 *              (retryPolicy.ts) without leaving `loading`
 *     ↓ the embed's `ready`             ↓ a failure for good
 *   ready      the kept state and the     error   until `reload()` or an option change
 *              held actions were sent             that reloads starts again
 *              (hostState.ts)
 *     ↓ destroy() (from any state)
 *   destroyed  iframe, listeners, timers and held actions gone; the handle only reports it
 *
 * Every load, retry and destroy ends the current load's scope (scope.ts) and bumps its
 * generation: async work of an older attempt compares the generation after each `await`, sees
 * it changed and stops, so a slow session call or a late timer never touches a newer iframe.
 * What an option change means is decided by planUpdate.ts from the option tables
 * (embedOptions.ts, launchOptions.ts, hostState.ts); the controller carries it out.
 */

export type { IframeOptions } from './frame';
export type { Unsubscribe } from './registry';
export type { EmbedState, EmbedStatus } from './status';

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

/**
 * Creates the controller of an embed of any surface and starts its first load. Prefer
 * {@link embedDashboard}, {@link embedChat} and {@link embedApp}.
 * @throws {EmbedError} synchronously for unusable options (`invalid-option`, `no-container`, `no-dom`).
 */
export function createEmbed<S extends Surface>(surface: S, options: EmbedOptionsMap[S]): EmbedHandle<S> {
  if (typeof document == 'undefined')
    throw new EmbedError(ErrorCode.NoDom, __DEV__ ? 'mount in the browser (e.g. in an effect), not during server rendering' : 'document');
  // An embed parked under the same keep-alive name goes on here: the same handle, these options.
  const adopted = adopt(surface, options as AnyOptions);
  if (adopted) return adopted as EmbedHandle<S>;
  let o = {} as AnyOptions;
  let origin = '';
  let container!: HTMLElement;
  // Checks `next` whole; the returned commit is the only place options change.
  const configure = (next: AnyOptions) => {
    const [nextOrigin, box] = checkOptions(surface, next);
    return () => ((o = next), (origin = nextOrigin), (container = box));
  };
  configure({ ...options } as AnyOptions)();

  const current = () => o;
  const scope = createScope();
  const { later, end } = scope;
  const handlers = createHandlers(current);
  const { log, diagnose, emit } = handlers;
  const status = createStatus((fn, args) => handlers.call(fn, 'state', args));
  const host = createHostState();
  const session = createSessionSource(current);
  const redact = (text: string) => redactSessions(text, session.current());
  const policy = createRetryPolicy(current, later, diagnose);
  const isStatus = (...names: string[]) => names.includes(status.get().status);

  // Fails the current attempt: tried again while the policy allows, else the embed is in `error`.
  const fail: Fail = (failure, renewable) => {
    end();
    if (policy.retry(failure, renewable, start)) {
      if (!isStatus('loading')) {
        status.expect();
        status.set('loading');
      }
    } else {
      log(failure.message);
      status.set('error', failure);
      status.settle(null, failure);
      // A parked embed never shows an error box anywhere: it goes.
      if (parkedAs) handle.destroy();
    }
  };

  // Called only for messages whose event.source is our iframe's window (see listener.ts).
  const receive = (event: MessageEvent) => {
    // Our window, another origin: the frame was navigated away. Its data is not read.
    if (event.origin !== origin) return diagnose({ kind: 'origin-mismatch', origin: event.origin });
    const result = parseMessage(event.data);
    if (!result.ok) return diagnose({ kind: 'invalid-message', reason: redact(result.reason) });
    const { message } = result;
    const name = message.type.slice(EVENT_PREFIX.length);
    log('event', message.type);
    if (result.known) {
      const payload = message.payload as EventMap[EventName] & { path?: string; fatal?: boolean; message?: string };
      if (name == 'ready') {
        end();
        policy.reset();
        handlers.ready(message as EventMessage<'ready'>);
        // The kept state and the held actions go out before any ready handler or state
        // listener runs, so an action sent from one of those cannot overtake them.
        host.drain().forEach(post);
        status.set('ready', null, payload as ReadyPayload);
        status.settle(payload as ReadyPayload);
      } else if (name == 'error' && payload.fatal && !policy.waiting())
        // (A frame that already failed and waits for its retry may say so again: one failure, one attempt.)
        fail(new EmbedError(ErrorCode.Fatal, `the embed failed: ${redact(payload.message!)}${renewHint(o)}`), true);
      // The viewer's place, brought back after a reload.
      else if (name == 'view' || name == 'navigate') host.keep('path', payload.path);
      emit(name, [payload, message]);
    }
    emit('*', [message]);
  };

  const attempt = createLoadAttempt(surface, current, () => [origin, container], session, host.url, scope, receive, fail, log);
  const start = () => {
    end();
    policy.started();
    handlers.ready(undefined);
    attempt.start();
  };
  const whenSeen = createLazyStart(later);
  // A new load: once a lazy embed is (near) in view, mount with a fresh session.
  const load = () => {
    end();
    status.expect();
    whenSeen(container, o.loading == 'lazy', () => {
      if (!isStatus('loading')) status.set('loading');
      start();
    });
  };

  const post = (message: ActionMessage) => {
    message.timestamp = Date.now();
    log('action', message.type);
    attempt.frame()!.window.postMessage(message, origin);
  };
  const destroyed = (what: string) => new EmbedError(ErrorCode.Destroyed, __DEV__ ? `cannot ${what} after destroy()` : what);
  const live = (what: string) => {
    if (isStatus('destroyed')) throw destroyed(what);
  };
  // Kept state is replayed at `ready`; other actions wait for it.
  const dispatch = (message: ActionMessage, kept = host.record(message)) =>
    isStatus('ready') ? post(message) : kept || host.push(message);

  const update = (partial: Partial<AnyOptions>) => {
    live('update');
    const previous = o;
    const next = { ...o, ...partial } as AnyOptions;
    const commit = configure(next);
    const plan = planUpdate(previous, next, Object.keys(partial), isStatus('idle'));
    // Everything is checked (options and actions): only now does anything change.
    commit();
    if (plan.retarget) host.keep('path', next.path);
    plan.removed.forEach(([name, members]) => host.forget(name, members));
    plan.changes.forEach(({ name, value, member }) => host.keep(name, value, member));
    const frame = attempt.frame();
    const reload = plan.reload || (plan.move && frame && !canMove());
    if (reload) load();
    else if (plan.move && frame) move(container, frame.iframe);
    // Shown somewhere else: out of the lot.
    if (stowedIn && container != stowedIn) {
      stowedIn.remove();
      parkedAs = stowedIn = void unpark(parkedAs, handle);
    }
    if (reload) return;
    plan.changes.forEach(({ message }) => dispatch(message, true));
    if (plan.restyle && frame) present(frame.iframe, o, surface);
  };

  // Out of its container into a slot of the page's lot (parking.ts): with its frame where the
  // browser can move it (a frame still to come mounts there), else cold: no frame, loaded again
  // where it is shown next.
  let stowedIn: HTMLElement | undefined;
  const stow = (place?: HTMLElement) => {
    if (stowedIn) return;
    const frame = attempt.frame();
    const { width, height } = container.getBoundingClientRect();
    o = { ...o, container: (container = stowedIn = place ?? slot(width, height)) };
    // (A frame a framework has already taken out of the document has lost its document: cold.)
    if (frame?.iframe.isConnected && canMove()) move(container, frame.iframe);
    else if (frame || isStatus('idle') || !canMove()) {
      end();
      attempt.remove();
      status.set('idle');
    }
  };
  // keepAlive: stowed, and parked under its name for the next embed with it. Its component is
  // gone: so are the component's handlers (`on()` subscribers stay).
  let parkedAs: string | undefined;
  const park = (place?: HTMLElement) => {
    const name = keepAliveName(surface, o);
    if (!name || parkedAs || isStatus('destroyed')) return !!parkedAs;
    stow(place);
    o = { ...o, ...NO_HANDLERS };
    parkIn((parkedAs = name), handle);
    return true;
  };

  const send = (type: string, payload?: unknown) => {
    live(`send "${String(type)}"`);
    dispatch(createActionOf(type, payload));
  };
  const handle = {
    surface,
    get origin() {
      return origin;
    },
    get iframe() {
      return attempt.frame()?.iframe ?? null;
    },
    get ready() {
      return status.ready();
    },
    get error() {
      return status.get().error;
    },
    getState: status.get,
    subscribe: status.subscribe,
    update,
    on: (type: string, fn: Function) => handlers.on(type, fn, false, isStatus('destroyed')),
    once: (type: string, fn: Function) => handlers.on(type, fn, true, isStatus('destroyed')),
    off: handlers.off,
    send,
    ...actionHelpers(send),
    reload(id?: string) {
      if (isStatus('destroyed')) return Promise.reject(destroyed('reload'));
      policy.reset();
      session.give(id, false);
      load();
      return status.ready();
    },
    destroy() {
      if (isStatus('destroyed')) return;
      unpark(parkedAs, handle);
      end();
      attempt.remove();
      stowedIn?.remove();
      handlers.ready(undefined);
      host.clear();
      status.settle(null, destroyed('wait for ready'));
      status.set('destroyed');
      handlers.clear();
      status.clear();
    },
  } as unknown as EmbedHandle<S>;
  keepers.set(handle, { park, stow });
  // The options' kept state is the first host state: validated as actions, kept for every load.
  planUpdate({} as AnyOptions, o, Object.keys(o), true).changes.forEach(({ name, value, member }) => host.keep(name, value, member));
  load();
  return handle;
}

/**
 * Loads an embed before anything shows it, parked in the page's lot, for example when the viewer
 * hovers the link to the dashboard's route: the session is minted and the iframe loads off-screen.
 * The first component, element or `embed*()` call with the same keep-alive name adopts it,
 * usually already `ready`: no session minted, no wait. Preloading a name already parked returns
 * that embed. `keepAlive` defaults to `true` (the name derived from what is embedded); `loading`
 * is always eager; an `initialSession` (minted by the server) serves the preload. Where the
 * browser has no `moveBefore` (Safari), a frame cannot move without loading again, so nothing is
 * minted or loaded before the adopter shows it.
 * @example
 * ```ts
 * link.addEventListener('pointerenter', () =>
 *   preload('dashboard', { baseUrl, publicId: 'sales-overview', session: () => fetch('/api/embed-session', { method: 'POST' }) }),
 * );
 * // later, on the route: <PlatformDashboard keepAlive baseUrl={baseUrl} publicId="sales-overview" session={...} />
 * ```
 */
export function preload<S extends Surface>(surface: S, options: Omit<EmbedOptionsMap[S], 'container'>): EmbedHandle<S> {
  const settings = { keepAlive: true, ...options, loading: 'eager' } as AnyOptions;
  const waiting = parkedUnder(keepAliveName(surface, settings));
  if (waiting?.surface == surface) return waiting as EmbedHandle<S>;
  const place = slot(0, 0);
  const handle = createEmbed(surface, { ...settings, container: place } as EmbedOptionsMap[S]);
  keepers.get(handle)!.park(place);
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
