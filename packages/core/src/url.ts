import { EmbedError, ErrorCode } from './errors';
import { normalizeBaseUrl } from './origin';
import {
  KINDS,
  SURFACES,
  compile,
  isPlainObject,
  type ActionName,
  type FieldDescriptor,
  type FilterUrlParameter,
  type KindName,
  type Schema,
  type Surface,
} from './protocol';

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
 * URL, the action that changes it at run time (if any) and the surfaces that have it.
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
  /** The action that changes it on a mounted embed without a reload, if there is one. */
  readonly action?: ActionName;
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
  locale: { kind: 'string', action: 'set-locale', surfaces: SURFACES },
  /**
   * Pre-set filter controls (`f_` parameters), keyed by `view.dimension`. A changed or added
   * filter is pushed with the `set-filter` action; a removed one reloads (no action clears one).
   * @example `{ 'orders.status': { value: 'completed' } }`
   */
  filters: {
    kind: 'members',
    prefix: 'f_',
    value: 'JSON object such as {"value":"completed"}',
    action: 'set-filter',
    surfaces: DASHBOARD_APP,
  },
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

/** Everything an embed URL is built from. */
export interface EmbedUrlOptions extends AppLaunchOptions {
  /** The tenant host or custom domain, e.g. `https://acme.platform.example`. */
  baseUrl: string | URL;
  /** The published dashboard's public id (dashboard surface). */
  publicId?: string;
  /** The deployment id (app surface). */
  deploymentId?: number | string;
  /** A session id from generate-session. Omit for private mode (dashboard and chat only). */
  session?: string;
}

/**
 * Throws an `invalid-option` error when there is a problem: the whole sentence in development,
 * only the option it is about in production (the checks that find problems run in development only).
 */
export const refuse = (problem: string | undefined | false | 0): void => {
  if (problem) throw new EmbedError(ErrorCode.InvalidOption, problem);
};

// The rules of the SDK's own options, beyond those of the protocol (kept out of the protocol
// module, so that hosts importing only `parseMessage` and `createAction` do not ship them).
// Kind names read as the rule, so a refusal quotes it: `"deploymentId" must be positive integer`.
const OPTION_RULES = {
  function: (v: unknown) => typeof v == 'function',
  'non-empty string other than . or ..': (v: unknown) => typeof v == 'string' && v.trim() != '' && !/^\.\.?$/.test(v),
  'positive integer': (v: unknown) => (typeof v == 'number' || typeof v == 'string') && /^[1-9]\d*$/.test(String(v)),
  'signed session id (the app surface has no private mode)': (v: unknown) => typeof v == 'string' && v.trim() != '',
  'JSON object such as {"value":"completed"}': (v: unknown) => {
    try {
      return isPlainObject(v) && JSON.stringify(v);
    } catch {}
  },
  'string with allow-scripts and allow-same-origin': (v: unknown) =>
    typeof v == 'string' && ['allow-scripts', 'allow-same-origin'].every((token) => v.split(/\s+/).includes(token)),
  'eager or lazy': (v: unknown) => v == 'eager' || v == 'lazy',
  '<semantic_view>.<dimension>': (v: unknown) => typeof v == 'string' && /^[^\s.=&#?/]+\.[^\s.=&#?/]+$/.test(v),
};
/** A kind name of the options' descriptors: the protocol's kinds and the options' own. */
export type OptionKind = KindName | keyof typeof OPTION_RULES;
const OPTION_KINDS: typeof KINDS = /* @__PURE__ */ Object.assign({}, KINDS, OPTION_RULES);

/** Compiles a schema of options (the protocol's rules plus the options' own). Development checks only. */
export const compileOptions = (schema: Schema<OptionKind>) => compile(schema, OPTION_KINDS);

// The value rule of each launch option, derived from the table.
const launchRules = (): Schema<OptionKind> => {
  const schema: Record<string, FieldDescriptor<OptionKind>> = { session: 'non-empty string?' };
  for (const [name, spec] of Object.entries(LAUNCH_OPTIONS) as [string, LaunchOptionSpec][])
    schema[name] = spec.kind == 'members' ? 'object?' : spec.kind == 'boolean' ? 'boolean?' : 'non-empty string?';
  return schema;
};

// Checks every option the URL is built from (development only: the options are the host's code),
// with the rules of each surface compiled once.
const urlChecks = new Map<string, (options: Record<string, unknown>) => string | undefined>();
const checkUrlOptions = (surface: Surface, options: Record<string, unknown>) => {
  let check = urlChecks.get(surface);
  if (!check) {
    const own = compileOptions(
      surface == 'dashboard'
        ? { publicId: 'non-empty string other than . or ..' }
        : surface == 'app'
          ? { deploymentId: 'positive integer', session: 'signed session id (the app surface has no private mode)' }
          : {},
    );
    const launch = compileOptions(launchRules());
    const known = compileOptions({ surface: SURFACES });
    urlChecks.set(surface, (check = (o) => known({ surface }) || own(o) || launch(o)));
  }
  refuse(check(options));
  for (const [name, spec] of Object.entries(LAUNCH_OPTIONS) as [string, LaunchOptionSpec][]) {
    const values = options[name] as Record<string, unknown> | undefined;
    if (spec.value) for (const key in values) checkMember(name, key, values[key], spec.value);
  }
};

// Checks one `view.dimension` key and its value (development only).
const checkMember = (option: string, key: string, value: unknown, rule: FieldDescriptor<OptionKind>) => {
  const problem = OPTION_RULES['<semantic_view>.<dimension>'](key)
    ? compileOptions({ [key]: rule })({ [key]: value })
    : `"${key}" must be <semantic_view>.<dimension>, e.g. "orders.status"`;
  refuse(problem && `${option}: ${problem}`);
};
// A member's value as written in the URL.
const memberValue = (value: unknown) => (typeof value == 'string' ? value : JSON.stringify(value));

/**
 * Builds the `filterUrlParameter` of a `set-filter` action (and of the `f_` launch option)
 * from a semantic view, a dimension and the filter's JSON value.
 *
 * @throws {EmbedError} `invalid-option` (in development) when a name is empty or contains `.`,
 *   `=`, `&`, `#`, `?`, `/` or white space, or the value is not a JSON object.
 * @example
 * ```ts
 * filterUrlParameter('orders', 'status', { value: 'completed' });
 * // 'f_orders.status={"value":"completed"}'
 * ```
 */
export function filterUrlParameter(view: string, dimension: string, value: FilterValue): FilterUrlParameter {
  const key = `${view}.${dimension}`;
  if (__DEV__) checkMember('filter', key, value, LAUNCH_OPTIONS.filters.value);
  return `f_${key}=${memberValue(value)}` as FilterUrlParameter;
}

/**
 * Builds the embed URL of a surface: `{base}/embed/dashboard/{publicId}?session=…`,
 * `{base}/embed/chat?sessionId=…` or `{base}/embed/d/{deploymentId}/app?session=…`, with
 * the launch options as query parameters (flags only where they differ from the platform's
 * default, as the exact literal it reads). Path segments and values are percent-encoded.
 *
 * Without a session, dashboard and chat URLs are private-mode URLs (the viewer signs in
 * inside the frame); the app surface requires a session.
 *
 * @throws {EmbedError} `invalid-option` for a base URL that cannot be a tenant origin, and in
 *   development for any other unusable option, naming the option and what it must be.
 * @example
 * ```ts
 * buildEmbedUrl('dashboard', { baseUrl, publicId: 'sales', session, allowExport: true, filters: { 'orders.status': { value: 'completed' } } });
 * ```
 */
export function buildEmbedUrl(surface: Surface, options: EmbedUrlOptions): string {
  const o = options as unknown as Record<string, unknown>;
  if (__DEV__) checkUrlOptions(surface, o);
  const params: string[] = [];
  const add = (key: string, value: unknown) => params.push(`${encodeURIComponent(key)}=${encodeURIComponent(value as string)}`);
  const base = normalizeBaseUrl(options.baseUrl);
  if (options.session !== undefined) add(surface == 'chat' ? 'sessionId' : 'session', options.session);
  for (const [name, spec] of Object.entries(LAUNCH_OPTIONS) as [string, LaunchOptionSpec][]) {
    const value = o[name];
    if (spec.prefix) for (const key in value as object) add(spec.prefix + key, memberValue((value as Record<string, unknown>)[key]));
    else if (value !== undefined && value !== spec.default) add(name, value);
  }
  const url = `${base}/embed/${surface == 'app' ? `d/${options.deploymentId}/app` : surface == 'chat' ? surface : `dashboard/${encodeURIComponent(options.publicId!)}`}`;
  return params.length ? `${url}?${params.join('&')}` : url;
}

/**
 * Replaces session ids in a URL or text with `[redacted]`, for logs and error messages.
 * @example `redactSession('https://t.example/embed/chat?sessionId=abc')` → `…?sessionId=[redacted]`
 */
export const redactSession = (text: string): string => text.replace(/([?&]session(?:Id)?=)[^&#\s]*/g, '$1[redacted]');
