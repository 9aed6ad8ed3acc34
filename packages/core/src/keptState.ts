import type { AnyOptions, AttributeKind } from './embedOptions';
import type { ActionName } from './protocol';

/*
 * The kept state, declared once as data: each option the host sets that an action changes on a
 * live embed, with that action and the payload field that carries the value. hostState.ts keeps
 * their values across reloads, brings every new frame back to them, in this table's order, and
 * sends a change as the action instead of reloading; it reads `KEPT`, the production part of
 * `KEPT_STATE` (the attributes are the custom elements').
 */

/** How one kept option is declared. */
export interface KeptStateSpec {
  /** The action that changes it on a live embed; its payload rules are the option's rules. */
  readonly action: ActionName;
  /** The payload field that carries the value; none: the value is the payload. */
  readonly field?: string;
  /** How a custom element reads it from an attribute (the launch options' come from their table). */
  readonly attribute?: AttributeKind;
}

/** Each kept option, in the order a new frame is brought back to them. See {@link KeptStateSpec}. */
export const KEPT_STATE = {
  colorScheme: { action: 'set-color-scheme', field: 'scheme', attribute: 'string' },
  theme: { action: 'set-theme', attribute: 'json' },
  // A launch option too: the URL of a new frame carries it.
  locale: { action: 'set-locale', field: 'locale' },
  // A keyed launch option: one action per `view.dimension`, carrying `f_<view.dimension>=<JSON>`.
  filters: { action: 'set-filter', field: 'filterUrlParameter' },
  // Also the last place the embed reported (`view`, `navigate`), so a reload brings the viewer back.
  path: { action: 'navigate', field: 'path', attribute: 'string' },
} as const satisfies Record<string, KeptStateSpec>;

/**
 * Each kept option's action and the payload field that carries its value: all that production
 * reads of {@link KEPT_STATE} (the attributes are the custom elements'). Each entry is checked
 * against the table's by the compiler. @internal
 */
export const KEPT = {
  colorScheme: { action: 'set-color-scheme', field: 'scheme' },
  theme: { action: 'set-theme' },
  locale: { action: 'set-locale', field: 'locale' },
  filters: { action: 'set-filter', field: 'filterUrlParameter' },
  path: { action: 'navigate', field: 'path' },
} as const satisfies { readonly [K in KeptName]: Omit<(typeof KEPT_STATE)[K], 'attribute'> };

/** The name of a kept option. */
export type KeptName = keyof typeof KEPT_STATE;
/** What the host has set on an embed and the embed keeps across reloads (see {@link KEPT_STATE}). */
export type HostState = { [K in KeptName]?: AnyOptions[K] };
