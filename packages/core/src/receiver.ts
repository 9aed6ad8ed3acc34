import { EVENT_PREFIX } from './catalog';
import type { Controller } from './context';
import { eventProblem, isEventName, type EventMessage } from './protocol';

/*
 * The receiver of one embed's messages. listener.ts routes here only those whose `event.source`
 * is this embed's iframe window; the receiver checks their origin with `===` (a frame navigated
 * away posts from another one: its data is never read), validates the envelope and payload
 * (eventProblem, what parseMessage checks), and only then hands each valid event of the catalog to the controller (what it
 * means to the embed's lifecycle: `_react`, embed.ts), then every valid event to the host's handlers.
 */

/** Gives the controller its receiver, `_receive`: messages checked against `_origin`, events to `_react`, then to `_emit`. */
export function createReceiver(c: Pick<Controller, '_origin' | '_diagnose' | '_redact' | '_log' | '_react' | '_emit' | '_receive'>): void {
  c._receive = (event) => {
    if (event.origin !== c._origin) return c._diagnose({ kind: 'origin-mismatch', origin: event.origin });
    const message = event.data as EventMessage;
    const reason = eventProblem(message);
    if (reason) return c._diagnose({ kind: 'invalid-message', reason: c._redact(reason) });
    const name = message.type.slice(EVENT_PREFIX.length);
    c._log('event', message.type);
    if (isEventName(name)) {
      c._react(name, message.payload, message);
      c._emit(name, [message.payload, message]);
    }
    c._emit('*', [message]);
  };
}
