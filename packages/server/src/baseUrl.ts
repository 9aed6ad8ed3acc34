// The core's origin rule, bundled from its source rather than imported from the package: the
// core's entry point reads process.env.NODE_ENV when it is loaded (its development checks), which
// Deno allows only with --allow-env, and the server must import with no permission at all.
import { toOrigin as tenantOrigin } from '../../core/src/origin';
import { PlatformApiError, PlatformApiErrorCodes } from './platformApiError';

/**
 * The tenant origin from a base URL, by the SDK's one origin rule (the core's `toOrigin`):
 * https only (http on loopback), no credentials; path, query and fragment dropped.
 * @throws {PlatformApiError} `invalid-option` for anything else.
 */
export function toOrigin(baseUrl: unknown): string {
  const origin = tenantOrigin(baseUrl);
  if (origin === undefined)
    // The value is not echoed: a base URL with credentials would put them in logs.
    throw new PlatformApiError(
      PlatformApiErrorCodes.InvalidOption,
      'baseUrl must be your tenant\'s https:// address (http:// only for localhost, 127.x.x.x or [::1]; no user:password@), e.g. "https://acme.platform.example"',
    );
  return origin;
}
