import { RETRY_BASE, RETRY_COUNT, type AnyOptions, type Diagnostic } from './embedOptions';
import type { SessionFailure } from './errors';

/*
 * The retry policy: what a failed load attempt leads to. A failure a fresh session can cure (a
 * fatal error from the embed, a ready timeout, a renewable session failure) is tried again while
 * attempts remain (`retry`, RETRY_COUNT by default, and only with a `session` function), after
 * an exponential backoff with jitter from RETRY_BASE, or the route's `Retry-After` when that is
 * longer. Offline, a retry waits for the network; in a hidden tab, for the tab to be shown.
 * Anything else ends the loading in `error` (the controller's business).
 */

/**
 * Creates the retry policy of one embed.
 * @param options the embed's current options (`retry`, `session`)
 * @param later registers what to undo when the current attempt ends (a waiting retry is cancelled with it)
 * @param diagnose reports each retry to `onDiagnostic`
 */
export function createRetryPolicy(options: () => AnyOptions, later: (undo: () => void) => void, diagnose: (d: Diagnostic) => void) {
  let attempt = 0;
  // Between a scheduled retry and its start: the failed frame may report its failure again.
  let waiting = false;
  // Runs `go` now, or once the network is back and the tab is shown.
  const whenUp = (go: () => void) => {
    const [target, type] =
      navigator.onLine === false ? [window, 'online'] : document.visibilityState == 'hidden' ? [document, 'visibilitychange'] : [];
    if (!target) return go();
    const on = () => (target.removeEventListener(type!, on), whenUp(go));
    target.addEventListener(type!, on);
    later(() => target.removeEventListener(type!, on));
  };
  return {
    /**
     * Schedules `start` after a failure a fresh session can cure, while attempts remain.
     * @returns whether it did (else the load failed for good).
     */
    retry(failure: SessionFailure, renewable: boolean | undefined, start: () => void): boolean {
      const { retry, session } = options();
      const max = typeof retry == 'number' ? retry : retry === false ? 0 : RETRY_COUNT;
      if (!renewable || typeof session != 'function' || attempt >= max) return false;
      // Jitter (half to all of the backoff) spreads the retries of many embeds that failed together.
      const delay = Math.max(Math.round(RETRY_BASE * 2 ** attempt++ * (0.5 + Math.random() / 2)), failure.wait ?? 0);
      diagnose({ kind: 'retry', attempt, of: max, delay, error: failure });
      waiting = true;
      const timer = setTimeout(() => whenUp(start), delay);
      later(() => clearTimeout(timer));
      return true;
    },
    /** Whether a retry waits to start. */
    waiting: () => waiting,
    /** A load starts (the retry that waited, or another). */
    started: () => void (waiting = false),
    /** The embed is ready, or the host reloaded: the attempts count from zero again. */
    reset: () => void (attempt = 0),
  };
}
