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
  PlatformVueElement,
} from './jsx';
import './register';
