import type { EmbedError } from './errors';
import type { ReadyPayload } from './protocol';
import { createRegistry, type Unsubscribe } from './registry';

/*
 * The status of one embed: an immutable state snapshot (a new object on every change, stable in
 * between, for `useSyncExternalStore`), its listeners, and the `ready` promise, one per stretch of
 * loading (the reloads and retries before it settles share it).
 */

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

/** The state of an embed that has not started (and of a binding before its controller exists). */
export const IDLE: EmbedState = { status: 'idle', error: null, ready: null };

const noop = () => {};

/** The status of one embed (see {@link createStatus}). @internal */
export type Status = ReturnType<typeof createStatus>;

/**
 * Creates the status of one embed.
 * @param call runs one state listener (it decides what a throw means)
 */
export function createStatus(call: (listener: Function, args: unknown[]) => void) {
  let state = IDLE;
  let ready!: Promise<ReadyPayload>;
  let settle: ((payload: ReadyPayload | null, failure?: EmbedError) => void) | undefined;
  const listeners = createRegistry(call);
  const set = (status: EmbedStatus, error: EmbedError | null = null, payload: ReadyPayload | null = null) => {
    const next = (state = { status, error, ready: payload });
    // A listener that changed the state re-entrantly has had every listener told the newer
    // state: the rest of this, outdated, notification is dropped.
    listeners._emit('state', [next], () => state === next);
  };
  // A stretch of loading begins, unless one is under way: a new `ready` promise.
  const expect = () => {
    if (!settle) {
      ready = new Promise(
        (resolve, reject) => (settle = (payload, failure) => ((settle = undefined), failure ? reject(failure) : resolve(payload!))),
      );
      ready.catch(noop); // failures surface as state and `error`, never as an unhandled rejection
    }
  };
  return {
    /** The current snapshot. */
    _get: () => state,
    /** Whether the embed is in `status`. */
    _is: (status: EmbedStatus) => state.status == status,
    /** Changes the state and tells the listeners. */
    _set: set,
    _subscribe: (listener: (state: EmbedState) => void): Unsubscribe => listeners._add('state', listener),
    /** The promise of the current stretch of loading. */
    _ready: () => ready,
    /** A stretch of loading begins (a lazy embed waits for the viewer), unless one is under way: a new `ready` promise. */
    _expect: expect,
    /** Loading (again): the state says so, and a `ready` promise waits unless one does already. */
    _loading() {
      expect();
      if (state.status != 'loading') set('loading');
    },
    /** Ready with `payload`: the state says so, the `ready` promise resolves. */
    _readied(payload: ReadyPayload) {
      set('ready', null, payload);
      settle?.(payload);
    },
    /** Failed for good (`error`), or `destroyed`: the state says so, the `ready` promise rejects. */
    _failed(failure: EmbedError, status: 'error' | 'destroyed' = 'error') {
      settle?.(null, failure);
      set(status, status == 'error' ? failure : null);
    },
    /** Forgets the listeners. */
    _clear: () => listeners._clear(),
  };
}
