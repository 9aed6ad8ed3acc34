import { ACTION_PREFIX } from './catalog';
import { OPTION_CHANGES, RELOAD, RESET, RETARGET, SWAP, type AnyOptions, type ChangeKind, type EmbedOptionSpec } from './embedOptions';
import { refuse } from './errors';
import { KEPT, type HostState, type KeptName } from './keptState';
import { LAUNCH_URL, prefixOf } from './launchOptions';
import { actionEnvelope, checkAction, type ActionMessage, type ActionName } from './protocol';
import { isPlainObject } from './rules';
import { parameter } from './url';

/*
 * The kept state of one embed (its table: keptState.ts), in one place: what the host set, by
 * option or by action, that an action changes on a live embed, kept across reloads
 * (`createHostState`), and what a change of options means on a mounted embed (`planUpdate`), where
 * a kept option is sent as its action to the same iframe instead of reloading.
 *
 * A new frame is brought to the kept state twice over: its URL carries the kept options that are
 * launch options (locale, filters), and right after `ready` the rest (and whatever changed since
 * the URL was built) is sent in the table's order, followed by the other actions sent before
 * `ready`, in order. Values stay as the host gave them (a filter is an object) until a URL or an
 * action needs them as a string.
 */

// A value as a string that does not depend on the order of its keys (a property list replacer of the sorted keys).
const stable = (value: unknown) => {
  const keys: string[] = [];
  JSON.stringify(value, (key, v: unknown) => (keys.push(key), v));
  return JSON.stringify(value, keys.sort());
};
/**
 * Whether two option values are the same: identical, or equal by value where a framework
 * re-creates them on every render (plain objects, whatever their key order; URLs).
 */
const same = (a: unknown, b: unknown): boolean =>
  a === b ||
  (a instanceof URL || b instanceof URL ? String(a) == String(b) : isPlainObject(a) && isPlainObject(b) && stable(a) == stable(b));

// ---- The host state of one embed ----

/** One kept value to set, with the validated action that sets it on a live embed (`member`: of a keyed option). */
export type KeptChange = { _name: KeptName; _value: unknown; _message: ActionMessage; _member?: string | undefined };

type Make = (name: ActionName, payload: unknown) => ActionMessage;
const byAction = /* @__PURE__ */ new Map<string, KeptName>(
  Object.entries(KEPT).map(([name, kept]) => [ACTION_PREFIX + kept.action, name as KeptName]),
);
// The action setting `value` (one member's of a keyed option): as is when replayed (`make`), else
// validated and copied, a value its action refuses refused as the option the host wrote, not as
// the action's field: `"colorScheme" must be light|dark|auto (got "drak")`, `"theme.font" must be ...`.
const actionOf = (name: KeptName, value: unknown, member: string | undefined, make?: Make) => {
  const { action, field } = KEPT[name] as { action: ActionName; field?: string };
  const carried = member === undefined ? value : parameter(prefixOf(name)! + member, value);
  const payload = field ? { [field]: carried } : carried;
  if (make) return make(action, payload);
  const [problem, copy] = checkAction(action, payload);
  refuse(problem && problem.replace(field ? `"${field}"` : /^payload|^"/, (found) => (found == '"' ? `"${name}.` : `"${name}"`)));
  return actionEnvelope(action, copy as never);
};

/**
 * The changes that bring a live embed from `before` to `after` for kept option `name`: one per
 * changed or added member of a keyed option, and the members removed (no action clears a
 * filter: the caller reloads). An `after` of `undefined` keeps what the embed has.
 * @param make builds each action as is (replayed at `ready`); without it each is validated and copied (a change the host asks for)
 * @throws {EmbedError} `invalid-option` when a value does not fit its action (without `make`), naming the option.
 */
export function keptChanges(name: KeptName, before: unknown, after: unknown, make?: Make): [changes: KeptChange[], removed: string[]] {
  const changes: KeptChange[] = [];
  const removed: string[] = [];
  const change = (value: unknown, member?: string) =>
    changes.push({ _name: name, _value: value, _member: member, _message: actionOf(name, value, member, make) });
  if (!prefixOf(name)) {
    if (after !== undefined && !same(before, after)) change(after);
  } else {
    const old = (before ?? {}) as Record<string, unknown>;
    const now = (after ?? {}) as Record<string, unknown>;
    for (const member in old) if (!(member in now)) removed.push(member);
    for (const member in now) if (!same(old[member], now[member])) change(now[member], member);
  }
  return [changes, removed];
}

// The changes from one kept state to another, in the table's order.
const diff = (from: HostState, to: HostState, make?: Make): KeptChange[] =>
  (Object.keys(KEPT) as KeptName[]).flatMap((name) => keptChanges(name, from[name], to[name], make)[0]);

/**
 * The kept state of one embed and the actions that wait for `ready`.
 * @param options the embed's first options: their kept state is the first host state (validated as actions, kept for every load)
 * @throws {EmbedError} `invalid-option` when a kept option does not fit its action
 */
export function createHostState(options: HostState) {
  const state: HostState = {};
  let pending: ActionMessage[] = [];
  // The kept values the current frame's URL carried: sent again at `ready` only when changed since.
  let applied: HostState = {};
  // The kept values a URL carries: the kept launch options.
  const inUrl = () => {
    const carried: HostState = {};
    for (const name in KEPT) if (name in LAUNCH_URL) (carried as Record<string, unknown>)[name] = state[name as KeptName];
    return carried;
  };
  const keep = (name: KeptName, value: unknown, member?: string) =>
    ((state as Record<string, unknown>)[name] = member === undefined ? value : { ...state[name as 'filters'], [member]: value });
  // The kept state of `from` alone (checked as actions by `make`).
  const start = (from: HostState, make?: Make) =>
    diff({}, from, make).forEach((change) => keep(change._name, change._value, change._member));
  start(options);
  return {
    /** Keeps `value` for `name` (one member's of a keyed option). */
    _keep: keep,
    /**
     * Keeps what an update to `next` changes: the values set, the members removed forgotten; for
     * another dashboard or app the new `path` (the place in the old one is forgotten); for another
     * viewer only what `next` sets (nothing the previous viewer did, or was sent, is kept).
     */
    _apply({ _does: does, _changes: changes, _removed: removed }: Plan, next: HostState) {
      if ((does & RESET) == RESET) {
        for (const name in state) delete state[name as KeptName];
        pending = [];
        applied = {};
        // (Checked already: by the update's plan, or when they were set.)
        return start(next, actionEnvelope as Make);
      }
      // (RETARGET's own bit; it holds RELOAD's too.)
      if ((does & RETARGET) == RETARGET) keep('path', next.path);
      for (const [name, members] of removed)
        keep(name, Object.fromEntries(Object.entries(state[name] ?? {}).filter(([member]) => !members.includes(member))));
      for (const change of changes) keep(change._name, change._value, change._member);
    },
    /** Keeps what an action sets, if it sets kept state. @returns whether it did (then it is replayed at `ready`, not queued). */
    _record(message: ActionMessage): boolean {
      const name = byAction.get(message.type);
      if (!name) return false;
      const { field } = KEPT[name] as { field?: string };
      const value = field ? (message.payload as Record<string, unknown>)[field] : message.payload;
      const prefix = prefixOf(name);
      if (!prefix) return (keep(name, value), true);
      // `<prefix><view.dimension>=<JSON>` from send(): kept when the value is a JSON object (as in a URL), else only sent.
      const parameter = (value as string).slice(prefix.length);
      const at = parameter.indexOf('=');
      try {
        const parsed: unknown = JSON.parse(parameter.slice(at + 1));
        if (isPlainObject(parsed)) return (keep(name, parsed, parameter.slice(0, at)), true);
      } catch {}
      return false;
    },
    /** Holds an action that sets no kept state until `ready`. */
    _push: (message: ActionMessage) => void pending.push(message),
    /** The kept launch options for the next frame's URL (remembered, to send only what differs at `ready`). */
    _url: () => (applied = inUrl()),
    /** At `ready`: the actions that bring the frame to the kept state, then those held, in order. Empties the queue. */
    _drain(): ActionMessage[] {
      const out = diff(applied, state, actionEnvelope as Make).map((change) => change._message);
      applied = inUrl();
      return out.concat(pending.splice(0));
    },
    /** Forgets the held actions. */
    _clear: () => void (pending = []),
  };
}

// ---- What an update means ----

/** What an update does, decided before anything changes. */
export interface Plan {
  /**
   * What its options' changes mean, ORed (embedOptions.ts): `RELOAD`, a new iframe with a fresh
   * session; `RETARGET`, also the viewer's place in the old dashboard or app is forgotten;
   * `PRESENT`, the current iframe's title, class or style changed; `MOVE`, the container
   * changed, the iframe moves there.
   */
  _does: number;
  /** The kept values to set, each with its (validated) action. */
  _changes: KeptChange[];
  /** The members of keyed kept options that were removed (a reload). */
  _removed: [KeptName, string[]][];
}

// The change an option's entry declares (a function of the value for some), else: launch options reload, the rest is swapped.
const changeOf = (name: string, value: unknown, idle: boolean): ChangeKind => {
  const change = Object.hasOwn(OPTION_CHANGES, name) ? (OPTION_CHANGES as Record<string, EmbedOptionSpec['change']>)[name] : undefined;
  return typeof change == 'function' ? change(value, idle) : (change ?? (Object.hasOwn(LAUNCH_URL, name) ? RELOAD : SWAP));
};

/**
 * Plans the update of an embed from `before` to `after`, for the options named in `names`.
 * @param idle whether the embed has not started loading (a lazy one out of view)
 * @throws {EmbedError} `invalid-option` when a kept value does not fit its action (naming the option)
 */
export function planUpdate(before: AnyOptions, after: AnyOptions, names: Iterable<string>, idle: boolean): Plan {
  const plan: Plan = { _does: SWAP, _changes: [], _removed: [] };
  for (const name of names) {
    if (same(before[name], after[name])) continue;
    if (Object.hasOwn(KEPT, name)) {
      const [changes, removed] = keptChanges(name as KeptName, before[name], after[name]);
      plan._changes.push(...changes);
      if (removed[0]) {
        plan._removed.push([name as KeptName, removed]);
        plan._does |= RELOAD;
      }
    } else plan._does |= changeOf(name, after[name], idle);
  }
  return plan;
}
