/*
 * What the session route checks about a request before it asks who is signed in: where it comes
 * from, and its body. Each check returns the refusal's error code, or `undefined` to go on.
 *
 * The body. None, or a little JSON, received within a deadline: a client that trickles its body
 * is answered 408 instead of holding the route (see bodyLimits.ts).
 *
 * Where from. A page of another site can make a browser send a request with the user's cookies
 * (a form, an `<img>`, a `fetch` without CORS), and the route would mint a session for that
 * user; the attacker cannot read the answer, but every request costs a platform call and
 * counts against its rate limit. So the route answers only its own origin, and the origins
 * the host lists:
 *
 * - `Sec-Fetch-Site` (sent by every current browser, set by the browser itself, never by a
 *   page): `same-origin` and `none` (the user typed the address or followed a bookmark) are
 *   accepted; `same-site` (a sibling subdomain or another port: another application, possibly
 *   less trusted) and `cross-site` are refused, unless the request's `Origin` is listed.
 * - Without it (an older browser): an `Origin` must be the request's own origin or a listed one.
 *   Behind a proxy, the request's own origin is the one the proxy says the browser called, when
 *   the host trusts it to say so (`trustProxy`, see requestOrigin.ts).
 * - Without either: not a browser page's cross-site request (browsers send `Origin` on every
 *   cross-origin request and on every POST), so it is accepted: a server-side caller or a tool.
 */
import { beforeDeadline, concatBytes, DEADLINE_PASSED, DRAIN_MAX_BYTES, startDeadline, type Deadline } from './bodyLimits';
import type { SessionRouteError } from './routeAnswers';

/** The normalized form of `allowedOrigins` entries (`https://app.example.com`), or `undefined` for a malformed one. */
export function normalizeOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.origin === 'null' || url.username || url.password) return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/** The request's `Origin` when it is in `allowedOrigins`, for the CORS answer headers. */
export function listedOrigin(request: Request, allowedOrigins: ReadonlySet<string>): string | undefined {
  const origin = request.headers.get('origin');
  return origin !== null && allowedOrigins.has(origin) ? origin : undefined;
}

/**
 * `cross-site` when the request comes from a page of another origin that is not listed.
 * `ownOrigin` is the origin the browser called (see `requestOrigin`: behind a proxy, not
 * necessarily the request URL's).
 */
export function checkRequestSite(request: Request, allowedOrigins: ReadonlySet<string>, ownOrigin: string): SessionRouteError | undefined {
  if (listedOrigin(request, allowedOrigins)) return undefined;
  const site = request.headers.get('sec-fetch-site')?.trim().toLowerCase();
  if (site === 'same-origin' || site === 'none') return undefined;
  if (site === 'same-site' || site === 'cross-site') return 'cross-site';
  const origin = request.headers.get('origin');
  if (origin === null) return undefined;
  return origin === ownOrigin ? undefined : 'cross-site';
}

const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Why {@link readAtMost} stopped before the end of a body. */
type Unread = 'body-too-large' | 'request-timeout';

/**
 * Reads at most `maxBytes` of a body before `deadline`; the reason it stopped when the body
 * holds more or is still arriving (the reader is then left where it stopped).
 */
async function readAtMost(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
  deadline: Deadline,
): Promise<Uint8Array | Unread> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const step = await beforeDeadline(reader.read(), deadline);
    if (step === DEADLINE_PASSED) return 'request-timeout';
    if (step.done) break;
    size += step.value.byteLength;
    if (size > maxBytes) return 'body-too-large';
    chunks.push(step.value);
  }
  return concatBytes(chunks, size);
}

/** Reads and throws away the rest of a body, up to {@link DRAIN_MAX_BYTES} and the deadline; then lets go of it. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, deadline: Deadline): Promise<void> {
  let drained = 0;
  try {
    while (drained <= DRAIN_MAX_BYTES) {
      const step = await beforeDeadline(reader.read(), deadline);
      if (step === DEADLINE_PASSED || step.done) break;
      drained += step.value.byteLength;
    }
  } catch {
    // The body failed (the client went away): nothing is left to drain.
  }
  reader.cancel().catch(() => {});
}

/** The limits of a request body: its size, and the time it may take to arrive. */
export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
}

/**
 * The body check: none, or at most `maxBytes` of a JSON object, received within
 * `timeoutMs`. Reads a copy of the body (`request.clone()`), so `resolveUser` can still read the
 * request's own. A declared `Content-Length` over the limit is refused without reading anything;
 * a body found over the limit while reading is read on and thrown away (see bodyLimits.ts: a
 * body cancelled mid-read makes some Node adapters, such as @hono/node-server, reset the
 * connection); one still arriving at the deadline is cancelled.
 */
export async function checkRequestBody(request: Request, { maxBytes, timeoutMs }: BodyLimits): Promise<SessionRouteError | undefined> {
  if (request.body === null) return undefined;
  const declaredLength = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declaredLength > maxBytes) {
    request.body.cancel().catch(() => {});
    return 'body-too-large';
  }
  const deadline = startDeadline(timeoutMs);
  const copy = request.clone().body!.getReader();
  try {
    const bytes = await readAtMost(copy, maxBytes, deadline);
    if (typeof bytes === 'string') {
      // The request is refused: nobody reads its own body either. Cancelling it stops the copy
      // from keeping what the drain reads; the source stops once the copy is cancelled too.
      request.body.cancel().catch(() => {});
      if (bytes === 'body-too-large') await drain(copy, deadline);
      else copy.cancel().catch(() => {});
      return bytes;
    }
    if (bytes.byteLength === 0) return undefined;
    if (!JSON_CONTENT_TYPE.test(request.headers.get('content-type') ?? '')) return 'unsupported-media-type';
    try {
      // An object: what a route that reads its body destructures (`null` or `[]` would make it throw).
      const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return undefined;
    } catch {
      // Not JSON at all: refused the same way.
    }
    return 'invalid-body';
  } finally {
    deadline.clear();
  }
}
