import {
  EVENT_PREFIX,
  EmbedError,
  actionHelpers,
  bindingOptions,
  checkAttributes,
  createAction,
  createBinding,
  eventHandlers,
  type ActionArgs,
  type ActionName,
  type ActionType,
  type AttributeKind,
  type AttributesOf,
  type CamelCase,
  type EmbedBindingOptions,
  type EmbedHandle,
  type EmbedState,
  type EventMessage,
  type ReadyPayload,
  type SessionSource,
  type Surface,
} from '@platform-embed/core';
import { ELEMENT_EVENT_PREFIX, STATE_CHANGE_EVENT } from './elementEvents';

/** The boolean attributes (`allow-export`, `debug`, ...): present, `""` or `"true"` is true, `"false"` is false. Derived from the core's option tables. */
export type FlagAttribute = AttributesOf<'flag'>;
/** The attributes holding a JSON object (`theme`, `filters`, `time-grains`, `field-switches`). Derived from the core's option tables. */
export type JsonAttribute = AttributesOf<'json'>;
/** The attributes holding a number: milliseconds (`ready-timeout`, `session-timeout`), or retries or `"false"` (`retry`). */
export type NumberAttribute = AttributesOf<'number' | 'retry'>;
/** The plain string attributes (`session` is a literal session id, `initial-session` one minted by the server). Derived from the core's option tables. */
export type StringAttribute = AttributesOf<'string'>;

// How each attribute is read and the option it sets, and each option's attribute (`colorScheme`
// is `color-scheme`: the core's refusals name options, an element's user wrote attributes), from
// the core's option tables.
const READ = new Map<string, [name: string, kind: AttributeKind]>();
const ATTRIBUTE = new Map<string, string>();
for (const { name, attribute, attributeName } of bindingOptions())
  if (attribute) {
    READ.set(attributeName, [name, attribute]);
    ATTRIBUTE.set(name, attributeName);
  }
const inAttributeWords = (message: string) => message.replace(/\w+/g, (word) => ATTRIBUTE.get(word) ?? word);
const invalid = (message: string) => new EmbedError('invalid-option', message);
// Every attribute of the elements.
const KNOWN = [...READ.keys(), 'session-url'];

// An attribute's value as its option (`kind` says how, see AttributeKind); an invalid one throws,
// naming the attribute (and, in development, what it must be).
function read(kind: AttributeKind, name: string, value: string): unknown {
  if (kind == 'string') return value;
  if (kind == 'json')
    try {
      const parsed: unknown = JSON.parse(value);
      if (parsed && typeof parsed == 'object' && !Array.isArray(parsed)) return parsed;
    } catch {}
  else if (value == 'false' && kind != 'number') return false;
  else if (kind == 'flagOrName') return value == '' || value == 'true' || value;
  else if (kind == 'flag') {
    if (value == '' || value == 'true') return true;
  } else if (value.trim() && +value >= 0) return +value;
  throw invalid(
    __DEV__
      ? `attribute ${name} must be ${
          kind == 'flag'
            ? '"true", "false" or empty'
            : kind == 'json'
              ? 'a JSON object'
              : `a number of ${kind == 'retry' ? 'retries or "false"' : 'milliseconds'}`
        } (got ${kind == 'json' ? JSON.stringify(value.slice(0, 40)) : `"${value}"`})`
      : name,
  );
}

// Without a DOM (Node, server rendering) the classes still load; they are just never defined.
const Base = (typeof HTMLElement == 'undefined' ? class {} : HTMLElement) as typeof HTMLElement;

/**
 * The base class of `<platform-dashboard>`, `<platform-chat>` and `<platform-app>`. It only maps
 * the element onto the core's controller: its attributes are the options (the core decides
 * what a change means: reload, action or swap, and keeps the host state across reloads), it
 * mounts inside itself once connected with its required attributes, re-dispatches every
 * protocol event as a DOM `CustomEvent` named `platform-<event>` (payload in `detail`, envelope
 * in `message`) plus `platform-statechange`, and destroys the embed when removed from the document.
 *
 * Attributes (all optional unless marked):
 * - `base-url` (required), `public-id` (required by `<platform-dashboard>`), `deployment-id` (required by `<platform-app>`)
 * - `session-url`: an endpoint of the host's own backend, called with `POST` (no body, same-origin
 *   credentials) for every load; it must answer `{ "sessionId": "..." }`
 * - `session`: a literal session id (single-use: prefer `session-url`); the `session` property also takes a function;
 *   `initial-session`: one minted while the page was rendered on the server, for the first load
 * - `allow-export`, `show-dashboard-header="false"`, ...: the boolean launch options (`""`/`"true"` or `"false"`)
 * - `locale`, and the JSON objects `filters`, `time-grains`, `field-switches`
 * - `color-scheme`, `theme` (JSON), `path`: state, sent as actions (no reload) and kept across reloads
 * - `iframe-title`, `allow`, `sandbox`, `referrer-policy`, `loading` (`lazy`: no session until near the viewport)
 * - `ready-timeout`, `session-timeout` (milliseconds), `retry` (a number, or `false`), `debug`
 *
 * (Every attribute but `session-url` is an option of the core's option tables, read as the table says.)
 *
 * A mistake in the attributes never throws. Before the embed runs (a required attribute missing
 * or misspelled, an invalid value) the element enters the `error` state (see
 * `platform-statechange`, `invalid-option`) with a message naming the attribute, and any later
 * attribute change tries again; a running embed refuses an invalid change and goes on as it was.
 * Either is reported as a `platform-error` event of the SDK (`detail.name` `EmbedError`,
 * `detail.context` its code) when a `platform-error` listener is on the element, else with
 * `console.error`. An attribute that is none of the element's is ignored, with a did-you-mean
 * warning in development (`allow-exprt`); one that reads like a session attribute (`sesion-url`)
 * on an element without a session is an error in every build (the element would open private
 * mode, where the viewer signs in).
 *
 * Loading and error UI (opt-in): a child with `slot="fallback"` is shown while the embed loads
 * (the element gets `aria-busy="true"`), a child with `slot="error"` (give it `hidden` in the
 * markup) when it failed, with `role="alert"`; the element toggles their `hidden` attribute and
 * writes the error message into the error child's `[data-platform-error-message]` element. A
 * click on a `[data-platform-retry]` element inside the error child reloads. Style them yourself,
 * e.g. `position: absolute` over the iframe, which the element appends after its children. The
 * iframe is the element's: taken out by the page (a framework writing the element's text), the
 * embed fails (`no-container`, saying why) until `reload()`; a copy of the element drops the copied one.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the action helpers, declared below
export class PlatformElement<S extends Surface = Surface> extends Base {
  /** The attributes whose changes the element reacts to. */
  static readonly observedAttributes: string[] = KNOWN;

  #binding = createBinding<S>(inAttributeWords);
  #session: SessionSource | undefined;
  #scheduled = false;
  #url?: [string, SessionSource];
  // The `platform-error` listeners on the element: with one, `onError` is passed (the SDK's errors
  // are heard, not written to the console); without, the embed's own `error` events come through the
  // catch-all (`#heard`: whether the options in force have `onError`).
  #listeners = new Set<unknown>();
  #heard = false;
  // The handler options: each protocol event re-dispatched as a DOM event.
  // (Its catch-all is #onEvent's.)
  #handlers = eventHandlers((name, detail, message) =>
    this.dispatchEvent(Object.assign(new CustomEvent(ELEMENT_EVENT_PREFIX + name, { detail, bubbles: true }), { message })),
  );
  #onEvent = (message: EventMessage) =>
    this.#heard || message.type != EVENT_PREFIX + 'error' || this.#handlers.onError!(message.payload, message);

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
    // (A copy, made by cloneNode or parsed from HTML, is upgraded with its children: its copied iframe goes.)
    this.#tidy();
    this.#binding.subscribe(() => this.#changed());
    // A click on a retry control of the error child reloads.
    this.addEventListener('click', (event) => {
      if ((event.target as Element).closest?.('[data-platform-retry]')?.closest('[slot=error]')?.parentElement == this)
        this.reload().catch(() => {});
    });
    // A property set before the element was upgraded shadows the accessor: move it over.
    if (Object.hasOwn(this, 'session')) {
      const value = (this as { session?: SessionSource }).session;
      delete (this as { session?: SessionSource }).session;
      this.session = value;
    }
  }

  /** The core controller, or `null` before mounting, after an invalid attribute and after removal. Stable across reloads. */
  get handle(): EmbedHandle<S> | null {
    return this.#binding.handle;
  }

  /** The current state: `idle` until mounted, then the core's `loading | ready | error | destroyed`. */
  get state(): EmbedState {
    return this.#binding.getState();
  }

  /**
   * A session id, or a function minting a fresh one per load (called again by every reload).
   * Takes precedence over the `session-url` and `session` attributes.
   * @example
   * ```ts
   * el.session = () => fetch('/api/embed-session', { method: 'POST' });
   * ```
   */
  get session(): SessionSource | undefined {
    return this.#session;
  }
  /** Replaces the session source: a new function is used from the next load, a new id reloads with it. `null` is none (as a framework sets a property it has no value for yet). */
  set session(value: SessionSource | null | undefined) {
    this.#session = value ?? undefined;
    this.#schedule();
  }

  // Slot children added after the state was shown (the HTML parser adds an element's children
  // after connecting it, and may run our microtask in between) get the state shown too.
  #children = typeof MutationObserver == 'undefined' ? null : new MutationObserver(() => (this.#tidy(), this.#slots(this.state)));

  // The children are the page's too. An iframe that is not the embed's own is a copy (cloneNode,
  // the element's HTML parsed again: a snapshot Turbo Drive or htmx restores), loading the spent
  // session: it goes. The embed's own, taken out by the page (a framework writing the element's
  // text), has lost its document: the core decides at the next mount (it fails, saying why).
  #tidy(): void {
    const frame = this.handle?.iframe;
    this.querySelectorAll(':scope>iframe:not([slot])').forEach((other) => other == frame || other.remove());
    if (frame && !frame.isConnected) this.#schedule();
  }

  /** @internal */
  connectedCallback(): void {
    this.#children?.observe(this, { childList: true });
    this.#schedule();
  }

  /** @internal */
  disconnectedCallback(): void {
    this.#children?.disconnect();
    // Out of the document: unmounted now, not at this element's next microtask, so that an element
    // of its keep-alive name connected in the same task (a list rendered again) adopts it; that
    // stands a microtask later, unless a connect in the same task mounts it again. Already back
    // (a move: reactions run after it): as any change.
    if (this.isConnected) this.#schedule();
    else this.#binding.unmount();
  }

  /** @internal Moved with `moveBefore`: nothing happens to the embed (its iframe keeps its document). */
  connectedMoveCallback(): void {}

  /** Adds an event listener. One for `platform-error` on the element hears the SDK's errors: they are not written to the console. */
  override addEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: HTMLElement, event: HTMLElementEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void {
    super.addEventListener(type, listener, options);
    this.#listen(type, listener, true);
  }

  /** Removes an event listener. */
  override removeEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: HTMLElement, event: HTMLElementEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void {
    super.removeEventListener(type, listener, options);
    this.#listen(type, listener);
  }

  #listen(type: string, listener: unknown, add?: boolean): void {
    if (type == ELEMENT_EVENT_PREFIX + 'error' && listener) {
      if (add) this.#listeners.add(listener);
      else this.#listeners.delete(listener);
      this.#schedule();
    }
  }

  /** @internal */
  attributeChangedCallback(_name: string, old: string | null, value: string | null): void {
    if (old !== value) this.#schedule();
  }

  /**
   * Sends an action to the embed. Validated at once (an invalid payload throws); before
   * the embed is mounted and ready it is held, then sent in order.
   * @throws {EmbedError} `invalid-action` when the payload does not match the action catalog.
   */
  send<K extends ActionName>(type: K | ActionType<K>, ...payload: ActionArgs<K>): void {
    // Checked now even before the embed exists (then the handle's send checks it).
    if (!this.handle) createAction(type, ...payload);
    this.#binding.act((handle) => handle.send(type, ...payload));
  }

  /**
   * Loads the embed again with a fresh session (or the one given), or retries mounting after an error.
   * @returns the new load's `ready` promise; it rejects when the element cannot mount.
   */
  reload(session?: string): Promise<ReadyPayload> {
    if (!this.handle) this.#sync();
    return this.handle
      ? this.handle.reload(session)
      : Promise.reject(
          this.state.error ??
            invalid(
              __DEV__
                ? `<${this.localName}> mounts once connected with base-url${this.idAttribute ? ' and ' + this.idAttribute : ''}`
                : this.localName,
            ),
        );
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // One microtask: every attribute parsed from HTML is in, and a DOM move is over.
    queueMicrotask(() => this.#sync());
  }

  #sync(): void {
    this.#scheduled = false;
    if (!this.isConnected) return this.#binding.unmount();
    // (The binding refuses options with a mistake in them: the element's state says so.)
    this.#binding.mount(this, ...this.#options());
  }

  // The options the attributes say, and the first mistake in them.
  #options(): [EmbedBindingOptions<S>, EmbedError?] {
    this.#heard = this.#listeners.size > 0;
    const options: Record<string, unknown> = { ...this.#handlers, onEvent: this.#onEvent, surface: this.surface };
    if (!this.#heard) delete options.onError;
    const names = this.getAttributeNames();
    let invalidValue: EmbedError | undefined;
    for (const name of names) {
      const entry = READ.get(name);
      try {
        if (entry) options[entry[0]] = read(entry[1], name, this.getAttribute(name)!);
      } catch (error) {
        invalidValue ??= error as EmbedError;
      }
    }
    const url = this.getAttribute('session-url');
    if (this.#session !== undefined) options.session = this.#session;
    else if (url != null) {
      // One function per session-url (a stable identity: a new one is only swapped in); the core reads its response.
      if (this.#url?.[0] !== url) this.#url = [url, ({ signal }) => fetch(url, { method: 'POST', credentials: 'same-origin', signal })];
      options.session = this.#url[1];
    }
    const problem = checkAttributes(
      this.localName,
      // (Not the page's own: HTML's, `data-` and `aria-` attributes.)
      names.filter((name) => !KNOWN.includes(name) && !(name in this) && !/^(data|aria)-/.test(name)),
      KNOWN,
      ['base-url', this.idAttribute!].filter((name) => name && !names.includes(name)),
      options.session !== undefined || options.initialSession !== undefined,
    );
    return [options as EmbedBindingOptions<S>, problem ?? invalidValue];
  }

  // Shows the slotted loading or error child that matches the state, if the host gave one.
  #slots({ status, error }: EmbedState): void {
    const child = (name: string) => this.querySelector<HTMLElement>(`:scope > [slot=${name}]`);
    const fallback = child('fallback');
    const failed = child('error');
    if (!fallback && !failed) return;
    const busy = status == 'idle' || status == 'loading';
    if (busy) this.setAttribute('aria-busy', 'true');
    else this.removeAttribute('aria-busy');
    if (fallback) fallback.hidden = !busy;
    if (failed) {
      failed.hidden = !error;
      if (!failed.hasAttribute('role')) failed.setAttribute('role', 'alert');
      const message = failed.querySelector('[data-platform-error-message]');
      if (message && error) message.textContent = error.message;
    }
  }

  #state?: EmbedState;
  #changed(): void {
    const state = this.state;
    if (state === this.#state) return;
    this.#state = state;
    this.#slots(state);
    this.dispatchEvent(new CustomEvent(STATE_CHANGE_EVENT, { detail: state, bubbles: true }));
  }
}

// The action helpers (`setColorScheme`, `setFilter`, ...) are the core's, derived from the catalog,
// as methods calling `send` (typed and documented by the handle's).
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- merged with the class, whose type parameter it must repeat
export interface PlatformElement<S extends Surface = Surface> extends Pick<EmbedHandle, CamelCase<ActionName>> {}
Object.assign(
  PlatformElement.prototype,
  actionHelpers(function (this: unknown, name, payload) {
    (this as PlatformElement).send(name as ActionName, payload as never);
  }),
);
