import {
  EMBED_OPTIONS,
  MOVE,
  PRESENT,
  RELOAD,
  RETARGET,
  SWAP,
  type AnyOptions,
  type ChangeKind,
  type EmbedOptionSpec,
} from './embedOptions';
import { keptChanges, type KeptChange } from './hostState';
import { KEPT_STATE, type KeptName } from './keptState';
import { LAUNCH_OPTIONS } from './launchOptions';
import { same } from './protocol';

/*
 * What a change of options means on a mounted embed, decided from the tables alone. A kept
 * option (hostState.ts) is sent as its action to the same iframe, and a removed member of a
 * keyed one reloads (no action clears a filter). Every other option's change is what its entry
 * in EMBED_OPTIONS says; a launch option without an action reloads. Actions are validated here,
 * before anything changes.
 */

/** What an update does, decided before anything changes. */
export interface Plan {
  /** A new iframe with a fresh session. */
  reload: boolean;
  /** Another dashboard or app: the viewer's place in the old one is forgotten. */
  retarget: boolean;
  /** The current iframe's title, class or style changed. */
  restyle: boolean;
  /** The container changed: the iframe moves there. */
  move: boolean;
  /** The kept values to set, each with its (validated) action. */
  changes: KeptChange[];
  /** The members of keyed kept options that were removed. */
  removed: [KeptName, string[]][];
}

// The change an option's entry declares (a function of the value for some), else: launch options reload, the rest is swapped.
const changeOf = (name: string, value: unknown, idle: boolean): ChangeKind => {
  const change = Object.hasOwn(EMBED_OPTIONS, name) ? (EMBED_OPTIONS as Record<string, EmbedOptionSpec>)[name]!.change : undefined;
  return typeof change == 'function' ? change(value, idle) : (change ?? (Object.hasOwn(LAUNCH_OPTIONS, name) ? RELOAD : SWAP));
};

/**
 * Plans the update of an embed from `before` to `after`, for the options named in `names`.
 * @param idle whether the embed has not started loading (a lazy one out of view)
 * @throws {EmbedError} `invalid-action` when a kept value does not fit its action
 */
export function planUpdate(before: AnyOptions, after: AnyOptions, names: Iterable<string>, idle: boolean): Plan {
  const plan: Plan = { reload: false, retarget: false, restyle: false, move: false, changes: [], removed: [] };
  for (const name of names) {
    if (same(before[name], after[name])) continue;
    if (Object.hasOwn(KEPT_STATE, name)) {
      const { changes, removed } = keptChanges(name as KeptName, before[name], after[name]);
      plan.changes.push(...changes);
      if (removed[0]) {
        plan.removed.push([name as KeptName, removed]);
        plan.reload = true;
      }
      continue;
    }
    const change = changeOf(name, after[name], idle);
    if (change == RETARGET) plan.retarget = plan.reload = true;
    else if (change == RELOAD) plan.reload = true;
    else if (change == PRESENT) plan.restyle = true;
    else if (change == MOVE) plan.move = true;
  }
  return plan;
}
