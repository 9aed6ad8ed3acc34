'use client';
import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useSyncExternalStore,
  type Ref,
  type RefObject,
} from 'react';
import {
  EVENT_SCHEMAS,
  createEmbed,
  embedKey,
  type EmbedBindingOptions,
  type Diagnostic,
  type EmbedHandle,
  type EmbedOptionsMap,
  type EmbedState,
  type EventHandlerProps,
  type EventName,
  type SessionSource,
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
  /** The current embed controller, `null` until mounted. A change of what is embedded replaces it. */
  embed: EmbedHandle<S> | null;
}

type SessionFunction = Exclude<SessionSource, string>;

const IDLE: EmbedState = { status: 'idle', error: null, ready: null };
const noop = () => {};
// A layout effect, so a parent's effects already find the embed (and the ref) in place;
// a plain effect on the server, where neither runs (and React 18 warns about layout effects).
const useMountEffect = typeof document == 'undefined' ? useEffect : useLayoutEffect;

/** `dashboard-loaded` → `onDashboardLoaded`. @internal */
export const eventProp = (name: string): string => 'on' + name.replace(/(?:^|-)(\w)/g, (_, c: string) => c.toUpperCase());

/**
 * Embeds a surface into a container the host renders itself, and follows its state with
 * `useSyncExternalStore`. The embed is created after mount with a fresh session, and
 * created again (destroying the previous one) only when what is embedded changes: surface,
 * `baseUrl`, `publicId`/`deploymentId`, launch options, iframe attributes or a session id
 * string. New handler or `session` function identities take effect without a reload;
 * `readyTimeout`, `debug` and whether there is an `onDiagnostic` are read when the embed is created.
 *
 * @param target the container element, or a ref to it (read after mount).
 * @param ref optional ref set to the current {@link EmbedHandle}, as the components do.
 * @example
 * ```tsx
 * function Sales() {
 *   const box = useRef<HTMLDivElement>(null);
 *   const { state, embed } = usePlatformEmbed(box, {
 *     surface: 'dashboard',
 *     baseUrl: 'https://acme.platform.example',
 *     publicId: 'sales-overview',
 *     session: () => fetch('/api/embed-session').then((r) => r.json()),
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
  const latest = useRef(options);
  const box = useRef<{ embed: EmbedHandle<S> | null; notify: () => void } | null>(null);
  const b = (box.current ??= { embed: null, notify: noop });
  const state = useSyncExternalStore(
    useCallback((notify: () => void) => ((b.notify = notify), () => void (b.notify = noop)), [b]),
    () => b.embed?.getState() ?? IDLE,
    () => IDLE,
  );
  const key = embedKey(options);

  useMountEffect(() => {
    latest.current = options;
  });
  useMountEffect(() => {
    const container = target && 'current' in target ? target.current : target;
    if (!container) return;
    const handlers = () => latest.current as unknown as Record<string, Function | undefined>;
    // A StrictMode mount undone at once costs nothing: the core asks for a session one
    // microtask later, and not at all for an embed destroyed by then.
    const handle = createEmbed(options.surface, {
      ...options,
      container,
      session:
        typeof options.session == 'function'
          ? (c: { signal: AbortSignal }) => (latest.current.session as SessionFunction)(c)
          : options.session,
      onDiagnostic: options.onDiagnostic && ((d: Diagnostic) => latest.current.onDiagnostic?.(d)),
    } as unknown as EmbedOptionsMap[S]);
    for (const name of Object.keys(EVENT_SCHEMAS) as EventName[])
      handle.on(name, (payload, message) => handlers()[eventProp(name)]?.(payload, message));
    handle.on('*', (message) => latest.current.onEvent?.(message));
    handle.subscribe(() => b.notify());
    b.embed = handle;
    b.notify();
    return handle.destroy;
  }, [target, key]);
  useImperativeHandle(ref, () => b.embed!, [target, key]);

  return { state, embed: b.embed };
}
