/**
 * Every error code the SDK can raise, declared once. (The SDK's own code writes the code strings
 * themselves, checked against this type, so that a bundle of `embedDashboard` need not carry the object.) The {@link EmbedErrorCode} union is
 * derived from it, so `switch (error.code)` is exhaustive-checked by TypeScript.
 */
export const ErrorCode = {
  /** An option passed to the SDK cannot be used; the message says which and what to pass. */
  InvalidOption: 'invalid-option',
  /** An action payload does not match the action catalog; nothing was sent. */
  InvalidAction: 'invalid-action',
  /** The container element could not be found or is not attached to a document, or the page took the iframe out of it. */
  NoContainer: 'no-container',
  /** Mounting was attempted where there is no DOM (server rendering, Node). */
  NoDom: 'no-dom',
  /** The `session` function threw, rejected or returned no usable session id. */
  Session: 'session',
  /** The embed reported a fatal error (for example an expired or reused session). */
  Fatal: 'fatal',
  /** The embed did not report `ready` within `readyTimeout` milliseconds; the message says whether the frame loaded. */
  Timeout: 'timeout',
  /** The page's Content-Security-Policy blocked the frame; the message names the directive and the origin to allow. */
  Blocked: 'blocked',
  /**
   * The host page's origin is opaque (`"null"`: a sandboxed iframe without `allow-same-origin`, or
   * a `file://` page): the platform cannot allow it for embedding and the embed's messages could
   * not be told apart from any other page's. Serve the page from an `https://` (or local `http://`) origin.
   */
  OpaqueOrigin: 'opaque-origin',
  /** The embed was destroyed; the pending operation was abandoned. */
  Destroyed: 'destroyed',
} as const;

/** One of the {@link ErrorCode} values. */
export type EmbedErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** What every message of the SDK begins with. @internal */
export const PREFIX = '[platform-embed] ';

/**
 * The only error class the SDK throws or reports. Session ids never appear in its message.
 *
 * @example
 * ```ts
 * handle.ready.catch((e) => {
 *   if (e instanceof EmbedError && e.code === 'session') showRetry();
 * });
 * ```
 */
export class EmbedError extends Error {
  // (A field, defined on the error: assigned, it would throw on a page whose Error.prototype is frozen, as SES's lockdown() does.)
  override readonly name = 'EmbedError';
  /** What went wrong, as a stable machine-readable code. */
  // (`declare`: set in the constructor, with no class field declared before it, which would ship as `code;`.)
  declare readonly code: EmbedErrorCode;

  constructor(code: EmbedErrorCode, message: string, options?: { cause?: unknown }) {
    super(PREFIX + message, options);
    this.code = code;
  }
}

/** A failure of a load: `renew` when a fresh session may cure it, not before `wait` ms. @internal */
export type SessionFailure = EmbedError & { renew?: boolean; wait?: number };

/**
 * Throws an `invalid-option` error when there is a problem (the reason names the option and, in
 * development, what to pass instead).
 * @internal
 */
export const refuse = (problem: string | undefined | false | 0): void => {
  if (problem) throw new EmbedError('invalid-option', problem);
};
