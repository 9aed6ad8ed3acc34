import { parkedCount } from '@platform-embed/core';

/**
 * Throws unless nothing of the SDK is left out of sight on the page: no embed parked
 * (`keepAlive`), preloaded, or set aside by a hidden component, in any copy of the SDK loaded into
 * the page (each keeps its embeds in slots of a `[data-platform-lot]` element). Call it after
 * your sign-out code, which calls `releaseEmbeds()`, to prove that nothing of the signed-out
 * viewer can reach the next one.
 * @throws {Error} naming how many embeds are left
 * @example
 * ```ts
 * await signOut(); // calls releaseEmbeds()
 * expectNothingParked();
 * ```
 */
export function expectNothingParked(): void {
  const slots = document.querySelectorAll('[data-platform-lot] > *').length;
  const parked = parkedCount();
  if (slots || parked)
    throw new Error(
      `[platform-embed/testing] expected nothing parked, found ${Math.max(slots, parked)} embed(s) parked, preloaded or set aside: call releaseEmbeds() when the viewer signs out (or destroy() them)`,
    );
}
