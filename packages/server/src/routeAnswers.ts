/*
 * The answers of the session route. Every failure is a small JSON body, the same shape for all:
 * `{ "error": "<code>", "message": "<what happened, for a developer>" }`, uncacheable. The
 * codes are stable; the messages are fixed sentences, never the cause of a failure (which may
 * hold a platform message or a user's data: it goes to `onError`), so they never hold a secret.
 */

/** The `error` codes of the session route's failure answers, with their HTTP status. */
export const SessionRouteErrors = {
  /** 401: `resolveUser` returned nobody. */
  'not-signed-in': { status: 401, message: 'nobody is signed in: sign in to the app first' },
  /** 403: a request from another site (or a same-site origin that is not allowed). */
  'cross-site': {
    status: 403,
    message: 'cross-site requests are refused: call the session route from a page of this origin (or one in allowedOrigins)',
  },
  /** 405: a method that is not in `methods`. */
  'method-not-allowed': { status: 405, message: 'method not allowed: see the Allow header' },
  /** 413: a request body over `maxBodyBytes`. */
  'body-too-large': { status: 413, message: 'the request body is too large for the session route' },
  /** 408: a request body still arriving when `bodyTimeoutMs` passed (a slow or stalled client). */
  'request-timeout': { status: 408, message: 'the request body did not arrive in time' },
  /** 415: a request body that is not JSON. */
  'unsupported-media-type': {
    status: 415,
    message: 'send no body, or a JSON body with Content-Type: application/json',
  },
  /** 400: a JSON request body that does not parse, or is not an object (`null`, an array, a string...). */
  'invalid-body': { status: 400, message: 'the request body is not a JSON object: send no body, or an object such as {}' },
  /** 400: a `Host` header that is not a host name or address with an optional port (Node servers, through `toNodeHandler`). */
  'invalid-host': { status: 400, message: 'the Host header is not a host name with an optional port' },
  /** 429: the platform limits the rate of session requests; `Retry-After` says when to try again. */
  'rate-limited': { status: 429, message: 'the platform limits session requests for now: retry after the Retry-After seconds' },
  /** 503: the platform is unavailable; `Retry-After` says when to try again. */
  'platform-unavailable': { status: 503, message: 'the platform is unavailable for now: retry after the Retry-After seconds' },
  /** 502: the platform refused or failed (details go to `onError`). */
  'session-not-created': {
    status: 502,
    message: 'session could not be created: the platform refused or failed (details are in the server log)',
  },
  /** 504: the platform did not answer in time. */
  'platform-timeout': { status: 504, message: 'session could not be created: the platform did not answer in time' },
  /** 500: any other failure (an option, `resolveUser` throwing, an invalid user request). */
  'internal-error': { status: 500, message: 'session could not be created: the session route failed (details are in the server log)' },
  /** 499: the browser went away before the answer. */
  'client-closed-request': { status: 499, message: 'the client closed the request' },
} as const;

/** One of the `error` codes the session route answers with. */
export type SessionRouteError = keyof typeof SessionRouteErrors;

const NO_STORE_JSON = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

/** A JSON answer that no cache keeps. */
export function jsonAnswer(status: number, body: object, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...NO_STORE_JSON, ...headers } });
}

/** A failure answer: its status and `{ error, message }`. */
export function failureAnswer(error: SessionRouteError, headers: Record<string, string> = {}): Response {
  const { status, message } = SessionRouteErrors[error];
  return jsonAnswer(status, { error, message }, headers);
}
