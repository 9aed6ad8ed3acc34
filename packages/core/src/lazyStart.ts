/*
 * Lazy start: with `loading: 'lazy'`, no session is minted and no iframe created until the
 * container comes within LAZY_MARGIN of the viewport (an embed far below the fold costs
 * nothing). Once seen, later loads of the same embed (reloads, retries) start at once.
 */

/** How far outside the viewport a lazy embed starts loading: its session and frame are ready by the time it scrolls in. */
export const LAZY_MARGIN = '300px';

/**
 * Creates the lazy start of one embed.
 * @param later registers what to undo when the current load ends (the observer is disconnected with it)
 * @returns `whenSeen(container, lazy, go)`: runs `go` at once, or once a lazy container is (near) in view
 */
export function createLazyStart(later: (undo: () => void) => void) {
  let seen = false;
  return (container: HTMLElement, lazy: boolean, go: () => void): void => {
    const start = () => ((seen = true), go());
    if (seen || !lazy || typeof IntersectionObserver == 'undefined') return start();
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && start(), { rootMargin: LAZY_MARGIN });
    observer.observe(container);
    later(() => observer.disconnect());
  };
}
