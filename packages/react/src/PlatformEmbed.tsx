'use client';
import { forwardRef, useRef, type CSSProperties, type ForwardRefExoticComponent, type RefAttributes } from 'react';
import type { EmbedHandle, EmbedOptionsMap, Surface } from '@platform-embed/core';
import { usePlatformEmbed, type EmbedEventProps, type PlatformEmbedOptions } from './usePlatformEmbed';

/**
 * Props of {@link PlatformDashboard}, {@link PlatformChat} and {@link PlatformApp}: the core's
 * embed options of the surface (without `container`), the `on<Event>` handlers, and the
 * container's `className` and `style`. The iframe fills the container: give it a height.
 */
export type PlatformEmbedProps<S extends Surface> = Omit<EmbedOptionsMap[S], 'container' | 'className' | 'style'> &
  EmbedEventProps & {
    /** Class name(s) of the container `<div>`. */
    className?: string;
    /** Inline style of the container `<div>`. */
    style?: CSSProperties;
  };

/** A surface component; its `ref` receives the {@link EmbedHandle} (actions, `reload()`, `getState()`, ...). */
export type PlatformEmbedComponent<S extends Surface> = ForwardRefExoticComponent<PlatformEmbedProps<S> & RefAttributes<EmbedHandle<S>>>;

const create = <S extends Surface>(surface: S) =>
  forwardRef<EmbedHandle, PlatformEmbedProps<'dashboard'>>(function PlatformEmbed({ className, style, ...options }, ref) {
    const container = useRef<HTMLDivElement>(null);
    usePlatformEmbed(container, { ...options, surface } as PlatformEmbedOptions<Surface>, ref);
    return <div ref={container} className={className} style={style} data-platform-embed={surface} />;
  }) as unknown as PlatformEmbedComponent<S>;

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
 *   session={() => fetch('/api/embed-session', { method: 'POST' }).then((r) => r.json())}
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
