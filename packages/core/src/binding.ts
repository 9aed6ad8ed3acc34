import { createEmbed, type EmbedHandle } from './embed';
import type { EmbedBindingOptions } from './embedOptions';
import type { Surface } from './catalog';
import { EmbedError, PREFIX } from './errors';
import { reportError } from './handlers';
import type { Unsubscribe } from './registry';
import { aside, hide, keepAliveName, keepers, park, stow } from './parking';
import { IDLE, type EmbedState } from './status';
import { whenGone } from './whenGone';

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
   * replaces it. Never throws: a mistake costs the embed, never the component's app. Options
   * that cannot create a controller put the binding in `error` (`invalid-option`, with no
   * controller) until options that can; options a live controller refuses are not applied (it
   * goes on with its last valid ones). Either is reported once (the same mistake again, as a
   * framework passes the same options on every render, is not): to `options.onError` as an
   * `error` event of the SDK, or without one to the console (see `reportError`).
   * @param refused a mistake the binding found itself (an element's attribute), refused as the core refuses options
   * @returns the controller, or `null` when the options could not create one
   */
  mount(container: HTMLElement, options: EmbedBindingOptions<S>, refused?: EmbedError): EmbedHandle<S> | null;
  /**
   * The component is gone, or hidden: destroys the controller, unless
   * - a `mount` follows in the same task (React StrictMode's simulated unmount, a DOM move): the
   *   same controller goes on, with its iframe and its session;
   * - it has `keepAlive`: it is parked (see `keepAlive`), for the next component with its name;
   * - its container stays in the document, not rendered (React's `<Activity mode="hidden">`,
   *   Next.js routes with `cacheComponents`): hidden is not gone; the embed stays as it is, for
   *   the next `mount`, and is destroyed once its container really leaves the document.
   *
   * Where the browser can move a frame keeping its document (`moveBefore`), the frame leaves its
   * container at once, into the page's lot, and the next `mount` moves it back: call it when the
   * component is hidden or gone, not before each update.
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

// A host's handler, whose throw stays the host's (reported, never thrown into its framework).
const callHost = (fn: Function, args: unknown[]) => {
  try {
    fn(...args);
  } catch (error) {
    console.error('[platform-embed] handler threw', error);
  }
};

// The component's options go to the core as they are (the core checks them): one untyped boundary.
type Untyped = (options: object) => void;

// A container still in the document under `display: none` (what React's <Activity mode="hidden">
// and Next.js routes with cacheComponents do to a route left): hidden, not gone.
const hidden = (box: HTMLElement) => {
  for (let node: HTMLElement | null = box; node; node = node.parentElement)
    if (getComputedStyle(node).display == 'none') return box.isConnected;
  return false;
};

// An option the component no longer passes (one of `keys`, the last options' names) is removed, as if set to undefined.
const withRemoved = (next: Record<string, unknown>, keys: string[]) => {
  for (const key of keys) if (!(key in next)) next[key] = undefined;
  return next;
};

// A container out of the document (a component Vue's <KeepAlive> deactivated, rendered again):
// the options apply where the embed is, which a move there would unload; it comes back into its
// container at the mount that finds it in the document.
const updateWhereItIs = (current: EmbedHandle, box: HTMLElement, next: Record<string, unknown>) => {
  if (!box.isConnected) delete next.container;
  (current.update as Untyped)(next);
};

// Unmounts of keep-alive embeds waiting for their microtask to stand, by keep-alive name. A mount
// that creates an embed of that name lets them stand first: one unmounted in the same task (a key
// change, a list or route swap, an element replaced) is then parked, and adopted, not minted again.
const standing = new Map<() => void, string>();

/**
 * Creates the {@link EmbedBinding} of one component. Used by `@platform-embed/react`, `vue`, `element` and `angular`.
 * @param words puts a refusal's message in the words the host wrote (an element's attribute names for the option names)
 */
export function createBinding<S extends Surface = Surface>(words?: (message: string) => string): EmbedBinding<S> {
  // The current controller; after unmount the destroyed one, whose state the binding reports.
  let handle: EmbedHandle<S> | null = null;
  let keys: string[] = [];
  let leaving = 0;
  // The keep-alive name of the last options that mounted.
  let named: string | undefined;
  let container: HTMLElement | undefined;
  // Stops the watch of a hidden container for its real removal.
  let unwatch: (() => void) | undefined;
  // Stops this binding hearing of its controller: when the lot takes it (the next binding subscribes).
  let unhear: Unsubscribe | undefined;
  // The `error` state of options that could not create a controller, until options that can.
  let failed: EmbedState | undefined;
  // The last refusal reported: the same one again is not.
  let reported: string | undefined;
  const early: ((handle: EmbedHandle<S>) => void)[] = [];
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  const live = () => (handle?.getState().status == 'destroyed' ? null : handle);
  const drop = () => (handle?.destroy(), (keys = []));
  return {
    get handle() {
      return live();
    },
    getState: () => failed ?? handle?.getState() ?? IDLE,
    subscribe: (listener) => (listeners.add(listener), () => void listeners.delete(listener)),
    mount(box, { surface, ...options }, refused) {
      leaving++;
      unwatch?.();
      container = box;
      // `null` (what Angular's `| async` gives first, a prop read from an API) is not set, as
      // `undefined`; on what the surface requires, not known yet: no embed (a live one goes) until it comes.
      const given = options as Record<string, unknown>;
      let waits: unknown;
      for (const key in given)
        if (given[key] === null) {
          waits ||= /^(.+baseUrl|dashboardpublicId|app(deploymentId|session))$/.test(surface + key);
          delete given[key];
        }
      if (waits) return (drop(), (handle = null), (failed = undefined), notify(), null);
      const next = withRemoved({ ...options, container: box }, keys);
      if (live()?.surface != surface) drop();
      const current = live();
      try {
        if (refused) throw refused;
        if (current) updateWhereItIs(current, box, next);
        else {
          const name = keepAliveName(surface, next);
          standing.forEach((other, stand) => other == name && stand());
          // (Adopts the embed parked under the same keep-alive name, if there is one.)
          handle = (createEmbed as (surface: S, options: object) => EmbedHandle<S>)(surface, next);
          failed = undefined;
          unhear = handle.subscribe(notify);
          early.splice(0).forEach((action) => action(handle!));
          notify();
        }
        keys = Object.keys(next);
        named = keepAliveName(surface, next);
        reported = undefined;
      } catch (thrown) {
        // A mistake in the options never reaches the framework (a throw in its rendering or an
        // effect takes the host's whole app down): it costs the embed, in the host's words.
        let error = thrown instanceof EmbedError ? thrown : new EmbedError('invalid-option', String(thrown), { cause: thrown });
        if (words) error = new EmbedError(error.code, words(error.message.slice(PREFIX.length)));
        if (error.message != reported) {
          reported = error.message;
          if (!current) {
            failed = { status: 'error', error, ready: null };
            notify();
          }
          const onError = next.onError as Function | undefined;
          reportError(error, !current, surface, (args) => onError && (callHost(onError, args), 1));
        }
      }
      return live();
    },
    unmount() {
      const at = ++leaving;
      // Its frame moves into the lot now, while it is still in the document: a framework removes
      // the container right after this call (keepAlive), or hides it and may move it (hidden is
      // not gone), either of which reloads a frame left inside; a mount in the same task moves it
      // back. Parking waits for the unmount to stand (see parking.ts's aside).
      aside(keepers.get(live()!));
      let stood = 0;
      const stand = () => {
        standing.delete(stand);
        // Once (a mount may have let it stand already); a mount in the same task bumps `leaving`: the unmount was undone.
        if (stood++ || at != leaving) return;
        // Parked: the lot has it now, this component lets go.
        if (park(keepers.get(live()!))) return void (unhear!(), (handle = null), (keys = []));
        if (!container || !hidden(container)) return drop();
        // Hidden, not gone: the embed stays as it is until shown again, or destroyed once its
        // container really leaves the document. (Out of sight meanwhile: releaseEmbeds() destroys it.)
        hide(keepers.get(live()!));
        unwatch = whenGone(container, () => at == leaving && drop());
      };
      if (named) standing.set(stand, named);
      queueMicrotask(stand);
    },
    act(action) {
      const current = live();
      if (current) action(current);
      else early.push(action);
    },
    detach: () => stow(keepers.get(live()!)),
  };
}
