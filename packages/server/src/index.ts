/**
 * Server side: a typed, validated client for `POST /api/v1/embed/generate-session` and route helpers
 * minting a session per embed load for the browser SDK, the API key kept on the server.
 *
 * @module @platform-embed/server
 */
export { validateSessionRequest } from './validateSessionRequest';
export {
  API_KEY_MIN_LENGTH,
  createSessionClient,
  type GenerateSessionOptions,
  type SessionClient,
  type SessionClientOptions,
} from './createSessionClient';
export { mintInitialSession, type InitialSessionOptions } from './mintInitialSession';
export { createSessionHandler, DEFAULT_RETRY_AFTER_SECONDS, type SessionHandlerOptions, type SessionUser } from './createSessionHandler';
export { SessionRouteErrors, type SessionRouteError } from './routeAnswers';
export { toNodeHandler, type NodeHandlerOptions, type NodeRequestLike, type NodeResponseLike } from './toNodeHandler';
export { PlatformApiErrorCodes, PlatformApiError, type PlatformApiErrorCode, type PlatformApiErrorDetails } from './platformApiError';
export {
  USER_ATTRIBUTE_TYPES,
  type ExternalUserSessionRequest,
  type GenerateSessionRequest,
  type GenerateSessionResponse,
  type GroupDefinition,
  type InternalUserSessionRequest,
  type SessionRequestCommon,
  type SessionRequestValidation,
  type SessionSettings,
  type UserAttributeDefinition,
  type UserAttributeType,
  type UserAttributeValue,
  type UserProfile,
} from './types';
