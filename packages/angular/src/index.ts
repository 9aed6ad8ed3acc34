/**
 * Angular standalone components (`PlatformDashboard`, `PlatformChat`, `PlatformApp`) with signal
 * inputs, typed outputs and loading and error templates: a thin layer over `@platform-embed/core`,
 * which it re-exports.
 *
 * @module @platform-embed/angular
 */
export * from '@platform-embed/core';
export { PlatformApp, PlatformChat, PlatformDashboard } from './generated/components';
export { ɵembed, type PlatformEmbed, type ɵEmbed } from './platformEmbed';
export { PlatformEmbedError, PlatformEmbedLoading, ɵPlatformEmbedView, type PlatformEmbedErrorContext } from './templates';
export type { PlatformEmbedInputs } from './types';
export { ɵroutedEmbeds, type ɵRoutedEmbed } from './routedEmbeds';
