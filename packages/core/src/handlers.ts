import { EVENT_PREFIX, EVENT_SCHEMAS, SOURCE } from './catalog';
import type { Controller } from './context';
import type { Diagnostic } from './embedOptions';
import { EmbedError } from './errors';
import { EVENT_PROPS, isEventName, shortName, type EventMessage } from './protocol';
import { createRegistry } from './registry';

/*
 * The host's handlers of one embed: the `on<Event>` options and those added with `on`/`once`
 * (the catch-all `'*'` included), called with (payload, message) or (message); `onDiagnostic`;
 * `debug` logging; and the report of a failure that put the embed in `error`. A host's bug stays
 * the host's: a handler that throws is reported and the others still run. `ready` is sticky: a
 * handler added after it is called at once.
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

/**
 * Gives the controller the host's handlers: `_log`, `_diagnose`, `_call`, `_emit`, `_report`,
 * `_remember`, `_readyAgain`, `_on`, `_off` and `_forget`. They read the handler options from `_options`.
 */
export function createHandlers(
  c: Pick<
    Controller,
    | '_options'
    | '_surface'
    | '_status'
    | '_log'
    | '_diagnose'
    | '_call'
    | '_emit'
    | '_report'
    | '_remember'
    | '_readyAgain'
    | '_on'
    | '_off'
    | '_forget'
  >,
): void {
  // The current load's `ready` message, for late `ready` handlers.
  let readyMessage: EventMessage<'ready'> | undefined;
  // (Any other truthy `debug`, such as an environment variable's "true", logs too; a logger that throws is the host's bug.)
  const log = (...args: unknown[]) => {
    const { debug } = c._options;
    try {
      if (debug) (typeof debug == 'function' ? debug : console.debug.bind(console, '[platform-embed]'))(...args);
    } catch (error) {
      console.error('[platform-embed] handler threw', error);
    }
  };
  const diagnose = (diagnostic: Diagnostic) => {
    log(diagnostic.kind, diagnostic);
    try {
      if (c._options.onDiagnostic) return c._options.onDiagnostic(diagnostic);
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
  // (A handler that destroyed the embed ends the telling: a destroyed embed calls no handler.)
  const live = () => !c._status._is('destroyed');
  const emit = (name: string, args: unknown[]) => {
    events._emit(name, args, live);
    if (live()) call(c._options[name == '*' ? 'onEvent' : EVENT_PROPS.get(name)!] as Function | undefined, typeOf(args), args);
  };
  c._log = log;
  c._diagnose = diagnose;
  c._call = call;
  c._emit = emit;
  // (A failure the embed reported itself reached the handlers as its own `error` event; any other,
  // the SDK's own, `fatal` ones included, such as a frame the browser reloaded, is told here.)
  c._report = (failure, told) => {
    log(failure.message);
    const heard = events._has('error') || !!c._options.onError;
    reportError(failure, true, c._surface, (args) => (told || emit('error', args), heard));
  };
  c._remember = (message) => void (readyMessage = message);
  c._readyAgain = () => readyMessage && call(c._options.onReady, readyMessage.type, [readyMessage.payload, readyMessage]);
  c._on = (type, fn, once) => {
    const name = nameOf(type);
    if (__DEV__ && name != '*' && !isEventName(name))
      throw new EmbedError('invalid-option', `unknown event "${String(type)}", use ${Object.keys(EVENT_SCHEMAS).join('|')}|*`);
    if (__DEV__ && typeof fn != 'function') throw new EmbedError('invalid-option', `"${type}" handler must be a function`);
    // `ready` is sticky: a late handler is called at once with the current load's payload.
    if (name == 'ready' && readyMessage) {
      call(fn, readyMessage.type, [readyMessage.payload, readyMessage]);
      if (once) return noop;
    }
    // (A destroyed embed keeps none.)
    return c._status._is('destroyed') ? noop : events._add(name, fn, once);
  };
  c._off = (type, fn) => events._remove(nameOf(type), fn);
  c._forget = () => ((readyMessage = undefined), events._clear());
}
