import { ACTION_PREFIX, ACTION_SCHEMAS, EVENT_PREFIX, EVENT_SCHEMAS, SOURCE, SURFACES, type Surface } from './catalog';
import { EmbedError } from './errors';
import { KINDS, compile, isPlainObject, type PayloadOf, type Schema } from './rules';

/*
 * The message protocol of the platform's embeds, derived from its catalog (catalog.ts): the
 * TypeScript types of events and actions, the validation of incoming envelopes (`parseMessage`)
 * and the builder of outgoing ones (`createAction`), both compiled once from the catalog in the
 * rule language (rules.ts), and the names derived from the catalog (`onDashboardLoaded`, ...).
 */

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
/** The handler option of each event of the catalog, by event name. @internal */
export const EVENT_PROPS = /* @__PURE__ */ new Map(Object.keys(EVENT_SCHEMAS).map((name) => [name, eventProp(name as EventName)]));

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

// Compiled once, and looked up in Maps by the full type string, never on plain objects by a
// message's type: a type of `constructor` or `__proto__` must be an unknown type, not Object.prototype's.
// (Typed: a descriptor of the catalog that is not in the rule language, `'strng?'`, fails to compile here.)
const compileAll = (schemas: Record<string, Schema>, prefix: string) =>
  new Map(Object.keys(schemas).map((k) => [prefix + k, compile(schemas[k]!)]));
const EVENTS = /* @__PURE__ */ compileAll(EVENT_SCHEMAS, EVENT_PREFIX);
const ACTIONS = /* @__PURE__ */ compileAll(ACTION_SCHEMAS, ACTION_PREFIX);
// (The catalog's own types are of this form too: the envelope checks one rule for every type.)
const TYPE = /^platform:event:[\w-]{1,64}$/;
// The envelope is checked like a payload, in this order: who sent it first.
const ENVELOPE = /* @__PURE__ */ compile<string>(
  {
    source: [SOURCE],
    direction: ['event'],
    type: 'platform:event:<name>',
    payload: 'object',
    timestamp: 'number',
    surface: SURFACES,
  },
  { ...KINDS, 'platform:event:<name>': (v) => typeof v == 'string' && TYPE.test(v) },
);

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
  const reason = eventProblem(data);
  return reason ? { ok: false, reason } : ({ ok: true, known: EVENTS.has((data as EventMessage).type), message: data } as ParseResult);
}

/**
 * What {@link parseMessage} checks, without the result object (the embed's receiver reads only
 * this): `undefined` when `data` is a valid event envelope, else why not.
 * @internal
 */
export const eventProblem = (data: unknown): string | undefined => {
  if (!isPlainObject(data)) return 'not an object';
  const check = EVENTS.get(data.type as string);
  let reason = ENVELOPE(data);
  if (reason) return `bad envelope: ${reason}`;
  if (check && (reason = check(data.payload as Record<string, unknown>))) return `${data.type}: ${reason}`;
};

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
