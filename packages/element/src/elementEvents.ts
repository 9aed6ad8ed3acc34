import type { EmbedState, EventMap, EventMessage, EventName } from '@platform-embed/core';

/** Prefix of every DOM event an element dispatches (`platform-ready`, ...); no native event starts with it. */
export const ELEMENT_EVENT_PREFIX = 'platform-';

/** The DOM event dispatched after every state change of an element, with the {@link EmbedState} in `detail`. */
export const STATE_CHANGE_EVENT = 'platform-statechange';

/**
 * A protocol event re-dispatched by an element as a DOM `CustomEvent` named `platform-<event>`:
 * the payload in `detail`, the whole validated envelope (with `surface` and `timestamp`) in `message`.
 * It bubbles, so a container can listen for the events of every embed inside it.
 */
export interface PlatformEvent<K extends EventName = EventName> extends CustomEvent<EventMap[K]> {
  /** The envelope the payload came in. */
  readonly message: EventMessage<K>;
}

/** The DOM event name of a protocol event: `platform-ready`, `platform-drilldown`, ... */
export type ElementEventName<K extends EventName = EventName> = `${typeof ELEMENT_EVENT_PREFIX}${K}`;

/**
 * Every DOM event the elements dispatch, derived from the core's event catalog, plus
 * `platform-statechange`.
 * @example
 * ```ts
 * el.addEventListener('platform-drilldown', (e) => console.log(e.detail.member, e.message.surface));
 * ```
 */
export type PlatformElementEventMap = { [K in EventName as ElementEventName<K>]: PlatformEvent<K> } & {
  'platform-statechange': CustomEvent<EmbedState>;
};

declare global {
  // The events bubble, so every element may hear them: `el.addEventListener('platform-drilldown', (e) => e.detail.member)` is typed.
  interface HTMLElementEventMap extends PlatformElementEventMap {}
  interface DocumentEventMap extends PlatformElementEventMap {}
}
