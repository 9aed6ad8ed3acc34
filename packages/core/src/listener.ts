/*
 * The one `message` listener of the page, shared by every embed. Messages are routed by
 * `event.source` through a Map, so routing costs the same with 1 or 50 embeds, and a
 * message whose source is not one of our live iframes is dropped without `event.data`
 * ever being read (reading it is what deserializes a possibly hostile payload).
 */

/** Receives the messages of one iframe, after its `event.source` matched. */
export type Receiver = (event: MessageEvent) => void;

const receivers = new Map<MessageEventSource, Receiver>();

function onMessage(event: MessageEvent): void {
  const receive = event.source && receivers.get(event.source);
  if (receive) receive(event);
}

/** Routes messages from `source` (an iframe's `contentWindow`) to `receive`. */
export function listen(source: Window, receive: Receiver): void {
  if (!receivers.size) window.addEventListener('message', onMessage);
  receivers.set(source, receive);
}

/** Stops routing `source`; removes the page listener when the last embed goes. */
export function unlisten(source: Window): void {
  if (receivers.delete(source) && !receivers.size) window.removeEventListener('message', onMessage);
}

/** How many iframes are routed right now (for leak tests and benchmarks). */
export const listenerCount = (): number => receivers.size;
