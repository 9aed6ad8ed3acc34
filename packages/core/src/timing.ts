/*
 * Time helpers shared by the controller's parts.
 */

/** A wait for `setTimeout`: its longest (about 24.8 days) and longer mean forever, as `0` does. */
export const clampTimeout = (ms: number): number => Math.min(ms, 2 ** 31 - 1) % (2 ** 31 - 1);

/** Resolves after `ms` milliseconds (at once when `ms` is not positive: `setTimeout` takes a negative delay as 0). */
export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
