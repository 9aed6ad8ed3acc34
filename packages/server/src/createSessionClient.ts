import { toOrigin } from './baseUrl';
import { PlatformApiErrorCodes, PlatformApiError, type PlatformApiErrorCode } from './platformApiError';
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

const STATUS_CODES: Record<number, PlatformApiErrorCode> = {
  400: PlatformApiErrorCodes.BadRequest,
  401: PlatformApiErrorCodes.Unauthorized,
  403: PlatformApiErrorCodes.Forbidden,
};
const STATUS_HINTS: Record<number, string> = { 401: 'the API key is missing, malformed or expired' };

function checkApiKey(apiKey: unknown): string {
  // Messages here never include the value: it is (or is close to) a secret.
  if (typeof apiKey !== 'string' || !apiKey.trim())
    throw new PlatformApiError(
      PlatformApiErrorCodes.InvalidOption,
      'apiKey is required: pass the API key from your account settings, read from a server-side secret',
    );
  if (/^(api-key|bearer)\s/i.test(apiKey))
    throw new PlatformApiError(
      PlatformApiErrorCodes.InvalidOption,
      'apiKey must be the key alone, without the "Api-Key " or "Bearer " prefix',
    );
  if (!/^[\x21-\x7e]+$/.test(apiKey))
    throw new PlatformApiError(
      PlatformApiErrorCodes.InvalidOption,
      'apiKey contains whitespace or characters that cannot go in a header; check for a trailing newline',
    );
  // A key this short cannot be a real one, and redacting it from messages would cut words apart
  // (a one-letter key would redact every occurrence of that letter).
  if (apiKey.length < API_KEY_MIN_LENGTH)
    throw new PlatformApiError(
      PlatformApiErrorCodes.InvalidOption,
      `apiKey is too short to be an API key (the rule: at least ${API_KEY_MIN_LENGTH} characters); pass the whole key from your account settings`,
    );
  return apiKey;
}

function messageFrom(json: unknown, depth = 0): string | undefined {
  if (typeof json === 'string') return json.trim() || undefined;
  if (typeof json !== 'object' || json === null || depth > 1) return undefined;
  const o = json as Record<string, unknown>;
  for (const key of ['message', 'error', 'detail', 'error_description']) {
    const m = messageFrom(o[key], depth + 1);
    if (m) return m;
  }
  return undefined;
}

function bodyMessage(text: string): string | undefined {
  try {
    return messageFrom(JSON.parse(text));
  } catch {
    return text.replace(/\s+/g, ' ').trim() || undefined;
  }
}

/**
 * Creates a client for `POST {baseUrl}/api/v1/embed/generate-session`, authenticated with
 * `Authorization: Api-Key <apiKey>`. Uses Web `fetch`, so it runs on Node 20+, edge runtimes
 * and Deno. The key is held in a closure: it is not a property of the client, and it is
 * redacted from every error (including what the platform echoes back and `cause` chains).
 * Redirects are never followed, so the key is only ever sent to `baseUrl`.
 *
 * @throws {PlatformApiError} `invalid-option` for an unusable `baseUrl`, `apiKey` (including one shorter
 * than {@link API_KEY_MIN_LENGTH} characters) or `timeoutMs`.
 * @example
 * ```ts
 * const platform = createSessionClient({ baseUrl: process.env.PLATFORM_URL!, apiKey: process.env.PLATFORM_API_KEY! });
 * const { sessionId } = await platform.generateSession({ deploymentId: 1, externalId: user.id });
 * ```
 */
export function createSessionClient(options: SessionClientOptions): SessionClient {
  if (typeof options !== 'object' || options === null)
    throw new PlatformApiError(PlatformApiErrorCodes.InvalidOption, 'createSessionClient needs an options object: { baseUrl, apiKey }');
  const origin = toOrigin(options.baseUrl);
  const apiKey = checkApiKey(options.apiKey);
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || timeoutMs > 2_147_483_647)
    throw new PlatformApiError(
      PlatformApiErrorCodes.InvalidOption,
      `timeoutMs must be a positive number of milliseconds, got ${String(timeoutMs)}`,
    );
  const fetchFn = options.fetch ?? globalThis.fetch;
  if (typeof fetchFn !== 'function')
    throw new PlatformApiError(PlatformApiErrorCodes.InvalidOption, 'no fetch available: use Node 20+ or pass options.fetch');
  const endpoint = `${origin}/api/v1/embed/generate-session`;
  const secrets = [...new Set([apiKey, encodeURIComponent(apiKey)])];
  const redact = (text: string) => secrets.reduce((t, s) => t.split(s).join('[redacted]'), text);

  // A copy of an underlying error without the key anywhere, not the error itself: its
  // properties (or its cause's) could hold request details.
  const scrub = (e: unknown, depth = 0): unknown => {
    if (!(e instanceof Error)) return typeof e === 'string' ? redact(e) : undefined;
    const copy = new Error(redact(e.message), depth < 3 && e.cause !== undefined ? { cause: scrub(e.cause, depth + 1) } : undefined);
    copy.name = e.name;
    copy.stack = redact(e.stack ?? '');
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' ? Object.assign(copy, { code }) : copy;
  };

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
    const { signal } = callOptions;
    signal?.throwIfAborted();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let status: number;
    let location: string | null;
    let text: string;
    try {
      const response = await fetchFn(endpoint, {
        method: 'POST',
        headers: { Authorization: `Api-Key ${apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(checked.request),
        redirect: 'manual',
        signal: controller.signal,
      });
      status = response.status;
      location = response.headers.get('location');
      // Reading the body is still under the timeout: a platform can stall mid-body.
      text = await response.text();
    } catch (e) {
      if (timedOut)
        throw new PlatformApiError(PlatformApiErrorCodes.Timeout, `generate-session: no answer from ${origin} within ${timeoutMs} ms`);
      if (signal?.aborted) throw signal.reason;
      const cause = scrub(e);
      const detail =
        cause instanceof Error && cause.cause instanceof Error
          ? cause.cause.message
          : cause instanceof Error
            ? cause.message
            : String(cause);
      throw new PlatformApiError(PlatformApiErrorCodes.Network, `generate-session: could not reach ${origin} (${detail})`, { cause });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }

    if (status >= 200 && status < 300) {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {}
      const sessionId = (body as { sessionId?: unknown } | null | undefined)?.sessionId;
      // The body is not quoted in the error: it may hold a session id.
      if (typeof sessionId !== 'string' || !sessionId)
        throw new PlatformApiError(
          PlatformApiErrorCodes.InvalidResponse,
          `generate-session answered ${status} without a sessionId string in a JSON body`,
          { status },
        );
      return { sessionId };
    }
    if (status === 0 || (status >= 300 && status < 400)) {
      let where = '';
      try {
        if (location) where = ` to ${new URL(location, endpoint).origin}`;
      } catch {}
      throw new PlatformApiError(
        PlatformApiErrorCodes.Http,
        `generate-session answered with a redirect${where}, which is not followed; set baseUrl to the tenant's own address`,
        { status },
      );
    }
    // Redacted before truncating, so that no part of an echoed key survives.
    let platformMessage = bodyMessage(text);
    if (platformMessage) platformMessage = redact(platformMessage);
    if (platformMessage && platformMessage.length > 500) platformMessage = `${platformMessage.slice(0, 500)}…`;
    const hint =
      status === 403
        ? `the API key is not allowed for deployment ${checked.request.deploymentId} (is it scoped to other deployments?)`
        : STATUS_HINTS[status];
    throw new PlatformApiError(
      STATUS_CODES[status] ?? PlatformApiErrorCodes.Http,
      `generate-session answered ${status}${hint ? ` (${hint})` : ''}: ${platformMessage ?? 'no message'}`,
      {
        status,
        platformMessage,
      },
    );
  }

  return Object.freeze({ baseUrl: origin, generateSession });
}
