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
