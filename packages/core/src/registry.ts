/*
 * A small subscribable: handlers by name, each possibly run once. Lists are copy-on-write, so
 * an emit iterates the current array without copying it, and a change made during an emit
 * (a handler removing itself or adding another) only affects the next one.
 */

/** Removes the handler or listener it was returned for. */
export type Unsubscribe = () => void;

interface Entry {
  _fn: Function;
  _once?: boolean | undefined;
}

const NONE: readonly Entry[] = [];

/** Handlers by name; `call` runs one handler (it decides what a throw means). */
export function createRegistry(call: (fn: Function, args: unknown[]) => void) {
  const lists = new Map<string, readonly Entry[]>();
  const remove = (name: string, fn: Function) => {
    const list = lists.get(name);
    if (list?.some((e) => e._fn === fn))
      lists.set(
        name,
        list.filter((e) => e._fn !== fn),
      );
  };
  return {
    /** Adds `fn` under `name`; the same function twice is one handler (its last `once` wins, in place). */
    _add(name: string, fn: Function, once?: boolean): Unsubscribe {
      const list = lists.get(name) ?? [];
      const entry = { _fn: fn, _once: once };
      lists.set(name, list.some((e) => e._fn === fn) ? list.map((e) => (e._fn === fn ? entry : e)) : [...list, entry]);
      return () => remove(name, fn);
    },
    /** Removes `fn` from `name`. */
    _remove: remove,
    /** Whether `name` has a handler. */
    _has: (name: string): boolean => !!lists.get(name)?.[0],
    /**
     * Calls every handler of `name` with `args`, removing the `once` ones first; stops early
     * once `current` says the call is out of date (a handler changed what was being told).
     */
    _emit(name: string, args: unknown[], current?: () => boolean): void {
      for (const { _fn: fn, _once: once } of lists.get(name) ?? NONE) {
        if (current && !current()) return;
        if (once) remove(name, fn);
        call(fn, args);
      }
    },
    /** Forgets every handler. */
    _clear: () => lists.clear(),
  };
}
