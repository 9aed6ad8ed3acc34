import type { Controller } from './context';
import { RETRY_BASE, RETRY_COUNT } from './embedOptions';

/*
 * The retry policy: what a failed load attempt leads to. A failure a fresh session can cure (a
 * fatal error from the embed, a ready timeout, a renewable session failure) is tried again while
 * attempts remain (`retry`, RETRY_COUNT by default, and only with a `session` function), after
 * an exponential backoff with jitter from RETRY_BASE, or the route's `Retry-After` when that is
 * longer. Offline, a retry waits for the network; in a hidden tab, for the tab to be shown.
 * Anything else ends the loading in `error` (the controller's business).
 */

/**
 * Gives the controller its retry policy: `_retry`, `_waiting` and `_resetRetries`. It reads the
 * `retry` and `session` options, registers a waiting retry with the load's scope (it is cancelled
 * with it), starts the next attempt with `_start` and reports each retry to `_diagnose`.
 */
export function createRetryPolicy(
  c: Pick<Controller, '_options' | '_later' | '_diagnose' | '_start' | '_waiting' | '_retry' | '_resetRetries'>,
): void {
  let attempt = 0;
  // Runs `go` now, or once the network is back and the tab is shown.
  const whenUp = (go: () => void) => {
    const [target, type] =
      navigator.onLine === false ? [window, 'online'] : document.visibilityState == 'hidden' ? [document, 'visibilitychange'] : [];
    if (!target) return go();
    const on = () => (target.removeEventListener(type!, on), whenUp(go));
    target.addEventListener(type!, on);
    c._later(() => target.removeEventListener(type!, on));
  };
  c._waiting = false;
  c._retry = (failure, renewable) => {
    const { retry, session } = c._options;
    const max = typeof retry == 'number' ? retry : retry === false ? 0 : RETRY_COUNT;
    if (!renewable || typeof session != 'function' || attempt >= max) return false;
    // Jitter (half to all of the backoff) spreads the retries of many embeds that failed together.
    const delay = Math.max(Math.round(RETRY_BASE * 2 ** attempt++ * (0.5 + Math.random() / 2)), failure.wait ?? 0);
    c._diagnose({ kind: 'retry', attempt, of: max, delay, error: failure });
    c._waiting = true;
    const timer = setTimeout(() => whenUp(c._start), delay);
    c._later(() => clearTimeout(timer));
    return true;
  };
  c._resetRetries = () => void (attempt = 0);
}
