/*
 * The page's parking lot: embeds kept alive while nothing shows them (`keepAlive`), and
 * preloaded ones. A parked iframe sits in a slot of one page-level container (off-screen, the
 * size it had, inert and hidden from assistive technology), moved there with `moveBefore`, which
 * keeps its document: its session, its state and its listener. The next embed with the same
 * name adopts it. The lot is bounded: at most `max` embeds are parked (the least recently
 * parked one is destroyed first), each for at most `idle` ms (an iframe costs memory).
 *
 * Without `moveBefore` (Safari today) an iframe cannot change place without reloading: the
 * embed is parked cold, its controller, host state and handlers kept, its frame dropped, and
 * adopting it loads a new frame with a fresh session and the whole kept state.
 */

import { toOrigin } from './origin';

/** The bounds of the parking lot. Change them with {@link configureParking}. */
export interface ParkingLimits {
  /** How many embeds may be parked at once; parking one more destroys the least recently parked. @default 3 */
  max: number;
  /** Milliseconds a parked embed waits for a component to adopt it before it is destroyed. @default 300000 (5 minutes) */
  idle: number;
}

const limits: ParkingLimits = { max: 3, idle: 300000 };

/**
 * Sets the bounds of the page's parking lot (for embeds kept alive with `keepAlive` and
 * preloaded ones). A lower `max` destroys the least recently parked embeds over it at once;
 * `idle` applies from the next embed parked.
 * @example
 * ```ts
 * configureParking({ max: 5, idle: 10 * 60_000 });
 * ```
 */
export const configureParking = (next: Partial<ParkingLimits>): void => {
  Object.assign(limits, next);
  evict();
};

/** What the lot needs of a parked embed (its handle). */
interface Parkable {
  readonly surface: string;
  readonly iframe: HTMLIFrameElement | null;
  getState(): { status: string };
  update(options: object): void;
  destroy(): void;
}

/**
 * The name an embed is kept alive under: `keepAlive` when it is a string, else (`true`) what is
 * embedded: the surface, the tenant origin and the dashboard or deployment.
 */
export const keepAliveName = (surface: string, options: Record<string, unknown>): string | undefined =>
  options.keepAlive === true
    ? [surface, toOrigin(options.baseUrl), options.publicId ?? options.deploymentId].join(' ')
    : (options.keepAlive as string) || undefined;

// Parked embeds by name; insertion order is parking order.
const parked = new Map<string, { embed: Parkable; timer: ReturnType<typeof setTimeout> }>();
let lot: HTMLElement | undefined;

/** Whether this browser moves a node without reloading it (`Element.prototype.moveBefore`). */
export const canMove = (): boolean => typeof Element != 'undefined' && 'moveBefore' in Element.prototype;

/** Moves `node` into `parent` keeping its state: with `moveBefore`, which the caller checked. */
export const move = (parent: Element, node: Element): void =>
  (parent as Element & { moveBefore(node: Node, child: Node | null): void }).moveBefore(node, null);

/** A new slot in the lot, `width` × `height` CSS pixels (0: the viewport's). */
export function slot(width: number, height: number): HTMLElement {
  if (!lot?.isConnected) {
    lot = document.createElement('div');
    lot.setAttribute('aria-hidden', 'true');
    lot.setAttribute('inert', '');
    lot.style.cssText = 'position:fixed;left:-200vw;top:0;pointer-events:none';
    document.body.append(lot);
  }
  const place = document.createElement('div');
  place.style.cssText = `width:${width ? width + 'px' : '100vw'};height:${height ? height + 'px' : '100vh'}`;
  lot.append(place);
  return place;
}

/** Parks `embed` (already in its slot) under `name`, until it is adopted, evicted or idle too long. */
export function park(name: string, embed: Parkable): void {
  parked.set(name, { embed, timer: setTimeout(() => embed.destroy(), limits.idle) });
  evict();
}

// Destroys the least recently parked embeds over the limit (each leaves the lot as it goes).
const evict = () => {
  for (const [, oldest] of parked) if (parked.size > limits.max) oldest.embed.destroy();
};

/** Takes the embed parked under `name` out of the lot (for adoption, or because it is destroyed). */
export function unpark(name: string | undefined, embed?: Parkable): Parkable | undefined {
  const entry = name === undefined ? undefined : parked.get(name);
  if (!entry || (embed && entry.embed != embed)) return;
  parked.delete(name!);
  clearTimeout(entry.timer);
  return entry.embed;
}

/** What a controller offers the bindings (core-internal): see `EmbedBinding.unmount` and `EmbedBinding.detach`. */
export interface Keeper {
  /** Parks the embed under its keep-alive name (`place`: the slot it is in already). @returns whether it has one (then it is parked). */
  park(place?: HTMLElement): boolean;
  /** Moves the embed out of its container into a slot of the lot, for its next container. */
  stow(): void;
  /**
   * Where the browser keeps a moved frame's document: moves the embed's frame (or where a frame
   * still to come mounts) into the lot now, before a framework removes its container (`park`
   * follows with a keep-alive name) or hides and moves it (React reorders the `<Activity>` routes
   * Next.js keeps: a frame left inside would load again); else nothing. Changes no state, so an
   * unmount a mount undoes in the same task changes nothing.
   */
  aside(): void;
}
/** Each live controller's {@link Keeper}. */
export const keepers = /* @__PURE__ */ new WeakMap<object, Keeper>();

/**
 * The embed parked under the keep-alive name of these options, if any, adopted: out of the lot,
 * its options updated (a new container is where its iframe moves).
 */
export function adopt(surface: string, options: Record<string, unknown>): Parkable | undefined {
  const embed = unpark(keepAliveName(surface, options));
  if (!embed) return;
  // The name now means another surface: the new embed takes it.
  if (embed.surface != surface) {
    embed.destroy();
    return;
  }
  try {
    embed.update(options);
  } catch (e) {
    embed.destroy();
    throw e;
  }
  return embed;
}

/** The embed parked under `name`, still parked (a second preload of it). */
export const parkedUnder = (name: string | undefined): Parkable | undefined => parked.get(name!)?.embed;

/** What a keeper needs of its controller. */
export interface Kept {
  /** The embed's handle: what the lot holds and an adopter gets. */
  readonly handle: Parkable;
  /** The controller's options (`keepAlive`). */
  options(): Record<string, unknown>;
  /** Where the embed is now. */
  container(): HTMLElement;
  /** Moves the embed's place (its `container` option and where a frame mounts), with other options changed. */
  place(box: HTMLElement, options?: Record<string, unknown>): void;
  /** Ends the current load and drops its frame: loaded again where it is shown next. */
  cold(): void;
}

/**
 * The keeping of one controller: `stow` moves it out of its container into a slot of the lot,
 * with its frame where the browser can move it (a frame still to come mounts there), else cold;
 * `park` also registers it under its keep-alive name; `shown` takes it out of the lot when its
 * options place it somewhere else.
 * @param handlerless the options that take the gone component's handlers away (`on()` subscribers stay)
 */
export function createKeeper(embed: Kept, handlerless: Record<string, unknown>) {
  let stowedIn: HTMLElement | undefined;
  let parkedAs: string | undefined;
  const stow = (place?: HTMLElement) => {
    if (stowedIn) return;
    const { iframe } = embed.handle;
    const { width, height } = embed.container().getBoundingClientRect();
    embed.place((stowedIn = place ?? slot(width, height)));
    // (A frame a framework has already taken out of the document has lost its document: cold.)
    if (iframe?.isConnected && canMove()) move(stowedIn, iframe);
    else if (iframe || embed.handle.getState().status == 'idle' || !canMove()) embed.cold();
  };
  return {
    stow,
    // (Not a lazy embed not yet seen: it has no frame, and stowing would change its state. Not a
    // frame already out of the document: it has lost its document.)
    aside() {
      const { iframe } = embed.handle;
      if (canMove() && embed.handle.getState().status != 'idle' && iframe?.isConnected != false) stow();
    },
    park(place?: HTMLElement): boolean {
      const name = keepAliveName(embed.handle.surface, embed.options());
      if (!name || parkedAs) return !!parkedAs;
      stow(place);
      embed.place(stowedIn!, handlerless);
      park((parkedAs = name), embed.handle);
      return true;
    },
    /** Whether it is parked. */
    parked: () => !!parkedAs,
    /** Placed in `box`: out of the lot unless that is its slot. */
    shown(box: HTMLElement) {
      if (!stowedIn || box == stowedIn) return;
      stowedIn.remove();
      parkedAs = stowedIn = void unpark(parkedAs, embed.handle);
    },
    /** Destroyed: out of the lot, its slot gone. */
    leave() {
      unpark(parkedAs, embed.handle);
      stowedIn?.remove();
    },
  };
}

/** How many embeds are parked (for leak tests). */
export const parkedCount = (): number => parked.size;
