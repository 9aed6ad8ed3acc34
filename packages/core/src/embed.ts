import type { Surface } from './catalog';
import { checkOptions } from './checkOptions';
import type { Controller } from './context';
import {
  MOVE,
  PRESENT,
  RELOAD,
  RESET,
  type AnyOptions,
  type AppEmbedOptions,
  type ChatEmbedOptions,
  type DashboardEmbedOptions,
  type EmbedOptionsMap,
} from './embedOptions';
import { EmbedError } from './errors';
import { present } from './frame';
import { createHandle, destroyedError, type EmbedHandle } from './handle';
import { createHandlers } from './handlers';
import { createHostState, planUpdate } from './hostState';
import { createLazyStart } from './lazyStart';
import { createLoadAttempt } from './loadAttempt';
import { adopter, canMove, createKeeper, keepAliveName, keepers, liveUnder, move, park, slot, unslot } from './parking';
import { createActionOf, type ActionMessage, type EventMessage, type ReadyPayload } from './protocol';
import { createReceiver } from './receiver';
import { createRetryPolicy } from './retryPolicy';
import { createScope } from './scope';
import { createSessionSource, renewHint } from './sessionSource';
import { redactSessions } from './sessions';
import { createStatus } from './status';

/*
 * The embed controller: one per embed, for its whole life, composing the parts below. It only
 * decides what each event of the lifecycle means; each part owns one concern.
 *
 *   idle       created, not loading yet: a lazy embed out of view (lazyStart.ts)
 *     ↓ load
 *   loading    a load attempt (loadAttempt.ts): a session (sessionSource.ts), an iframe, the
 *              wait for `ready`; a failure a fresh session can cure is tried again
 *              (retryPolicy.ts) without leaving `loading`
 *     ↓ the embed's `ready`             ↓ a failure for good
 *   ready      the kept state and the     error   until `reload()` or an option change
 *              held actions were sent             that reloads starts again
 *              (hostState.ts)
 *     ↓ destroy() (from any state)
 *   destroyed  iframe, listeners, timers and held actions gone; the handle only reports it
 *
 * Every load, retry and destroy ends the current load's scope (scope.ts) and bumps its
 * generation: async work of an older attempt compares the generation after each `await`, sees
 * it changed and stops, so a slow session call or a late timer never touches a newer iframe.
 * What an option change means is planned from the option tables (hostState.ts's planUpdate); the
 * controller carries it out. Its other parts: the receiver of the embed's messages (receiver.ts),
 * the handle (handle.ts), the handlers (handlers.ts), the status (status.ts) and the keeping of a
 * parked embed (parking.ts). They share one context (context.ts): each reads what it names of it
 * and adds its own operations; the controller's own decisions below are added last.
 */

export type { IframeOptions } from './frame';
export type { Unsubscribe } from './registry';
export type { EmbedState, EmbedStatus } from './status';
export type { EmbedHandle } from './handle';

/**
 * Creates the controller of an embed of any surface and starts its first load. Prefer
 * {@link embedDashboard}, {@link embedChat} and {@link embedApp}.
 * @throws {EmbedError} synchronously for unusable options (`invalid-option`, `no-container`, `no-dom`).
 */
export function createEmbed<S extends Surface>(surface: S, options: EmbedOptionsMap[S]): EmbedHandle<S> {
  if (typeof document == 'undefined')
    throw new EmbedError('no-dom', __DEV__ ? 'mount in the browser (e.g. in an effect), not during server rendering' : 'document');
  // An embed parked under the same keep-alive name, for the same viewer, goes on here: the same handle, these options.
  const adopted = adopter?.(surface, options as AnyOptions);
  if (adopted) return adopted as EmbedHandle<S>;
  const c = { _surface: surface, _status: createStatus((fn, args) => c._call(fn, 'state', args)) } as Controller;
  const status = c._status;
  // Checks `next` whole; the returned commit is the only place options change.
  const configure = (next: AnyOptions) => {
    const [origin, container] = checkOptions(surface, next);
    return () => ((c._options = next), (c._origin = origin), (c._container = container));
  };
  configure({ ...options } as AnyOptions)();
  const host = createHostState(c._options);
  // The failure of a frame taken out by the page (see `_update`): no reload until asked for.
  let takenOut: EmbedError | undefined;
  createScope(c);
  createHandlers(c);
  createSessionSource(c);
  createRetryPolicy(c);
  createReceiver(c);
  createLoadAttempt(c);
  const whenSeen = createLazyStart(c);
  c._carried = host._url;
  c._redact = (text) => redactSessions(text, c._sessionId);

  // Fails the current attempt: tried again while the policy allows, else the embed is in `error`
  // (a parked one, never shown anywhere, goes).
  c._fail = (failure, renewable, told) => {
    c._end();
    if (c._retry(failure, renewable)) status._loading();
    else {
      status._failed(failure);
      c._report(failure, told);
      if (c._parkedAs) c._destroy();
    }
  };
  // What the embed's events mean to the controller (the receiver checked them; the host's handlers see them next).
  c._react = (name, payload, message) => {
    if (name == 'ready') {
      c._frame!._readies++;
      c._end();
      c._resetRetries();
      c._remember(message as EventMessage<'ready'>);
      // The kept state and the held actions go out before any ready handler or state
      // listener runs, so an action sent from one of those cannot overtake them.
      host._drain().forEach(post);
      status._readied(payload as ReadyPayload);
    }
    // (A frame that already failed and waits for its retry may say so again: one failure, one attempt.)
    else if (name == 'error' && payload.fatal && !c._waiting)
      c._fail(
        new EmbedError('fatal', `the embed failed: ${c._redact(payload.message as string)}${__DEV__ ? renewHint(c._options) : ''}`),
        true,
        true,
      );
    // The viewer's place, brought back after a reload.
    else if (name == 'view' || name == 'navigate') host._keep('path', payload.path);
  };
  // The frame loaded another document on its own (navigated or reloaded outside the SDK): a ready
  // embed is not ready any more, and waits for the new document's `ready` (or heals on timeout).
  c._again = () => status._is('ready') && (c._remember(undefined), status._loading(), true);
  c._start = () => (c._end(), (c._waiting = false), c._remember(undefined), c._attempt());
  // A new load: once a lazy embed is (near) in view, mount with a fresh session.
  const load = () => {
    c._end();
    status._expect();
    whenSeen(() => (status._loading(), c._start()));
  };
  // Actions go to the current frame's window, at the tenant origin only (never `'*'`), once it
  // is ready; before that, one that sets kept state is kept (replayed at `ready`), any other held.
  const post = (message: ActionMessage) => {
    message.timestamp = Date.now();
    c._log('action', message.type);
    c._frame!._window.postMessage(message, c._origin);
  };
  const dispatch = (message: ActionMessage, kept = host._record(message)) =>
    status._is('ready') ? post(message) : kept || host._push(message);
  c._update = (partial) => {
    const next = { ...c._options, ...partial } as AnyOptions;
    const commit = configure(next);
    const plan = planUpdate(c._options, next, Object.keys(partial), status._is('idle'));
    // Everything is checked (options and actions): only now does anything change.
    commit();
    host._apply(plan, next);
    const { _does: does, _changes: changes } = plan;
    // Another viewer: nothing minted for the previous one (an initialSession) is used, the attempts count anew.
    if ((does & RESET) == RESET) {
      c._giveSession(undefined, true);
      c._resetRetries();
    }
    const frame = c._frame;
    const moves = does & MOVE && frame;
    // A frame whose window is not the one routed has lost its document: the browser took it out of
    // the document and put it back (a DOM move without moveBefore, such as an element moved with
    // appendChild: a new window, which loaded its URL again with the spent session), or it is out
    // of the document (the page replaced its body): it loads again, with a fresh session, where it
    // is shown. A move the browser cannot make keeping the document is a reload too. So is an embed
    // that failed as its container was out of the page (moved into another document), connected again.
    // But a frame taken out of the document while its container is in it was taken out by the page
    // (a framework writing the container's text: React's ContentReset, Vue's setElementText), which
    // would take the next one out too, each for a fresh session: the embed fails instead, saying
    // why, until reload() or a change that reloads.
    const box = c._container;
    const error = status._get().error;
    const taken = !moves && frame && !frame._iframe.isConnected && box.isConnected;
    const lost = (frame && frame._iframe.contentWindow != frame._window) || (error?.code == 'no-container' && error != takenOut);
    const reload = does & RELOAD || (moves && (!canMove() || lost || !box.isConnected)) || (lost && box.isConnected && !taken);
    if (reload) load();
    else if (moves) move(box, frame._iframe);
    else if (taken) {
      c._removeFrame();
      c._fail(
        (takenOut = new EmbedError(
          'no-container',
          __DEV__
            ? "the page took the iframe out of its container (a framework writing the container's text, such as a loading text?): render the container without text children, then reload()"
            : 'iframe removed',
        )),
        false,
      );
    }
    c._shown(box);
    if (reload || taken) return;
    changes.forEach((change) => dispatch(change._message, true));
    if (does & PRESENT && frame) present(frame._iframe, c._options, surface);
  };
  c._destroy = () => {
    if (status._is('destroyed')) return;
    c._leave();
    c._end();
    c._removeFrame();
    host._clear();
    status._failed(destroyedError('wait for ready'), 'destroyed');
    c._forget();
    status._clear();
  };
  c._send = (type, payload) => dispatch(createActionOf(type, payload));
  c._reload = (id) => (c._resetRetries(), c._giveSession(id, false), load(), status._ready());
  const handle = (c._handle = createHandle<S>(c));
  createKeeper(c);
  keepers.set(handle, c);
  load();
  return handle;
}

/**
 * Loads an embed before anything shows it, parked in the page's lot, for example when the viewer
 * hovers the link to the dashboard's route: the session is minted and the iframe loads off-screen.
 * The first component, element or `embed*()` call with the same keep-alive name adopts it,
 * usually already `ready`: no session minted, no wait. Preloading a name that is live already,
 * parked or on screen (the same keep-alive name, surface and viewer), mints nothing and returns
 * that embed. `keepAlive` defaults to `true` (the name derived from what is embedded); `loading`
 * is always eager; an `initialSession` (minted by the server) serves the preload. Where the
 * browser has no `moveBefore` (Safari), a frame cannot move without loading again, so nothing is
 * minted or loaded before the adopter shows it.
 * @example
 * ```ts
 * link.addEventListener('pointerenter', () =>
 *   preload('dashboard', { baseUrl, publicId: 'sales-overview', session: () => fetch('/api/embed-session', { method: 'POST' }) }),
 * );
 * // later, on the route: <PlatformDashboard keepAlive baseUrl={baseUrl} publicId="sales-overview" session={...} />
 * ```
 */
export function preload<S extends Surface>(surface: S, options: Omit<EmbedOptionsMap[S], 'container'>): EmbedHandle<S> {
  const settings = { keepAlive: true, ...options, loading: 'eager' } as AnyOptions;
  const waiting = liveUnder(surface, keepAliveName(surface, settings));
  if (waiting) return waiting as EmbedHandle<S>;
  const place = slot(0, 0);
  let handle: EmbedHandle<S>;
  try {
    handle = createEmbed(surface, { ...settings, container: place } as EmbedOptionsMap[S]);
  } catch (e) {
    // (Refused options leave nothing behind.)
    unslot(place);
    throw e;
  }
  park(keepers.get(handle), place);
  return handle;
}

/**
 * Embeds a published dashboard.
 * @example
 * ```ts
 * const dashboard = embedDashboard({
 *   container: '#dashboard',
 *   baseUrl: 'https://acme.platform.example',
 *   publicId: 'sales-overview',
 *   session: () => fetch('/api/embed-session', { method: 'POST' }), // its Response, as it is
 * });
 * dashboard.on('drilldown', ({ member, value }) => console.log(member, value));
 * dashboard.setColorScheme('dark'); // queued until ready
 * ```
 */
export const embedDashboard = (options: DashboardEmbedOptions): EmbedHandle<'dashboard'> => createEmbed('dashboard', options);

/** Embeds the standalone analytics chat. Without `session` it opens in private mode. */
export const embedChat = (options: ChatEmbedOptions): EmbedHandle<'chat'> => createEmbed('chat', options);

/** Embeds the creator-mode app of a deployment (needs a signed session). */
export const embedApp = (options: AppEmbedOptions): EmbedHandle<'app'> => createEmbed('app', options);
