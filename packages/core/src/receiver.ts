import type { createHandlers } from './handlers';
import type { Receiver } from './listener';
import { EVENT_PREFIX } from './catalog';
import { parseMessage, type EventMessage, type EventName } from './protocol';

/*
 * The receiver of one embed's messages. listener.ts routes here only those whose `event.source`
 * is this embed's iframe window; the receiver checks their origin with `===` (a frame navigated
 * away posts from another one: its data is never read), validates the envelope and payload
 * (parseMessage), and only then hands each valid event of the catalog to the controller (what it
 * means to the embed's lifecycle: embed.ts), then every valid event to the host's handlers.
 */

/** What the controller does with each valid event of the catalog, before the host's handlers see it. */
export type Reaction = (name: EventName, payload: Record<string, unknown>, message: EventMessage) => void;

/** Creates the receiver of one embed. */
export function createReceiver(
  origin: () => string,
  { log, diagnose, emit }: ReturnType<typeof createHandlers>,
  redact: (text: string) => string,
  react: Reaction,
): Receiver {
  return (event) => {
    if (event.origin !== origin()) return diagnose({ kind: 'origin-mismatch', origin: event.origin });
    const result = parseMessage(event.data);
    if (!result.ok) return diagnose({ kind: 'invalid-message', reason: redact(result.reason) });
    const { message } = result;
    const name = message.type.slice(EVENT_PREFIX.length);
    log('event', message.type);
    if (result.known) {
      react(name as EventName, message.payload, result.message);
      emit(name, [message.payload, message]);
    }
    emit('*', [message]);
  };
}
