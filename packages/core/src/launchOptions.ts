import { SURFACES, type Surface } from './catalog';
import type { FieldDescriptor, OptionKind } from './rules';

/*
 * The URL launch options, declared once as data (`LAUNCH_OPTIONS`): the option checks, the option
 * types, the custom elements' attributes, Vue's props and the mock platform's pages read this
 * table; nothing guesses a default from a name. Production reads only how each goes into the URL
 * (`LAUNCH_URL`, below it, which the compiler checks against it): the rest (the surfaces, which
 * only the types read; each value's rule, which only development checks) never ships in a
 * production bundle that does not import the table itself.
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

/** How a launch option goes into the URL (see {@link LAUNCH_URL}). */
type UrlForm<O> = O extends { prefix: infer P } ? P : O extends { kind: 'boolean'; default: infer D } ? D : undefined;

/**
 * How each launch option goes into the URL: all that production reads of {@link LAUNCH_OPTIONS}
 * (the URL builder, the kept state, what a change means). A flag's default (`true` or `false`:
 * the flag is written only when it differs), `undefined` for a string written as is, or a keyed
 * option's parameter prefix (one `<prefix><view.dimension>` parameter per member). Each entry is
 * checked against the table's by the compiler. @internal
 */
export const LAUNCH_URL = {
  allowExport: false,
  showDashboardExportMenu: true,
  showDashboardHeader: true,
  showDashboardBackButton: true,
  showDashboardTitle: true,
  showDashboardEditButton: true,
  showDashboardDuplicateButton: true,
  showWorkbookBackButton: true,
  locale: undefined,
  filters: 'f_',
  timeGrains: 'tg_',
  fieldSwitches: 'ms_',
} as const satisfies { readonly [K in LaunchOptionName]: UrlForm<Spec[K]> };

/** The parameter prefix of a keyed launch option (`filters`: `f_`); `undefined` for any other name. @internal */
export const prefixOf = (name: string): string | undefined => {
  const form: unknown = (LAUNCH_URL as Record<string, unknown>)[name];
  return typeof form == 'string' ? form : undefined;
};

/** Launch options every surface understands. */
export type CommonLaunchOptions = LaunchOptionsOf<'chat'>;
/** Launch options of published dashboards (also honoured by dashboards inside the app). */
export type DashboardLaunchOptions = LaunchOptionsOf<'dashboard'>;
/** Launch options of the standalone analytics chat. */
export type ChatLaunchOptions = LaunchOptionsOf<'chat'>;
/** Launch options of the creator-mode app. */
export type AppLaunchOptions = LaunchOptionsOf<'app'>;
