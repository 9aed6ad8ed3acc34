import {
  ACTION_PREFIX,
  EVENT_SCHEMAS,
  EmbedError,
  ErrorCode,
  createAction,
  createEmbed,
  filterUrlParameter,
  type ActionArgs,
  type ActionName,
  type ActionType,
  type ColorScheme,
  type EmbedHandle,
  type EmbedOptionsMap,
  type EmbedState,
  type EmbedTheme,
  type EventName,
  type FilterValue,
  type ReadyPayload,
  type SessionSource,
  type Surface,
} from '@platform-embed/core';
import { ELEMENT_EVENT_PREFIX, STATE_CHANGE_EVENT } from './elementEvents';

// Attributes by how their value is read; each maps to the core option of the same name in camelCase.
const STRINGS = ['base-url', 'public-id', 'deployment-id', 'session', 'locale', 'allow', 'sandbox', 'referrer-policy', 'loading'] as const;
const FLAGS = [
  'allow-export',
  'show-dashboard-export-menu',
  'show-dashboard-header',
  'show-dashboard-back-button',
  'show-dashboard-title',
  'show-dashboard-edit-button',
  'show-dashboard-duplicate-button',
  'show-workbook-back-button',
] as const;
const JSONS = ['filters', 'time-grains', 'field-switches'] as const;
// Attributes that become actions rather than a reload: the core queues them until ready.
const ACTIONS = new Map<string, (value: string) => [ActionName, object]>([
  ['color-scheme', (scheme) => ['set-color-scheme', { scheme }]],
  ['theme', (theme) => ['set-theme', json('theme', theme)]],
]);
// Replayed on every mount so that what was set before a remount stays set.
const STICKY = ['set-color-scheme', 'set-theme', 'set-locale'].map((a) => ACTION_PREFIX + a);
const has = (list: readonly string[], name: string) => list.includes(name);
const IDLE: EmbedState = { status: 'idle', error: null, ready: null };

const invalid = (message: string) => new EmbedError(ErrorCode.InvalidOption, message);
const bad = (message: string): never => {
  throw invalid(message);
};
const camel = (name: string) => name.replace(/-./g, (m) => m[1]!.toUpperCase());

function json(name: string, value: string): object {
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed && typeof parsed == 'object' && !Array.isArray(parsed)) return parsed;
  } catch {}
  return bad(`attribute ${name} must be a JSON object, e.g. ${name}='{"orders.status":{"value":"completed"}}'`);
}

// Without a DOM (Node, server rendering) the classes still load; they are just never defined.
const Base = (typeof HTMLElement == 'undefined' ? class {} : HTMLElement) as typeof HTMLElement;

/** The boolean launch-option attributes: present, `""` or `"true"` is true, `"false"` is false. */
export type FlagAttribute = (typeof FLAGS)[number];
/** The attributes holding a JSON object. */
export type JsonAttribute = (typeof JSONS)[number];
/** The plain string attributes (`session` is a literal session id). */
export type StringAttribute = (typeof STRINGS)[number];

/**
 * The base class of `<platform-dashboard>`, `<platform-chat>` and `<platform-app>`: maps the
 * attributes to the options of the core's `createEmbed`, mounts the iframe inside itself
 * once connected with its required attributes, re-dispatches every protocol event as a DOM
 * `CustomEvent` named `platform-<event>` (payload in `detail`, envelope in `message`) plus
 * `platform-statechange`, and destroys the embed when removed from the document.
 *
 * Attributes (all optional unless marked):
 * - `base-url` (required), `public-id` (required by `<platform-dashboard>`), `deployment-id` (required by `<platform-app>`)
 * - `session-url`: an endpoint of the host's own backend, called with `POST` (no body, same-origin
 *   credentials) for every load; it must answer `{ "sessionId": "..." }`
 * - `session`: a literal session id (single-use: prefer `session-url`); the `session` property also takes a function
 * - `allow-export`, `show-dashboard-header="false"`, ...: the boolean launch options (`""`/`"true"` or `"false"`)
 * - `locale`, and the JSON objects `filters`, `time-grains`, `field-switches`
 * - `iframe-title`, `allow`, `sandbox`, `referrer-policy`, `loading`: attributes of the iframe
 * - `ready-timeout`: milliseconds to wait for ready (`0` waits forever)
 * - `color-scheme` and `theme` (JSON): applied as actions, held until the embed is ready
 *
 * Changing an attribute that defines what is embedded reloads the embed with a fresh session;
 * `color-scheme`, `theme` and `locale` are sent as actions instead. An invalid attribute never
 * throws: the element enters the `error` state (see `platform-statechange`) with a message naming
 * the attribute, and any later attribute change retries.
 */
export class PlatformElement<S extends Surface = Surface> extends Base {
  /** The attributes whose changes the element reacts to. */
  static readonly observedAttributes: string[] = [
    ...STRINGS,
    ...FLAGS,
    ...JSONS,
    ...ACTIONS.keys(),
    'session-url',
    'iframe-title',
    'ready-timeout',
  ];

  #handle: EmbedHandle<S> | null = null;
  #state = IDLE;
  #session: SessionSource | undefined;
  #sticky = new Map<string, object>();
  #queue: [string, object][] = [];
  #scheduled = false;
  #dirty = false;

  /**
   * @param surface the surface this element embeds
   * @param idAttribute the attribute naming what is embedded, required before mounting
   */
  constructor(
    /** The surface this element embeds. */
    readonly surface: S,
    private readonly idAttribute?: string,
  ) {
    super();
    // A property set before the element was upgraded shadows the accessor: move it over.
    if (Object.hasOwn(this, 'session')) {
      const value = (this as { session?: SessionSource }).session;
      delete (this as { session?: SessionSource }).session;
      this.session = value;
    }
  }

  /** The core handle of the current load, or `null` before mounting, after an error and after removal. */
  get handle(): EmbedHandle<S> | null {
    return this.#handle;
  }

  /** The current state: `idle` until mounted, then the core's `loading | ready | error | destroyed`. */
  get state(): EmbedState {
    return this.#state;
  }

  /**
   * A session id, or a function minting a fresh one per load (called again by every reload).
   * Takes precedence over the `session-url` and `session` attributes; setting it reloads a mounted embed.
   * @example
   * ```ts
   * el.session = async () => (await fetch('/api/embed-session', { method: 'POST' })).json();
   * ```
   */
  get session(): SessionSource | undefined {
    return this.#session;
  }
  /** Replaces the session source; a mounted embed reloads with it. */
  set session(value: SessionSource | undefined) {
    this.#session = value;
    this.#schedule(true);
  }

  /** @internal */
  connectedCallback(): void {
    this.#schedule();
  }

  /** @internal */
  disconnectedCallback(): void {
    // Deferred: a move in the DOM (disconnect then connect in one task) keeps the embed.
    this.#schedule();
  }

  /** @internal */
  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    if (old === value) return;
    // After mount a new locale is an action; before, it is a launch option of the URL.
    const action =
      ACTIONS.get(name) ?? (name == 'locale' && this.#handle && value != null && ((locale: string) => ['set-locale', { locale }]));
    if (action && value != null)
      try {
        (this.send as (type: string, payload: object) => void)(...action(value));
      } catch (error) {
        // Unmounted, the next mount validates the attribute again and reports it.
        if (this.#handle) return this.#fail(error);
      }
    // A removed color-scheme or theme changes nothing; anything else defining the embed reloads it.
    this.#schedule(!action);
  }

  /**
   * Sends an action to the embed. Validated at once (an invalid payload throws); before
   * the embed is mounted and ready it is held, then sent in order.
   * @throws {EmbedError} `invalid-action` when the payload does not match the action catalog.
   */
  send<K extends ActionName>(type: K | ActionType<K>, ...payload: ActionArgs<K>): void {
    const message = createAction(type, ...payload);
    const sticky = STICKY.includes(message.type);
    if (sticky) this.#sticky.set(message.type, message.payload);
    if (this.#handle) (this.#handle.send as (t: string, p: object) => void)(message.type, message.payload);
    else if (!sticky) this.#queue.push([message.type, message.payload]);
  }

  /** Switches the color scheme (`auto` follows the viewer's OS). Kept across reloads. */
  setColorScheme(scheme: ColorScheme): void {
    this.send('set-color-scheme', { scheme });
  }

  /** Applies a brand theme. Kept across reloads. */
  setTheme(theme: EmbedTheme): void {
    this.send('set-theme', theme);
  }

  /** Switches the UI language. Kept across reloads. */
  setLocale(locale: string): void {
    this.send('set-locale', { locale });
  }

  /** Pushes a filter into a dashboard. */
  setFilter(view: string, dimension: string, value: FilterValue): void;
  /** Pushes a filter given as a ready-made `f_<view>.<dimension>=<JSON>` string. */
  setFilter(filterUrlParameter: string): void;
  setFilter(view: string, dimension?: string, value?: FilterValue): void {
    this.send('set-filter', { filterUrlParameter: dimension === undefined ? view : filterUrlParameter(view, dimension, value!) } as never);
  }

  /** Navigates to an in-embed path. */
  navigate(path: string): void {
    this.send('navigate', { path });
  }

  /** Re-runs the embed's queries. */
  refresh(): void {
    this.send('refresh');
  }

  /**
   * Loads the embed again with a fresh session (or the one given), or retries mounting after an error.
   * @returns the new load's `ready` promise; it rejects when the element cannot mount.
   */
  reload(session?: string): Promise<ReadyPayload> {
    if (this.#handle) return this.#handle.reload(session);
    this.#sync();
    return this.#handle
      ? (this.#handle as EmbedHandle<S>).ready
      : Promise.reject(
          this.#state.error ??
            invalid(`<${this.localName}> mounts once connected with base-url${this.idAttribute ? ' and ' + this.idAttribute : ''}`),
        );
  }

  #schedule(remount?: boolean): void {
    if (remount && this.#handle) this.#dirty = true;
    if (this.#scheduled) return;
    this.#scheduled = true;
    // One microtask: every attribute parsed from HTML is in, and a DOM move is over.
    queueMicrotask(() => this.#sync());
  }

  #sync(): void {
    this.#scheduled = false;
    const wanted = this.isConnected && this.hasAttribute('base-url') && (!this.idAttribute || this.hasAttribute(this.idAttribute));
    const handle = this.#handle;
    if (handle && (this.#dirty || !wanted)) {
      this.#handle = null;
      handle.destroy();
      this.#set(handle.getState());
    }
    this.#dirty = false;
    if (wanted && !this.#handle) this.#mount();
  }

  #mount(): void {
    try {
      const handle = createEmbed(this.surface, this.#options());
      const live = () => handle == this.#handle;
      this.#handle = handle;
      handle.subscribe((state) => live() && this.#set(state));
      for (const name in EVENT_SCHEMAS)
        handle.on(name as EventName, (detail, message) => {
          if (live())
            this.dispatchEvent(Object.assign(new CustomEvent(ELEMENT_EVENT_PREFIX + name, { detail, bubbles: true }), { message }));
        });
      this.#set(handle.getState());
      for (const [type, payload] of [...this.#sticky, ...this.#queue.splice(0)])
        (handle.send as (t: string, p: object) => void)(type, payload);
    } catch (error) {
      this.#fail(error);
    }
  }

  #options(): EmbedOptionsMap[S] {
    const options: Record<string, unknown> = { container: this, session: this.#session };
    const url = this.getAttribute('session-url');
    if (this.#session === undefined && url != null)
      options.session = async ({ signal }: { signal: AbortSignal }) => {
        const response = await fetch(url, { method: 'POST', credentials: 'same-origin', signal });
        if (!response.ok) throw new EmbedError(ErrorCode.Session, `session-url ${url} answered HTTP ${response.status}`);
        return response.json();
      };
    for (const name of this.getAttributeNames()) {
      const value = this.getAttribute(name)!;
      const key = camel(name);
      if (has(STRINGS, name)) options[key] ??= value;
      else if (has(JSONS, name)) options[key] = json(name, value);
      else if (has(FLAGS, name))
        options[key] =
          value == 'false'
            ? false
            : value == '' || value == 'true' || bad(`attribute ${name} must be "true", "false" or empty (got "${value}")`);
      else if (name == 'iframe-title') options.title = value;
      else if (name == 'ready-timeout')
        options.readyTimeout =
          value.trim() && +value >= 0 ? +value : bad(`attribute ready-timeout must be a number of milliseconds (got "${value}")`);
      else if (ACTIONS.has(name)) (createAction as (type: string, payload: object) => void)(...ACTIONS.get(name)!(value));
    }
    return options as unknown as EmbedOptionsMap[S];
  }

  #fail(error: unknown): void {
    const handle = this.#handle;
    this.#handle = null;
    handle?.destroy();
    this.#set({ status: 'error', error: error instanceof EmbedError ? error : invalid(String(error)), ready: null });
  }

  #set(state: EmbedState): void {
    this.#state = state;
    this.dispatchEvent(new CustomEvent(STATE_CHANGE_EVENT, { detail: state, bubbles: true }));
  }
}
