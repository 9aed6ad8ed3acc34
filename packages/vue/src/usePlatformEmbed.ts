import {
  getCurrentInstance,
  onActivated,
  onDeactivated,
  onScopeDispose,
  shallowReadonly,
  shallowRef,
  toRaw,
  toValue,
  watch,
  type ComponentInternalInstance,
  type MaybeRefOrGetter,
  type ShallowRef,
  type VNode,
} from 'vue';
import {
  createBinding,
  eventHandlers,
  type EmbedBindingOptions,
  type EmbedHandle,
  type EmbedState,
  type EventHandlerProps,
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
  /** The embed controller, `null` until mounted. */
  embed: Readonly<ShallowRef<EmbedHandle<S> | null>>;
  /**
   * Moves the embed aside, keeping its document where the browser can (`moveBefore`), before
   * something takes the container out of the document and puts it back later; the embed comes
   * back into it at the next change, or when the component is activated again.
   */
  detach(): void;
}

/*
 * <KeepAlive> deactivates a component by moving its DOM into a detached container before any of
 * its hooks runs, and an iframe taken out of the document unloads. Vue has no hook before that
 * move, so the `deactivate` of each enclosing <KeepAlive>'s context (what Vue's renderer calls
 * for a kept component, Vue 3.0 to 3.5) is wrapped once: it first moves aside the embeds inside
 * the component it deactivates, wherever they are in its tree (the wrapper holds them, as
 * `embeds`: one call per embed inside that <KeepAlive>).
 *
 * That is an internal no public API promises, so it is wrapped only where it has the shape we
 * know (a function on the context, which takes the assignment), and nothing here throws: without
 * it the embed is parked cold (onDeactivated's detach finds its frame gone: activated, it loads
 * again with a fresh session, its state replayed), as where the browser has no moveBefore.
 */
function beforeDeactivate(instance: ComponentInternalInstance, detach: () => void) {
  const aside = (vnode?: VNode) => {
    for (let node: ComponentInternalInstance | null = instance; node; node = node.parent) if (node == vnode?.component) return detach();
  };
  type Deactivate = Function & { embeds?: Set<typeof aside> };
  for (let parent = instance.parent; parent; parent = parent.parent)
    if ((parent.type as { __isKeepAlive?: boolean }).__isKeepAlive)
      try {
        const context = (parent as unknown as { ctx: { deactivate: Deactivate } }).ctx;
        const deactivate = context.deactivate;
        const embeds = deactivate.embeds ?? new Set();
        // (Whatever Vue passes goes on as it is; what it returns, Vue 3.5 reads.)
        if (!deactivate.embeds && typeof deactivate == 'function')
          context.deactivate = Object.assign(
            (...args: unknown[]) => (embeds.forEach((call) => call(args[0] as VNode | undefined)), deactivate.apply(context, args)),
            { embeds },
          );
        if (context.deactivate.embeds == embeds) {
          embeds.add(aside);
          onScopeDispose(() => embeds.delete(aside));
        }
      } catch {}
}

/** Receives the events of {@link usePlatformEmbed} (a component's `emit` fits). */
export type EventDispatch = (name: string, ...args: unknown[]) => void;

/**
 * Embeds a surface into a container element and follows its state. `target` and `options`
 * may be plain values, refs or getters. It only maps Vue onto the core's controller: created
 * when the container is there, `update()`d whenever the options change (the core decides what
 * a change means: reload, action or swap, and keeps the host state across reloads), destroyed
 * when the container goes away or the effect scope (component) is disposed.
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
 *   colorScheme: props.dark ? 'dark' : 'light', // an action on change, no reload
 *   session: () => fetch('/api/embed-session', { method: 'POST' }),
 *   onDrilldown: ({ member }) => console.log(member),
 * }));
 * ```
 */
export function usePlatformEmbed<S extends Surface>(
  target: MaybeRefOrGetter<HTMLElement | null | undefined>,
  options: MaybeRefOrGetter<PlatformEmbedOptions<S>>,
  dispatch?: EventDispatch,
): PlatformEmbedResult<S> {
  const binding = createBinding<S>();
  const state = shallowRef(binding.getState());
  const embed = shallowRef<EmbedHandle<S> | null>(null);
  binding.subscribe(() => {
    state.value = binding.getState();
    embed.value = binding.handle;
  });
  // With `dispatch`, the handler options emit instead (one per event of the catalog).
  const handlers = dispatch ? eventHandlers(dispatch) : {};
  const instance = getCurrentInstance();
  // Synchronous, so the embed exists before the parent's `mounted` hooks run. Values are
  // unwrapped from Vue's proxies (a reactive theme cannot be cloned into a message).
  const read = () => {
    const next: Record<string, unknown> = { ...handlers };
    // The SDK's errors go to the console unless the host hears them: with `dispatch`, the component's `error` listener.
    const listeners = instance?.vnode.props;
    if (instance && !listeners?.onError && !listeners?.onErrorOnce) delete next.onError;
    for (const [key, value] of Object.entries(toValue(options))) next[key] ??= toRaw(value);
    return [toValue(target), next as PlatformEmbedOptions<S>] as const;
  };
  const apply = ([container, next]: ReturnType<typeof read>) => (container ? binding.mount(container, next) : binding.unmount());
  watch(read, apply, { flush: 'sync', immediate: true });
  onScopeDispose(binding.unmount);
  // <KeepAlive>: the embed moves aside just before the component is deactivated (see
  // beforeDeactivate; after it, the fallback, its frame is gone: it loads again), and comes back
  // into its container when activated.
  if (instance) {
    beforeDeactivate(instance, binding.detach);
    onDeactivated(binding.detach);
    onActivated(() => apply(read()));
  }
  return { state: shallowReadonly(state), embed: shallowReadonly(embed), detach: binding.detach };
}
