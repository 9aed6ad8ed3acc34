import fc from 'fast-check';
import { EVENT_SCHEMAS, SURFACES, filterUrlParameter, type EventName, type FieldDescriptor, type Schema } from '../src/index';
import { envelope } from './helpers';

/*
 * fast-check generators derived from the catalog, shared by property.test.ts and
 * stress.test.ts. `value` generates the values of `any` fields and of unknown extra fields:
 * `fc.anything()` for the widest search, `fc.jsonValue()` where volume matters.
 */
export function catalogArbitraries(value: fc.Arbitrary<unknown>) {
  const name = fc.stringMatching(/^[a-z_][a-z0-9_]{0,12}$/);
  const kinds: Record<string, fc.Arbitrary<unknown>> = {
    string: fc.string(),
    'non-empty string': fc.string({ minLength: 1 }).filter((s) => s.trim() != ''),
    number: fc.double({ noNaN: true, noDefaultInfinity: true }),
    'integer>=0': fc.maxSafeNat(),
    'number>=0': fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }),
    boolean: fc.boolean(),
    any: value,
    null: fc.constant(null),
    'f_<view>.<dimension>=<JSON>': fc
      .tuple(name, name, fc.dictionary(fc.string(), fc.jsonValue()))
      .map(([v, d, json]) => filterUrlParameter(v, d, json as never)),
  };

  /** Values a field descriptor accepts. */
  const field = (descriptor: FieldDescriptor): fc.Arbitrary<unknown> => {
    if (typeof descriptor != 'string') return fc.constantFrom(...descriptor);
    return fc.oneof(
      ...descriptor
        .replace(/\?$/, '')
        .split('|')
        .map((kind) => {
          const arbitrary = kinds[kind];
          if (!arbitrary) throw new Error(`no arbitrary for the field kind "${kind}": add one to arbitraries.ts`);
          return arbitrary;
        }),
    );
  };

  /** Valid payloads of a schema: every required field, some optional ones, and unknown extra fields. */
  const payload = (schema: Schema): fc.Arbitrary<Record<string, unknown>> => {
    const fields = Object.entries(schema).filter(([k]) => k != '*');
    const requiredKeys = fields.filter(([, d]) => typeof d != 'string' || !d.endsWith('?')).map(([k]) => k);
    const extra = fc.dictionary(
      fc.string().filter((k) => !(k in schema) && k != '__proto__'),
      value,
      { maxKeys: 3 },
    );
    return fc
      .tuple(fc.record(Object.fromEntries(fields.map(([k, d]) => [k, field(d)])), { requiredKeys }), extra)
      .map(([known, more]) => ({ ...more, ...known }));
  };

  /** Valid event envelopes of every event of the catalog. */
  const validEvent = fc
    .constantFrom(...(Object.keys(EVENT_SCHEMAS) as EventName[]))
    .chain((event) =>
      fc
        .tuple(payload(EVENT_SCHEMAS[event]), fc.constantFrom(...SURFACES), fc.integer({ min: 0, max: 4e12 }))
        .map(([p, surface, timestamp]) => envelope(event, p, { surface, timestamp })),
    );

  return { field, payload, validEvent };
}

/** Marks a field to delete in a near-valid message. */
export const DELETE = Symbol('delete');

/** Values that break an envelope or a payload field when they replace it. */
export const hostileValue = fc.oneof(
  fc.anything({
    withBoxedValues: true,
    withMap: true,
    withSet: true,
    withObjectString: true,
    withNullPrototype: true,
    withBigInt: true,
    withDate: true,
    withTypedArray: true,
    withSparseArray: true,
  }),
  fc.constantFrom(
    DELETE,
    NaN,
    Infinity,
    -1,
    -0,
    '',
    'platform:event:__proto__',
    'platform:event:constructor',
    'platform:action:refresh',
    'action',
    'event',
    'DASHBOARD',
    'APP',
    [],
    new Map(),
    Object.create(null),
  ),
);

/** The fields of an event envelope. */
export const ENVELOPE_FIELDS = ['source', 'direction', 'type', 'payload', 'timestamp', 'surface'];

/** One change to an envelope: an envelope or payload field replaced by a hostile value or deleted, or a near-miss type. */
const mutation = fc.oneof(
  fc.tuple(fc.constant('envelope'), fc.constantFrom<string | number>(...ENVELOPE_FIELDS), hostileValue),
  fc.tuple(fc.constant('envelope'), fc.constant<string | number>('type'), fc.stringMatching(/^platform:event:[\w-]{1,70}$/)),
  fc.tuple(fc.constant('payload'), fc.nat() as fc.Arbitrary<string | number>, hostileValue),
);

function mutate(data: Record<string, unknown>, [where, key, value]: [string, string | number, unknown]): Record<string, unknown> {
  const target = where == 'envelope' ? data : (data.payload = { ...(data.payload as Record<string, unknown>) });
  const keys = Object.keys(target);
  const name = typeof key == 'number' ? (keys[key % Math.max(keys.length, 1)] ?? 'surface') : key;
  if (value === DELETE) delete target[name];
  else target[name] = value;
  return data;
}

/** Valid events with between `minLength` and `maxLength` changes applied. */
export const nearValid = (validEvent: fc.Arbitrary<Record<string, unknown>>, changes: { minLength?: number; maxLength: number }) =>
  fc.tuple(validEvent, fc.array(mutation, changes)).map(([data, list]) => list.reduce(mutate, data));

// ---- An independent reading of the envelope rules (security.md rule 4): the oracle for parseMessage ----

const plain = (v: unknown) => typeof v == 'object' && v !== null && [Object.prototype, null].includes(Object.getPrototypeOf(v));

/** Whether `data` is a valid event envelope, by the rules of security.md, written apart from the SDK. */
export function envelopeIsValid(data: unknown): data is { type: string; payload: Record<string, unknown> } & Record<string, unknown> {
  if (!plain(data)) return false;
  const d = data as Record<string, unknown>;
  return (
    d.source === 'platform-embed' &&
    d.direction === 'event' &&
    typeof d.type == 'string' &&
    /^platform:event:[A-Za-z0-9_-]{1,64}$/.test(d.type) &&
    plain(d.payload) &&
    typeof d.timestamp == 'number' &&
    Number.isFinite(d.timestamp) &&
    (SURFACES as readonly unknown[]).includes(d.surface)
  );
}

/** The catalog schema of a full event type string, or undefined for an unknown type. */
export const schemaOf = (type: string): Schema | undefined => {
  const name = type.slice('platform:event:'.length);
  return Object.hasOwn(EVENT_SCHEMAS, name) ? EVENT_SCHEMAS[name as EventName] : undefined;
};
