/*
 * The body of a Node request (`http.IncomingMessage`, as Express, Fastify and Koa hand it over),
 * for toNodeHandler: read from the stream within a size and a time limit, or taken from what a
 * body parser left on `req.body`.
 *
 * A body parser in front. A parser that read the body leaves the stream ended and the body on
 * `req.body` (parsed: an object for JSON or a form, a string for text, a Buffer for raw). But
 * parsers also set `req.body` when they read nothing: Express 4's (body-parser 1.x) sets `{}` on
 * every request, one without a body included, and one of a type it does not parse, whose stream
 * is still unread. So the stream decides: unread, it is read; ended, `req.body` is used, and
 * only when the request has a body at all (HTTP/1.1 says so with `Content-Length` or
 * `Transfer-Encoding`).
 *
 * An over-long body. Reading stops at the limit, and the rest is read and thrown away (see
 * bodyLimits.ts) while the 413 goes out; then the connection is closed.
 */
import { beforeDeadline, concatBytes, DEADLINE_PASSED, DRAIN_MAX_BYTES, type Deadline } from './bodyLimits';
import { PlatformApiError, PlatformApiErrorCodes } from './platformApiError';

/** The parts of a Node request that {@link readNodeBody} reads. */
export interface NodeBodySource extends AsyncIterable<Uint8Array | string> {
  headers: Record<string, string | string[] | undefined>;
  /** What a body parser left: the body, parsed or not. */
  body?: unknown;
  /** Node: the stream was read to its end (by a body parser, when this code did not). */
  readableEnded?: boolean;
}

/** A request body that was not read whole, and how to let go of what remains of it. */
export interface UnreadBody {
  /** Why: larger than the limit, or still arriving at the deadline. */
  reason: 'body-too-large' | 'request-timeout';
  /** Reads and throws away the rest of the body, up to {@link DRAIN_MAX_BYTES} and the deadline. */
  drain(): Promise<void>;
  /** Stops reading (the stream is destroyed, and with it the connection, unless it already ended). */
  release(): void;
}

/** What {@link readNodeBody} found: the body (`undefined` for none), or why it was not read whole. */
export type NodeBody = { body: Uint8Array | string | undefined } | UnreadBody;

/** Why a body that a middleware read is missing. */
const BODY_ALREADY_READ =
  'toNodeHandler: the request body was already read (by a middleware?) and req.body holds nothing: set req.body to what it read (see the framework recipes in the README)';

function headerValue(headers: NodeBodySource['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether the request has a body at all: HTTP/1.1 says so with `Transfer-Encoding` or a `Content-Length` above 0. */
function hasBody(headers: NodeBodySource['headers']): boolean {
  return headerValue(headers, 'transfer-encoding') !== undefined || Number(headerValue(headers, 'content-length') ?? 0) > 0;
}

/** The body a parser left on `req.body`, as the bytes (or text) to pass on: text and bytes as they are, anything else as JSON. */
function parsedBody(body: unknown): Uint8Array | string {
  return typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
}

const textEncoder = new TextEncoder();
const asBytes = (chunk: Uint8Array | string) => (typeof chunk === 'string' ? textEncoder.encode(chunk) : chunk);

/** Whether a parser read the stream (a fake request without `readableEnded` that carries a `body` counts as read). */
function readByParser(req: NodeBodySource): boolean {
  return req.readableEnded === true || (req.readableEnded === undefined && req.body !== undefined);
}

/** The body a parser read: none when the request had none (whatever the parser set), else what it left on `req.body`. */
function bodyLeftByParser(req: NodeBodySource): NodeBody {
  if (!hasBody(req.headers)) return { body: undefined };
  if (req.body === undefined) throw new PlatformApiError(PlatformApiErrorCodes.InvalidOption, BODY_ALREADY_READ);
  return { body: parsedBody(req.body) };
}

/**
 * The body of `req`: at most `maxBytes`, all of it received before `deadline`. The stream is
 * read with `next()`, never with `for await`, which destroys the stream (and so the connection)
 * when it stops early: an unread rest must stay readable, to be thrown away.
 */
export async function readNodeBody(req: NodeBodySource, maxBytes: number, deadline: Deadline): Promise<NodeBody> {
  if (readByParser(req)) return bodyLeftByParser(req);
  const stream = req[Symbol.asyncIterator]();
  const next = () => {
    const step = stream.next();
    // A read still pending at the deadline settles when the connection closes, unawaited.
    step.catch(() => {});
    return beforeDeadline(step, deadline);
  };
  const unread = (reason: UnreadBody['reason']): UnreadBody => ({
    reason,
    async drain() {
      let drained = 0;
      try {
        while (drained <= DRAIN_MAX_BYTES) {
          const step = await next();
          if (step === DEADLINE_PASSED || step.done) return;
          drained += asBytes(step.value).byteLength;
        }
      } catch {
        // The client closed the connection: it read the answer, or gave up; nothing is left to drain.
      }
    },
    release() {
      // Queued after a pending read, if any: it settles when data comes or the connection closes.
      stream.return?.()?.catch(() => {});
    },
  });

  if (Number(headerValue(req.headers, 'content-length')) > maxBytes) return unread('body-too-large');
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const step = await next();
    if (step === DEADLINE_PASSED) return unread('request-timeout');
    if (step.done) break;
    const bytes = asBytes(step.value);
    size += bytes.byteLength;
    if (size > maxBytes) return unread('body-too-large');
    chunks.push(bytes);
  }
  return { body: size === 0 ? undefined : concatBytes(chunks, size) };
}
