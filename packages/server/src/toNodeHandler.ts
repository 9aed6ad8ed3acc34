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
  /** Express: a body already read by a body parser. */
  body?: unknown;
  readableEnded?: boolean;
}

/** The parts of Node's `http.ServerResponse` (or an Express response) that {@link toNodeHandler} uses. */
export interface NodeResponseLike {
  statusCode: number;
  /** Sets one response header. */
  setHeader(name: string, value: string): unknown;
  /** Sends the body (if any) and finishes the response. */
  end(chunk?: Uint8Array): unknown;
  /** Node: `close` tells that the client went away before the response finished. */
  once?(event: 'close', listener: () => void): unknown;
  writableFinished?: boolean;
}

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /**
   * Largest request body read, in bytes; a larger one is answered 413.
   * @default 65536
   */
  maxBodyBytes?: number;
}

class TooLarge {}

/** A Node header value as a list: Node gives repeated headers (`set-cookie`) as an array. */
function headerValues(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

async function readBody(req: NodeRequestLike, max: number): Promise<Uint8Array | string | undefined> {
  if (req.body !== undefined) return typeof req.body === 'string' || req.body instanceof Uint8Array ? req.body : JSON.stringify(req.body);
  if (req.readableEnded) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of req) {
    const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    size += bytes.byteLength;
    if (size > max) throw new TooLarge();
    chunks.push(bytes);
  }
  const body = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return body;
}

/**
 * Adapts a Fetch API handler (such as `createSessionHandler(...)`) to Node's
 * `http.createServer` and to Express/Connect: `(req, res, next?) => Promise<void>`.
 * Works with or without a body parser in front. An unexpected throw goes to `next` when
 * there is one, else answers 500.
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
  const max = options.maxBodyBytes ?? 65_536;
  return async (req, res, next) => {
    const send = (response: Response, body: Uint8Array) => {
      res.statusCode = response.status;
      response.headers.forEach((value, key) => res.setHeader(key, value));
      res.end(body);
    };
    try {
      const method = (req.method ?? 'GET').toUpperCase();
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) for (const single of headerValues(value)) headers.append(key, single);
      const url = new URL(
        req.originalUrl ?? req.url ?? '/',
        `${(req.socket as { encrypted?: unknown } | null | undefined)?.encrypted ? 'https' : 'http'}://${headers.get('host') ?? 'localhost'}`,
      );
      const controller = new AbortController();
      res.once?.('close', () => {
        if (!res.writableFinished) controller.abort();
      });
      let body: Uint8Array | string | undefined;
      if (method !== 'GET' && method !== 'HEAD') {
        try {
          body = await readBody(req, max);
        } catch (e) {
          if (!(e instanceof TooLarge)) throw e;
          const tooLarge = failureAnswer('body-too-large');
          return send(tooLarge, new Uint8Array(await tooLarge.arrayBuffer()));
        }
      }
      const request = new Request(url, { method, headers, body: body as BodyInit | undefined, signal: controller.signal });
      const response = await handler(request);
      send(response, new Uint8Array(await response.arrayBuffer()));
    } catch (error) {
      if (next) return next(error);
      const failed = failureAnswer('internal-error');
      send(failed, new Uint8Array(await failed.arrayBuffer()));
    }
  };
}
