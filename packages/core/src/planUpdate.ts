import { EMBED_OPTIONS, RELOAD, SWAP, type AnyOptions, type ChangeKind, type EmbedOptionSpec } from './embedOptions';
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
  /**
   * What its options' changes mean, ORed (embedOptions.ts): `RELOAD`, a new iframe with a fresh
   * session; `RETARGET`, also the viewer's place in the old dashboard or app is forgotten;
   * `PRESENT`, the current iframe's title, class or style changed; `MOVE`, the container
   * changed, the iframe moves there.
   */
  does: number;
  /** The kept values to set, each with its (validated) action. */
  changes: KeptChange[];
  /** The members of keyed kept options that were removed (a reload). */
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
 * @throws {EmbedError} `invalid-option` when a kept value does not fit its action (naming the option)
 */
export function planUpdate(before: AnyOptions, after: AnyOptions, names: Iterable<string>, idle: boolean): Plan {
  const plan: Plan = { does: SWAP, changes: [], removed: [] };
  for (const name of names) {
    if (same(before[name], after[name])) continue;
    if (Object.hasOwn(KEPT_STATE, name)) {
      const { changes, removed } = keptChanges(name as KeptName, before[name], after[name]);
      plan.changes.push(...changes);
      if (removed[0]) {
        plan.removed.push([name as KeptName, removed]);
        plan.does |= RELOAD;
      }
    } else plan.does |= changeOf(name, after[name], idle);
  }
  return plan;
}
