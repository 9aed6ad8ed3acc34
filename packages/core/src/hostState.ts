import { RESET, RETARGET } from './embedOptions';
import { KEPT_STATE, type HostState, type KeptName } from './keptState';
import { LAUNCH_OPTIONS, parameter, type LaunchOptionSpec } from './launchOptions';
import type { Plan } from './planUpdate';
import { ACTION_PREFIX, actionEnvelope, createActionOf, isPlainObject, same, type ActionMessage, type ActionName } from './protocol';

/*
 * The kept state of one embed (its table: keptState.ts): what the host set, by option or by
 * action, that an action changes on a live embed; kept across reloads. A new frame is brought to it twice over: its URL carries
 * the kept options that are launch options (locale, filters), and right after `ready` the rest
 * (and whatever changed since the URL was built) is sent in this table's order, followed by the
 * other actions sent before `ready`, in order. Values stay as the host gave them (a filter is an
 * object) until a URL or an action needs them as a string.
 */

/** One kept value to set, with the validated action that sets it on a live embed (`member`: of a keyed option). */
export type KeptChange = { name: KeptName; value: unknown; message: ActionMessage; member?: string };

type Make = (name: ActionName, payload: unknown) => ActionMessage;
const keyed = (name: string) => (LAUNCH_OPTIONS as Record<string, LaunchOptionSpec>)[name]?.prefix;
const byAction = /* @__PURE__ */ new Map<string, KeptName>(
  Object.entries(KEPT_STATE).map(([name, kept]) => [ACTION_PREFIX + kept.action, name as KeptName]),
);
// The action setting `value` (one member's of a keyed option): validated and copied when planned, as is when replayed.
const actionOf = (name: KeptName, value: unknown, member: string | undefined, make: Make) => {
  const { action, field } = KEPT_STATE[name] as { action: ActionName; field?: string };
  const carried = member === undefined ? value : parameter(keyed(name)! + member, value);
  return make(action, field ? { [field]: carried } : carried);
};

/**
 * The changes that bring a live embed from `before` to `after` for kept option `name`: one per
 * changed or added member of a keyed option, and the members removed (no action clears a
 * filter: the caller reloads). An `after` of `undefined` keeps what the embed has.
 * @param make builds each action: validated and copied (a change the host asks for), or as is (replayed at `ready`)
 * @throws {EmbedError} `invalid-action` when a value does not fit its action (with `createActionOf`).
 */
export function keptChanges(
  name: KeptName,
  before: unknown,
  after: unknown,
  make: Make = createActionOf,
): { changes: KeptChange[]; removed: string[] } {
  const changes: KeptChange[] = [];
  const removed: string[] = [];
  const change = (value: unknown, member?: string) => changes.push({ name, value, member, message: actionOf(name, value, member, make) });
  if (!keyed(name)) {
    if (after !== undefined && !same(before, after)) change(after);
  } else {
    const old = (before ?? {}) as Record<string, unknown>;
    const now = (after ?? {}) as Record<string, unknown>;
    for (const member in old) if (!(member in now)) removed.push(member);
    for (const member in now) if (!same(old[member], now[member])) change(now[member], member);
  }
  return { changes, removed };
}

// The changes from one kept state to another, in the table's order.
const diff = (from: HostState, to: HostState, make?: Make): KeptChange[] =>
  (Object.keys(KEPT_STATE) as KeptName[]).flatMap((name) => keptChanges(name, from[name], to[name], make).changes);

/**
 * The kept state of one embed and the actions that wait for `ready`.
 * @param options the embed's first options: their kept state is the first host state (validated as actions, kept for every load)
 * @throws {EmbedError} `invalid-action` when a kept option does not fit its action
 */
export function createHostState(options: HostState) {
  const state: HostState = {};
  let pending: ActionMessage[] = [];
  // The kept values the current frame's URL carried: sent again at `ready` only when changed since.
  let applied: HostState = {};
  // The kept values a URL carries: the kept launch options.
  const inUrl = () => {
    const carried: HostState = {};
    for (const name in KEPT_STATE) if (name in LAUNCH_OPTIONS) (carried as Record<string, unknown>)[name] = state[name as KeptName];
    return carried;
  };
  const keep = (name: KeptName, value: unknown, member?: string) =>
    ((state as Record<string, unknown>)[name] = member === undefined ? value : { ...state[name as 'filters'], [member]: value });
  // The kept state of `from` alone (checked as actions by `make`).
  const start = (from: HostState, make?: Make) => diff({}, from, make).forEach(({ name, value, member }) => keep(name, value, member));
  start(options);
  return {
    keep,
    /**
     * Keeps what an update to `next` changes: the values set, the members removed forgotten; for
     * another dashboard or app the new `path` (the place in the old one is forgotten); for another
     * viewer only what `next` sets (nothing the previous viewer did, or was sent, is kept).
     */
    apply({ does, changes, removed }: Plan, next: HostState) {
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
      for (const { name, value, member } of changes) keep(name, value, member);
    },
    /** Keeps what an action sets, if it sets kept state. @returns whether it did (then it is replayed at `ready`, not queued). */
    record(message: ActionMessage): boolean {
      const name = byAction.get(message.type);
      if (!name) return false;
      const { field } = KEPT_STATE[name] as { field?: string };
      const value = field ? (message.payload as Record<string, unknown>)[field] : message.payload;
      const prefix = keyed(name);
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
    push: (message: ActionMessage) => void pending.push(message),
    /** The kept launch options for the next frame's URL (remembered, to send only what differs at `ready`). */
    url: () => (applied = inUrl()),
    /** At `ready`: the actions that bring the frame to the kept state, then those held, in order. Empties the queue. */
    drain(): ActionMessage[] {
      const out = diff(applied, state, actionEnvelope as Make).map(({ message }) => message);
      applied = inUrl();
      return out.concat(pending.splice(0));
    },
    /** Forgets the held actions. */
    clear: () => void (pending = []),
  };
}
