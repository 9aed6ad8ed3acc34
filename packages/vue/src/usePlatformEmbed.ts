import { camelize, shallowReadonly, shallowRef, toHandlerKey, toValue, watch, type MaybeRefOrGetter, type ShallowRef } from 'vue';
import {
  EVENT_SCHEMAS,
  createEmbed,
  embedKey,
  type EmbedBindingOptions,
  type EmbedHandle,
  type EmbedOptionsMap,
  type EmbedState,
  type EventHandlerProps,
  type EventName,
  type SessionSource,
  type Surface,
} from '@platform-embed/core';

/** The `on<Event>` handler options of the composable: the core's {@link EventHandlerProps}. */
export type EmbedEventHandlers = EventHandlerProps;

/** Options of {@link usePlatformEmbed}: the surface, the core's embed options (without `container`) and event handlers. */
export type PlatformEmbedOptions<S extends Surface> = EmbedBindingOptions<S>;

/** What {@link usePlatformEmbed} returns: read-only refs. */
export interface PlatformEmbedResult<S extends Surface> {
  /** The state snapshot; `idle` until a container is there (and during server rendering). */
  state: Readonly<ShallowRef<EmbedState>>;
  /** The current embed controller, `null` until mounted. A change of what is embedded replaces it. */
  embed: Readonly<ShallowRef<EmbedHandle<S> | null>>;
}

type SessionFunction = Exclude<SessionSource, string>;

/** Receives the events of {@link usePlatformEmbed} (a component's `emit` fits). */
export type EventDispatch = (name: string, ...args: unknown[]) => void;

const IDLE: EmbedState = { status: 'idle', error: null, ready: null };

/**
 * Embeds a surface into a container element and follows its state. `target` and `options`
 * may be plain values, refs or getters. The embed is created when the container is there,
 * and created again (destroying the previous one) only when what is embedded changes:
 * surface, `baseUrl`, `publicId`/`deploymentId`, launch options, iframe attributes or a
 * session id string. New handler or `session` function identities take effect without a
 * reload; `readyTimeout`, `debug` and `onDiagnostic` are read when the embed is created. Everything is
 * cleaned up when the container goes away or the effect scope (component) is disposed.
 *
 * @param dispatch receives every event instead of the `on<Event>` options: `(name, payload, message)`
 *   for catalog events, `('event', message)` for the catch-all (the components pass their `emit`).
 * @example
 * ```ts
 * const box = useTemplateRef<HTMLElement>('box');
 * const { state, embed } = usePlatformEmbed(box, () => ({
 *   surface: 'dashboard',
 *   baseUrl: 'https://acme.platform.example',
 *   publicId: props.publicId,
 *   session: () => fetch('/api/embed-session').then((r) => r.json()),
 *   onDrilldown: ({ member }) => console.log(member),
 * }));
 * ```
 */
export function usePlatformEmbed<S extends Surface>(
  target: MaybeRefOrGetter<HTMLElement | null | undefined>,
  options: MaybeRefOrGetter<PlatformEmbedOptions<S>>,
  dispatch: EventDispatch = (name, ...args) =>
    (toValue(options) as unknown as Record<string, Function | undefined>)[toHandlerKey(camelize(name))]?.(...args),
): PlatformEmbedResult<S> {
  const state = shallowRef(IDLE);
  const embed = shallowRef<EmbedHandle<S> | null>(null);
  const latest = () => toValue(options);

  // Synchronous, so the embed exists before the parent's `mounted` hooks run. Several option
  // changes in one update may create and destroy embeds in between: the core asks for a
  // session one microtask later, and not at all for an embed destroyed by then.
  // Stopping the watcher (scope dispose) runs its cleanup: the embed is destroyed.
  watch(
    [() => toValue(target), () => embedKey(latest())],
    ([container], _, onCleanup) => {
      if (!container) return;
      const o = latest();
      const handle = createEmbed(o.surface, {
        ...o,
        container,
        session: typeof o.session == 'function' ? (c: { signal: AbortSignal }) => (latest().session as SessionFunction)(c) : o.session,
      } as unknown as EmbedOptionsMap[S]);
      for (const name of Object.keys(EVENT_SCHEMAS) as EventName[]) handle.on(name, (payload, message) => dispatch(name, payload, message));
      handle.on('*', (message) => dispatch('event', message));
      handle.subscribe((next) => (state.value = next));
      state.value = handle.getState();
      embed.value = handle;
      onCleanup(handle.destroy);
    },
    { flush: 'sync', immediate: true },
  );
  return { state: shallowReadonly(state), embed: shallowReadonly(embed) };
}
