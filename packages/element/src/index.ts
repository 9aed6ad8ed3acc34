/**
 * Custom elements `<platform-dashboard>`, `<platform-chat>` and `<platform-app>` over
 * `@platform-embed/core` (re-exported), and the one-`<script>`-tag bundle exposing the SDK as the global `PlatformEmbed`.
 *
 * @module @platform-embed/element
 */
export * from '@platform-embed/core';
export {
  ELEMENT_EVENT_PREFIX,
  STATE_CHANGE_EVENT,
  type ElementEventName,
  type PlatformElementEventMap,
  type PlatformEvent,
} from './elementEvents';
export { PlatformElement, type FlagAttribute, type JsonAttribute, type StringAttribute } from './platformElement';
export { ELEMENTS, PlatformAppElement, PlatformChatElement, PlatformDashboardElement, defineElements } from './elements';
export type {
  PlatformElementAttributes,
  PlatformElementJsxProps,
  PlatformElementReactEvents,
  PlatformElementVueEvents,
  PlatformElementVueProps,
  PlatformVueElement,
} from './jsx';
export type {
  PlatformElementSolidAttributes,
  PlatformElementSolidEvents,
  PlatformElementSolidProps,
  PlatformElementSvelteEvents,
  PlatformElementSvelteProps,
} from './frameworks';
import './register';
