import type { Surface } from './catalog';
import type { AnyOptions, Diagnostic } from './embedOptions';
import type { EmbedError, SessionFailure } from './errors';
import type { Frame } from './frame';
import type { EventMessage, EventName } from './protocol';
import type { Unsubscribe } from './registry';
import type { Status } from './status';

/*
 * The one internal context of an embed's controller (embed.ts), shared by the parts it composes.
 * It holds what the embed is now (its options, origin, container, status, frame), the current
 * load's scope, and the operations one part offers the others; each part takes the context,
 * names what it reads of it (`Pick<Controller, ...>`), and adds its own operations to it. Below,
 * each group is headed by the part that provides it.
 *
 * Every name starts with `_` and a lowercase letter: the production builds rename such names to
 * short ones (scripts/rollup.mjs, `mangleInternals`), so a name here reads well and costs no
 * bytes. Nothing public, nothing another package reads and nothing of a page-wide record (read by
 * other copies of the SDK) may start so.
 */

/** The controller's context: see above. */
export interface Controller {
  // ---- The embed (embed.ts) ----
  /** The embedded surface. */
  readonly _surface: Surface;
  /** The options now, whole: changed only by a checked update, or where the keeper places the embed. */
  _options: AnyOptions;
  /** The tenant origin (of `baseUrl`): the only origin messages are accepted from and posted to. */
  _origin: string;
  /** The element the options name: where a frame mounts. */
  _container: HTMLElement;
  /** The status: the state snapshot, its listeners and the `ready` promise (status.ts). */
  readonly _status: Status;

  // ---- The current load (scope.ts) ----
  /** Bumped when a load ends: async work of an older load compares it after each `await`, sees it changed and stops. */
  _generation: number;
  /** Registers what to undo when the current load ends. */
  _later(undo: () => void): void;
  /** Ends the current load: bumps the generation and undoes what was registered. */
  _end(): void;

  // ---- The host's handlers (handlers.ts) ----
  /** Logs through the `debug` option. */
  _log(...args: unknown[]): void;
  /** Tells `onDiagnostic` (and `debug`) what the SDK noticed. */
  _diagnose(diagnostic: Diagnostic): void;
  /** Calls a host's handler or listener of `type`: a throw is reported (`handler-error`), never thrown. */
  _call(fn: Function | undefined, type: string, args: unknown[]): void;
  /** Calls the host's handlers of event `name` (`'*'`: the catch-all), then its handler option. */
  _emit(name: string, args: unknown[]): void;
  /** Reports the failure that put the embed in `error` to the `error` handlers, else to the console (`told`: the embed's own `error` event told the handlers already). */
  _report(failure: EmbedError, told?: boolean): void;
  /** Remembers the current load's `ready` message (`undefined`: a new load begins, or the frame lost its document). */
  _remember(message: EventMessage<'ready'> | undefined): void;
  /** Calls the `onReady` option with the current load's `ready`, if it had one (an adopter's option, for a ready it missed). */
  _readyAgain(): void;
  /** Adds a handler (`once`: removed after its first call); a destroyed embed keeps none. */
  _on(type: string, fn: Function, once?: boolean): Unsubscribe;
  /** Removes a handler. */
  _off(type: string, fn: Function): void;
  /** Forgets every handler and the `ready` message. */
  _forget(): void;

  // ---- The session source (sessionSource.ts) ----
  /** The embed's current session id (redacted in every message, even once the page forgot it). */
  _sessionId: string;
  /** This load's session id; `undefined` in private mode. @throws {SessionFailure} when none can be had. */
  _nextSession(signal: AbortSignal): Promise<string | undefined>;
  /** Uses `id` for the next load; `replaceable` when a used one may be replaced by a fresh one (initialSession). */
  _giveSession(id: string | undefined, replaceable: boolean): void;

  // ---- The retry policy (retryPolicy.ts) ----
  /** Between a scheduled retry and its start: the failed frame may report its failure again. */
  _waiting: boolean;
  /** Schedules the next attempt after a failure a fresh session can cure, while attempts remain. @returns whether it did. */
  _retry(failure: SessionFailure, renewable: boolean | undefined): boolean;
  /** The embed is ready, or the host reloaded: the attempts count from zero again. */
  _resetRetries(): void;

  // ---- The load attempt (loadAttempt.ts) ----
  /** The current frame, if one is mounted. */
  _frame: Frame | null;
  /** Starts an attempt: a session, a frame, the watch for how it ends (the caller ended the previous one's scope). */
  _attempt(): Promise<void>;
  /** Removes the current frame. */
  _removeFrame(): void;

  // ---- The receiver (receiver.ts) ----
  /** Receives a message from the current frame's window (routed by listener.ts). */
  _receive(event: MessageEvent): void;

  // ---- The keeping (parking.ts): whether and where the embed is out of sight ----
  /** The embed's handle: what the lot hands an adopter (set by the controller). */
  _handle: object;
  /** The slot of the lot the embed is in, if any (parking.ts's `stow`). */
  _stowedIn?: HTMLElement | undefined;
  /** Undoes the stow: the slot's watch stopped, the slot gone. */
  _unstow?: (() => void) | undefined;
  /** The keep-alive name the embed is parked under, if parked (parking.ts's `park`). */
  _parkedAs?: string | undefined;
  /** Its component is hidden, not gone (parking.ts's `hide`). */
  _hidden?: boolean;
  /** Whether nothing shows it: in the lot, or its component hidden. */
  _away(): boolean;
  /** Placed in `box`: shown, out of the lot unless that is its slot. */
  _shown(box: HTMLElement): void;
  /** Destroyed: out of the lot, its slot gone. */
  _leave(): void;

  // ---- The controller's own decisions (embed.ts) ----
  /** Fails the current attempt (`renewable`: a fresh session may cure it; `told`: the embed's own fatal `error` event): tried again while the policy allows, else `error`. */
  _fail(failure: SessionFailure, renewable?: boolean, told?: boolean): void;
  /** An attempt now: the previous one ended, the retry that waited (if any) started. */
  _start(): void;
  /** What a valid event of the catalog means to the controller, before the host's handlers see it. */
  _react(name: EventName, payload: Record<string, unknown>, message: EventMessage): void;
  /** The frame loaded another document on its own: whether the embed was ready (then it waits for the new document's `ready`). */
  _again(): boolean;
  /** The kept options the next frame's URL carries (hostState.ts). */
  _carried(): Partial<AnyOptions>;
  /** A text with every session id of the page, and this embed's, redacted. */
  _redact(text: string): string;
  /** Changes the options (checked first: a refused update changes nothing). */
  _update(partial: Partial<AnyOptions>): void;
  /** Sends an action (validated), or keeps or holds it until `ready`. */
  _send(type: string, payload?: unknown): void;
  /** Loads again, with the session given or a fresh one. */
  _reload(session?: string): Promise<unknown>;
  /** Destroys the embed. */
  _destroy(): void;
}
