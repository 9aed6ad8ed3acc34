/**
 * Vue 3 components (`PlatformDashboard`, `PlatformChat`, `PlatformApp`) and the `usePlatformEmbed`
 * composable, a thin layer over `@platform-embed/core`, which it re-exports.
 *
 * @module @platform-embed/vue
 */
export * from '@platform-embed/core';
export {
  PlatformApp,
  PlatformChat,
  PlatformDashboard,
  type PlatformEmbedAction,
  type PlatformEmbedComponent,
  type PlatformEmbedEmits,
  type PlatformEmbedExpose,
  type PlatformEmbedProps,
  type PlatformEmbedSlots,
} from './PlatformEmbed';
export {
  usePlatformEmbed,
  type EmbedEventHandlers,
  type EventDispatch,
  type PlatformEmbedOptions,
  type PlatformEmbedResult,
} from './usePlatformEmbed';
