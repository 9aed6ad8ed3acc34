import type { Controller } from './context';

/*
 * Lazy start: with `loading: 'lazy'`, no session is minted and no iframe created until the
 * container comes within LAZY_MARGIN of the viewport (an embed far below the fold costs
 * nothing). Once seen, later loads of the same embed (reloads, retries) start at once.
 */

/** How far outside the viewport a lazy embed starts loading: its session and frame are ready by the time it scrolls in. */
export const LAZY_MARGIN = '300px';

/**
 * Creates the lazy start of one embed.
 * @returns `whenSeen(go)`: runs `go` at once, or once the container of a lazy embed is (near) in view
 */
export function createLazyStart(c: Pick<Controller, '_options' | '_container' | '_later'>) {
  let seen = false;
  return (go: () => void): void => {
    const start = () => ((seen = true), go());
    if (seen || c._options.loading != 'lazy' || typeof IntersectionObserver == 'undefined') return start();
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && start(), { rootMargin: LAZY_MARGIN });
    observer.observe(c._container);
    c._later(() => observer.disconnect());
  };
}
