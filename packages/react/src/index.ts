/**
 * React components (`PlatformDashboard`, `PlatformChat`, `PlatformApp`) and the `usePlatformEmbed` hook,
 * a thin layer over `@platform-embed/core`, which it re-exports.
 *
 * @module @platform-embed/react
 */
export * from '@platform-embed/core';
// The components and the hook come through the client boundary (client.ts).
export { PlatformApp, PlatformChat, PlatformDashboard, usePlatformEmbed } from './client';
export type { PlatformEmbedComponent, PlatformEmbedProps } from './PlatformEmbed';
export type { EmbedEventProps, PlatformEmbedOptions, PlatformEmbedResult } from './usePlatformEmbed';
