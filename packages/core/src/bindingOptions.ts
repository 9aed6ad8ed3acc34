import { EMBED_OPTIONS, type AttributeKind, type EmbedOptionName, type EmbedOptionSpec } from './embedOptions';
import { KEPT_STATE, type KeptName, type KeptStateSpec } from './keptState';
import { LAUNCH_OPTIONS, type LaunchOptionName, type LaunchOptionSpec } from './launchOptions';
import { EVENT_SCHEMAS } from './catalog';
import { entriesOf, eventProp, kebabCase, type EventName, type KebabCase } from './protocol';

/*
 * What the framework bindings derive from the option tables (embedOptions.ts, launchOptions.ts
 * and keptState.ts): the options they pass through, and for the custom elements each option's
 * attribute, its name and how its string is read, at run time and as template types; and from
 * the catalog, the handler options that turn the events into the framework's own.
 */

/** An option a binding passes through (every option but `container`; the event handlers come from the catalog). */
export type BindingOptionName = LaunchOptionName | Exclude<EmbedOptionName, 'container'> | KeptName;
type Own = typeof EMBED_OPTIONS & typeof KEPT_STATE;
/** The attribute of an option: its `attributeName`, else its name in kebab-case. */
export type AttributeName<N extends string> = N extends keyof Own
  ? Own[N] extends { attributeName: infer A }
    ? A
    : KebabCase<N>
  : KebabCase<N>;
/** The options read from attributes as `Kind` (see {@link AttributeKind}), as attribute names, from the tables. */
export type AttributesOf<Kind extends AttributeKind> = {
  [N in BindingOptionName]: (
    N extends LaunchOptionName
      ? (typeof LAUNCH_OPTIONS)[N]['kind'] extends 'boolean'
        ? 'flag'
        : (typeof LAUNCH_OPTIONS)[N]['kind'] extends 'members'
          ? 'json'
          : 'string'
      : N extends keyof Own
        ? Own[N] extends { attribute: infer K }
          ? K
          : 'not an attribute'
        : 'not an attribute'
  ) extends Kind
    ? AttributeName<N>
    : never;
}[BindingOptionName];
/** The flag attributes that are off by default (for them, a boolean `false` can stand for the absent attribute). */
export type DefaultOffAttribute = AttributesOf<'flag'> &
  {
    [N in BindingOptionName]: (N extends LaunchOptionName ? (typeof LAUNCH_OPTIONS)[N] : N extends keyof Own ? Own[N] : never) extends {
      default: false;
    }
      ? AttributeName<N>
      : never;
  }[BindingOptionName];

/**
 * Every option a binding passes through, from the tables: its name, how a custom element reads
 * it (`undefined`: not an attribute) and the attribute's name. Vue's props, the custom
 * elements' attributes and the Angular inputs derive from it.
 */
export const bindingOptions = (): { name: BindingOptionName; attribute?: AttributeKind; attributeName: string; check?: string }[] => [
  ...entriesOf<LaunchOptionSpec>(LAUNCH_OPTIONS).map(([name, spec]) => ({
    name: name as BindingOptionName,
    attribute: spec.kind == 'boolean' ? ('flag' as const) : spec.kind == 'members' ? ('json' as const) : ('string' as const),
    attributeName: kebabCase(name),
  })),
  ...entriesOf<EmbedOptionSpec | KeptStateSpec>({ ...EMBED_OPTIONS, ...KEPT_STATE })
    .filter(([name]) => name != 'container' && !(name in LAUNCH_OPTIONS))
    .map(([name, spec]) => ({
      name: name as BindingOptionName,
      attribute: spec.attribute,
      attributeName: ('attributeName' in spec && spec.attributeName) || kebabCase(name),
      check: 'check' in spec && typeof spec.check == 'string' ? spec.check : undefined,
    })),
];

/**
 * One handler option per event of the catalog (`onReady`, ...) and `onEvent`, each handing what
 * it hears to `dispatch`: `(name, payload, message)` for an event of the catalog, `('event',
 * message)` for the catch-all. The bindings pass them to turn events into their framework's own
 * (Vue's `emit`, the elements' DOM events, Angular's outputs).
 * @internal
 */
export const eventHandlers = (dispatch: (name: string, ...args: unknown[]) => unknown): Record<string, Function> =>
  // (`onEvent` is eventProp('event').)
  Object.fromEntries(
    [...Object.keys(EVENT_SCHEMAS), 'event'].map((name) => [eventProp(name as EventName), (...args: unknown[]) => dispatch(name, ...args)]),
  );
