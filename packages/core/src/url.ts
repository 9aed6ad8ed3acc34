import { EmbedError, ErrorCode } from './errors';
import { normalizeBaseUrl } from './origin';
import {
  KINDS,
  SURFACES,
  compile,
  isPlainObject,
  type FieldDescriptor,
  type Schema,
  type FilterUrlParameter,
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

const TIME_GRAINS: TimeGrain[] = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];

/** Launch options every surface understands. */
export interface CommonLaunchOptions {
  /** UI language of the embed: a full code, short code or regional variant (`es-MX`, `es`). */
  locale?: string;
}

/** Launch options of published dashboards (also honoured by dashboards inside the app). */
export interface DashboardLaunchOptions extends CommonLaunchOptions {
  /** Shows CSV/PNG/PDF downloads on widgets and PNG/PDF for the whole dashboard. @default false */
  allowExport?: boolean;
  /** `false` hides the dashboard-level export menu (matters only with `allowExport`). @default true */
  showDashboardExportMenu?: boolean;
  /** `false` hides the whole header bar, overriding the four header toggles below. @default true */
  showDashboardHeader?: boolean;
  /** `false` hides the header's back button. @default true */
  showDashboardBackButton?: boolean;
  /** `false` hides the dashboard title. @default true */
  showDashboardTitle?: boolean;
  /** `false` hides the edit button. @default true */
  showDashboardEditButton?: boolean;
  /** `false` hides the duplicate button. @default true */
  showDashboardDuplicateButton?: boolean;
  /**
   * Pre-set filter controls (`f_` parameters), keyed by `view.dimension`.
   * @example `{ 'orders.status': { value: 'completed' } }`
   */
  filters?: { [member: MemberKey]: FilterValue };
  /**
   * Pre-set time-granularity switchers (`tg_` parameters), keyed by `view.dimension`.
   * @example `{ 'orders.created_at': 'month' }`
   */
  timeGrains?: { [member: MemberKey]: TimeGrain };
  /**
   * Pre-set field switchers (`ms_` parameters): `view.replaced_member` to the selected member.
   * @example `{ 'orders.revenue': 'profit' }`
   */
  fieldSwitches?: { [member: MemberKey]: string };
}

/** Launch options of the standalone analytics chat. */
export type ChatLaunchOptions = CommonLaunchOptions;

/** Launch options of the creator-mode app. */
export interface AppLaunchOptions extends DashboardLaunchOptions {
  /** `false` hides the back button of the workbook header. @default true */
  showWorkbookBackButton?: boolean;
}

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

// The boolean launch options. Each is written only when it differs from its default
// (`allowExport` defaults to false, the `show…` toggles to true), and only as the exact
// literal the platform reads: `allowExport=true`, `show…=false`.
const FLAGS = [
  'allowExport',
  'showDashboardExportMenu',
  'showDashboardHeader',
  'showDashboardBackButton',
  'showDashboardTitle',
  'showDashboardEditButton',
  'showDashboardDuplicateButton',
  'showWorkbookBackButton',
] as const;

/** Throws an `invalid-option` error when there is a problem. */
export const refuse = (problem: string | undefined | false | 0): void => {
  if (problem) throw new EmbedError(ErrorCode.InvalidOption, problem);
};

// The rules of the SDK's own options, beyond those of the protocol (kept out of the protocol
// module, so that hosts importing only `parseMessage` and `createAction` do not ship them).
const nonEmpty = KINDS['non-empty string']!;
const OPTION_KINDS: typeof KINDS = {
  ...KINDS,
  'non-empty string other than . or ..': (v) => nonEmpty(v) && !/^\.\.?$/.test(v),
  'positive integer': (v) => (typeof v == 'number' || typeof v == 'string') && /^[1-9]\d*$/.test(String(v)),
  'signed session id (the app surface has no private mode)': nonEmpty,
  'JSON object such as {"value":"completed"}': (v) => {
    try {
      return isPlainObject(v) && JSON.stringify(v);
    } catch {}
  },
  'string with allow-scripts and allow-same-origin': (v) =>
    typeof v == 'string' && ['allow-scripts', 'allow-same-origin'].every((token) => v.split(/\s+/).includes(token)),
  '<semantic_view>.<dimension>': (v) => /^[^\s.=&#?/]+\.[^\s.=&#?/]+$/.test(v),
};
/** Compiles a schema of options (the protocol's rules plus the options' own). */
export const compileOptions = (schema: Schema) => compile(schema, OPTION_KINDS);

// The options of each surface, in the descriptor language of the protocol (same checks, same messages).
const checkSurface = /* @__PURE__ */ compileOptions({ surface: SURFACES });
const SURFACE_OPTIONS: Record<string, (options: Record<string, unknown>) => string | undefined> = {
  dashboard: /* @__PURE__ */ compileOptions({ publicId: 'non-empty string other than . or ..' }),
  chat: /* @__PURE__ */ compileOptions({}),
  app: /* @__PURE__ */ compileOptions({
    deploymentId: 'positive integer',
    session: 'signed session id (the app surface has no private mode)',
  }),
};
const checkLaunch = /* @__PURE__ */ compileOptions({
  session: 'non-empty string?',
  locale: 'non-empty string?',
  filters: 'object?',
  timeGrains: 'object?',
  fieldSwitches: 'object?',
  ...Object.fromEntries(FLAGS.map((flag) => [flag, 'boolean?'])),
});

// The query parameters of `filters`, `timeGrains` and `fieldSwitches`: prefix and value rule.
const MEMBER_OPTIONS: Record<string, [string, FieldDescriptor]> = {
  filters: ['f_', 'JSON object such as {"value":"completed"}'],
  timeGrains: ['tg_', TIME_GRAINS],
  fieldSwitches: ['ms_', 'non-empty string'],
};

// Checks one `view.dimension` key and its value; returns the value as written in the URL.
const member = (option: string, key: string, value: unknown, rule: FieldDescriptor): string => {
  const problem = OPTION_KINDS['<semantic_view>.<dimension>']!(key)
    ? compileOptions({ [key]: rule })({ [key]: value })
    : `"${key}" must be <semantic_view>.<dimension>, e.g. "orders.status"`;
  refuse(problem && `${option}: ${problem}`);
  return typeof value == 'string' ? value : JSON.stringify(value);
};

/**
 * Builds the `filterUrlParameter` of a `set-filter` action (and of the `f_` launch option)
 * from a semantic view, a dimension and the filter's JSON value.
 *
 * @throws {EmbedError} `invalid-option` when a name is empty or contains `.`, `=`, `&`, `#`,
 *   `?`, `/` or white space, or the value is not a JSON object.
 * @example
 * ```ts
 * filterUrlParameter('orders', 'status', { value: 'completed' });
 * // 'f_orders.status={"value":"completed"}'
 * ```
 */
export function filterUrlParameter(view: string, dimension: string, value: FilterValue): FilterUrlParameter {
  const key = `${view}.${dimension}`;
  return `f_${key}=${member('filter', key, value, 'JSON object such as {"value":"completed"}')}` as FilterUrlParameter;
}

/**
 * Builds the embed URL of a surface: `{base}/embed/dashboard/{publicId}?session=…`,
 * `{base}/embed/chat?sessionId=…` or `{base}/embed/d/{deploymentId}/app?session=…`, with
 * the launch options as query parameters. Path segments and values are percent-encoded.
 *
 * Without a session, dashboard and chat URLs are private-mode URLs (the viewer signs in
 * inside the frame); the app surface requires a session.
 *
 * @throws {EmbedError} `invalid-option`, naming the option and what it must be.
 * @example
 * ```ts
 * buildEmbedUrl('dashboard', { baseUrl, publicId: 'sales', session, allowExport: true, filters: { 'orders.status': { value: 'completed' } } });
 * ```
 */
export function buildEmbedUrl(surface: Surface, options: EmbedUrlOptions): string {
  const { session, locale } = options;
  const params: string[] = [];
  const add = (key: string, value: unknown) => params.push(`${encodeURIComponent(key)}=${encodeURIComponent(value as string)}`);
  const o = options as unknown as Record<string, unknown>;
  refuse(checkSurface({ surface }) || SURFACE_OPTIONS[surface]!(o) || checkLaunch(o));
  const base = normalizeBaseUrl(options.baseUrl);
  if (session !== undefined) add(surface == 'chat' ? 'sessionId' : 'session', session);
  for (const flag of FLAGS) if (options[flag] === (flag[0] == 'a')) add(flag, options[flag]);
  if (locale !== undefined) add('locale', locale);
  for (const option in MEMBER_OPTIONS) {
    const [prefix, rule] = MEMBER_OPTIONS[option]!;
    const values = options[option as 'filters'] as Record<string, unknown> | undefined;
    for (const key in values) add(prefix + key, member(option, key, values[key], rule));
  }
  const url = `${base}/embed/${surface == 'app' ? `d/${options.deploymentId}/app` : surface == 'chat' ? surface : `dashboard/${encodeURIComponent(options.publicId!)}`}`;
  return params.length ? `${url}?${params.join('&')}` : url;
}

/**
 * Replaces session ids in a URL or text with `[redacted]`, for logs and error messages.
 * @example `redactSession('https://t.example/embed/chat?sessionId=abc')` → `…?sessionId=[redacted]`
 */
export const redactSession = (text: string): string => text.replace(/([?&]session(?:Id)?=)[^&#\s]*/g, '$1[redacted]');
