/**
 * React components (`PlatformDashboard`, `PlatformChat`, `PlatformApp`) and the `usePlatformEmbed` hook,
 * a thin layer over `@platform-embed/core`, which it re-exports.
 *
 * @module @platform-embed/react
 */
export * from '@platform-embed/core';
export { PlatformApp, PlatformChat, PlatformDashboard, type PlatformEmbedComponent, type PlatformEmbedProps } from './PlatformEmbed';
export { usePlatformEmbed, type EmbedEventProps, type PlatformEmbedOptions, type PlatformEmbedResult } from './usePlatformEmbed';
