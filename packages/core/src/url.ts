import { SURFACES, type Surface } from './catalog';
import { refuse } from './errors';
import { LAUNCH_OPTIONS, LAUNCH_URL, type AppLaunchOptions, type FilterValue, type LaunchOptionSpec } from './launchOptions';
import { normalizeBaseUrl } from './origin';
import { entriesOf } from './protocol';
import {
  KINDS,
  checkMember,
  compileOptions,
  isPositiveInteger,
  isPublicId,
  isSandbox,
  show,
  type FieldDescriptor,
  type FilterUrlParameter,
  type OptionKind,
} from './rules';

/*
 * The embed URL of each surface, built from how each launch option goes into it (LAUNCH_URL), the
 * checks that must hold in every build before a URL is built, and the session id redaction every
 * log and error message goes through.
 */

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

/** One parameter, `<name>=<value>` (a value other than a string as JSON), optionally encoded: in URLs, and as a filter's `filterUrlParameter`. @internal */
export const parameter = (name: string, value: unknown, encode = (text: string) => text): string =>
  encode(name) + '=' + encode(typeof value == 'string' ? value : JSON.stringify(value));

/**
 * Checks, in every build, what would load a wrong URL or silently turn a safeguard off: the id
 * the surface requires, `retry`, the timeouts and `sandbox` (in the words, and the order, of their
 * rules in `EMBED_OPTIONS`). The reason names the option and quotes the value.
 * @throws {EmbedError} `invalid-option`
 */
export function checkAlways(surface: Surface, options: Record<string, unknown>): void {
  const must = (name: string, holds: unknown, rule: string) => holds || refuse(`"${name}" must be ${rule} (got ${show(options[name])})`);
  const optional = (name: string, kinds: string) =>
    must(name, options[name] === undefined || kinds.split('|').some((kind) => KINDS[kind]!(options[name])), `${kinds} when present`);
  if (surface == 'dashboard') must('publicId', isPublicId(options.publicId), 'a public id such as "sales-overview"');
  if (surface == 'app') must('deploymentId', isPositiveInteger(options.deploymentId), 'positive integer');
  optional('retry', 'integer>=0|boolean');
  optional('sessionTimeout', 'number>=0');
  optional('readyTimeout', 'number>=0');
  must(
    'sandbox',
    options.sandbox === undefined || isSandbox(options.sandbox),
    'string with allow-scripts and allow-same-origin when present',
  );
}

// Checks every option the URL is built from (development only: the options are the host's code;
// the ids are checked in every build), with the rules of each surface compiled once.
const urlChecks = new Map<string, (options: Record<string, unknown>) => string | undefined>();
const checkUrlOptions = (surface: Surface, options: Record<string, unknown>) => {
  let check = urlChecks.get(surface);
  if (!check) {
    const schema: Record<string, FieldDescriptor<OptionKind>> = surface == 'app'
      ? { session: 'signed session id (the app surface has no private mode)' }
      : { session: 'non-empty string?' };
    for (const [name, spec] of entriesOf<LaunchOptionSpec>(LAUNCH_OPTIONS))
      schema[name] = spec.kind == 'members' ? 'object?' : spec.kind == 'boolean' ? 'boolean?' : 'non-empty string?';
    const rules = compileOptions(schema);
    const known = compileOptions({ surface: SURFACES });
    urlChecks.set(surface, (check = (o) => known({ surface }) || rules(o)));
  }
  refuse(check(options));
  for (const [name, spec] of entriesOf<LaunchOptionSpec>(LAUNCH_OPTIONS)) {
    const values = options[name] as Record<string, unknown> | undefined;
    if (spec.value) for (const key in values) checkMember(name, key, values[key], spec.value);
  }
};

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
  if (__DEV__) {
    // The common slip: a ready-made `view.dimension` and the value, without the dimension.
    if (typeof dimension != 'string')
      refuse(
        `filterUrlParameter(view, dimension, value) takes three arguments, e.g. ("orders", "status", { value: "open" }); got (${JSON.stringify(view)}, ${typeof dimension})`,
      );
    checkMember('filter', key, value, LAUNCH_OPTIONS.filters.value);
  }
  return parameter(LAUNCH_URL.filters + key, value) as FilterUrlParameter;
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
  checkAlways(surface, o);
  if (__DEV__) checkUrlOptions(surface, o);
  const params: string[] = [];
  const base = normalizeBaseUrl(options.baseUrl);
  if (options.session !== undefined)
    params.push(parameter(surface == 'chat' ? 'sessionId' : 'session', options.session, encodeURIComponent));
  for (const name in LAUNCH_URL) {
    const form = LAUNCH_URL[name as keyof typeof LAUNCH_URL];
    const value = o[name];
    if (typeof form == 'string')
      for (const key in value as object) params.push(parameter(form + key, (value as Record<string, unknown>)[key], encodeURIComponent));
    else if (value !== undefined && value !== form) params.push(parameter(name, value, encodeURIComponent));
  }
  const url = `${base}/embed/${surface == 'app' ? `d/${options.deploymentId}/app` : surface == 'chat' ? surface : `dashboard/${encodeURIComponent(options.publicId!)}`}`;
  return params.length ? `${url}?${params.join('&')}` : url;
}

/**
 * Replaces session ids in a URL or text with `[redacted]`, for logs and error messages.
 * @example `redactSession('https://t.example/embed/chat?sessionId=abc')` → `…?sessionId=[redacted]`
 */
export const redactSession = (text: string): string => text.replace(/([?&]session(?:Id)?=)[^&#\s]*/g, '$1[redacted]');
