import { toOrigin } from './baseUrl';
import { MAX_TIMER_MS } from './bodyLimits';
import { PlatformApiErrorCodes, PlatformApiError, type PlatformApiErrorCode } from './platformApiError';
import { readLimitedText } from './readLimitedBody';
import { createRedactor } from './redactSecret';
import { parseHttpDate, parseRetryAfter } from './retryAfter';
import type { GenerateSessionRequest, GenerateSessionResponse } from './types';
import { validateSessionRequest } from './validateSessionRequest';

/** Options of {@link createSessionClient}. */
export interface SessionClientOptions {
  /** Your tenant's address or custom domain, e.g. `https://acme.platform.example`; only its origin is used. */
  baseUrl: string | URL;
  /** The API key (without the `Api-Key ` prefix). Server-side only: it must never reach a browser. */
  apiKey: string;
  /**
   * Milliseconds to wait for the complete answer before failing with code `timeout`.
   * @default 10000
   */
  timeoutMs?: number;
  /**
   * The largest answer read from the platform, in bytes. A session answer is a few dozen
   * bytes; a successful answer over the limit fails with `invalid-response`, and of an error
   * answer only the first `maxResponseBytes` are read. The body is read as a stream and
   * abandoned past the limit, never held whole.
   * @default 65536
   */
  maxResponseBytes?: number;
  /**
   * The `fetch` to use (a test double, or an instrumented one).
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch;
}

/** Per-call options of {@link SessionClient.generateSession}. */
export interface GenerateSessionOptions {
  /** Aborts the call; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** A generate-session client; see {@link createSessionClient}. */
export interface SessionClient {
  /** The tenant origin requests go to. */
  readonly baseUrl: string;
  /**
   * Validates `request` (see `validateSessionRequest`), then mints a single-use session
   * valid for 5 minutes. Rejects with a {@link PlatformApiError}.
   */
  generateSession(request: GenerateSessionRequest, options?: GenerateSessionOptions): Promise<GenerateSessionResponse>;
}

/**
 * The fewest characters an API key may have: `createSessionClient` refuses a shorter key with
 * an `invalid-option` error. No real key is that short, and a key must be long enough to be
 * redacted from messages without redacting ordinary words.
 */
export const API_KEY_MIN_LENGTH = 16;

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 65_536;
/** The longest platform message kept in an error (after redaction). */
const PLATFORM_MESSAGE_MAX_LENGTH = 500;

const CODE_OF_STATUS: Record<number, PlatformApiErrorCode> = {
  400: PlatformApiErrorCodes.BadRequest,
  401: PlatformApiErrorCodes.Unauthorized,
  403: PlatformApiErrorCodes.Forbidden,
  429: PlatformApiErrorCodes.RateLimited,
  503: PlatformApiErrorCodes.Unavailable,
};

/** What the platform answered, read within the limits. */
interface PlatformAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** `false` when the body was larger than `maxResponseBytes`. */
  complete: boolean;
}

function invalidOption(message: string): PlatformApiError {
  return new PlatformApiError(PlatformApiErrorCodes.InvalidOption, message);
}

function checkApiKey(apiKey: unknown): string {
  // Messages here never include the value: it is (or is close to) a secret.
  if (typeof apiKey !== 'string' || !apiKey.trim())
    throw invalidOption('apiKey is required: pass the API key from your account settings, read from a server-side secret');
  if (/^(api-key|bearer)\s/i.test(apiKey)) throw invalidOption('apiKey must be the key alone, without the "Api-Key " or "Bearer " prefix');
  if (!/^[\x21-\x7e]+$/.test(apiKey))
    throw invalidOption('apiKey contains whitespace or characters that cannot go in a header; check for a trailing newline');
  // A key this short cannot be a real one, and redacting it from messages would cut words apart
  // (a one-letter key would redact every occurrence of that letter).
  if (apiKey.length < API_KEY_MIN_LENGTH)
    throw invalidOption(
      `apiKey is too short to be an API key (the rule: at least ${API_KEY_MIN_LENGTH} characters); pass the whole key from your account settings`,
    );
  return apiKey;
}

function checkPositiveNumber(value: unknown, name: string, unit: string, max: number): number {
  if (typeof value === 'number' && value > 0 && value <= max) return value;
  throw invalidOption(`${name} must be a positive number of ${unit}, got ${String(value)}`);
}

/** The first message found in a JSON error body: `message`, `error`, `detail` or `error_description`, one level deep. */
function messageFromJson(json: unknown, depth = 0): string | undefined {
  if (typeof json === 'string') return json.trim() || undefined;
  if (typeof json !== 'object' || json === null || depth > 1) return undefined;
  const body = json as Record<string, unknown>;
  for (const key of ['message', 'error', 'detail', 'error_description']) {
    const message = messageFromJson(body[key], depth + 1);
    if (message) return message;
  }
  return undefined;
}

/** The platform's message in an error body: from JSON, else the text with its whitespace collapsed. */
function messageFromBody(text: string): string | undefined {
  try {
    return messageFromJson(JSON.parse(text));
  } catch {
    return text.replace(/\s+/g, ' ').trim() || undefined;
  }
}

/** The `sessionId` of a successful answer's JSON body, if it has a usable one. */
/**
 * The JSON body of an answer, and every string in it (its keys and values, decoded), or
 * `undefined` when the body is not JSON.
 */
function parseAnswer(text: string): { body: unknown; strings: string[] } | undefined {
  const strings: string[] = [];
  try {
    const body: unknown = JSON.parse(text, (key, value: unknown) => {
      strings.push(key);
      if (typeof value === 'string') strings.push(value);
      return value;
    });
    return { body, strings };
  } catch {
    // Not JSON, or nested deeper than the reviver's stack allows.
    return undefined;
  }
}

/** The session id of a parsed answer, or `undefined` when it has no non-empty `sessionId` string. */
function sessionIdOf(body: unknown): string | undefined {
  const sessionId = (body as { sessionId?: unknown } | null)?.sessionId;
  return typeof sessionId === 'string' && sessionId ? sessionId : undefined;
}

/** The wait an answer's `Retry-After` asks for, measured from the answer's own `Date` when it has one. */
function retryAfterOf(headers: Headers): number | undefined {
  const answeredAt = parseHttpDate(headers.get('date') ?? '') ?? Date.now();
  return parseRetryAfter(headers.get('retry-after'), answeredAt);
}

/** What to check, by status, in the message of an error answer. */
function statusHint(status: number, deploymentId: number, retryAfter: number | undefined): string | undefined {
  const wait = retryAfter === undefined ? 'it sent no Retry-After' : `it asks to wait ${retryAfter} s`;
  switch (status) {
    case 401:
      return 'the API key is missing, malformed or expired';
    case 403:
      return `the API key is not allowed for deployment ${deploymentId} (is it scoped to other deployments?)`;
    case 429:
      return `rate limited: the platform refuses more session requests for now, ${wait}`;
    case 503:
      return `the platform is unavailable for now, ${wait}`;
    default:
      return undefined;
  }
}

/**
 * Creates a client for `POST {baseUrl}/api/v1/embed/generate-session`, authenticated with
 * `Authorization: Api-Key <apiKey>`. Uses Web `fetch` and streams only, so it runs on Node 20+,
 * Deno, Bun, Cloudflare Workers and Vercel's Edge runtime. The key is held in a closure: it is
 * not a property of the client, and it is redacted from every error (including what the
 * platform echoes back, in any letter case, URL-encoded, hex or base64-encoded, whole or as a piece
 * of 12 characters or more, and `cause` chains). Redirects are never followed, so the key is
 * only ever sent to `baseUrl`, and a successful answer that holds the key in any of these forms
 * fails with `invalid-response`: the key never reaches a browser as a session id.
 *
 * A `429` answer fails with code `rate-limited`, a `503` with `unavailable`; both carry the
 * platform's `Retry-After` as {@link PlatformApiError.retryAfter}, in seconds.
 *
 * @throws {PlatformApiError} `invalid-option` for an unusable `baseUrl`, `apiKey` (including one shorter
 * than {@link API_KEY_MIN_LENGTH} characters), `timeoutMs` or `maxResponseBytes`.
 * @example
 * ```ts
 * const platform = createSessionClient({ baseUrl: process.env.PLATFORM_URL!, apiKey: process.env.PLATFORM_API_KEY! });
 * const { sessionId } = await platform.generateSession({ deploymentId: 1, externalId: user.id });
 * ```
 */
export function createSessionClient(options: SessionClientOptions): SessionClient {
  if (typeof options !== 'object' || options === null)
    throw invalidOption('createSessionClient needs an options object: { baseUrl, apiKey }');
  const origin = toOrigin(options.baseUrl);
  const apiKey = checkApiKey(options.apiKey);
  const timeoutMs = checkPositiveNumber(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs', 'milliseconds', MAX_TIMER_MS);
  const maxResponseBytes = checkPositiveNumber(
    options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    'maxResponseBytes',
    'bytes',
    Number.MAX_SAFE_INTEGER,
  );
  const fetchFn = options.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function') throw invalidOption('no fetch available: use Node 20+ or pass options.fetch');
  const endpoint = `${origin}/api/v1/embed/generate-session`;
  const redact = createRedactor(apiKey);

  // A copy of an underlying error without the key anywhere, not the error itself: its
  // properties (or its cause's) could hold request details.
  const scrub = (error: unknown, depth = 0): unknown => {
    if (!(error instanceof Error)) return typeof error === 'string' ? redact(error) : undefined;
    const cause = depth < 3 && error.cause !== undefined ? { cause: scrub(error.cause, depth + 1) } : undefined;
    const copy = new Error(redact(error.message), cause);
    copy.name = error.name;
    copy.stack = redact(error.stack ?? '');
    // `code`, and a framework's `digest` (how Next.js recognizes its own signals, such as a prerender's end).
    const { code, digest } = error as { code?: unknown; digest?: unknown };
    if (typeof digest === 'string') Object.assign(copy, { digest: redact(digest) });
    return typeof code === 'string' ? Object.assign(copy, { code }) : copy;
  };

  /** Why the request did not reach the platform, in a few words. */
  const networkDetail = (cause: unknown): string => {
    if (cause instanceof Error && cause.cause instanceof Error) return cause.cause.message;
    if (cause instanceof Error) return cause.message;
    return String(cause);
  };

  /** Sends the request and reads the answer, all within `timeoutMs`; the caller's signal aborts it. */
  async function send(body: string, signal: AbortSignal | undefined): Promise<PlatformAnswer> {
    signal?.throwIfAborted();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await fetchFn(endpoint, {
        method: 'POST',
        headers: { Authorization: `Api-Key ${apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' },
        body,
        redirect: 'manual',
        signal: controller.signal,
      });
      // Reading the body is still under the timeout: a platform can stall mid-body.
      const { text, complete } = await readLimitedText(response.body, response.headers.get('content-length'), maxResponseBytes);
      return { status: response.status, headers: response.headers, text, complete };
    } catch (error) {
      if (timedOut)
        throw new PlatformApiError(PlatformApiErrorCodes.Timeout, `generate-session: no answer from ${origin} within ${timeoutMs} ms`);
      if (signal?.aborted) throw signal.reason;
      const cause = scrub(error);
      throw new PlatformApiError(PlatformApiErrorCodes.Network, `generate-session: could not reach ${origin} (${networkDetail(cause)})`, {
        cause,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  function sessionFrom(answer: PlatformAnswer): GenerateSessionResponse {
    const { status } = answer;
    if (!answer.complete)
      throw new PlatformApiError(
        PlatformApiErrorCodes.InvalidResponse,
        `generate-session answered ${status} with a body larger than ${maxResponseBytes} bytes (maxResponseBytes), where a session answer is a few dozen bytes; check that baseUrl is the platform's address`,
        { status },
      );
    // A session id is handed to a browser: an answer that holds the key in any form (a proxy or
    // a mock echoing the request back) must not be, whatever field holds it.
    // The raw text, and each string of the JSON decoded: a key escaped once more than the text
    // shows (a JSON string of its JSON string, inside the JSON body) is plain in its value.
    const parsed = parseAnswer(answer.text);
    if ([answer.text, ...(parsed?.strings ?? [])].some((text) => redact(text) !== text))
      throw new PlatformApiError(
        PlatformApiErrorCodes.InvalidResponse,
        `generate-session answered ${status} with the API key in its body, which is refused and never passed on; something between here and the platform echoes requests back: check that baseUrl is the platform's address`,
        { status },
      );
    const sessionId = sessionIdOf(parsed?.body);
    // The body is not quoted in the error: it may hold a session id.
    if (sessionId === undefined)
      throw new PlatformApiError(
        PlatformApiErrorCodes.InvalidResponse,
        `generate-session answered ${status} without a sessionId string in a JSON body`,
        { status },
      );
    return { sessionId };
  }

  function redirectError(answer: PlatformAnswer): PlatformApiError {
    let target = '';
    try {
      const location = answer.headers.get('location');
      if (location) target = ` to ${new URL(location, endpoint).origin}`;
    } catch {}
    return new PlatformApiError(
      PlatformApiErrorCodes.Http,
      `generate-session answered with a redirect${target}, which is not followed; set baseUrl to the tenant's own address`,
      { status: answer.status },
    );
  }

  function refusalError(answer: PlatformAnswer, deploymentId: number): PlatformApiError {
    const { status } = answer;
    // Redacted before truncating, so that no part of an echoed key survives.
    let platformMessage = messageFromBody(answer.text);
    if (platformMessage) platformMessage = redact(platformMessage);
    if (platformMessage && platformMessage.length > PLATFORM_MESSAGE_MAX_LENGTH)
      platformMessage = `${platformMessage.slice(0, PLATFORM_MESSAGE_MAX_LENGTH)}…`;
    const code = CODE_OF_STATUS[status] ?? PlatformApiErrorCodes.Http;
    const retryAfter = status === 429 || status === 503 ? retryAfterOf(answer.headers) : undefined;
    const hint = statusHint(status, deploymentId, retryAfter);
    return new PlatformApiError(
      code,
      `generate-session answered ${status}${hint ? ` (${hint})` : ''}: ${platformMessage ?? 'no message'}`,
      {
        status,
        platformMessage,
        retryAfter,
      },
    );
  }

  async function generateSession(
    request: GenerateSessionRequest,
    callOptions: GenerateSessionOptions = {},
  ): Promise<GenerateSessionResponse> {
    const checked = validateSessionRequest(request);
    if (!checked.ok)
      throw new PlatformApiError(PlatformApiErrorCodes.InvalidRequest, `invalid generate-session request: ${checked.message}`, {
        field: checked.field,
        rule: checked.rule,
      });
    const answer = await send(JSON.stringify(checked.request), callOptions.signal);
    if (answer.status >= 200 && answer.status < 300) return sessionFrom(answer);
    // Status 0 is an opaque redirect (a fetch that implements redirect: 'manual' that way).
    if (answer.status === 0 || (answer.status >= 300 && answer.status < 400)) throw redirectError(answer);
    throw refusalError(answer, checked.request.deploymentId);
  }

  return Object.freeze({ baseUrl: origin, generateSession });
}
