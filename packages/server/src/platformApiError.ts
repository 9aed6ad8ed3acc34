/**
 * Every error code of this package, declared once; {@link PlatformApiErrorCode} is derived from it.
 */
export const PlatformApiErrorCodes = {
  /** An option of `createSessionClient`/`createSessionHandler` cannot be used; the message says what to pass. */
  InvalidOption: 'invalid-option',
  /** The request breaks a rule of the interface document; nothing was sent. `field` and `rule` say which. */
  InvalidRequest: 'invalid-request',
  /** 400: the platform rejected the request (unknown attribute or group, type change, ...). */
  BadRequest: 'bad-request',
  /** 401: the API key is missing, malformed or expired. */
  Unauthorized: 'unauthorized',
  /** 403: the API key is valid but not for this deployment (a scoped key). */
  Forbidden: 'forbidden',
  /** 429: the platform is limiting the rate of session requests; `retryAfter` says how long it asks to wait. */
  RateLimited: 'rate-limited',
  /** 503: the platform is unavailable for now; `retryAfter` says how long it asks to wait, when it said. */
  Unavailable: 'unavailable',
  /** Any other non-2xx answer, including a redirect (never followed, so the key goes nowhere else). */
  Http: 'http',
  /** A 2xx answer whose body holds no usable `sessionId`, holds the API key in any form, or is larger than `maxResponseBytes`. */
  InvalidResponse: 'invalid-response',
  /** No complete answer within `timeoutMs`. */
  Timeout: 'timeout',
  /** The request did not reach the platform (DNS, connection refused, TLS, reset). */
  Network: 'network',
} as const;

/** One of the {@link PlatformApiErrorCodes} values. */
export type PlatformApiErrorCode = (typeof PlatformApiErrorCodes)[keyof typeof PlatformApiErrorCodes];

/** Extra facts an error may carry. */
export interface PlatformApiErrorDetails {
  /** HTTP status of the platform's answer. */
  status?: number;
  /** The platform's own error message (with the API key redacted). */
  platformMessage?: string;
  /** For `invalid-request`: path of the offending field. */
  field?: string;
  /** For `invalid-request`: the broken rule. */
  rule?: string;
  /** The wait the platform asked for with `Retry-After`, in seconds. */
  retryAfter?: number;
  /** The underlying error, with the API key redacted from its message and stack. */
  cause?: unknown;
}

/**
 * The only error this package throws. Its message, `platformMessage`, stack and `cause` chain
 * never contain the API key.
 *
 * @example
 * ```ts
 * try {
 *   await client.generateSession(request);
 * } catch (e) {
 *   if (e instanceof PlatformApiError && e.code === 'forbidden') console.error('API key not scoped to this deployment');
 *   throw e;
 * }
 * ```
 */
export class PlatformApiError extends Error {
  /** What went wrong, as a stable machine-readable code. */
  readonly code: PlatformApiErrorCode;
  /** HTTP status of the platform's answer, when there was one. */
  readonly status: number | undefined;
  /** The platform's own error message, when it sent one. */
  readonly platformMessage: string | undefined;
  /** For `invalid-request`: path of the offending field, e.g. `userAttributes[0].value`. */
  readonly field: string | undefined;
  /** For `invalid-request`: the broken rule, e.g. `not-with-internalId`. */
  readonly rule: string | undefined;
  /**
   * The wait the platform asked for with its `Retry-After` header, in whole seconds (an HTTP
   * date is converted, measured from the answer's `Date`); set on `rate-limited` and
   * `unavailable` errors when the platform sent one, `undefined` otherwise.
   */
  readonly retryAfter: number | undefined;

  constructor(code: PlatformApiErrorCode, message: string, details: PlatformApiErrorDetails = {}) {
    super(`[platform-embed/server] ${message}`, 'cause' in details ? { cause: details.cause } : undefined);
    this.name = 'PlatformApiError';
    this.code = code;
    this.status = details.status;
    this.platformMessage = details.platformMessage;
    this.field = details.field;
    this.rule = details.rule;
    this.retryAfter = details.retryAfter;
  }
}
