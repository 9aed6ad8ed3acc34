import { DEFAULT_BODY_TIMEOUT_MS, timerDelay } from './bodyLimits';
import { createSessionClient, type SessionClient, type SessionClientOptions } from './createSessionClient';
import { PlatformApiError, PlatformApiErrorCodes } from './platformApiError';
import { createRedactor } from './redactSecret';
import { describeThrown } from './describeThrown';
import { failureAnswer, jsonAnswer, type SessionRouteError } from './routeAnswers';
import { requestOrigin } from './requestOrigin';
import { checkRequestBody, checkRequestSite, listedOrigin, normalizeOrigin, type BodyLimits } from './routeRequestChecks';
import type { ExternalUserSessionRequest, InternalUserSessionRequest } from './types';

type OptionalDeployment<T> = T extends unknown ? Omit<T, 'deploymentId'> & { deploymentId?: number } : never;

/**
 * The session request fields for the signed-in user, as `resolveUser` returns them.
 * `deploymentId` may be left to {@link SessionHandlerOptions.deploymentId}.
 */
export type SessionUser = OptionalDeployment<ExternalUserSessionRequest> | OptionalDeployment<InternalUserSessionRequest>;

/** Options of {@link createSessionHandler}. */
export interface SessionHandlerOptions {
  /** A client from `createSessionClient`, or the options to create one. */
  client: SessionClient | SessionClientOptions;
  /**
   * Says who is signed in, from your own session cookie or token, as the session request
   * fields for that user; `null` (or `undefined`) when nobody is, which answers 401.
   * Decide attributes, groups and profile here, on the server: never copy them from the request.
   */
  resolveUser: (request: Request) => SessionUser | null | undefined | Promise<SessionUser | null | undefined>;
  /** The deployment, when `resolveUser` does not return one. */
  deploymentId?: number;
  /**
   * HTTP methods the route answers; others get 405. `POST` only by default: a `GET` route
   * mints a session for anyone who can make the signed-in user's browser load a URL (an
   * `<img src>` on any site, a link prefetcher, a crawler following links), and every such
   * call costs a platform call and counts against its rate limit. Add `'GET'` only for a
   * caller that cannot POST, knowing that.
   * @default ['POST']
   */
  methods?: readonly string[];
  /**
   * Origins of other sites or subdomains allowed to call the route (e.g.
   * `['https://app.example.com']`), besides the route's own origin. Their requests get CORS
   * headers (`Access-Control-Allow-Origin` with credentials) and their preflight `OPTIONS` is
   * answered. Every other cross-origin request is refused with 403, `same-site` ones included
   * (see `Sec-Fetch-Site` in the README).
   * @default []
   */
  allowedOrigins?: readonly string[];
  /**
   * The largest request body accepted, in bytes (413 beyond). A body, if any, must be a JSON object
   * (`Content-Type: application/json`, else 415) (else 400: `null` or an array is refused too); `resolveUser` can
   * read it as usual.
   * @default 16384
   */
  maxBodyBytes?: number;
  /**
   * Milliseconds allowed for receiving the request body; a body still arriving then (a slow or
   * stalled client) is answered 408 and no longer read. A session route's body is a few bytes,
   * or none.
   * @default 10000
   */
  bodyTimeoutMs?: number;
  /**
   * Set it when the app is reached only through a proxy that terminates TLS or rewrites the host
   * (a load balancer, Heroku, Render, Fly, a Kubernetes ingress) and sets `Forwarded` (RFC 7239)
   * or `X-Forwarded-Proto`/`X-Forwarded-Host`: the route then takes its own origin, which a
   * request's `Origin` must equal when there is no `Sec-Fetch-Site`, from the first entry of
   * those headers instead of the request URL (`http://` behind such a proxy). Off by default:
   * a client that reaches the app without the proxy can send these headers itself.
   * @default false
   */
  trustProxy?: boolean;
  /**
   * Called with every failure that became a 5xx answer, or a 429 (the browser only gets a
   * generic message). The error's message never holds the API key. If it throws, the answer is
   * the same, and the throw is logged with `console.error`.
   * @default logs `error.message` with `console.error`, the API key redacted
   */
  onError?: (error: unknown, request: Request) => void;
}

/** The `Retry-After` a 429 or 503 answer carries when the platform gave none, in seconds. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;
const DEFAULT_MAX_BODY_BYTES = 16_384;
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** Why a request whose body was already read is not answered. */
const BODY_ALREADY_READ =
  'the request body was already read (by a middleware?) before the session route: pass a Request whose body is unread, e.g. new Request(request, { body: theBodyText }) (see the framework recipes in the README)';

/** The answer to a failed session call, by the client's error code. */
const ROUTE_ERROR_OF: Partial<Record<PlatformApiError['code'], SessionRouteError>> = {
  [PlatformApiErrorCodes.RateLimited]: 'rate-limited',
  [PlatformApiErrorCodes.Unavailable]: 'platform-unavailable',
  [PlatformApiErrorCodes.Timeout]: 'platform-timeout',
  [PlatformApiErrorCodes.Network]: 'session-not-created',
  [PlatformApiErrorCodes.BadRequest]: 'session-not-created',
  [PlatformApiErrorCodes.Unauthorized]: 'session-not-created',
  [PlatformApiErrorCodes.Forbidden]: 'session-not-created',
  [PlatformApiErrorCodes.Http]: 'session-not-created',
  [PlatformApiErrorCodes.InvalidResponse]: 'session-not-created',
};

/** Redaction of the API key, when it is one that can be sent (printable ASCII); else the text unchanged. */
function redactorFor(apiKey: unknown): (text: string) => string {
  if (typeof apiKey === 'string' && /^[\x21-\x7e]+$/.test(apiKey)) return createRedactor(apiKey);
  return (text) => text;
}

function isSessionClient(client: unknown): client is SessionClient {
  return typeof (client as SessionClient | undefined)?.generateSession === 'function';
}

function checkAllowedOrigins(allowedOrigins: readonly string[]): Set<string> {
  const normalized = new Set<string>();
  for (const entry of allowedOrigins) {
    const origin = typeof entry === 'string' ? normalizeOrigin(entry) : undefined;
    if (origin === undefined)
      throw new PlatformApiError(
        PlatformApiErrorCodes.InvalidOption,
        `allowedOrigins: ${JSON.stringify(String(entry).slice(0, 80))} is not an origin; list origins like "https://app.example.com"`,
      );
    normalized.add(origin);
  }
  return normalized;
}

/** The failure answer for an error thrown while minting, with `Retry-After` on 429 and 503. */
function answerForError(error: unknown): Response {
  const routeError = (error instanceof PlatformApiError && ROUTE_ERROR_OF[error.code]) || 'internal-error';
  if (routeError !== 'rate-limited' && routeError !== 'platform-unavailable') return failureAnswer(routeError);
  const retryAfter = (error as PlatformApiError).retryAfter ?? DEFAULT_RETRY_AFTER_SECONDS;
  return failureAnswer(routeError, { 'Retry-After': String(retryAfter) });
}

/** The CORS headers for an answer to a listed origin (none for the route's own origin). */
function corsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' };
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

/**
 * A Fetch API route (`Request → Response`) that mints a fresh session for the signed-in user
 * and answers `{ "sessionId": "..." }`, uncacheable. Mount it on your own origin and point the
 * browser SDK's `session` function (or the element's `session-url`) at it with a `POST`;
 * every iframe load needs a new session. Runs on Node 20+, Deno, Bun, Cloudflare Workers and
 * Vercel's Edge runtime.
 *
 * Before anything else it refuses what it must not answer, each with a JSON body
 * `{ "error": "<code>", "message": "..." }` (see {@link SessionRouteErrors}): another method
 * (405, `POST` only by default), a request from another site (403, by `Sec-Fetch-Site`, else
 * `Origin`; behind a proxy see `trustProxy`), a body over `maxBodyBytes` (413), one still
 * arriving after `bodyTimeoutMs` (408) or one that is not a JSON object (415, 400). Then 401
 * when `resolveUser` returns null. A rate-limited platform is answered `429` and an unavailable
 * one `503`, both with `Retry-After` in seconds (the platform's, else
 * {@link DEFAULT_RETRY_AFTER_SECONDS}); other platform failures 502, a timeout 504, anything
 * else 500, with a generic message: details go to `onError`.
 *
 * @example
 * ```ts
 * // app/api/embed-session/route.ts (Next.js), or any Fetch API server
 * export const POST = createSessionHandler({
 *   client: { baseUrl: process.env.PLATFORM_URL!, apiKey: process.env.PLATFORM_API_KEY! },
 *   deploymentId: 1,
 *   resolveUser: async (request) => {
 *     const user = await getUser(request);
 *     return user && { externalId: user.id, userAttributes: [{ name: 'region', value: user.region }] };
 *   },
 * });
 * ```
 */
export function createSessionHandler(options: SessionHandlerOptions): (request: Request) => Promise<Response> {
  if (typeof options?.resolveUser !== 'function')
    throw new PlatformApiError(
      PlatformApiErrorCodes.InvalidOption,
      "createSessionHandler needs resolveUser(request), returning the signed-in user's session fields or null",
    );
  const clientOptions = isSessionClient(options.client) ? undefined : (options.client as SessionClientOptions | undefined);
  // Options that are present are checked now. A base URL or API key that is still missing (an
  // environment variable not set while a framework evaluates the module at build time, as
  // `next build` does for route handlers) is checked at the first request instead: that request
  // fails with the same invalid-option error, reported to onError.
  const secretsMissing = clientOptions !== undefined && (clientOptions.baseUrl === undefined || clientOptions.apiKey === undefined);
  let client: SessionClient | undefined;
  if (isSessionClient(options.client)) client = options.client;
  else if (!secretsMissing) client = createSessionClient(clientOptions as SessionClientOptions);
  const methods = (options.methods ?? ['POST']).map((method) => method.toUpperCase());
  const allowedOrigins = checkAllowedOrigins(options.allowedOrigins ?? []);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (typeof maxBodyBytes !== 'number' || !(maxBodyBytes >= 0))
    throw new PlatformApiError(PlatformApiErrorCodes.InvalidOption, `maxBodyBytes must be a number of bytes, got ${String(maxBodyBytes)}`);
  const bodyTimeoutMs = timerDelay(options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS);
  if (bodyTimeoutMs === undefined)
    throw new PlatformApiError(
      PlatformApiErrorCodes.InvalidOption,
      `bodyTimeoutMs must be a positive number of milliseconds, got ${String(options.bodyTimeoutMs)}`,
    );
  const bodyLimits: BodyLimits = { maxBytes: maxBodyBytes, timeoutMs: bodyTimeoutMs };
  const trustProxy = options.trustProxy ?? false;
  if (typeof trustProxy !== 'boolean')
    throw new PlatformApiError(PlatformApiErrorCodes.InvalidOption, `trustProxy must be true or false, got ${String(trustProxy)}`);
  const { deploymentId } = options;
  // The key is redacted from what the default onError logs, also from errors of resolveUser.
  const redact = redactorFor(clientOptions?.apiKey);
  const logError = options.onError ?? ((error: unknown) => console.error(redact(describeThrown(error))));
  // The host's onError failing (a logger not set up yet) must not change the answer: a 429 keeps its Retry-After.
  const onError = (error: unknown, request: Request) => {
    try {
      logError(error, request);
    } catch (thrown) {
      console.error(redact(`[platform-embed/server] onError threw (${describeThrown(thrown)}) on: ${describeThrown(error)}`));
    }
  };

  /** The preflight of a listed origin: which method and headers it may use. */
  function preflight(request: Request): Response {
    const origin = listedOrigin(request, allowedOrigins);
    if (origin === undefined) return failureAnswer('cross-site');
    return new Response(null, {
      status: 204,
      headers: {
        ...corsHeaders(origin),
        'Access-Control-Allow-Methods': methods.join(', '),
        'Access-Control-Allow-Headers': 'Content-Type',
        'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
      },
    });
  }

  /** The refusal of a request the route must not answer, before anyone is looked up. */
  async function refusal(request: Request): Promise<Response | undefined> {
    if (!methods.includes(request.method.toUpperCase())) return failureAnswer('method-not-allowed', { Allow: methods.join(', ') });
    const siteRefusal = checkRequestSite(request, allowedOrigins, requestOrigin(request, trustProxy));
    if (siteRefusal) return failureAnswer(siteRefusal);
    if (request.bodyUsed) {
      onError(new PlatformApiError(PlatformApiErrorCodes.InvalidOption, BODY_ALREADY_READ), request);
      return failureAnswer('internal-error');
    }
    const bodyRefusal = await checkRequestBody(request, bodyLimits);
    return bodyRefusal ? failureAnswer(bodyRefusal) : undefined;
  }

  async function mint(request: Request): Promise<Response> {
    try {
      const user = await options.resolveUser(request);
      if (!user) return failureAnswer('not-signed-in');
      // (Spread into the request, the user's id string would read as the fields "0", "1", ...)
      if (typeof user !== 'object' || Array.isArray(user))
        throw new PlatformApiError(
          PlatformApiErrorCodes.InvalidOption,
          `resolveUser returned ${Array.isArray(user) ? 'an array' : `a ${typeof user}`}: return the signed-in user's session fields ({ externalId: ... }) or null`,
        );
      client ??= createSessionClient(clientOptions as SessionClientOptions);
      const { sessionId } = await client.generateSession({ deploymentId, ...user } as Parameters<SessionClient['generateSession']>[0], {
        signal: request.signal,
      });
      return jsonAnswer(200, { sessionId });
    } catch (error) {
      // The browser went away: nobody will read an answer, and it is not a failure to report.
      if (request.signal?.aborted) return failureAnswer('client-closed-request');
      onError(error, request);
      return answerForError(error);
    }
  }

  return async (request) => {
    if (request.method.toUpperCase() === 'OPTIONS' && allowedOrigins.size > 0 && !methods.includes('OPTIONS')) return preflight(request);
    const refused = await refusal(request);
    const answer = refused ?? (await mint(request));
    return withHeaders(answer, corsHeaders(listedOrigin(request, allowedOrigins)));
  };
}
