'use client';
import { forwardRef, useRef, type CSSProperties, type ForwardRefExoticComponent, type ReactNode, type RefAttributes } from 'react';
import type { EmbedError, EmbedHandle, EmbedOptionsMap, NullableOptions, Surface } from '@platform-embed/core';
import { usePlatformEmbed, type EmbedEventProps, type PlatformEmbedOptions } from './usePlatformEmbed';

/**
 * Props of {@link PlatformDashboard}, {@link PlatformChat} and {@link PlatformApp}: the core's
 * embed options of the surface (without `container`), the `on<Event>` handlers, and the
 * container's `className` and `style`. The iframe fills the container: give it a height.
 */
export type PlatformEmbedProps<S extends Surface> = NullableOptions<Omit<EmbedOptionsMap[S], 'container' | 'className' | 'style'>> &
  EmbedEventProps & {
    /** Class name(s) of the container `<div>`. */
    className?: string;
    /** Inline style of the container `<div>`. */
    style?: CSSProperties;
    /**
     * Shown over the container while the embed loads (and in the server HTML), like Suspense's
     * `fallback`; the container gets `aria-busy="true"` meanwhile. Without it nothing is shown.
     */
    fallback?: ReactNode;
    /**
     * Shown over the container, in a `role="alert"` region (put no other alert in it), when the
     * embed failed, also for a prop it cannot use (`invalid-option`: the component never throws
     * into React): a node, or a function of the error (its `message` says the cause and the fix)
     * and `retry`, which reloads.
     * @example
     * ```tsx
     * errorFallback={({ error, retry }) => <p>{error.message} <button onClick={retry}>Try again</button></p>}
     * ```
     */
    errorFallback?: ReactNode | ((props: { error: EmbedError; retry: () => void }) => ReactNode);
  };

/** A surface component; its `ref` receives the {@link EmbedHandle} (actions, `reload()`, `getState()`, ...). */
export type PlatformEmbedComponent<S extends Surface> = ForwardRefExoticComponent<PlatformEmbedProps<S> & RefAttributes<EmbedHandle<S>>>;

const create = <S extends Surface>(surface: S) =>
  forwardRef<EmbedHandle, PlatformEmbedProps<'dashboard'>>(function PlatformEmbed(
    { className, style, fallback, errorFallback, ...options },
    ref,
  ) {
    const container = useRef<HTMLDivElement>(null);
    const { state, embed } = usePlatformEmbed(container, { ...options, surface } as PlatformEmbedOptions<Surface>, ref);
    // The loading and error UI, only when asked for: drawn over the iframe, which the core appends after it.
    const ui = fallback !== undefined || errorFallback !== undefined;
    // Neither ready nor failed: loading, or not mounted yet (as in the server HTML).
    const busy = ui && !state.ready && !state.error;
    const error = errorFallback !== undefined && state.error;
    // reload() returns the core's `ready` promise, whose rejection the core already handles.
    const retry = () => void embed?.reload();
    return (
      <div
        ref={container}
        className={className}
        style={ui ? { position: 'relative', ...style } : style}
        data-platform-embed={surface}
        aria-busy={busy || undefined}
      >
        {busy && fallback !== undefined && <div style={OVER}>{fallback}</div>}
        {error && (
          <div role="alert" style={OVER}>
            {typeof errorFallback == 'function' ? errorFallback({ error, retry }) : errorFallback}
          </div>
        )}
      </div>
    );
  }) as unknown as PlatformEmbedComponent<S>;

const OVER: CSSProperties = { position: 'absolute', inset: 0 };

/**
 * Embeds a published dashboard. Props are declarative: the core decides what a change means.
 * A new `publicId`, `baseUrl` or launch option (`allowExport`, ...) reloads with a fresh
 * session; `colorScheme`, `theme`, `locale`, `filters` and `path` are sent as actions to the
 * same iframe; new handlers or a new `session` function are used without a reload. What the
 * host set (by prop or through the ref) comes back after every reload.
 * @example
 * ```tsx
 * const dashboard = useRef<EmbedHandle<'dashboard'>>(null);
 * <PlatformDashboard
 *   ref={dashboard}
 *   baseUrl="https://acme.platform.example"
 *   publicId="sales-overview"
 *   session={() => fetch('/api/embed-session', { method: 'POST' })}
 *   colorScheme={dark ? 'dark' : 'light'}
 *   allowExport
 *   onDrilldown={({ member, value }) => console.log(member, value)}
 *   style={{ height: 600 }}
 * />
 * // later: dashboard.current?.refresh()
 * ```
 */
export const PlatformDashboard: PlatformEmbedComponent<'dashboard'> = /* @__PURE__ */ create('dashboard');

/** Embeds the standalone analytics chat (private mode without `session`). Same rules as {@link PlatformDashboard}. */
export const PlatformChat: PlatformEmbedComponent<'chat'> = /* @__PURE__ */ create('chat');

/** Embeds the creator-mode app of a deployment (needs `session`). Same rules as {@link PlatformDashboard}. */
export const PlatformApp: PlatformEmbedComponent<'app'> = /* @__PURE__ */ create('app');
