/**
 * The framework-free core: the event and action catalog with its validators, the embed URL builder, and
 * `embedDashboard`, `embedChat` and `embedApp`, which mount an iframe and talk to it over an origin-checked
 * postMessage protocol.
 *
 * @module @platform-embed/core
 */
export { EmbedError, ErrorCode, type EmbedErrorCode } from './errors';
export { normalizeBaseUrl, toOrigin } from './origin';
export {
  LAUNCH_OPTIONS,
  buildEmbedUrl,
  filterUrlParameter,
  redactSession,
  type LaunchOptionName,
  type LaunchOptionSpec,
  type LaunchOptionsOf,
  type OptionKind,
  type AppLaunchOptions,
  type ChatLaunchOptions,
  type CommonLaunchOptions,
  type DashboardLaunchOptions,
  type EmbedUrlOptions,
  type FilterValue,
  type JsonValue,
  type MemberKey,
  type TimeGrain,
} from './url';
export {
  ACTION_PREFIX,
  ACTION_SCHEMAS,
  ACTION_TYPES,
  EVENT_PREFIX,
  EVENT_SCHEMAS,
  EVENT_TYPES,
  SOURCE,
  SURFACES,
  checkPayload,
  createAction,
  eventProp,
  isPlainObject,
  parseMessage,
  type ActionArgs,
  type ActionMap,
  type ActionMessage,
  type ActionName,
  type ActionType,
  type ColorScheme,
  type EmbedTheme,
  type EventMap,
  type EventMessage,
  type EventName,
  type EventPropName,
  type EventType,
  type FieldDescriptor,
  type KindName,
  type FilterUrlParameter,
  type KindTypes,
  type ParseResult,
  type PayloadOf,
  type ReadyPayload,
  type Schema,
  type Surface,
  type UnknownEventMessage,
} from './protocol';
export { type HostState } from './actionQueue';
export { listenerCount } from './listener';
export {
  createEmbed,
  embedApp,
  embedChat,
  embedDashboard,
  type AnyEventHandler,
  type AppEmbedOptions,
  type BaseEmbedOptions,
  type ChatEmbedOptions,
  type DashboardEmbedOptions,
  type EmbedBindingOptions,
  type Diagnostic,
  type EmbedHandle,
  type EmbedOptionsMap,
  type EmbedState,
  type EmbedStatus,
  type EventHandler,
  type EventHandlerProps,
  type EmbedStateOptions,
  type IframeOptions,
  type SessionResult,
  type SessionSource,
  type Unsubscribe,
} from './embed';
export { IDLE, createBinding, type BindingOptions, type EmbedBinding } from './binding';
