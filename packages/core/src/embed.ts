import { checkOptions } from './checkOptions';
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
import { NO_HANDLERS, createHandlers } from './handlers';
import { createHostState, planUpdate } from './hostState';
import { createLazyStart } from './lazyStart';
import { createLoadAttempt, type Fail } from './loadAttempt';
import { adopt, canMove, createKeeper, keepAliveName, keepers, liveUnder, move, slot, unslot } from './parking';
import { createActionOf, type EventMessage, type ReadyPayload } from './protocol';
import type { Surface } from './catalog';
import { createReceiver, type Reaction } from './receiver';
import { createRetryPolicy } from './retryPolicy';
import { createScope } from './scope';
import { createSender } from './sender';
import { createSessionSource, renewHint } from './sessionSource';
import { redactSessions } from './sessions';
import { createStatus, type EmbedStatus } from './status';

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
 * What an option change means is decided by planUpdate.ts from the option tables
 * (embedOptions.ts, launchOptions.ts, keptState.ts); the controller carries it out. Its other
 * parts: the receiver of the embed's messages (receiver.ts), the handle (handle.ts), the handlers
 * (handlers.ts), the status (status.ts) and the keeping of a parked embed (parking.ts).
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
  const adopted = adopt(surface, options as AnyOptions);
  if (adopted) return adopted as EmbedHandle<S>;
  let o = {} as AnyOptions;
  let origin = '';
  let container!: HTMLElement;
  // Checks `next` whole; the returned commit is the only place options change.
  const configure = (next: AnyOptions) => {
    const [nextOrigin, box] = checkOptions(surface, next);
    return () => ((o = next), (origin = nextOrigin), (container = box));
  };
  configure({ ...options } as AnyOptions)();

  const current = () => o;
  const getOrigin = () => origin;
  const getContainer = () => container;
  const scope = createScope();
  const { later, end } = scope;
  const handlers = createHandlers(current);
  const status = createStatus((fn, args) => handlers.call(fn, 'state', args));
  const host = createHostState(o);
  const session = createSessionSource(current, handlers.diagnose);
  const policy = createRetryPolicy(current, later, handlers.diagnose);
  const isStatus = (name: EmbedStatus) => status.get().status == name;
  const redact = (text: string) => redactSessions(text, session.current());

  // Fails the current attempt: tried again while the policy allows, else the embed is in `error`
  // (a parked one, never shown anywhere, goes).
  const fail: Fail = (failure, renewable) => {
    end();
    if (policy.retry(failure, renewable, start)) status.loading();
    else {
      status.failed(failure);
      handlers.report(failure, surface);
      if (keeper.parked()) destroy();
    }
  };
  // What the embed's events mean to the controller (the receiver checked them; the host's handlers see them next).
  const react: Reaction = (name, payload, message) => {
    if (name == 'ready') {
      attempt.frame()!.readies++;
      end();
      policy.reset();
      handlers.ready(message as EventMessage<'ready'>);
      // The kept state and the held actions go out before any ready handler or state
      // listener runs, so an action sent from one of those cannot overtake them.
      host.drain().forEach(post);
      status.readied(payload as ReadyPayload);
    }
    // (A frame that already failed and waits for its retry may say so again: one failure, one attempt.)
    else if (name == 'error' && payload.fatal && !policy.waiting())
      fail(new EmbedError('fatal', `the embed failed: ${redact(payload.message as string)}${renewHint(o)}`), true);
    // The viewer's place, brought back after a reload.
    else if (name == 'view' || name == 'navigate') host.keep('path', payload.path);
  };
  const receive = createReceiver(getOrigin, handlers, redact, react);
  // The frame loaded another document on its own (navigated or reloaded outside the SDK): a ready
  // embed is not ready any more, and waits for the new document's `ready` (or heals on timeout).
  const again = () => isStatus('ready') && (handlers.ready(undefined), status.loading(), true);
  const attempt = createLoadAttempt(
    surface,
    current,
    getOrigin,
    getContainer,
    session,
    host.url,
    scope,
    receive,
    fail,
    handlers.log,
    again,
  );
  // An attempt now: the previous one ended, the retry that waited (if any) has started.
  const start = () => (end(), policy.started(), handlers.ready(undefined), attempt.start());
  const whenSeen = createLazyStart(later);
  // A new load: once a lazy embed is (near) in view, mount with a fresh session.
  const load = () => {
    end();
    status.expect();
    whenSeen(container, o.loading == 'lazy', () => (status.loading(), start()));
  };
  const { post, dispatch } = createSender(host, status, attempt.frame, getOrigin, handlers.log);
  const update = (partial: Partial<AnyOptions>) => {
    const next = { ...o, ...partial } as AnyOptions;
    const commit = configure(next);
    const plan = planUpdate(o, next, Object.keys(partial), isStatus('idle'));
    // Everything is checked (options and actions): only now does anything change.
    commit();
    host.apply(plan, next);
    const { does, changes } = plan;
    // Another viewer: nothing minted for the previous one (an initialSession) is used, the attempts count anew.
    if ((does & RESET) == RESET) {
      session.give(undefined, true);
      policy.reset();
    }
    const frame = attempt.frame();
    const moves = does & MOVE && frame;
    // A frame whose window is not the one routed has lost its document: the browser took it out of
    // the document and put it back (a DOM move without moveBefore, such as an element moved with
    // appendChild: a new window, which loaded its URL again with the spent session), or it is out
    // of the document (the page replaced its body): it loads again, with a fresh session, where it
    // is shown. A move the browser cannot make keeping the document is a reload too.
    const lost = frame && frame.iframe.contentWindow != frame.window;
    const reload = does & RELOAD || (moves && (!canMove() || lost || !container.isConnected)) || (lost && container.isConnected);
    if (reload) load();
    else if (moves) move(container, frame.iframe);
    keeper.shown(container);
    if (reload) return;
    changes.forEach(({ message }) => dispatch(message, true));
    if (does & PRESENT && frame) present(frame.iframe, o, surface);
  };
  const destroy = () => {
    if (isStatus('destroyed')) return;
    keeper.leave();
    end();
    attempt.remove();
    host.clear();
    status.failed(destroyedError('wait for ready'), 'destroyed');
    handlers.clear();
    status.clear();
  };
  const send = (type: string, payload?: unknown) => dispatch(createActionOf(type, payload));
  const reload = (id?: string) => (policy.reset(), session.give(id, false), load(), status.ready());
  const handle = createHandle(surface, status, handlers, getOrigin, attempt.frame, update, send, reload, destroy);
  // keepAlive and detach (parking.ts).
  const keeper = createKeeper(
    {
      handle,
      options: current,
      container: getContainer,
      place: (box, extra) => ((o = { ...o, ...extra, container: box }), (container = box)),
      cold: () => (end(), attempt.remove(), isStatus('idle') || status.set('idle')),
      adopted: (options) => (update(options), handlers.readyAgain()),
    },
    NO_HANDLERS,
  );
  keepers.set(handle, keeper);
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
  keepers.get(handle)!.park(place);
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
