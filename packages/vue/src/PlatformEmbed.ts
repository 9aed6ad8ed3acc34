import { camelize, defineComponent, h, shallowRef, type ComponentObjectPropsOptions, type DefineSetupFnComponent } from 'vue';
import {
  ACTION_SCHEMAS,
  EVENT_SCHEMAS,
  type ActionName,
  type AnyEventHandler,
  type EmbedHandle,
  type EmbedOptionsMap,
  type EmbedState,
  type EventMap,
  type EventMessage,
  type EventName,
  type Surface,
} from '@platform-embed/core';
import { usePlatformEmbed, type EmbedEventHandlers, type PlatformEmbedOptions } from './usePlatformEmbed';

/**
 * Props of {@link PlatformDashboard}, {@link PlatformChat} and {@link PlatformApp}: the core's
 * embed options of the surface without `container` (kebab-case in templates: `base-url`,
 * `public-id`, `allow-export`, ...). `class` and `style` go to the container `<div>`, which
 * the iframe fills: give it a height.
 */
export type PlatformEmbedProps<S extends Surface> = Omit<EmbedOptionsMap[S], 'container' | 'className' | 'style'>;

/**
 * The emits, derived from the event catalog: `ready`, `view`, `navigate`, `dashboard-loaded`,
 * `download`, `drilldown`, `ai-query`, `error` (payload, envelope), and `event` (every valid event).
 */
export type PlatformEmbedEmits = { [K in EventName]: (payload: EventMap[K], message: EventMessage<K>) => void } & {
  event: AnyEventHandler;
};

type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

/** The methods of {@link EmbedHandle} that a template ref exposes: `send`, `reload` and one per action of the catalog. */
export type PlatformEmbedAction = 'send' | 'reload' | Camel<ActionName>;

/**
 * What a template ref on a surface component exposes: the action methods and `reload()`,
 * forwarded to the current embed, plus its `state` and the `embed` controller itself.
 */
export type PlatformEmbedExpose<S extends Surface> = Pick<EmbedHandle<S>, PlatformEmbedAction> & {
  /** The current state snapshot. */
  readonly state: EmbedState;
  /** The current embed controller, `null` before mount. */
  readonly embed: EmbedHandle<S> | null;
};

type Base<S extends Surface> = DefineSetupFnComponent<PlatformEmbedProps<S> & EmbedEventHandlers, PlatformEmbedEmits>;

/** A surface component; a template ref on it is a {@link PlatformEmbedExpose}. */
export type PlatformEmbedComponent<S extends Surface> = new (
  ...args: ConstructorParameters<Base<S>>
) => InstanceType<Base<S>> & PlatformEmbedExpose<S>;

/**
 * Every option, declared so that none falls through to the container as an attribute.
 * @internal
 */
export const OPTIONS =
  'baseUrl publicId deploymentId session locale filters timeGrains fieldSwitches title allow sandbox referrerPolicy loading readyTimeout debug onDiagnostic allowExport showDashboardExportMenu showDashboardHeader showDashboardBackButton showDashboardTitle showDashboardEditButton showDashboardDuplicateButton showWorkbookBackButton';
// Launch flags and `debug` are cast as booleans (`<PlatformDashboard allow-export debug />`) but
// stay undefined when absent: an absent `show-dashboard-header` must not become `false`.
const PROPS = /* @__PURE__ */ Object.fromEntries(
  OPTIONS.split(' ').map((name) => [
    name,
    /^(allowE|show|debug)/.test(name) ? { type: name == 'debug' ? [Boolean, Function] : Boolean, default: undefined } : null,
  ]),
);

const create = <S extends Surface>(surface: S, name: string) =>
  defineComponent(
    (props: Record<string, unknown>, { emit, expose }) => {
      const container = shallowRef<HTMLElement | null>(null);
      const { state, embed } = usePlatformEmbed(container, () => ({ ...props, surface }) as unknown as PlatformEmbedOptions<S>, emit);
      const api: Record<string, unknown> = { state, embed };
      // The embed exists from mount (before the parent's `mounted`) until unmount: as long as a template ref does.
      for (const action of ['send', 'reload', ...Object.keys(ACTION_SCHEMAS).map(camelize)])
        api[action] = (...args: unknown[]) => (embed.value as unknown as Record<string, Function>)[action]!(...args);
      expose(api);
      return () => h('div', { ref: container, 'data-platform-embed': surface });
    },
    { name, props: PROPS as ComponentObjectPropsOptions<Record<string, unknown>>, emits: [...Object.keys(EVENT_SCHEMAS), 'event'] },
  ) as unknown as PlatformEmbedComponent<S>;

/**
 * Embeds a published dashboard. Reloads with a fresh session only when what is embedded
 * changes (`base-url`, `public-id`, launch options, iframe attributes, a session id string).
 * @example
 * ```vue
 * <PlatformDashboard
 *   ref="dashboard"
 *   base-url="https://acme.platform.example"
 *   public-id="sales-overview"
 *   :session="() => fetch('/api/embed-session').then((r) => r.json())"
 *   allow-export
 *   style="height: 600px"
 *   @drilldown="({ member, value }) => console.log(member, value)"
 *   @dashboard-loaded="onLoaded"
 * />
 * <!-- dashboard.value.setColorScheme('dark') -->
 * ```
 */
export const PlatformDashboard: PlatformEmbedComponent<'dashboard'> = /* @__PURE__ */ create('dashboard', 'PlatformDashboard');

/** Embeds the standalone analytics chat (private mode without `session`). Same rules as {@link PlatformDashboard}. */
export const PlatformChat: PlatformEmbedComponent<'chat'> = /* @__PURE__ */ create('chat', 'PlatformChat');

/** Embeds the creator-mode app of a deployment (needs `session`). Same rules as {@link PlatformDashboard}. */
export const PlatformApp: PlatformEmbedComponent<'app'> = /* @__PURE__ */ create('app', 'PlatformApp');
