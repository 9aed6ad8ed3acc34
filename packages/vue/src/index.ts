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
} from './PlatformEmbed';
export {
  usePlatformEmbed,
  type EmbedEventHandlers,
  type EventDispatch,
  type EventHandlerName,
  type PlatformEmbedOptions,
  type PlatformEmbedResult,
} from './usePlatformEmbed';
