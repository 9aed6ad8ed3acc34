import type { AnyOptions, Diagnostic } from './embedOptions';
import { EVENT_PREFIX, EVENT_SCHEMAS, SOURCE, type Surface } from './catalog';
import { EmbedError } from './errors';
import { eventProp, isEventName, shortName, type EventMessage, type EventName } from './protocol';
import { createRegistry, type Unsubscribe } from './registry';

/*
 * The host's handlers of one embed: the `on<Event>` options and those added with `on`/`once`
 * (the catch-all `'*'` included), called with (payload, message) or (message); `onDiagnostic`;
 * `debug` logging; and the report of a failure that put the embed in `error`. A host's bug stays the host's: a handler that throws is reported and
 * the others still run. `ready` is sticky: a handler added after it is called at once.
 */

const noop = () => {};

/**
 * Tells the host of an error of the SDK's own on an embed (a load failed for good, options it
 * refused): as the embed's `error` event, its payload `{ message, name: 'EmbedError', context:
 * <code>, fatal }` (`fatal`: the embed is in `error`), through `emit`, which calls the host's
 * error handlers and says whether there were any. None: written once to the console, in every
 * build (an error nobody hears is a mistake nobody finds).
 * @internal
 */
export const reportError = (error: EmbedError, fatal: boolean, surface: string, emit: (args: unknown[]) => unknown): void => {
  const payload = { message: error.message, name: error.name, context: error.code, fatal };
  if (!emit([payload, { source: SOURCE, direction: 'event', type: EVENT_PREFIX + 'error', payload, timestamp: Date.now(), surface }]))
    console.error(error);
};
// The handler option of each event of the catalog.
const PROPS = /* @__PURE__ */ new Map(Object.keys(EVENT_SCHEMAS).map((name) => [name, eventProp(name as EventName)]));
/**
 * The handler options, all unset: a parked embed's component is gone, so are its handlers (`on()`
 * subscribers stay, and so do `onDiagnostic` and `debug`: what a parked embed notices is still reported).
 */
export const NO_HANDLERS = /* @__PURE__ */ Object.fromEntries([...PROPS.values(), 'onEvent'].map((prop) => [prop, undefined]));

/** Creates the handlers of one embed, reading the handler options through `options`. */
export function createHandlers(options: () => AnyOptions) {
  // The current load's `ready` message, for late `ready` handlers.
  let readyMessage: EventMessage<'ready'> | undefined;
  const log = (...args: unknown[]) => {
    const { debug } = options();
    if (debug) (debug === true ? console.debug.bind(console, '[platform-embed]') : debug)(...args);
  };
  const diagnose = (diagnostic: Diagnostic) => {
    log(diagnostic.kind, diagnostic);
    try {
      if (options().onDiagnostic) return options().onDiagnostic!(diagnostic);
    } catch (error) {
      diagnostic = { kind: 'handler-error', type: 'onDiagnostic', error };
    }
    if (diagnostic.kind == 'handler-error') console.error('[platform-embed] handler threw', diagnostic.error);
  };
  const call = (fn: Function | undefined, type: string, args: unknown[]) => {
    try {
      fn?.(...args);
    } catch (error) {
      diagnose({ kind: 'handler-error', type, error });
    }
  };
  // Handlers get (payload, message) or, the catch-all, (message): the message is the last argument.
  const typeOf = (args: unknown[]) => (args.at(-1) as EventMessage).type;
  const events = createRegistry((fn, args) => call(fn, typeOf(args), args));
  const nameOf = (type: string) => (type == '*' ? type : shortName(type, EVENT_PREFIX));
  /** Calls the handlers of event `name` (`'*'`: the catch-all), then its handler option. */
  const emit = (name: string, args: unknown[]) => {
    events.emit(name, args);
    call(options()[name == '*' ? 'onEvent' : PROPS.get(name)!] as Function | undefined, typeOf(args), args);
  };

  return {
    log,
    diagnose,
    call,
    emit,
    /**
     * Reports the failure that put the embed in `error`: to the `error` handlers (`on('error')`,
     * `onError`) as the SDK's own `error` event, unless the embed's fatal `error` event, which
     * they heard, was the failure; without handlers, to the console.
     */
    report(failure: EmbedError, surface: Surface) {
      log(failure.message);
      const heard = events.has('error') || !!options().onError;
      reportError(failure, true, surface, (args) => (failure.code != 'fatal' && emit('error', args), heard));
    },
    /** Remembers the current load's `ready` message (`undefined`: a new load begins, or the frame lost its document). */
    ready: (message: EventMessage<'ready'> | undefined) => void (readyMessage = message),
    /** Calls the `onReady` option with the current load's `ready`, if it had one (an adopter's option, for a ready it missed). */
    readyAgain: () => readyMessage && call(options().onReady, readyMessage.type, [readyMessage.payload, readyMessage]),
    /** Adds a handler; `destroyed` embeds keep none. */
    on(type: string, fn: Function, once: boolean | undefined, destroyed: boolean): Unsubscribe {
      const name = nameOf(type);
      if (__DEV__ && name != '*' && !isEventName(name))
        throw new EmbedError('invalid-option', `unknown event "${String(type)}", use ${Object.keys(EVENT_SCHEMAS).join('|')}|*`);
      if (__DEV__ && typeof fn != 'function') throw new EmbedError('invalid-option', `"${type}" handler must be a function`);
      // `ready` is sticky: a late handler is called at once with the current load's payload.
      if (name == 'ready' && readyMessage) {
        call(fn, readyMessage.type, [readyMessage.payload, readyMessage]);
        if (once) return noop;
      }
      return destroyed ? noop : events.add(name, fn, once);
    },
    off: (type: string, fn: Function) => events.remove(nameOf(type), fn),
    /** Forgets every handler and the `ready` message. */
    clear: () => ((readyMessage = undefined), events.clear()),
  };
}
