import { ACTION_PREFIX, ACTION_SCHEMAS, EVENT_PREFIX, EVENT_SCHEMAS, SOURCE, SURFACES } from './catalog';
import { EmbedError } from './errors';

export { ACTION_PREFIX, ACTION_SCHEMAS, EVENT_PREFIX, EVENT_SCHEMAS, SOURCE, SURFACES } from './catalog';

/*
 * The message protocol of the platform's embeds, derived from its catalog (catalog.ts): the
 * rule language of field descriptors (`KINDS` and `compile`), the TypeScript types of events and
 * actions, the validation of incoming envelopes (`parseMessage`) and the builder of outgoing
 * ones (`createAction`).
 */

// The runtime check of each kind. Kind names read as the rule, so an error message can
// quote the descriptor itself: `"widgetCount" must be integer>=0 (got -1)`. The same checks
// (and the same messages) serve event payloads, action payloads and the SDK's own options.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each check narrows its own input
export const KINDS: Record<string, (v: any) => unknown> = {
  string: (v) => typeof v == 'string',
  'non-empty string': (v) => typeof v == 'string' && v.trim() != '',
  number: Number.isFinite,
  'integer>=0': (v) => Number.isSafeInteger(v) && v >= 0,
  'number>=0': (v) => Number.isFinite(v) && v >= 0,
  boolean: (v) => typeof v == 'boolean',
  function: (v) => typeof v == 'function',
  object: (v) => isPlainObject(v),
  any: () => 1,
  null: (v) => v === null,
  'f_<view>.<dimension>=<JSON>': (v) => typeof v == 'string' && /^f_[^=.]+\.[^=]+=./s.test(v),
  'platform:event:<name>': (v) => EVENTS.has(v) || (typeof v == 'string' && TYPE.test(v)),
};

/** Maps each kind name of a field descriptor to its TypeScript type. */
export interface KindTypes {
  string: string;
  object: Record<string, unknown>;
  'non-empty string': string;
  number: number;
  'integer>=0': number;
  'number>=0': number;
  boolean: boolean;
  any: unknown;
  null: null;
  'f_<view>.<dimension>=<JSON>': FilterUrlParameter;
}

/** A `filterUrlParameter`: `f_<semantic_view>.<dimension>=<JSON>`. Build one with `filterUrlParameter()`. */
export type FilterUrlParameter = `f_${string}.${string}=${string}`;

/** The kind names of the protocol's descriptors (the keys of {@link KindTypes}). */
export type KindName = keyof KindTypes;
type Alternatives<K extends string> = K | `${K}|${K}`;
/**
 * A field descriptor: an enum of literals, or one or two kind names joined by `|`, optionally
 * ending in `?`. Typed, so a typo (`'strng?'`) is a compile error, not a `TypeError` at run time.
 */
export type FieldDescriptor<K extends string = KindName> = readonly (string | number | boolean)[] | Alternatives<K> | `${Alternatives<K>}?`;
/** A payload schema: field name to descriptor. */
export type Schema<K extends string = KindName> = { readonly [field: string]: FieldDescriptor<K> };

type KindsOf<S> = S extends `${infer A}|${infer B}` ? KindsOf<A> | KindsOf<B> : S extends keyof KindTypes ? KindTypes[S] : never;
type FieldType<D> = D extends readonly (infer E)[] ? E : D extends `${infer K}?` ? KindsOf<K> : KindsOf<D>;
type Optional<S> = { [K in keyof S]: S[K] extends `${string}?` ? K : never }[keyof S];
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The payload type a schema describes (derived, never written by hand). */
export type PayloadOf<S> = [keyof S] extends [never]
  ? Record<string, never>
  : Simplify<
      { -readonly [K in Exclude<keyof S, Optional<S> | '*'>]: FieldType<S[K]> } & {
        -readonly [K in Exclude<Optional<S>, '*'>]?: FieldType<S[K]>;
      } & ('*' extends keyof S ? { [key: string]: unknown } : unknown)
    >;

/** An embed surface: `dashboard`, `app` or `chat`. */
export type Surface = (typeof SURFACES)[number];
/** Short event names: `ready`, `view`, `navigate`, `dashboard-loaded`, `download`, `drilldown`, `ai-query`, `error`. */
export type EventName = keyof typeof EVENT_SCHEMAS;
/** Short action names: `set-color-scheme`, `set-theme`, `set-locale`, `set-filter`, `navigate`, `refresh`. */
export type ActionName = keyof typeof ACTION_SCHEMAS;
/** Event name to payload type. */
export type EventMap = { [K in EventName]: PayloadOf<(typeof EVENT_SCHEMAS)[K]> };
/** Action name to payload type. */
export type ActionMap = { [K in ActionName]: PayloadOf<(typeof ACTION_SCHEMAS)[K]> };
/** A full event type string such as `platform:event:ready`. */
export type EventType<K extends EventName = EventName> = `${typeof EVENT_PREFIX}${K}`;
/** A full action type string such as `platform:action:refresh`. */
export type ActionType<K extends ActionName = ActionName> = `${typeof ACTION_PREFIX}${K}`;

/** A kebab-case name in camelCase: `dashboard-loaded` → `dashboardLoaded` (catalog names, attribute names). */
export type CamelCase<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;
/** A camelCase name in kebab-case: `publicId` → `public-id` (option names as attribute names). */
export type KebabCase<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `-${Lowercase<H>}`}${KebabCase<T>}`
  : S;
/** `camelCase('set-color-scheme')` is `'setColorScheme'`. */
export const camelCase = <S extends string>(name: S): CamelCase<S> =>
  name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()) as CamelCase<S>;
/** `kebabCase('publicId')` is `'public-id'`. */
export const kebabCase = <S extends string>(name: S): KebabCase<S> => name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()) as KebabCase<S>;
/** The handler option of an event: `dashboard-loaded` → `onDashboardLoaded`. */
export type EventPropName<K extends EventName = EventName> = `on${Capitalize<CamelCase<K>>}`;
/** The handler option of an event: `eventProp('dashboard-loaded')` is `'onDashboardLoaded'`. */
export const eventProp = <K extends EventName>(name: K): EventPropName<K> => ('on' + camelCase('-' + name)) as EventPropName<K>;

/** Payload of `ready`. */
export type ReadyPayload = EventMap['ready'];
/** The brand theme object of `set-theme`; other keys are allowed. */
export type EmbedTheme = ActionMap['set-theme'];
/** A color scheme for `set-color-scheme`. */
export type ColorScheme = ActionMap['set-color-scheme']['scheme'];

/** A validated event envelope of a known event type. */
export type EventMessage<K extends EventName = EventName> = {
  [P in K]: {
    source: typeof SOURCE;
    direction: 'event';
    type: EventType<P>;
    payload: EventMap[P];
    timestamp: number;
    surface: Surface;
  };
}[K];

/** A well-formed envelope of an event type this SDK version does not know; payload unchecked. */
export interface UnknownEventMessage {
  source: typeof SOURCE;
  direction: 'event';
  type: `${typeof EVENT_PREFIX}${string}`;
  payload: Record<string, unknown>;
  timestamp: number;
  surface: Surface;
}

/** An action envelope as posted to the embed. It never carries `surface`. */
export type ActionMessage<K extends ActionName = ActionName> = {
  [P in K]: {
    source: typeof SOURCE;
    direction: 'action';
    type: ActionType<P>;
    payload: ActionMap[P];
    timestamp: number;
  };
}[K];

/** The result of {@link parseMessage}. */
export type ParseResult =
  | { ok: true; known: true; message: EventMessage }
  | { ok: true; known: false; message: UnknownEventMessage }
  | { ok: false; reason: string };

/** The arguments after the type for an action: the payload, optional when it has no required field. */
export type ActionArgs<K extends ActionName> = {} extends ActionMap[K] ? [payload?: ActionMap[K]] : [payload: ActionMap[K]];

/** The map of short event names to full type strings. */
export const EVENT_TYPES = /* @__PURE__ */ prefixed(EVENT_SCHEMAS, EVENT_PREFIX) as { readonly [K in EventName]: EventType<K> };
/** The map of short action names to full type strings. */
export const ACTION_TYPES = /* @__PURE__ */ prefixed(ACTION_SCHEMAS, ACTION_PREFIX) as {
  readonly [K in ActionName]: ActionType<K>;
};

function prefixed(schemas: object, prefix: string) {
  return Object.fromEntries(Object.keys(schemas).map((k) => [k, prefix + k]));
}

/** `Object.entries` of a table, with the shape its entries share. @internal */
export const entriesOf = <Spec>(table: object): [string, Spec][] => Object.entries(table);

/** Whether a value is a plain object (any realm), not an array, Map, Date, null, ... */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => Object.prototype.toString.call(v) == '[object Object]';

// A value as a string that does not depend on the order of its keys (a property list replacer of the sorted keys).
const stable = (value: unknown) => {
  const keys: string[] = [];
  JSON.stringify(value, (key, v: unknown) => (keys.push(key), v));
  return JSON.stringify(value, keys.sort());
};
/**
 * Whether two option values are the same: identical, or equal by value where a framework
 * re-creates them on every render (plain objects, whatever their key order; URLs). @internal
 */
export const same = (a: unknown, b: unknown): boolean =>
  a === b ||
  (a instanceof URL || b instanceof URL ? String(a) == String(b) : isPlainObject(a) && isPlainObject(b) && stable(a) == stable(b));

// A value quoted in a reason: short, and never a whole object.
const show = (v: unknown) =>
  typeof v == 'string' ? JSON.stringify(v.slice(0, 40)) : typeof v == 'number' ? v : v === null ? 'null' : typeof v;

/** A schema compiled to one check: `undefined` when a value matches, else the reason it does not. */
type Check = (payload: Record<string, unknown>) => string | undefined;

/** Compiles a schema once: per field its name, whether it is optional, its test and the words of the rule. */
export const compile = <K extends string>(schema: Schema<K>, kinds = KINDS): Check => {
  const rules: [string, boolean, (v: unknown) => unknown, string][] = [];
  for (const key in schema) {
    const d = schema[key]!;
    const optional = typeof d == 'string' && d.endsWith('?');
    const tests =
      typeof d == 'string'
        ? (optional ? d.slice(0, -1) : d).split('|').map((k) => {
            // Typed descriptors make this a compile error; a schema built at run time gets a clear one.
            if (!kinds[k] && __DEV__) throw new EmbedError('invalid-option', `unknown kind "${k}" in the descriptor of "${key}"`);
            return kinds[k] ?? (() => 0);
          })
        : [(v: unknown) => d.includes(v as string)];
    if (key != '*')
      rules.push([
        key,
        optional,
        tests[1] ? (v) => tests.some((test) => test(v)) : tests[0]!,
        typeof d == 'string' ? (optional ? d.slice(0, -1) + ' when present' : d) : d.join('|'),
      ]);
  }
  return (payload) => {
    for (const [key, optional, test, rule] of rules) {
      const v = payload[key];
      if (!(optional && v === undefined) && !test(v)) return `"${key}" must be ${rule} (got ${show(v)})`;
    }
  };
};

/**
 * Checks a payload against a schema.
 * @returns `undefined` when it matches, else the reason it does not.
 */
export const checkPayload = (schema: Schema, payload: Record<string, unknown>): string | undefined => {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = compile(schema)));
  return check(payload);
};
const compiled = /* @__PURE__ */ new WeakMap<Schema, Check>();

// Compiled once, and looked up in Maps by the full type string, never on plain objects by a
// message's type: a type of `constructor` or `__proto__` must be an unknown type, not Object.prototype's.
const compileAll = (schemas: Record<string, Schema>, prefix: string) =>
  new Map(Object.keys(schemas).map((k) => [prefix + k, compile(schemas[k]!)]));
const EVENTS = /* @__PURE__ */ compileAll(EVENT_SCHEMAS, EVENT_PREFIX);
const ACTIONS = /* @__PURE__ */ compileAll(ACTION_SCHEMAS, ACTION_PREFIX);
const TYPE = /^platform:event:[\w-]{1,64}$/;
// The envelope is checked like a payload, in this order: who sent it first.
const ENVELOPE = /* @__PURE__ */ compile<string>({
  source: [SOURCE],
  direction: ['event'],
  type: 'platform:event:<name>',
  payload: 'object',
  timestamp: 'number',
  surface: SURFACES,
});

/** Whether `name` is an event name of the catalog (`ready`, ...), as opposed to `constructor` or a typo. */
export const isEventName = (name: string): name is EventName => EVENTS.has(EVENT_PREFIX + name);

/**
 * Validates a raw `MessageEvent.data` as an event envelope. Call it only after you have
 * checked `event.source` and `event.origin` (reading `data` deserializes the payload).
 *
 * Known event types get their payload checked against the catalog; a well-formed type
 * this version does not know is accepted with `known: false` and an unchecked payload.
 * Extra payload fields are allowed and kept.
 *
 * @example
 * ```ts
 * const r = parseMessage(event.data);
 * if (r.ok && r.known && r.message.type === EVENT_TYPES.ready) console.log(r.message.payload.mode);
 * ```
 */
export function parseMessage(data: unknown): ParseResult {
  if (!isPlainObject(data)) return { ok: false, reason: 'not an object' };
  const check = EVENTS.get(data.type as string);
  let reason = ENVELOPE(data);
  if (reason) reason = `bad envelope: ${reason}`;
  else if (check && (reason = check(data.payload as Record<string, unknown>))) reason = `${data.type}: ${reason}`;
  return reason ? { ok: false, reason } : ({ ok: true, known: !!check, message: data } as ParseResult);
}

/** Strips the `platform:action:` or `platform:event:` prefix of a type string. */
export const shortName = (type: string, prefix: string): string =>
  typeof type != 'string' ? '' : type.startsWith(prefix) ? type.slice(prefix.length) : type;

/**
 * Builds an action envelope, validating the payload first. The payload is copied
 * (structured clone), so later changes to the caller's object do not leak into a queued action.
 *
 * @throws {EmbedError} `invalid-action` when the type is unknown or the payload does not
 *   match the catalog; the message names the field and the rule.
 * @example
 * ```ts
 * iframe.contentWindow.postMessage(createAction('set-color-scheme', { scheme: 'dark' }), tenantOrigin);
 * ```
 */
export function createAction<K extends ActionName>(type: K | ActionType<K>, ...[payload]: ActionArgs<K>): ActionMessage<K> {
  const short = shortName(type, ACTION_PREFIX);
  const [problem, copy] = checkAction(short, payload);
  if (problem) throw new EmbedError('invalid-action', `action "${short}": ${problem}`);
  return actionEnvelope(short as K, copy as ActionMap[K]);
}

/**
 * Checks an action's payload against the catalog and copies it: the problem (`undefined` when
 * it is valid, else the field and the rule, or `payload ...` for the whole payload) and the copy.
 * @internal
 */
export function checkAction(short: string, payload: unknown): [problem: string | undefined, copy: unknown] {
  const check = ACTIONS.get(ACTION_PREFIX + short);
  let copy: unknown = payload ?? {};
  let problem: string | undefined = check ? '' : `unknown action${__DEV__ ? `, use ${Object.keys(ACTION_SCHEMAS).join('|')}` : ''}`;
  try {
    // Jest's jsdom environment has no structuredClone: there, JSON's copy (payloads are plain data).
    copy = typeof structuredClone == 'function' ? structuredClone(copy) : JSON.parse(JSON.stringify(copy));
  } catch {
    problem = __DEV__ ? 'payload cannot be cloned (no functions or DOM nodes)' : 'payload not cloneable';
  }
  return [problem || (isPlainObject(copy) ? check!(copy) : 'payload must be an object'), copy];
}

/** {@link createAction} for a type known only at run time (the option and kept-state tables). @internal */
export const createActionOf = createAction as (type: string, payload?: unknown) => ActionMessage;

/** An action envelope around a payload that is already valid (no check, no copy). @internal */
export const actionEnvelope = <K extends ActionName>(name: K, payload: ActionMap[K]): ActionMessage<K> =>
  ({ source: SOURCE, direction: 'action', type: ACTION_PREFIX + name, payload, timestamp: Date.now() }) as ActionMessage<K>;
