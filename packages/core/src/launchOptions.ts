import { EmbedError } from './errors';
import { KINDS, SURFACES, compile, isPlainObject, type FieldDescriptor, type KindName, type Schema, type Surface } from './protocol';

/*
 * The URL launch options, declared once as data, and the rule vocabulary of every option the
 * SDK takes (the protocol's kinds plus the options' own). The URL builder, the option checks,
 * the option types, the kept state, the custom elements' attributes, Vue's props and the mock
 * platform's pages all read this table; nothing guesses a default from a name.
 */

/** A JSON value, as a filter value must be. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The JSON object of a filter, e.g. `{ value: 'completed' }` (an omitted filter type means equals). */
export type FilterValue = { [key: string]: JsonValue };

/** `<semantic_view>.<dimension>`, e.g. `orders.status`. */
export type MemberKey = `${string}.${string}`;

/** A time granularity for `tg_` launch options. */
export type TimeGrain = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

/**
 * How one URL launch option is declared: its value rule, its default, how it is written in the
 * URL and the surfaces that have it. Whether an action changes it on a mounted embed is the
 * kept state's business (see `KEPT_STATE`).
 */
export interface LaunchOptionSpec {
  /** `boolean`: a flag, written only when it differs from `default`, as the exact literal the platform reads. `string`: written as is. `members`: keyed by `view.dimension`, one `<prefix><key>` parameter each. */
  readonly kind: 'boolean' | 'string' | 'members';
  /** The platform's value when the parameter is absent (flags). */
  readonly default?: boolean;
  /** The query-parameter prefix of a `members` option: `f_`, `tg_`, `ms_`. */
  readonly prefix?: string;
  /** The rule of each value of a `members` option. */
  readonly value?: FieldDescriptor<OptionKind>;
  /** The surfaces whose URL takes it. */
  readonly surfaces: readonly Surface[];
}

const DASHBOARD_APP = ['dashboard', 'app'] as const;
const on = { kind: 'boolean', default: true, surfaces: DASHBOARD_APP } as const;

/**
 * The URL launch options, declared once as data. The URL builder, the option checks, the
 * option types, the custom elements' attributes, Vue's prop casting and the mock platform's
 * pages all derive from this table; nothing guesses a default from a name.
 */
export const LAUNCH_OPTIONS = {
  /** Shows CSV/PNG/PDF downloads on widgets and PNG/PDF for the whole dashboard (`allowExport=true`). @default false */
  allowExport: { kind: 'boolean', default: false, surfaces: DASHBOARD_APP },
  /** `false` hides the dashboard-level export menu (matters only with `allowExport`). @default true */
  showDashboardExportMenu: on,
  /** `false` hides the whole header bar, overriding the four header toggles below. @default true */
  showDashboardHeader: on,
  /** `false` hides the header's back button. @default true */
  showDashboardBackButton: on,
  /** `false` hides the dashboard title. @default true */
  showDashboardTitle: on,
  /** `false` hides the edit button. @default true */
  showDashboardEditButton: on,
  /** `false` hides the duplicate button. @default true */
  showDashboardDuplicateButton: on,
  /** `false` hides the back button of the creator-mode workbook header. @default true */
  showWorkbookBackButton: { kind: 'boolean', default: true, surfaces: ['app'] },
  /**
   * UI language of the embed: a full code, short code or regional variant (`es-MX`, `es`).
   * Changed on a mounted embed with the `set-locale` action, without a reload.
   */
  locale: { kind: 'string', surfaces: SURFACES },
  /**
   * Pre-set filter controls (`f_` parameters), keyed by `view.dimension`. A changed or added
   * filter is pushed with the `set-filter` action; a removed one reloads (no action clears one).
   * @example `{ 'orders.status': { value: 'completed' } }`
   */
  filters: { kind: 'members', prefix: 'f_', value: 'JSON object such as {"value":"completed"}', surfaces: DASHBOARD_APP },
  /**
   * Pre-set time-granularity switchers (`tg_` parameters), keyed by `view.dimension`.
   * @example `{ 'orders.created_at': 'month' }`
   */
  timeGrains: {
    kind: 'members',
    prefix: 'tg_',
    value: ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'],
    surfaces: DASHBOARD_APP,
  },
  /**
   * Pre-set field switchers (`ms_` parameters): `view.replaced_member` to the selected member.
   * @example `{ 'orders.revenue': 'profit' }`
   */
  fieldSwitches: { kind: 'members', prefix: 'ms_', value: 'non-empty string', surfaces: DASHBOARD_APP },
} as const satisfies Record<string, LaunchOptionSpec>;

/** The name of a launch option. */
export type LaunchOptionName = keyof typeof LAUNCH_OPTIONS;
type Spec = typeof LAUNCH_OPTIONS;
type ValueOf<O> = O extends { kind: 'boolean' }
  ? boolean
  : O extends { value: infer V }
    ? { [member: MemberKey]: V extends readonly (infer E)[] ? E : V extends 'non-empty string' ? string : FilterValue }
    : string;
/** The launch options a surface's URL takes, with their types, derived from {@link LAUNCH_OPTIONS}. */
export type LaunchOptionsOf<S extends Surface> = {
  -readonly [K in keyof Spec as S extends Spec[K]['surfaces'][number] ? K : never]?: ValueOf<Spec[K]>;
};

/** Launch options every surface understands. */
export type CommonLaunchOptions = LaunchOptionsOf<'chat'>;
/** Launch options of published dashboards (also honoured by dashboards inside the app). */
export type DashboardLaunchOptions = LaunchOptionsOf<'dashboard'>;
/** Launch options of the standalone analytics chat. */
export type ChatLaunchOptions = LaunchOptionsOf<'chat'>;
/** Launch options of the creator-mode app. */
export type AppLaunchOptions = LaunchOptionsOf<'app'>;

/** One parameter, `<name>=<value>` (a value other than a string as JSON), optionally encoded: in URLs, and as a filter's `filterUrlParameter`. @internal */
export const parameter = (name: string, value: unknown, encode = (text: string) => text): string =>
  encode(name) + '=' + encode(typeof value == 'string' ? value : JSON.stringify(value));

// ---- The rule vocabulary ----

/**
 * Throws an `invalid-option` error when there is a problem (the reason names the option and, in
 * development, what to pass instead).
 */
export const refuse = (problem: string | undefined | false | 0): void => {
  if (problem) throw new EmbedError('invalid-option', problem);
};

// Rules checked in every build: a wrong value would load a wrong URL or silently turn a timeout
// off. Kind names read as the rule, so a refusal quotes it: `"deploymentId" must be a positive integer`.
const ALWAYS_RULES = {
  'positive integer': (v: unknown) => (typeof v == 'number' || typeof v == 'string') && /^[1-9]\d*$/.test(String(v)),
  'a public id such as "sales-overview"': (v: unknown) => typeof v == 'string' && v.trim() != '' && !/^\.\.?$/.test(v),
  // (Without either the frame never says ready: each retry would mint a session for nothing.)
  'string with allow-scripts and allow-same-origin': (v: unknown) =>
    typeof v == 'string' && ['allow-scripts', 'allow-same-origin'].every((token) => v.split(/\s+/).includes(token)),
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

/** Compiles a schema of options checked in every build (the protocol's kinds plus the few rules that must always hold). */
export const compileAlways = (schema: Schema<OptionKind>) => compile(schema, { ...KINDS, ...ALWAYS_RULES });
/** Compiles a schema of options with the whole vocabulary. Development checks only. */
export const compileOptions = (schema: Schema<OptionKind>) => compile(schema, { ...KINDS, ...ALWAYS_RULES, ...OPTION_RULES });

/** Checks one `view.dimension` key of a keyed option and its value (development only). @internal */
export const checkMember = (option: string, key: string, value: unknown, rule: FieldDescriptor<OptionKind>): void => {
  const problem = OPTION_RULES['<semantic_view>.<dimension>'](key)
    ? compileOptions({ [key]: rule })({ [key]: value })
    : `"${key}" must be <semantic_view>.<dimension>, e.g. "orders.status"`;
  refuse(problem && `${option}: ${problem}`);
};
