import { EmbedError, refuse } from './errors';

/*
 * The rule language of field descriptors, shared by the catalog's payloads (catalog.ts) and the
 * SDK's own options: a descriptor is an enum of literals, or one or two kind names joined by `|`,
 * with a trailing `?` for an optional field. Kind names read as the rule, so a refusal quotes the
 * descriptor itself: `"widgetCount" must be integer>=0 (got -1)`. `compile` turns a schema (field
 * name to descriptor) into one check. The protocol's kinds (`KINDS`) serve event payloads, action
 * payloads and the options; the options add a few of their own (`OPTION_RULES`, development only,
 * and `ALWAYS_RULES`).
 */

// The runtime check of each kind. The same checks (and the same messages) serve event payloads,
// action payloads and the SDK's own options.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each check narrows its own input
export const KINDS: Record<string, (v: any) => unknown> = {
  string: (v) => typeof v == 'string',
  'non-empty string': (v) => typeof v == 'string' && v.trim() != '',
  number: Number.isFinite,
  'integer>=0': (v) => Number.isSafeInteger(v) && v >= 0,
  'number>=0': (v) => Number.isFinite(v) && v >= 0,
  boolean: (v) => typeof v == 'boolean',
  object: (v) => isPlainObject(v),
  any: () => 1,
  null: (v) => v === null,
  'f_<view>.<dimension>=<JSON>': (v) => typeof v == 'string' && /^f_[^=.]+\.[^=]+=./s.test(v),
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

/** Whether a value is a plain object (any realm), not an array, Map, Date, null, ... */
export const isPlainObject = (v: unknown): v is Record<string, unknown> => Object.prototype.toString.call(v) == '[object Object]';

/** A value quoted in a reason: short, and never a whole object. @internal */
export const show = (v: unknown): unknown =>
  typeof v == 'string' ? JSON.stringify(v.slice(0, 40)) : typeof v == 'number' ? v : v === null ? 'null' : typeof v;

/** A schema compiled to one check: `undefined` when a value matches, else the reason it does not. @internal */
export type Check = (payload: Record<string, unknown>) => string | undefined;

/** Compiles a schema once: per field its name, whether it is optional, its test and the words of the rule. @internal */
export const compile = <K extends string>(schema: Schema<K>, kinds = KINDS): Check => {
  const rules: [string, boolean, (v: unknown) => unknown, string][] = [];
  for (const key in schema) {
    const d = schema[key]!;
    const optional = typeof d == 'string' && d.endsWith('?');
    const tests =
      typeof d == 'string'
        ? (optional ? d.slice(0, -1) : d).split('|').map((k) => {
            // Typed descriptors make this a compile error; a schema built at run time gets a clear one.
            // (`__DEV__` second: the build for Node reads NODE_ENV where it is written, and this runs at load.)
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

// ---- The options' own kinds ----

// Rules checked in every build (url.ts's checkAlways, in plain code): a wrong value would load a
// wrong URL or silently turn a timeout off. Kind names read as the rule, so a refusal quotes it:
// `"deploymentId" must be positive integer`.
/** A whole number from 1, or its digits (`deploymentId`). @internal */
export const isPositiveInteger = (v: unknown): boolean => (typeof v == 'number' || typeof v == 'string') && /^[1-9]\d*$/.test(String(v));
/** A dashboard's public id: not empty, and not a path step (`.`, `..`). @internal */
export const isPublicId = (v: unknown): boolean => typeof v == 'string' && v.trim() != '' && !/^\.\.?$/.test(v);
/** Sandbox tokens with `allow-scripts` and `allow-same-origin`: without either the frame never says ready, and each retry would mint a session for nothing. @internal */
export const isSandbox = (v: unknown): boolean =>
  typeof v == 'string' && ['allow-scripts', 'allow-same-origin'].every((token) => v.split(/\s+/).includes(token));
const ALWAYS_RULES = {
  'positive integer': isPositiveInteger,
  'a public id such as "sales-overview"': isPublicId,
  'string with allow-scripts and allow-same-origin': isSandbox,
};
// The rules of the SDK's own options checked in development only (they are the host's code).
// (No spread in it: bundlers keep an object built with one, and this one ships in development only.)
const OPTION_RULES = {
  function: (v: unknown) => typeof v == 'function',
  'signed session id (the app surface has no private mode)': (v: unknown) => typeof v == 'string' && v.trim() != '',
  'JSON object such as {"value":"completed"}': (v: unknown) => {
    try {
      return isPlainObject(v) && JSON.stringify(v);
    } catch {}
  },
  'eager or lazy': (v: unknown) => v == 'eager' || v == 'lazy',
  'CSS text such as "height:400px"': (v: unknown) => typeof v == 'string',
  'element or CSS selector': (v: unknown) => typeof v == 'string' || (typeof v == 'object' && v != null && 'appendChild' in v),
  '<semantic_view>.<dimension>': (v: unknown) => typeof v == 'string' && /^[^\s.=&#?/]+\.[^\s.=&#?/]+$/.test(v),
};
/** A kind name of the options' descriptors: the protocol's kinds plus the options' own. */
export type OptionKind = KindName | keyof typeof ALWAYS_RULES | keyof typeof OPTION_RULES;

/** Compiles a schema of options with the whole vocabulary. Development checks only. @internal */
export const compileOptions = (schema: Schema<OptionKind>): Check => compile(schema, { ...KINDS, ...ALWAYS_RULES, ...OPTION_RULES });

/** Checks one `view.dimension` key of a keyed option and its value (development only). @internal */
export const checkMember = (option: string, key: string, value: unknown, rule: FieldDescriptor<OptionKind>): void => {
  const problem = OPTION_RULES['<semantic_view>.<dimension>'](key)
    ? compileOptions({ [key]: rule })({ [key]: value })
    : `"${key}" must be <semantic_view>.<dimension>, e.g. "orders.status"`;
  refuse(problem && `${option}: ${problem}`);
};
