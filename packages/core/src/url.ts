import { EMBED_OPTIONS, type EmbedOptionSpec } from './embedOptions';
import {
  LAUNCH_OPTIONS,
  checkMember,
  compileAlways,
  compileOptions,
  parameter,
  refuse,
  type AppLaunchOptions,
  type FilterValue,
  type LaunchOptionSpec,
  type OptionKind,
} from './launchOptions';
import { normalizeBaseUrl } from './origin';
import { SURFACES, entriesOf, type FieldDescriptor, type FilterUrlParameter, type Surface } from './protocol';

/*
 * The embed URL of each surface, built from the launch-option table, and the session id
 * redaction every log and error message goes through.
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

const alwaysChecks = new Map<string, (options: Record<string, unknown>) => string | undefined>();
/**
 * Checks the options marked `always` (in every build): the ids the surface requires, the
 * timeouts, `retry` and `sandbox`. The reason names the option and quotes the value.
 * @throws {EmbedError} `invalid-option`
 */
export function checkAlways(surface: Surface, options: Record<string, unknown>): void {
  let check = alwaysChecks.get(surface);
  if (!check) {
    const schema: Record<string, FieldDescriptor<OptionKind>> = {};
    for (const [name, spec] of entriesOf<EmbedOptionSpec>(EMBED_OPTIONS))
      if (spec.always && (!spec.surfaces || spec.surfaces.includes(surface))) schema[name] = spec.check!;
    alwaysChecks.set(surface, (check = compileAlways(schema)));
  }
  refuse(check(options));
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
  return parameter(LAUNCH_OPTIONS.filters.prefix + key, value) as FilterUrlParameter;
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
  for (const [name, spec] of entriesOf<LaunchOptionSpec>(LAUNCH_OPTIONS)) {
    const value = o[name];
    if (spec.prefix)
      for (const key in value as object)
        params.push(parameter(spec.prefix + key, (value as Record<string, unknown>)[key], encodeURIComponent));
    else if (value !== undefined && value !== spec.default) params.push(parameter(name, value, encodeURIComponent));
  }
  const url = `${base}/embed/${surface == 'app' ? `d/${options.deploymentId}/app` : surface == 'chat' ? surface : `dashboard/${encodeURIComponent(options.publicId!)}`}`;
  return params.length ? `${url}?${params.join('&')}` : url;
}

/**
 * Replaces session ids in a URL or text with `[redacted]`, for logs and error messages.
 * @example `redactSession('https://t.example/embed/chat?sessionId=abc')` → `…?sessionId=[redacted]`
 */
export const redactSession = (text: string): string => text.replace(/([?&]session(?:Id)?=)[^&#\s]*/g, '$1[redacted]');
