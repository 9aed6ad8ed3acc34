import type { createHandlers } from './handlers';
import type { Receiver } from './listener';
import { EVENT_PREFIX, parseMessage, type EventMap, type EventMessage, type EventName } from './protocol';

/*
 * The receiver of one embed's messages. listener.ts routes here only those whose `event.source`
 * is this embed's iframe window; the receiver checks their origin with `===` (a frame navigated
 * away posts from another one: its data is never read), validates the envelope and payload
 * (parseMessage), and only then hands each event on: `ready`, a fatal `error` and the viewer's
 * place (`view`, `navigate`) to the controller, and every valid event to the host's handlers.
 */

/** What the controller does with the events that change it. */
export interface Reactions {
  /** The embed is ready (the kept state and the held actions go out first). */
  ready(message: EventMessage<'ready'>): void;
  /** The embed reported a fatal error (its message, from the platform). */
  fatal(message: string): void;
  /** The viewer is at `path` in the embed. */
  place(path: string): void;
}

/** Creates the receiver of one embed. */
export function createReceiver(
  origin: () => string,
  { log, diagnose, emit }: ReturnType<typeof createHandlers>,
  redact: (text: string) => string,
  react: Reactions,
): Receiver {
  return (event) => {
    if (event.origin !== origin()) return diagnose({ kind: 'origin-mismatch', origin: event.origin });
    const result = parseMessage(event.data);
    if (!result.ok) return diagnose({ kind: 'invalid-message', reason: redact(result.reason) });
    const { message } = result;
    const name = message.type.slice(EVENT_PREFIX.length);
    log('event', message.type);
    if (result.known) {
      const payload = message.payload as EventMap[EventName] & { path?: string; fatal?: boolean; message?: string };
      if (name == 'ready') react.ready(message as EventMessage<'ready'>);
      else if (name == 'error' && payload.fatal) react.fatal(payload.message!);
      else if (name == 'view' || name == 'navigate') react.place(payload.path!);
      emit(name, [payload, message]);
    }
    emit('*', [message]);
  };
}
