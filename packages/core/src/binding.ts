import { createEmbed, type EmbedHandle } from './embed';
import type { EmbedBindingOptions } from './embedOptions';
import type { Surface } from './protocol';
import type { Unsubscribe } from './registry';
import { keepers } from './parking';
import { IDLE, type EmbedState } from './status';

export { IDLE } from './status';

/**
 * What a framework binding maps its lifecycle onto: one controller per component, created on
 * mount, updated with the component's whole options on every change (options it no longer
 * passes are removed), destroyed on unmount.
 */
export interface EmbedBinding<S extends Surface = Surface> {
  /** The current controller: `null` before mount and after unmount (then {@link EmbedBinding.getState} says `destroyed`). */
  readonly handle: EmbedHandle<S> | null;
  /** The controller's state, `idle` without one. Stable between changes (for `useSyncExternalStore`). */
  getState(): EmbedState;
  /** Calls `listener` after every state change of whichever controller is current. */
  subscribe(listener: () => void): Unsubscribe;
  /**
   * Creates the controller in `container`, or updates the live one. A different surface
   * replaces it.
   * @throws {EmbedError} for unusable options (the previous options stay in force).
   */
  mount(container: HTMLElement, options: EmbedBindingOptions<S>): EmbedHandle<S>;
  /**
   * The component is gone, or hidden: destroys the controller, unless
   * - a `mount` follows in the same task (React StrictMode's simulated unmount, a DOM move): the
   *   same controller goes on, with its iframe and its session;
   * - it has `keepAlive`: it is parked (see `keepAlive`), for the next component with its name;
   * - its container stays in the document, not rendered (React's `<Activity mode="hidden">`,
   *   Next.js routes with `cacheComponents`): hidden is not gone; the embed stays, for the next
   *   `mount`, and is destroyed once its container really leaves the document. Its frame waits in
   *   the page's lot meanwhile where the browser can move it keeping its document (`moveBefore`):
   *   a framework may move a hidden container, which would reload a frame inside.
   *
   * Call it when the component is hidden or gone, not before each update: where the browser can
   * move a frame, it leaves its container at once, and the next `mount` moves it back.
   */
  unmount(): void;
  /** Runs `action` on the controller now, or as soon as it is created (an element's methods before it is connected). */
  act(action: (handle: EmbedHandle<S>) => void): void;
  /**
   * The framework is about to move the container out of the document and back later (Vue's
   * `<KeepAlive>`, Angular's route reuse): the embed moves aside now, with its document where the
   * browser can (`moveBefore`), and back into the container at the next `mount`.
   */
  detach(): void;
}

// The component's options go to the core as they are (the core checks them): one untyped boundary.
type Untyped = (options: object) => void;

// A container still in the document under `display: none` (what React's <Activity mode="hidden">
// and Next.js routes with cacheComponents do to a route left): hidden, not gone.
const hidden = (box: HTMLElement) => {
  for (let node: HTMLElement | null = box; node; node = node.parentElement)
    if (getComputedStyle(node).display == 'none') return box.isConnected;
  return false;
};

// Calls `gone` once `box` leaves the document; returns the watch, to stop it.
const whenGone = (box: HTMLElement, gone: () => void) => {
  const watcher = new MutationObserver(() => box.isConnected || (watcher.disconnect(), gone()));
  watcher.observe(document, { childList: true, subtree: true });
  return watcher;
};

/** Creates the {@link EmbedBinding} of one component. Used by `@platform-embed/react`, `vue`, `element` and `angular`. */
export function createBinding<S extends Surface = Surface>(): EmbedBinding<S> {
  // The current controller; after unmount the destroyed one, whose state the binding reports.
  let handle: EmbedHandle<S> | null = null;
  let keys: string[] = [];
  let leaving = 0;
  let container: HTMLElement | undefined;
  // Watches a hidden container for its real removal.
  let watcher: MutationObserver | undefined;
  const early: ((handle: EmbedHandle<S>) => void)[] = [];
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  const live = () => (handle?.getState().status == 'destroyed' ? null : handle);
  const drop = () => {
    handle?.destroy();
    keys = [];
  };
  return {
    get handle() {
      return live();
    },
    getState: () => handle?.getState() ?? IDLE,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    mount(box, { surface, ...options }) {
      leaving++;
      watcher?.disconnect();
      container = box;
      const next: Record<string, unknown> = { ...options, container: box };
      // An option the component no longer passes is removed, as if set to undefined.
      for (const key of keys) if (!(key in next)) next[key] = undefined;
      if (live()?.surface != surface) drop();
      const current = live();
      if (current) (current.update as Untyped)(next);
      else {
        // (Adopts the embed parked under the same keep-alive name, if there is one.)
        handle = (createEmbed as (surface: S, options: object) => EmbedHandle<S>)(surface, next);
        handle.subscribe(notify);
        early.splice(0).forEach((action) => action(handle!));
        notify();
      }
      keys = Object.keys(next);
      return handle!;
    },
    unmount() {
      const at = ++leaving;
      const current = live();
      const keeper = current && keepers.get(current)!;
      // keepAlive: parked now, while its iframe is still in the document (a framework removes
      // the container right after this call; a mount in the same task takes it back).
      const parked = !!keeper && keeper.park();
      // Else it steps aside now too: a framework may hide the container and move it in the same
      // task (React reorders the <Activity> routes Next.js keeps, moving a hidden one's DOM),
      // which reloads a frame left in it. The next mount brings it back.
      if (!parked) keeper?.aside();
      queueMicrotask(() => {
        // A mount in the same task bumps `leaving`: the unmount was undone.
        if (at != leaving) return;
        // The lot has it now: this component lets go.
        if (parked) return void ((handle = null), (keys = []));
        if (!container || !hidden(container)) return drop();
        // Hidden, not gone: the embed stays until shown again, or destroyed once its container really leaves the document.
        watcher = whenGone(container, () => at == leaving && drop());
      });
    },
    act(action) {
      const current = live();
      if (current) action(current);
      else early.push(action);
    },
    detach() {
      const current = live();
      if (current) keepers.get(current)!.stow();
    },
  };
}
