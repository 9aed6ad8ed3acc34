/*
 * The limits of a request body shared by both route helpers, beside its size (`maxBodyBytes`).
 *
 * The deadline for receiving it. A client that trickles its body (1 byte a second) or stalls
 * mid-body would otherwise hold the route, a connection and a buffer for as long as the server
 * lets it (Node's own `requestTimeout` is 5 minutes; the Fetch API runtimes have none of their
 * own): a few hundred such clients hold the server. A session route's body is a few bytes, or
 * none, so the deadline can be short.
 *
 * The rest of an over-long body. The connection still carries it after the 413: a server that
 * stops reading it and closes the connection (or, behind a Fetch API adapter, cancels the body)
 * makes the client's system answer the client's next bytes with a reset, which the client
 * reports instead of the 413 (or the next request on a kept-alive connection gets no answer).
 * So the rest is read and thrown away, within the deadline, up to a bound.
 */

/**
 * The time allowed for receiving a request body, in milliseconds, when the route helpers are
 * given no `bodyTimeoutMs`: ample for the few bytes a session route receives on any network.
 */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;

/**
 * The most of an over-long body read and thrown away after the limit was passed, so that a
 * client still sending it reads the 413, not a reset. Past it (or past the deadline) reading
 * stops, and the server closes the connection.
 */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/** `setTimeout`'s largest delay. */
export const MAX_TIMER_MS = 2_147_483_647;

/** What {@link Deadline.passed} resolves to. */
export const DEADLINE_PASSED = Symbol('deadline passed');

/** A timer that work can race against. */
export interface Deadline {
  /** Resolves to {@link DEADLINE_PASSED} when the time is up; never rejects. */
  readonly passed: Promise<typeof DEADLINE_PASSED>;
  /** Stops the timer: call it when the work is done, so that no timer outlives the request. */
  clear(): void;
}

/** Starts a deadline `ms` milliseconds from now. */
export function startDeadline(ms: number): Deadline {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const passed = new Promise<typeof DEADLINE_PASSED>((resolve) => {
    timer = setTimeout(() => resolve(DEADLINE_PASSED), ms);
  });
  return { passed, clear: () => clearTimeout(timer) };
}

/** What `step` settles to, or {@link DEADLINE_PASSED} when the deadline passes first. */
export function beforeDeadline<T>(step: Promise<T>, deadline: Deadline): Promise<T | typeof DEADLINE_PASSED> {
  return Promise.race([step, deadline.passed]);
}

/** `value` when it can be a timer's delay; `undefined` when it cannot. */
export function timerDelay(value: unknown): number | undefined {
  return typeof value === 'number' && value > 0 && value <= MAX_TIMER_MS ? value : undefined;
}

/** The chunks of a body, `size` bytes in all, as one run of bytes. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
