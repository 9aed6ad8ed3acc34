import type { Surface } from './catalog';
import type { EmbedError } from './errors';
import type { IframeOptions } from './frame';
import type { AppLaunchOptions, ChatLaunchOptions, DashboardLaunchOptions } from './launchOptions';
import type { ColorScheme, EmbedTheme, EventMap, EventMessage, EventName, EventPropName, UnknownEventMessage } from './protocol';
import type { FieldDescriptor, OptionKind } from './rules';

/*
 * The SDK's own options, declared once as data beside the launch options (launchOptions.ts):
 * for each, the rule its value follows, its default, what a change means on a mounted embed,
 * and how a custom element reads it from an attribute. The option checks (checkOptions.ts), Vue's
 * props, the custom elements' attributes and their template types read this table; production
 * reads only what a change means (`OPTION_CHANGES`, which the table's `change` fields are: the
 * change planner of hostState.ts), and checks the few rules that must hold in every build in
 * plain code (url.ts's checkAlways). The options that are kept state (an action changes them
 * on a live embed: colorScheme, theme, locale, filters, path) are declared in keptState.ts
 * (locale and filters, also launch options, in launchOptions.ts). The event handlers
 * (`onReady`, ...) come from the event catalog.
 */

/** The first retry waits 250-500 ms, then twice as long each time (see retryPolicy.ts). */
export const RETRY_BASE = 500;
/** How many times a failed load is tried again with a fresh session, unless `retry` says otherwise. */
export const RETRY_COUNT = 3;
/** Milliseconds the `session` function may take, unless `sessionTimeout` says otherwise. */
export const SESSION_TIMEOUT = 15000;
/** Milliseconds from the iframe's creation to `ready`, unless `readyTimeout` says otherwise. */
export const READY_TIMEOUT = 30000;

// What a change of an option means on a mounted embed (plain constants: bundlers inline them). Bit
// flags: an update ORs what its options' changes mean (hostState.ts's planUpdate), and RETARGET holds RELOAD's bit.
/** The new value is used from the next event or load (handlers, the session function, timeouts, `retry`, `debug`). */
export const SWAP = 0;
/** A new iframe with a fresh session; the host state comes along. */
export const RELOAD = 1;
/** Another dashboard or app: a reload ({@link RELOAD}'s bit) that also forgets the viewer's place in the old one. */
export const RETARGET = 3;
/**
 * Another viewer: a reload ({@link RETARGET}'s bits) that starts from the options alone: nothing
 * the previous viewer did or was sent (the kept state set by actions, their place, held actions,
 * an `initialSession`) carries over.
 */
export const RESET = 19;
/** Applied to the current iframe (title, class, style). */
export const PRESENT = 4;
/** The iframe moves into the new container, keeping its document where the browser can (`moveBefore`); else a reload there. */
export const MOVE = 8;
/** What a change of an option means on a mounted embed: {@link SWAP}, {@link RELOAD}, {@link RETARGET}, {@link RESET}, {@link PRESENT} or {@link MOVE}. */
export type ChangeKind = typeof SWAP | typeof RELOAD | typeof RETARGET | typeof RESET | typeof PRESENT | typeof MOVE;

/**
 * How a custom element reads an option from its attribute: as is (`string`), a flag (present,
 * `""` or `"true"` is true, `"false"` false), a JSON object (`json`), a number of milliseconds
 * (`number`), a number of retries or `"false"` (`retry`), or a flag that may be a name instead
 * (`flagOrName`: present, `""` or `"true"` is true, `"false"` false, any other value the name).
 */
export type AttributeKind = 'string' | 'flag' | 'json' | 'number' | 'retry' | 'flagOrName';

/** How one of the SDK's own options is declared. */
export interface EmbedOptionSpec {
  /** The rule of its value. Checked in development, and in every build when `always`; without it, where it is used. */
  readonly check?: FieldDescriptor<OptionKind>;
  /** Checked in every build: a wrong value would load a wrong URL or silently turn a safeguard off. */
  readonly always?: boolean;
  /** The surfaces that require it; absent: an option of every surface. */
  readonly surfaces?: readonly Surface[];
  /** Its value when absent (documentation; the code reads the named constant). */
  readonly default?: unknown;
  /** What a change means on a mounted embed, or a function of the new value (and whether the embed is idle). @default SWAP */
  readonly change?: ChangeKind | ((value: unknown, idle: boolean) => ChangeKind);
  /** How a custom element reads it from an attribute; absent: not an attribute. */
  readonly attribute?: AttributeKind;
  /** The attribute's name, when it is not the option's name in kebab-case. */
  readonly attributeName?: string;
}

/**
 * What a change of each of the SDK's own options means on a mounted embed: all that production
 * reads of {@link EMBED_OPTIONS}, whose `change` fields are these. An option not named here is
 * swapped ({@link SWAP}). @internal
 */
export const OPTION_CHANGES = {
  // (Each function's words are its entry's in EMBED_OPTIONS.)
  container: (_value: unknown, idle: boolean) => (idle ? RELOAD : MOVE),
  baseUrl: RETARGET,
  publicId: RETARGET,
  deploymentId: RETARGET,
  session: (value: unknown) => (typeof value == 'string' ? RELOAD : SWAP),
  viewer: RESET,
  title: PRESENT,
  className: PRESENT,
  style: PRESENT,
  allow: RELOAD,
  sandbox: RELOAD,
  referrerPolicy: RELOAD,
  loading: (_value: unknown, idle: boolean) => (idle ? RELOAD : SWAP),
} as const;

/** The SDK's own options, declared once. See {@link EmbedOptionSpec}. */
export const EMBED_OPTIONS = {
  // What is embedded, and where.
  container: {
    check: 'element or CSS selector',
    /** The iframe moves into the new container, keeping its document (`moveBefore`), else it reloads there; an idle embed starts there. */
    change: OPTION_CHANGES.container,
  },
  // Checked where it is used, in every build (normalizeBaseUrl names the fix).
  baseUrl: { change: OPTION_CHANGES.baseUrl, attribute: 'string' },
  publicId: {
    check: 'a public id such as "sales-overview"',
    always: true,
    surfaces: ['dashboard'],
    change: OPTION_CHANGES.publicId,
    attribute: 'string',
  },
  deploymentId: { check: 'positive integer', always: true, surfaces: ['app'], change: OPTION_CHANGES.deploymentId, attribute: 'string' },
  // Where each load's single-use session comes from.
  session: {
    check: 'non-empty string|function?',
    /** A new id reloads with it; a new function is used from the next load. */
    change: OPTION_CHANGES.session,
    attribute: 'string',
  },
  initialSession: { check: 'non-empty string?', attribute: 'string' },
  // Who the embed is for: part of its keep-alive name; another one reloads, starting anew.
  viewer: { check: 'non-empty string?', change: OPTION_CHANGES.viewer, attribute: 'string' },
  // The iframe (frame.ts declares their defaults).
  title: { check: 'string?', change: OPTION_CHANGES.title, attribute: 'string', attributeName: 'iframe-title' },
  className: { check: 'string?', change: OPTION_CHANGES.className },
  style: { check: 'CSS text such as "height:400px"?', change: OPTION_CHANGES.style },
  allow: { check: 'string?', change: OPTION_CHANGES.allow, attribute: 'string' },
  sandbox: { check: 'string with allow-scripts and allow-same-origin?', always: true, change: OPTION_CHANGES.sandbox, attribute: 'string' },
  referrerPolicy: { check: 'string?', change: OPTION_CHANGES.referrerPolicy, attribute: 'string' },
  loading: {
    check: 'eager or lazy?',
    default: 'eager',
    /** An idle (lazy) embed that becomes eager starts at once; a mounted one is not affected. */
    change: OPTION_CHANGES.loading,
    attribute: 'string',
  },
  // Kept alive (parking.ts) when nothing shows it: true names it by what it embeds.
  keepAlive: { check: 'boolean|non-empty string?', default: false, attribute: 'flagOrName' },
  // How failures are handled and reported.
  retry: { check: 'integer>=0|boolean?', always: true, default: RETRY_COUNT, attribute: 'retry' },
  sessionTimeout: { check: 'number>=0?', always: true, default: SESSION_TIMEOUT, attribute: 'number' },
  readyTimeout: { check: 'number>=0?', always: true, default: READY_TIMEOUT, attribute: 'number' },
  debug: { check: 'boolean|function?', default: false, attribute: 'flag' },
  onDiagnostic: { check: 'function?' },
} as const satisfies Record<string, EmbedOptionSpec>;

/** The name of one of the SDK's own options (the launch options and event handlers aside). */
export type EmbedOptionName = keyof typeof EMBED_OPTIONS;

/** What a `session` function may return: the session id, generate-session's `{ sessionId }` body, or the `Response` of its `fetch`. */
export type SessionResult = string | { sessionId: string } | Response;

/**
 * A session id, or a function that asks the host's backend for a fresh one.
 *
 * Sessions are single-use: the function is called once for every iframe load (first
 * mount, each `reload()`, each retry, each change of what is embedded), never reused. Its
 * `signal` aborts when the load is superseded, times out or the embed is destroyed; using it is
 * optional.
 *
 * The function may return the `Response` of its `fetch` as it is: the SDK reads it (a 2xx
 * with `{ sessionId }`; a 5xx, 429 or 408 is a failure a later call may cure, retried after its
 * `Retry-After`; another 4xx is the route refusing, not retried), so no HTTP failure is hidden.
 * It reads at most `MAX_SESSION_BODY` bytes, and cancels the body when `signal` aborts. An id
 * longer than `MAX_SESSION_ID` is refused.
 * @example
 * ```ts
 * session: () => fetch('/api/embed-session', { method: 'POST' })
 * ```
 */
export type SessionSource = string | ((context: { signal: AbortSignal }) => SessionResult | Promise<SessionResult>);

/** Something the SDK noticed, dropped or did on its own, for debugging an integration. Never contains a session id. */
export type Diagnostic =
  /** A message from our iframe's window whose origin is not the tenant origin (the frame navigated away). */
  | { kind: 'origin-mismatch'; origin: string }
  /** A message from our iframe that is not a valid event; `reason` says why. */
  | { kind: 'invalid-message'; reason: string }
  /** A host handler or state listener threw; other handlers still ran. */
  | { kind: 'handler-error'; type: string; error: unknown }
  /** A load failed with `error` and is tried again, with a fresh session, in `delay` ms: attempt `attempt` of `of`. */
  | { kind: 'retry'; attempt: number; of: number; delay: number; error: EmbedError }
  /**
   * The page-wide record of used session ids and rate-limit waits, shared by every copy of the
   * SDK on the page, holds something else (another script wrote it): this copy keeps its own.
   */
  | { kind: 'page-record' };

/** Handler of one event: the payload, and the whole envelope (with `surface` and `timestamp`). */
export type EventHandler<K extends EventName> = (payload: EventMap[K], message: EventMessage<K>) => void;
/** Catch-all handler: every valid event, including event types this SDK version does not know (untyped). */
export type AnyEventHandler = (message: EventMessage | UnknownEventMessage) => void;
/**
 * One optional handler per event of the catalog (`onReady`, `onView`, `onNavigate`,
 * `onDashboardLoaded`, `onDownload`, `onDrilldown`, `onAiQuery`, `onError`), each called with
 * the validated payload and the envelope, plus `onEvent`, called with every valid event
 * (including event types this SDK version does not know). Derived from the catalog.
 */
export type EventHandlerProps = { [K in EventName as EventPropName<K>]?: EventHandler<K> } & {
  /** Catch-all: every valid event envelope, known or not, after the typed handler. */
  onEvent?: AnyEventHandler;
};

/**
 * The state an embed is in that the host may set declaratively. Changing one of these on a
 * mounted embed sends its action to the same iframe (no reload, no new session), and the
 * value is brought back after every reload.
 */
export interface EmbedStateOptions {
  /** Color scheme, sent as `set-color-scheme` right after `ready`. */
  colorScheme?: ColorScheme;
  /** Brand theme, sent as `set-theme` right after `ready`. */
  theme?: EmbedTheme;
  /**
   * In-embed route, sent as `navigate` right after `ready`. It is the place the host asks for:
   * a change navigates there, the same value again sends nothing (even when the viewer has
   * navigated elsewhere since); call `navigate()` on the handle to navigate every time.
   */
  path?: string;
}

/** Options shared by all surfaces. */
export interface BaseEmbedOptions extends IframeOptions, EmbedStateOptions, EventHandlerProps {
  /** The element to mount into, or a CSS selector for it. */
  container: HTMLElement | string;
  /** The tenant host or custom domain, e.g. `https://acme.platform.example`. Its origin is the only one trusted. */
  baseUrl: string | URL;
  /** Session id or a function minting a fresh one per load. Omit for private mode (dashboard, chat). */
  session?: SessionSource;
  /**
   * A session id minted while the page was rendered on the server, used for the first load only
   * (later loads call `session`). Only on pages that are never cached or shared
   * (`Cache-Control: private, no-store`): a session is single-use and belongs to one viewer.
   */
  initialSession?: string;
  /**
   * Who the embed is for: the signed-in viewer's id in your app (any stable string). A parked or
   * preloaded embed is adopted only by an embed of the same viewer (it is part of the keep-alive
   * name), and a change reloads with a fresh session, starting from the options alone: nothing
   * the previous viewer did or was sent (filters and scheme set by actions, their place in the
   * embed, held actions) carries over. At sign-out, call {@link releaseEmbeds}.
   * Only a string names a viewer: pass the id itself (`user.id`), never the user object. Any
   * other value is refused in development, and in production keeps nothing alive (the embed is
   * neither parked nor adopted).
   */
  viewer?: string;
  /**
   * How many times a failed load (a fatal `error` from the embed, a ready timeout, a failed or
   * timed-out session call) is tried again with a fresh session, with exponential backoff and
   * jitter. Needs `session` to be a function. `false` turns it off. @default 3
   */
  retry?: number | false;
  /** Milliseconds to wait for the `session` function before the load fails (and is retried). @default 15000 */
  sessionTimeout?: number;
  /** Milliseconds from the iframe's creation to `ready` before the load fails (and is retried); `0` waits forever. @default 30000 */
  readyTimeout?: number;
  /** Receives what the SDK dropped and why, and each retry. Without it, only throwing handlers are reported (console.error). */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** Logs mounts, events and actions; `true` uses `console.debug`. Session ids are redacted. @default false */
  debug?: boolean | ((...args: unknown[]) => void);
  /**
   * Keeps the embed alive when its component unmounts, its element is removed or a framework
   * detaches it: it is parked (its iframe moved into a hidden page-level lot with `moveBefore`,
   * keeping its document, session and state), and the next embed with the same name adopts it
   * at once: the same handle, no new session, the new options applied as `update()`. `true`
   * names it by what it embeds (surface, tenant, dashboard or deployment); a string names it;
   * either way only an embed of the same `viewer` adopts it.
   * Where the browser has no `moveBefore` (Safari), the parked embed keeps its handle and state
   * and loads again, with a fresh session, when adopted. See {@link configureParking}.
   * @default false
   */
  keepAlive?: boolean | string;
}

/** Options of {@link embedDashboard}. */
export interface DashboardEmbedOptions extends BaseEmbedOptions, DashboardLaunchOptions {
  /** The published dashboard's public id. */
  publicId: string;
}
/** Options of {@link embedChat}. */
export interface ChatEmbedOptions extends BaseEmbedOptions, ChatLaunchOptions {}
/** Options of {@link embedApp}. The app surface needs a signed session. */
export interface AppEmbedOptions extends BaseEmbedOptions, AppLaunchOptions {
  /** The deployment whose creator-mode app is embedded. */
  deploymentId: number | string;
  session: SessionSource;
}

/** Embed options by surface. */
export interface EmbedOptionsMap {
  dashboard: DashboardEmbedOptions;
  chat: ChatEmbedOptions;
  app: AppEmbedOptions;
}

/**
 * The options as the framework bindings take them: each may also be `null` (what Angular's
 * `| async` gives before its first value, a prop read from an API), which is not set, as
 * `undefined`; on what the surface requires (`baseUrl`, a dashboard's `publicId`, an app's
 * `deploymentId` and `session`), not known yet: there is no embed (state `idle`, nothing minted,
 * no error; a live one is destroyed) until it comes. The `embed*()` functions take no `null`.
 */
export type NullableOptions<O> = { [K in keyof O]: O[K] | null };

/** What a framework binding takes: the surface, that surface's options (without `container`, each may be `null`: see {@link NullableOptions}) and `on<Event>` handlers. */
export type EmbedBindingOptions<S extends Surface> = { surface: S } & NullableOptions<Omit<EmbedOptionsMap[S], 'container'>>;

/** Every option of every surface, as the controller reads them. @internal */
export type AnyOptions = BaseEmbedOptions & DashboardEmbedOptions & AppEmbedOptions & { [key: string]: unknown };
