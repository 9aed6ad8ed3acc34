/**
 * A fake of the platform for unit tests of a host's integration, in jsdom: embeds created by
 * the SDK or any binding are answered by an in-process fake that the test drives. A separate
 * entry point: production bundles that import `@platform-embed/core` never include it.
 *
 * @module @platform-embed/core/testing
 */
export {
  installFakePlatform,
  type FakeAction,
  type FakeEmbed,
  type FakePlatform,
  type FakePlatformOptions,
  type FakeWaitOptions,
} from './installFakePlatform';
export { expectNothingParked } from './expectNothingParked';
