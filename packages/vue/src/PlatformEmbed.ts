import { h, shallowRef, type DefineSetupFnComponent, type SlotsType, type VNode } from 'vue';
import {
  ACTION_SCHEMAS,
  EVENT_SCHEMAS,
  bindingOptions,
  camelCase,
  type ActionName,
  type BindingOptionName,
  type CamelCase,
  type AnyEventHandler,
  type EmbedError,
  type EmbedHandle,
  type EmbedOptionsMap,
  type EmbedState,
  type EventMap,
  type EventMessage,
  type EventName,
  type NullableOptions,
  type Surface,
} from '@platform-embed/core';
import { usePlatformEmbed, type EmbedEventHandlers, type EventDispatch, type PlatformEmbedOptions } from './usePlatformEmbed';

/**
 * Props of {@link PlatformDashboard}, {@link PlatformChat} and {@link PlatformApp}: the core's
 * embed options of the surface without `container` (kebab-case in templates: `base-url`,
 * `public-id`, `allow-export`, `color-scheme`, ...). `class` and `style` go to the container
 * `<div>`, which the iframe fills: give it a height.
 */
export type PlatformEmbedProps<S extends Surface> = NullableOptions<
  Omit<EmbedOptionsMap[S], 'container' | 'className' | 'style' | keyof EmbedEventHandlers>
>;

/**
 * The emits, derived from the event catalog: `ready`, `view`, `navigate`, `dashboard-loaded`,
 * `download`, `drilldown`, `ai-query`, `error` (payload, envelope), and `event` (every valid event).
 */
export type PlatformEmbedEmits = { [K in EventName]: (payload: EventMap[K], message: EventMessage<K>) => void } & {
  event: AnyEventHandler;
};

/** The methods of {@link EmbedHandle} that a template ref exposes: `send`, `reload`, `update` and one per action of the catalog. */
export type PlatformEmbedAction = 'send' | 'reload' | 'update' | CamelCase<ActionName>;

/**
 * What a template ref on a surface component exposes: the action methods, `update()` and
 * `reload()`, forwarded to the embed, plus its `state` and the `embed` controller itself.
 */
export type PlatformEmbedExpose<S extends Surface> = Pick<EmbedHandle<S>, PlatformEmbedAction> & {
  /** The current state snapshot. */
  readonly state: EmbedState;
  /** The embed controller, `null` before mount. */
  readonly embed: EmbedHandle<S> | null;
};

/**
 * The opt-in loading and error UI, drawn over the container: `#fallback` while the embed loads
 * (and in the server HTML; the container gets `aria-busy="true"` meanwhile), `#error` in a
 * `role="alert"` region (put no other alert in it) when it failed, also for a prop it cannot use
 * (`invalid-option`: the component never throws into Vue), with the error (its `message` says the
 * cause and the fix) and `retry`, which reloads. Without them nothing is shown.
 * @example
 * ```vue
 * <template #error="{ error, retry }">{{ error.message }} <button @click="retry">Try again</button></template>
 * ```
 */
export interface PlatformEmbedSlots {
  /** Shown over the container while the embed loads (status `idle` or `loading`). */
  fallback?: () => VNode[];
  /** Shown when the embed failed for good (status `error`), with the error and `retry`, which loads it again with a fresh session. */
  error?: (props: { error: EmbedError; retry: () => void }) => VNode[];
}

type Base<S extends Surface> = DefineSetupFnComponent<
  PlatformEmbedProps<S> & EmbedEventHandlers,
  PlatformEmbedEmits,
  SlotsType<PlatformEmbedSlots>
>;

/** A surface component; a template ref on it is a {@link PlatformEmbedExpose}. */
export type PlatformEmbedComponent<S extends Surface> = new (
  ...args: ConstructorParameters<Base<S>>
) => InstanceType<Base<S>> & PlatformEmbedExpose<S>;

/**
 * Every option, declared so that none falls through to the container as an attribute: from the
 * core's option tables, but `className` and `style` (Vue's `class` and `style` go to the container).
 * @internal
 */
const DECLARED = /* @__PURE__ */ bindingOptions().filter(({ name }) => name != 'className' && name != 'style');
export const OPTIONS = /* @__PURE__ */ DECLARED.map(({ name }) => name) as Exclude<BindingOptionName, 'className' | 'style'>[];
// Flags are cast as booleans (`<PlatformDashboard allow-export debug keep-alive />`), as the tables
// declare them, but stay undefined when absent: an absent `show-dashboard-header` must not become
// `false`. A flag that may be a name (`keep-alive="sales"`) is a string otherwise.
const PROPS = /* @__PURE__ */ Object.fromEntries(
  DECLARED.map(({ name, attribute, check }) => [
    name,
    attribute == 'flag' || attribute == 'flagOrName'
      ? {
          type: attribute == 'flagOrName' ? [Boolean, String] : check?.includes('function') ? [Boolean, Function] : Boolean,
          default: undefined,
        }
      : null,
  ]),
);

// (What `defineComponent(setup, { name, props, emits })` returns, written out: its types are PlatformEmbedComponent's.)
const create = <S extends Surface>(surface: S, name: string) =>
  ({
    name,
    props: PROPS,
    emits: [...Object.keys(EVENT_SCHEMAS), 'event'],
    setup(
      props: Record<string, unknown>,
      { emit, expose, slots }: { emit: EventDispatch; expose: (api: object) => void; slots: PlatformEmbedSlots },
    ) {
      const container = shallowRef<HTMLElement | null>(null);
      const { state, embed } = usePlatformEmbed(container, () => ({ ...props, surface }) as unknown as PlatformEmbedOptions<S>, emit);
      const api: Record<string, unknown> = { state, embed };
      // The embed exists from mount (before the parent's `mounted`) until unmount: as long as a template ref does.
      for (const action of ['send', 'reload', 'update', ...Object.keys(ACTION_SCHEMAS).map(camelCase)])
        api[action] = (...args: unknown[]) => (embed.value as unknown as Record<string, Function>)[action]!(...args);
      expose(api);
      // The loading and error UI, only when a slot asks for it: drawn over the iframe, which the core appends after it.
      // (reload() returns the core's `ready` promise, whose rejection the core already handles.)
      return () => {
        const { ready, error } = state.value;
        // Neither ready nor failed: loading, or not mounted yet (as in the server HTML).
        const busy = !ready && !error;
        const slot = busy ? slots.fallback : error && slots.error;
        return h(
          'div',
          {
            ref: container,
            'data-platform-embed': surface,
            ...((slots.fallback || slots.error) && { 'aria-busy': busy || undefined, style: 'position:relative' }),
          },
          slot
            ? h(
                'div',
                { role: error && 'alert', style: 'position:absolute;inset:0' },
                slot({ error: error!, retry: () => void embed.value?.reload() }),
              )
            : undefined,
        );
      };
    },
  }) as unknown as PlatformEmbedComponent<S>;

/**
 * Embeds a published dashboard. Props are declarative: the core decides what a change means.
 * A new `public-id`, `base-url` or launch option reloads with a fresh session; `color-scheme`,
 * `theme`, `locale`, `filters` and `path` are sent as actions to the same iframe. What the host
 * set (by prop or through the template ref) comes back after every reload.
 * @example
 * ```vue
 * <PlatformDashboard
 *   ref="dashboard"
 *   :base-url="baseUrl"
 *   public-id="sales-overview"
 *   :session="session"
 *   :color-scheme="dark ? 'dark' : 'light'"
 *   allow-export
 *   style="height: 600px"
 *   @drilldown="onDrilldown"
 * />
 * ```
 */
export const PlatformDashboard: PlatformEmbedComponent<'dashboard'> = /* @__PURE__ */ create('dashboard', 'PlatformDashboard');

/** Embeds the standalone analytics chat (private mode without `session`). Same rules as {@link PlatformDashboard}. */
export const PlatformChat: PlatformEmbedComponent<'chat'> = /* @__PURE__ */ create('chat', 'PlatformChat');

/** Embeds the creator-mode app of a deployment (needs `session`). Same rules as {@link PlatformDashboard}. */
export const PlatformApp: PlatformEmbedComponent<'app'> = /* @__PURE__ */ create('app', 'PlatformApp');
