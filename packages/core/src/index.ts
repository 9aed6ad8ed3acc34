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
  type AppLaunchOptions,
  type ChatLaunchOptions,
  type CommonLaunchOptions,
  type DashboardLaunchOptions,
  type FilterValue,
  type JsonValue,
  type LaunchOptionName,
  type LaunchOptionSpec,
  type LaunchOptionsOf,
  type MemberKey,
  type TimeGrain,
} from './launchOptions';
export {
  EMBED_OPTIONS,
  MOVE,
  PRESENT,
  READY_TIMEOUT,
  RELOAD,
  RESET,
  RETARGET,
  RETRY_BASE,
  RETRY_COUNT,
  SESSION_TIMEOUT,
  SWAP,
  type AnyEventHandler,
  type AppEmbedOptions,
  type AttributeKind,
  type BaseEmbedOptions,
  type ChangeKind,
  type ChatEmbedOptions,
  type DashboardEmbedOptions,
  type Diagnostic,
  type EmbedBindingOptions,
  type NullableOptions,
  type EmbedOptionName,
  type EmbedOptionSpec,
  type EmbedOptionsMap,
  type EmbedStateOptions,
  type EventHandler,
  type EventHandlerProps,
  type SessionResult,
  type SessionSource,
} from './embedOptions';
export {
  bindingOptions,
  eventHandlers,
  type AttributeName,
  type AttributesOf,
  type BindingOptionName,
  type DefaultOffAttribute,
} from './bindingOptions';
export { KEPT_STATE, type HostState, type KeptName, type KeptStateSpec } from './keptState';
export { MAX_RETRY_AFTER, MAX_SESSION_BODY, MAX_SESSION_ID } from './sessionSource';
export { LAZY_MARGIN } from './lazyStart';
export { buildEmbedUrl, filterUrlParameter, redactSession, type EmbedUrlOptions } from './url';
export { ACTION_PREFIX, ACTION_SCHEMAS, EVENT_PREFIX, EVENT_SCHEMAS, SOURCE, SURFACES, type Surface } from './catalog';
export {
  checkPayload,
  isPlainObject,
  type FieldDescriptor,
  type FilterUrlParameter,
  type KindName,
  type KindTypes,
  type OptionKind,
  type PayloadOf,
  type Schema,
} from './rules';
export {
  ACTION_TYPES,
  EVENT_TYPES,
  camelCase,
  createAction,
  eventProp,
  kebabCase,
  parseMessage,
  type ActionArgs,
  type ActionMap,
  type ActionMessage,
  type ActionName,
  type ActionType,
  type CamelCase,
  type ColorScheme,
  type EmbedTheme,
  type EventMap,
  type EventMessage,
  type EventName,
  type EventPropName,
  type EventType,
  type KebabCase,
  type ParseResult,
  type ReadyPayload,
  type UnknownEventMessage,
} from './protocol';
export { listenerCount } from './listener';
export { actionHelpers } from './actionHelpers';
export { IDLE, type EmbedState, type EmbedStatus } from './status';
export { configureParking, parkedCount, releaseEmbeds, type ParkingLimits } from './parking';
export { createEmbed, embedApp, embedChat, embedDashboard, preload, type EmbedHandle, type IframeOptions, type Unsubscribe } from './embed';
export { createBinding, type EmbedBinding } from './binding';
export { checkAttributes } from './checkOptions';
