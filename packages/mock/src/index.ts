/**
 * A mock of the platform for tests and demos: an HTTP server with generate-session in memory,
 * single-use sessions, and embed pages that speak the postMessage protocol.
 *
 * @module @platform-embed/mock
 */
export { startMockPlatform, type MockPlatform, type MockPlatformOptions, type MockThrottle } from './startMockPlatform';
export { MockPlatformError, MockPlatformErrorCodes, type MockPlatformErrorCode } from './mockPlatformError';
export {
  PlatformState,
  type ConsumeResult,
  type ExternalUserSnapshot,
  type GenerateSessionResult,
  type MockApiKey,
  type MockAttributeDefinition,
  type MockAttributeType,
  type MockAttributeValue,
  type MockEmbedTenant,
  type MockGroup,
  type PlatformStateOptions,
  type SessionSnapshot,
} from './platformState';
export { DEFAULT_DASHBOARDS, DEFAULT_TRANSLATIONS, DEFAULT_WIDGETS, type MockDashboard, type MockWidget } from './demoData';
