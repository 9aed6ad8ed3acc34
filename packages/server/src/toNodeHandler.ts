import { DEFAULT_BODY_TIMEOUT_MS, startDeadline, timerDelay } from './bodyLimits';
import { PlatformApiError, PlatformApiErrorCodes } from './platformApiError';
import { readNodeBody, type UnreadBody } from './readNodeBody';
import { failureAnswer } from './routeAnswers';

/** The parts of Node's `http.IncomingMessage` (or an Express request) that {@link toNodeHandler} reads. */
export interface NodeRequestLike extends AsyncIterable<Uint8Array | string> {
  method?: string;
  url?: string;
  /** Express: the URL before router mounting stripped its prefix. */
  originalUrl?: string;
  headers: Record<string, string | string[] | undefined>;
  /** A TLS socket (`encrypted: true`) makes the request URL `https:`. */
  socket?: object | null;
  /**
   * A body already read by a body parser (Express's `express.json()`, or set from Fastify's
   * `request.body` or Koa's `ctx.request.body`): used when the stream was read to its end.
   */
  body?: unknown;
  /** Node: whether the stream was read to its end (by a body parser). */
  readableEnded?: boolean;
}

/** The parts of Node's `http.ServerResponse` (or an Express response) that {@link toNodeHandler} uses. */
export interface NodeResponseLike {
  statusCode: number;
  /** Sets one response header. */
  setHeader(name: string, value: string): unknown;
  /** Node: sends part of the body; an over-long request's 413 is sent with it at once, before the rest of the request is read. */
  write?(chunk: Uint8Array): unknown;
  /** Sends the body (if any) and finishes the response. */
  end(chunk?: Uint8Array): unknown;
  /** Node: `close` tells that the client went away before the response finished. */
  once?(event: 'close', listener: () => void): unknown;
  writableFinished?: boolean;
  /** Node: the status and headers went out; a failure after that can only end the response. */
  headersSent?: boolean;
}

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Largest request body read, in bytes; a larger one is answered 413 and the connection closed
   * (once the rest of the body was read and thrown away, up to 16 MiB, so that the client reads
   * the answer and not a reset).
   * @default 65536
   */
  maxBodyBytes?: number;
  /**
   * Milliseconds allowed for receiving the whole request body, from the start of the request;
   * a body still arriving then (a slow or stalled client) is answered 408 and the connection
   * closed. A body parser in front reads the body itself, under its own limits.
   * @default 10000
   */
  bodyTimeoutMs?: number;
}

/** The largest request body toNodeHandler reads when given no `maxBodyBytes`, in bytes. */
const DEFAULT_MAX_BODY_BYTES = 65_536;

/** A Node header value as a list: Node gives repeated headers (`set-cookie`) as an array. */
function headerValues(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

function invalidOption(message: string): PlatformApiError {
  return new PlatformApiError(PlatformApiErrorCodes.InvalidOption, message);
}

/**
 * The path and query of a request target. Only that: the cross-site check compares the request
 * URL's origin with `Origin`, and a target such as `//evil.example/x` (which Node passes on as
 * it came, and a URL resolved against a base reads as a host) or the absolute form
 * `http://evil.example/x` would make the caller's own origin the route's.
 */
function targetPath(target: string): string {
  if (target.startsWith('/')) return target;
  try {
    const { pathname, search } = new URL(target);
    return pathname + search;
  } catch {
    return '/';
  }
}

/** Characters a `host[:port]` cannot hold, or that would make the URL parser read credentials, a path or a query. */
const NOT_A_HOST = /[\s/\\?#@]/;

/**
 * The origin a `Host` header names (`localhost` when there is none: HTTP/1.0), or `undefined`
 * when it names none: Node passes on any value without control characters (`app example`,
 * `[::1`, `app.example:99999`), which the client must be told about, not the route's log.
 */
function hostOrigin(protocol: string, host: string | null): string | undefined {
  if (host === null) return `${protocol}://localhost`;
  if (NOT_A_HOST.test(host)) return undefined;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * The request as the Fetch API sees it: the URL rebuilt from the `Host` header and the socket;
 * `undefined` when the `Host` header names no host.
 */
function toRequest(req: NodeRequestLike, body: Uint8Array | string | undefined, signal: AbortSignal): Request | undefined {
  const method = (req.method ?? 'GET').toUpperCase();
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) for (const single of headerValues(value)) headers.append(key, single);
  const protocol = (req.socket as { encrypted?: unknown } | null | undefined)?.encrypted ? 'https' : 'http';
  const origin = hostOrigin(protocol, headers.get('host'));
  if (origin === undefined) return undefined;
  // (Joined, not resolved: the path stays a path.)
  const url = new URL(`${origin}${targetPath(req.originalUrl ?? req.url ?? '/')}`);
  return new Request(url, { method, headers, body: body as BodyInit | undefined, signal });
}

/** Writes a Fetch API response to the Node response. */
async function send(res: NodeResponseLike, response: Response): Promise<void> {
  const body = new Uint8Array(await response.arrayBuffer());
  res.statusCode = response.status;
  response.headers.forEach((value, key) => res.setHeader(key, value));
  res.end(body);
}

/**
 * Answers a body that was not read whole (413 or 408) with `Connection: close`: what is left of
 * it on the connection could not be told apart from a next request. A 413 goes out at once, and
 * the connection stays open while the rest of the body is thrown away (a client still sending
 * reads the answer rather than a reset), then closes; a 408's client is too slow to wait for.
 */
async function refuseUnread(res: NodeResponseLike, unread: UnreadBody): Promise<void> {
  const answer = failureAnswer(unread.reason, { Connection: 'close' });
  const body = new Uint8Array(await answer.arrayBuffer());
  res.statusCode = answer.status;
  answer.headers.forEach((value, key) => res.setHeader(key, value));
  res.setHeader('Content-Length', String(body.byteLength));
  if (unread.reason === 'body-too-large' && res.write) {
    res.write(body);
    await unread.drain();
    res.end();
  } else {
    if (unread.reason === 'body-too-large') await unread.drain();
    res.end(body);
  }
  unread.release();
}

/**
 * Adapts a Fetch API handler (such as `createSessionHandler(...)`) to Node's
 * `http.createServer` and to Express/Connect: `(req, res, next?) => Promise<void>`.
 * Works with or without a body parser in front: a body the parser read is taken from
 * `req.body` (see the framework recipes in the README for Fastify, Koa and Hono). The body is
 * read within `maxBodyBytes` (else 413) and `bodyTimeoutMs` (else 408); either refusal closes
 * the connection cleanly. A `Host` header that names no host is answered 400 `invalid-host`. An unexpected throw goes to `next` when there is one, else answers 500.
 *
 * @example
 * ```ts
 * app.all('/api/embed-session', toNodeHandler(createSessionHandler({ client, resolveUser })));
 * // or: http.createServer(toNodeHandler(handler)).listen(3000);
 * ```
 */
export function toNodeHandler(
  handler: (request: Request) => Response | Promise<Response>,
  options: NodeHandlerOptions = {},
): (req: NodeRequestLike, res: NodeResponseLike, next?: (error?: unknown) => void) => Promise<void> {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (typeof maxBodyBytes !== 'number' || !(maxBodyBytes >= 0))
    throw invalidOption(`maxBodyBytes must be a number of bytes, got ${String(maxBodyBytes)}`);
  const bodyTimeoutMs = timerDelay(options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS);
  if (bodyTimeoutMs === undefined)
    throw invalidOption(`bodyTimeoutMs must be a positive number of milliseconds, got ${String(options.bodyTimeoutMs)}`);

  return async (req, res, next) => {
    const deadline = startDeadline(bodyTimeoutMs);
    try {
      const controller = new AbortController();
      res.once?.('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      let body: Uint8Array | string | undefined;
      const method = (req.method ?? 'GET').toUpperCase();
      if (method !== 'GET' && method !== 'HEAD') {
        const read = await readNodeBody(req, maxBodyBytes, deadline);
        if ('reason' in read) return await refuseUnread(res, read);
        body = read.body;
      }
      deadline.clear();
      const request = toRequest(req, body, controller.signal);
      await send(res, request ? await handler(request) : failureAnswer('invalid-host'));
    } catch (error) {
      if (next) return next(error);
      if (res.headersSent) res.end();
      else await send(res, failureAnswer('internal-error'));
    } finally {
      deadline.clear();
    }
  };
}
