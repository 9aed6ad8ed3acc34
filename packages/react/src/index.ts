export * from '@platform-embed/core';
export { PlatformApp, PlatformChat, PlatformDashboard, type PlatformEmbedComponent, type PlatformEmbedProps } from './PlatformEmbed';
export {
  usePlatformEmbed,
  type EmbedEventProps,
  type EventPropName,
  type PlatformEmbedOptions,
  type PlatformEmbedResult,
} from './usePlatformEmbed';
