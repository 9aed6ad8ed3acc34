/*
 * The page's parking lot: embeds kept alive while nothing shows them (`keepAlive`), and
 * preloaded ones. A parked iframe sits in a slot of one page-level container (off-screen, the
 * size it had, inert and hidden from assistive technology), moved there with `moveBefore`, which
 * keeps its document: its session, its state and its listener. The next embed with the same
 * name, for the same viewer, adopts it. The lot is bounded: at most `max` embeds are parked (the
 * least recently parked one is destroyed first), each for at most `idle` ms (an iframe costs
 * memory); several embeds may share a name, each counted. `releaseEmbeds()` destroys every embed
 * out of sight, in every copy of the SDK on the page (sign-out).
 *
 * Parked means quiet and contained: a frame whose slot leaves the document (the page replaced
 * its body) has lost its document and is parked cold; a parked frame that takes the focus gives
 * it back.
 *
 * Without `moveBefore` (Safari today) an iframe cannot change place without reloading: the
 * embed is parked cold, its controller, host state and handlers kept, its frame dropped, and
 * adopting it loads a new frame with a fresh session and the whole kept state.
 */

import type { Controller } from './context';
import { EmbedError } from './errors';
import { toOrigin } from './origin';
import { EVENT_PROPS } from './protocol';
import { whenGone } from './whenGone';

/** The bounds of the parking lot. Change them with {@link configureParking}. */
export interface ParkingLimits {
  /** How many embeds may be parked at once (a whole number); parking one more destroys the least recently parked. @default 3 */
  max: number;
  /**
   * Milliseconds a parked embed waits for a component to adopt it before it is destroyed; at most
   * 2^31-1 (about 24.8 days, the longest a browser timer waits): a longer one, `Infinity` included, is that.
   * @default 300000 (5 minutes)
   */
  idle: number;
}

const limits: ParkingLimits = { max: 3, idle: 300000 };

// Refused in every build: a limit that cannot be used would destroy parked embeds at once, or never.
const refuse = (field: string, rule: string, value: unknown) =>
  new EmbedError(
    'invalid-option',
    __DEV__ ? `configureParking: ${field} must be ${rule} (got ${typeof value == 'number' ? value : typeof value})` : field,
  );

/**
 * Sets the bounds of the page's parking lot (for embeds kept alive with `keepAlive` and
 * preloaded ones). A lower `max` destroys the least recently parked embeds over it at once;
 * `idle` applies from the next embed parked. A limit left out (or `undefined`) keeps its value.
 * @throws {EmbedError} `invalid-option` naming the field: `max` not a whole number >= 0, `idle` not a number >= 0 (changes nothing).
 * @example
 * ```ts
 * configureParking({ max: 5, idle: 10 * 60_000 });
 * ```
 */
export const configureParking = ({ max = limits.max, idle = limits.idle }: Partial<ParkingLimits> = {}): void => {
  if (!Number.isInteger(max) || max < 0) throw refuse('max', 'a whole number >= 0', max);
  if (typeof idle != 'number' || !(idle >= 0)) throw refuse('idle', 'a number of milliseconds >= 0', idle);
  limits.max = max;
  limits.idle = Math.min(idle, 2 ** 31 - 1);
  evict();
};

/**
 * The name an embed is kept alive under: `keepAlive` when it is a string, else (`true`) what is
 * embedded: the surface, the tenant origin and the dashboard or deployment; with the `viewer`,
 * so that only the same viewer's embed adopts it.
 */
export const keepAliveName = (surface: string, options: Record<string, unknown>): string | undefined => {
  const { keepAlive, viewer } = options;
  const name = keepAlive === true ? [surface, toOrigin(options.baseUrl), options.publicId ?? options.deploymentId].join(' ') : keepAlive;
  // Only strings: as JSON an object of getters, a Map or a function is every viewer's (and a
  // BigInt or a cycle throws). Such a viewer (refused in development) keeps nothing alive.
  return name && typeof name == 'string' && (viewer === undefined || typeof viewer == 'string')
    ? JSON.stringify([name, viewer])
    : undefined;
};

/** Whether this browser moves a node without reloading it (`Element.prototype.moveBefore`). */
export const canMove = (): boolean => typeof Element != 'undefined' && 'moveBefore' in Element.prototype;

/** Moves `node` into `parent` keeping its state: with `moveBefore`, which the caller checked. */
export const move = (parent: Element, node: Element): void =>
  (parent as Element & { moveBefore(node: Node, child: Node | null): void }).moveBefore(node, null);

// Every live controller's keeping, shown or not: preload() finds a live embed by its name, releaseEmbeds() those out of sight.
const live = new Set<Keeping>();
// The parked ones, in parking order, each with its idle timer.
const parked = new Map<Keeping, ReturnType<typeof setTimeout>>();
let lot: HTMLElement | undefined;
// The slots in use: while there is one, a frame in the lot that takes the focus gives it back.
let slots = 0;

/*
 * Focus: `inert` keeps the host's focus out of the lot, but not a frame's own `focus()`, and an
 * invisible frame must never take the viewer's keystrokes. The host element that lost the focus
 * (a blur: a window-level capture sees every one) gets it back, else the frame is blurred; while
 * the focus is inside a frame (the window blurred), where a move from frame to frame makes no
 * event in the host, a check runs every CHECK_FOCUS ms.
 */
const CHECK_FOCUS = 250;
let blurred: HTMLElement | undefined;
let checking: ReturnType<typeof setInterval> | undefined;
const giveBack = () => {
  const active = document.activeElement as HTMLElement | null;
  if (lot?.contains(active)) {
    if (blurred?.isConnected) blurred.focus();
    else active!.blur();
  }
  blurred = undefined;
};
const guard = (event: Event) => {
  if (event.target != window) blurred = event.target as HTMLElement;
  else if (event.type == 'focus') checking = void clearInterval(checking);
  else checking ??= setInterval(giveBack, CHECK_FOCUS);
  setTimeout(giveBack);
};
const listenFocus = (on: boolean) => {
  const listen = on ? addEventListener : removeEventListener;
  listen('blur', guard, true);
  listen('focus', guard, true);
  if (!on) checking = void clearInterval(checking);
};

/** A new slot in the lot, `width` × `height` CSS pixels (0: the viewport's). Give it back with {@link unslot}. */
export function slot(width: number, height: number): HTMLElement {
  if (!lot?.isConnected) {
    lot = document.createElement('div');
    lot.setAttribute('data-platform-lot', '');
    lot.setAttribute('aria-hidden', 'true');
    lot.setAttribute('inert', '');
    lot.style.cssText = 'position:fixed;left:-200vw;top:0;pointer-events:none';
    // (No body yet: a preload from a script in <head>.)
    (document.body ?? document.documentElement).append(lot);
  }
  if (!slots++) listenFocus(true);
  const place = document.createElement('div');
  place.style.cssText = `width:${width ? width + 'px' : '100vw'};height:${height ? height + 'px' : '100vh'}`;
  lot.append(place);
  return place;
}

/** Removes a slot of {@link slot}. */
export const unslot = (place: HTMLElement): void => {
  place.remove();
  if (!--slots) listenFocus(false);
};

// Destroys the least recently parked embeds over the limit (each leaves the lot as it goes).
const evict = () => {
  for (const [keeping] of parked) if (parked.size > limits.max) keeping._destroy();
};

const unpark = (keeping: Keeping) => {
  clearTimeout(parked.get(keeping));
  parked.delete(keeping);
};

/*
 * Sign-out: every copy of the SDK on the page (an npm bundle beside the script tag, a
 * micro-frontend's) listens for this window event while it has embeds, so one call reaches all.
 */
const RELEASE = 'platform-embed:release';
const release = () => live.forEach((keeping) => keeping._away() && keeping._destroy());

/**
 * Destroys every embed of the page that nothing shows: parked (`keepAlive`), preloaded, and those
 * of hidden components (React's `<Activity>`, Vue's `<KeepAlive>`; such a component loads a new
 * embed when shown again), in every copy of the SDK on the page. Call it when the viewer signs
 * out, so that nothing of theirs reaches the next viewer. Embeds on screen stay: their components
 * go with the signed-out pages (or pass them the next `viewer`).
 * @example
 * ```ts
 * async function signOut() {
 *   await fetch('/api/sign-out', { method: 'POST' });
 *   releaseEmbeds();
 * }
 * ```
 */
export const releaseEmbeds = (): void => void (typeof window != 'undefined' && dispatchEvent(new Event(RELEASE)));

/** Each live controller's keeping (see {@link createKeeper}): what the bindings and `preload()` hand {@link park}, {@link stow}, {@link aside} and {@link hide}. */
export const keepers = /* @__PURE__ */ new WeakMap<object, Keeping>();

/**
 * The embed parked under the keep-alive name of these options (its surface's, the same viewer's),
 * if any, adopted: out of the lot, its options updated (a new container is where its iframe moves),
 * and an adopter's `onReady` hears a `ready` it missed.
 * @returns its handle
 */
const adopt = (surface: string, options: Record<string, unknown>): object | undefined => {
  const name = keepAliveName(surface, options);
  for (const [keeping] of parked)
    if (keeping._parkedAs == name && keeping._surface == surface) {
      try {
        keeping._update(options);
        keeping._readyAgain();
      } catch (e) {
        keeping._destroy();
        throw e;
      }
      return keeping._handle;
    }
};

/**
 * {@link adopt}, once an embed was parked (none can be adopted before): {@link park} installs it, so
 * a bundle that never parks (`embedDashboard` alone) leaves it out.
 */
export let adopter: typeof adopt | undefined;

/** The handle of the live embed of `surface` (shown or parked) kept alive under `name`, if any. */
export const liveUnder = (surface: string, name: string | undefined): object | undefined => {
  for (const keeping of live)
    if (name && (keeping._parkedAs ?? keepAliveName(keeping._surface, keeping._options)) == name && keeping._surface == surface)
      return keeping._handle;
};

/**
 * The handler options, all unset: a parked embed's component is gone, so are its handlers (`on()`
 * subscribers stay, and so do `onDiagnostic` and `debug`: what a parked embed notices is still reported).
 */
// (Made when a park asks: as a constant, a bundle that never parks kept the list it is made from.)
const noHandlers = () => Object.fromEntries([...EVENT_PROPS.values(), 'onEvent'].map((prop) => [prop, undefined]));

/** What the keeping of one controller reads and changes of its context. */
type Keeping = Pick<
  Controller,
  | '_surface'
  | '_options'
  | '_container'
  | '_frame'
  | '_status'
  | '_end'
  | '_removeFrame'
  | '_update'
  | '_readyAgain'
  | '_destroy'
  | '_handle'
  | '_stowedIn'
  | '_unstow'
  | '_parkedAs'
  | '_hidden'
  | '_away'
  | '_shown'
  | '_leave'
>;

/**
 * Gives the controller its keeping: `_away`, `_shown` and `_leave`, over
 * the state `_stowedIn`, `_unstow`, `_parkedAs` and `_hidden`. The controller reads it and places
 * the embed; the bindings and `preload()` move it out of sight with {@link stow}, {@link park},
 * {@link aside} and {@link hide}, functions of this module rather than operations of the context,
 * so that a bundle without a binding or `preload()` (a host of `embedDashboard` alone, which can
 * never park) leaves them, the lot, its focus guard and the slots' watch out. Those functions and
 * `_update` are the only code that changes where the embed is (its `container` option), and they
 * alone drop its frame without an error (cold).
 */
export function createKeeper(c: Keeping): void {
  c._away = () => c._hidden || !!c._stowedIn;
  // Out of the lot and its slot.
  const unstow = () => {
    unpark(c);
    c._unstow?.();
    c._unstow = c._parkedAs = c._stowedIn = undefined;
  };
  c._shown = (box) => {
    c._hidden = false;
    if (box != c._stowedIn) unstow();
  };
  c._leave = () => {
    unstow();
    if (live.delete(c) && !live.size) removeEventListener(RELEASE, release);
  };
  if (!live.size) addEventListener(RELEASE, release);
  live.add(c);
}

// Where the embed is: its `container` option and where a frame mounts, with other options changed.
const setContainer = (c: Keeping, box: HTMLElement, extra?: Record<string, unknown>) => (
  (c._options = { ...c._options, ...extra, container: box }),
  (c._container = box)
);

// The current load ended and its frame dropped: loaded again where the embed is shown next.
const cold = (c: Keeping) => (c._end(), c._removeFrame(), c._status._is('idle') || c._status._set('idle'));

// Moves the embed out of its container into a slot of the lot (`place`: the slot it is in already),
// with its frame where the browser can move it (a frame still to come mounts there), else cold.
const stowIn = (c: Keeping, place?: HTMLElement) => {
  if (c._stowedIn) return;
  const iframe = c._frame?._iframe;
  const { width, height } = c._container.getBoundingClientRect();
  const box = (c._stowedIn = place ?? slot(width, height));
  setContainer(c, box);
  // A slot that leaves the document (the page replaced its body) takes the frame's document with it: cold.
  const unwatch = whenGone(box, () => cold(c));
  c._unstow = () => {
    unwatch();
    unslot(box);
  };
  // (A frame a framework has already taken out of the document has lost its document: cold.)
  if (iframe?.isConnected && canMove()) move(box, iframe);
  else if (iframe || c._status._is('idle') || !canMove()) cold(c);
};

/** Moves the embed out of its container into a slot of the lot, for its next container (a binding's `detach`). */
export const stow = (c: Keeping | undefined): void => void (c && stowIn(c));

/**
 * Where the browser keeps a moved frame's document: moves the embed's frame (or where a frame
 * still to come mounts) into the lot now, before a framework removes its container (`park`
 * follows with a keep-alive name) or hides and moves it (React reorders the `<Activity>` routes
 * Next.js keeps: a frame left inside would load again); else nothing. Changes no state, so an
 * unmount a mount undoes in the same task changes nothing.
 */
export const aside = (c: Keeping | undefined): void => {
  // (Not a lazy embed not yet seen: it has no frame, and stowing would change its state. Not a
  // frame already out of the document: it has lost its document.)
  if (c && canMove() && !c._status._is('idle') && c._frame?._iframe.isConnected != false) stowIn(c);
};

/** Its component is hidden (not gone): out of sight until its next update, as one in the lot is. */
export const hide = (c: Keeping | undefined): void => void (c && (c._hidden = true));

/**
 * Parks the embed under its keep-alive name (`place`: the slot it is in already).
 * @returns whether it has one (then it is parked)
 */
export const park = (c: Keeping | undefined, place?: HTMLElement): boolean => {
  if (!c) return false;
  const name = keepAliveName(c._surface, c._options);
  if (!name || c._parkedAs) return !!c._parkedAs;
  stowIn(c, place);
  setContainer(c, c._stowedIn!, noHandlers());
  c._parkedAs = name;
  parked.set(c, setTimeout(c._destroy, limits.idle));
  adopter = adopt;
  evict();
  return true;
};

/** How many embeds are parked or preloaded, in this copy of the SDK (for leak tests: `expectNothingParked()` of the testing kits checks every copy's). */
export const parkedCount = (): number => parked.size;
