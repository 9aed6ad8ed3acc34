import { EmbedError, ErrorCode } from './errors';
import { normalizeBaseUrl } from './origin';
import type { FilterUrlParameter, Surface } from './protocol';

/** A JSON value, as a filter value must be. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The JSON object of a filter, e.g. `{ value: 'completed' }` (an omitted filter type means equals). */
export type FilterValue = { [key: string]: JsonValue };

/** `<semantic_view>.<dimension>`, e.g. `orders.status`. */
export type MemberKey = `${string}.${string}`;

/** A time granularity for `tg_` launch options. */
export type TimeGrain = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

const TIME_GRAINS: readonly TimeGrain[] = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];

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

const NAME = /^[^\s.=&#?/]+$/;
const bad = (what: string): never => {
  throw new EmbedError(ErrorCode.InvalidOption, what);
};
const enc = encodeURIComponent;
const nonEmpty = (v: unknown): v is string => typeof v == 'string' && v.trim() != '';
// A path segment: `.` and `..` (even percent-encoded) would be resolved away by the URL parser.
const segment = (v: unknown): v is string => nonEmpty(v) && !/^\.\.?$/.test(v);

function member(key: string): string {
  const [view = '', dimension = '', ...rest] = key.split('.');
  return NAME.test(view) && NAME.test(dimension) && !rest.length
    ? key
    : bad(`"${key}" must be "<semantic_view>.<dimension>", e.g. "orders.status"`);
}

function filterJson(key: string, value: unknown): string {
  let json: string | undefined;
  try {
    if (value && typeof value == 'object' && !Array.isArray(value)) json = JSON.stringify(value);
  } catch {}
  return json ?? bad(`filter "${key}" must be a JSON object such as {"value":"completed"}`);
}

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
  const key = member(`${view}.${dimension}`);
  return `f_${key}=${filterJson(key, value)}` as FilterUrlParameter;
}

// The query parameters of `filters`, `timeGrains` and `fieldSwitches`: prefix and value check.
const MEMBER_OPTIONS: Record<string, [string, (key: string, value: unknown) => string]> = {
  filters: ['f_', filterJson],
  timeGrains: [
    'tg_',
    (key, grain) =>
      TIME_GRAINS.includes(grain as TimeGrain) ? (grain as string) : bad(`time grain "${key}" must be ${TIME_GRAINS.join('|')}`),
  ],
  fieldSwitches: ['ms_', (key, selected) => (nonEmpty(selected) ? selected : bad(`field switch "${key}" must be a member name`))],
};

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
  const { session, locale, publicId, deploymentId: id } = options;
  const params: string[] = [];
  const add = (key: string, value: string) => params.push(`${enc(key)}=${enc(value)}`);
  const path =
    surface == 'dashboard'
      ? `dashboard/${enc(segment(publicId) ? publicId : bad('publicId must be a non-empty string'))}`
      : surface == 'chat'
        ? 'chat'
        : surface == 'app'
          ? `d/${/^[1-9]\d*$/.test(String(id)) ? id : bad('deploymentId must be a positive integer')}/app`
          : bad(`surface must be dashboard|chat|app, got ${JSON.stringify(surface)}`);
  if (session !== undefined)
    add(surface == 'chat' ? 'sessionId' : 'session', nonEmpty(session) ? session : bad('session must be a non-empty string'));
  else if (surface == 'app') bad('the app surface needs a signed session');
  for (const flag of FLAGS) {
    const value = options[flag];
    if (value !== undefined && typeof value != 'boolean') bad(`${flag} must be true or false`);
    if (value === (flag[0] == 'a')) add(flag, String(value));
  }
  if (locale !== undefined) add('locale', nonEmpty(locale) ? locale : bad('locale must be a language code such as "es-MX"'));
  for (const option in MEMBER_OPTIONS) {
    const [prefix, check] = MEMBER_OPTIONS[option]!;
    const values = options[option as 'filters'] as Record<string, unknown> | undefined;
    for (const key in values) add(prefix + member(key), check(key, values[key]));
  }
  const url = `${normalizeBaseUrl(options.baseUrl)}/embed/${path}`;
  return params.length ? `${url}?${params.join('&')}` : url;
}

/**
 * Replaces session ids in a URL or text with `[redacted]`, for logs and error messages.
 * @example `redactSession('https://t.example/embed/chat?sessionId=abc')` → `…?sessionId=[redacted]`
 */
export const redactSession = (text: string): string => text.replace(/([?&]session(?:Id)?=)[^&#\s]*/g, '$1[redacted]');
