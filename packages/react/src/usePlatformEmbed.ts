'use client';
import { useEffect, useImperativeHandle, useLayoutEffect, useState, useSyncExternalStore, type Ref, type RefObject } from 'react';
import {
  IDLE,
  createBinding,
  type EmbedBindingOptions,
  type EmbedHandle,
  type EmbedState,
  type EventHandlerProps,
  type Surface,
} from '@platform-embed/core';

/** The `on<Event>` handler props of the components: the core's {@link EventHandlerProps}. */
export type EmbedEventProps = EventHandlerProps;

/** Options of {@link usePlatformEmbed}: the surface, the core's embed options (without `container`) and event handlers. */
export type PlatformEmbedOptions<S extends Surface> = EmbedBindingOptions<S>;

/** What {@link usePlatformEmbed} returns. */
export interface PlatformEmbedResult<S extends Surface> {
  /** The state snapshot; `idle` until mounted (and during server rendering). */
  state: EmbedState;
  /** The embed controller, `null` until mounted. The same object for the component's whole life. */
  embed: EmbedHandle<S> | null;
}

// A layout effect, so a parent's effects already find the embed (and the ref) in place;
// a plain effect on the server, where neither runs (and React 18 warns about layout effects).
const useMountEffect = typeof document == 'undefined' ? useEffect : useLayoutEffect;

/**
 * Embeds a surface into a container the host renders itself, and follows its state with
 * `useSyncExternalStore`. It only maps React onto the core's controller: created after mount,
 * `update()`d with the options after every render (the core decides what a change means:
 * reload, action or swap, and keeps the host state across reloads), destroyed on unmount.
 * StrictMode's simulated unmount keeps the same controller, so it mints one session.
 *
 * @param target the container element, or a ref to it (read after mount).
 * @param ref optional ref set to the {@link EmbedHandle}, as the components do.
 * @example
 * ```tsx
 * function Sales({ dark }: { dark: boolean }) {
 *   const box = useRef<HTMLDivElement>(null);
 *   const { state, embed } = usePlatformEmbed(box, {
 *     surface: 'dashboard',
 *     baseUrl: 'https://acme.platform.example',
 *     publicId: 'sales-overview',
 *     session: () => fetch('/api/embed-session', { method: 'POST' }),
 *     colorScheme: dark ? 'dark' : 'light', // an action on change, no reload
 *     onDrilldown: ({ member }) => console.log(member),
 *   });
 *   return (
 *     <>
 *       <button disabled={state.status !== 'ready'} onClick={() => embed?.refresh()}>Refresh</button>
 *       <div ref={box} style={{ height: 600 }} />
 *     </>
 *   );
 * }
 * ```
 */
export function usePlatformEmbed<S extends Surface>(
  target: HTMLElement | null | RefObject<HTMLElement | null>,
  options: PlatformEmbedOptions<S>,
  ref?: Ref<EmbedHandle<S>>,
): PlatformEmbedResult<S> {
  const [binding] = useState(createBinding<S>);
  const state = useSyncExternalStore(binding.subscribe, binding.getState, () => IDLE);
  // Every commit: create or update (without a container, as when the component goes).
  useMountEffect(() => {
    const container = target && 'current' in target ? target.current : target;
    if (container) binding.mount(container, options);
    else binding.unmount();
  });
  // Unmounted or hidden (<Activity>), not before every update: the core moves the frame aside at
  // once. StrictMode's simulated unmount is undone by the next mount in the same task.
  useMountEffect(() => binding.unmount, []);
  useImperativeHandle(ref, () => binding.handle!);
  return { state, embed: binding.handle };
}
