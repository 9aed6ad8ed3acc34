import { actionHelpers } from './actionHelpers';
import type { Controller } from './context';
import type { AnyEventHandler, AnyOptions, EmbedOptionsMap, EventHandler } from './embedOptions';
import { EmbedError } from './errors';
import type { FilterValue } from './launchOptions';
import type { Surface } from './catalog';
import type { ActionArgs, ActionName, ActionType, ColorScheme, EmbedTheme, EventName, EventType, ReadyPayload } from './protocol';
import type { Unsubscribe } from './registry';
import type { EmbedState } from './status';

/*
 * The handle of an embed: what a host holds. It only names what the controller's context (embed.ts)
 * offers: read-only views of the state, the handlers, `update()`, `send()` and the action helpers
 * derived from the catalog, `reload()` and `destroy()`.
 */

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
   * - `viewer`: the same, starting from the options alone (nothing of the previous viewer's carries over);
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

/** The error of an operation asked of a destroyed embed. */
export const destroyedError = (what: string): EmbedError => new EmbedError('destroyed', __DEV__ ? `cannot ${what} after destroy()` : what);

/** Creates the handle of an embed: the public face of its controller's context. */
export function createHandle<S extends Surface>(
  c: Pick<Controller, '_surface' | '_origin' | '_frame' | '_status' | '_on' | '_off' | '_update' | '_send' | '_reload' | '_destroy'>,
): EmbedHandle<S> {
  const { _status: status } = c;
  const destroyed = () => status._is('destroyed');
  // What a destroyed embed refuses (reload() with a rejected promise).
  const live = (what: string) => {
    if (destroyed()) throw destroyedError(what);
  };
  const send = (type: string, payload?: unknown) => (live(`send "${String(type)}"`), c._send(type, payload));
  return {
    surface: c._surface,
    get origin() {
      return c._origin;
    },
    get iframe() {
      return c._frame?._iframe ?? null;
    },
    get ready() {
      return status._ready();
    },
    get error() {
      return status._get().error;
    },
    getState: status._get,
    subscribe: status._subscribe,
    update: (partial: Partial<AnyOptions>) => (live('update'), c._update(partial)),
    on: (type: string, fn: Function) => c._on(type, fn),
    once: (type: string, fn: Function) => c._on(type, fn, true),
    off: c._off,
    send,
    ...actionHelpers(send),
    reload: (session?: string) => (destroyed() ? Promise.reject(destroyedError('reload')) : c._reload(session)),
    destroy: c._destroy,
  } as unknown as EmbedHandle<S>;
}
