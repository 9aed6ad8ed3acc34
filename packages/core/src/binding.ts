import { createEmbed, type EmbedHandle } from './embed';
import type { EmbedBindingOptions } from './embedOptions';
import type { Surface } from './protocol';
import type { Unsubscribe } from './registry';
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
   * Destroys the controller, unless a `mount` follows in the same task: React StrictMode's
   * simulated unmount and a DOM move keep the same controller, its iframe and its session.
   */
  unmount(): void;
  /** Runs `action` on the controller now, or as soon as it is created (an element's methods before it is connected). */
  act(action: (handle: EmbedHandle<S>) => void): void;
}

// The component's options go to the core as they are (the core checks them): one untyped boundary.
type Untyped = (options: object) => void;

/** Creates the {@link EmbedBinding} of one component. Used by `@platform-embed/react`, `vue` and `element`. */
export function createBinding<S extends Surface = Surface>(): EmbedBinding<S> {
  // The current controller; after unmount the destroyed one, whose state the binding reports.
  let handle: EmbedHandle<S> | null = null;
  let keys: string[] = [];
  let leaving = 0;
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
    mount(container, { surface, ...options }) {
      leaving++;
      const next: Record<string, unknown> = { ...options, container };
      // An option the component no longer passes is removed, as if set to undefined.
      for (const key of keys) if (!(key in next)) next[key] = undefined;
      if (live()?.surface != surface) drop();
      const current = live();
      if (current) (current.update as Untyped)(next);
      else {
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
      // A mount in the same task bumps `leaving`: the unmount was undone.
      queueMicrotask(() => at == leaving && drop());
    },
    act(action) {
      const current = live();
      if (current) action(current);
      else early.push(action);
    },
  };
}
