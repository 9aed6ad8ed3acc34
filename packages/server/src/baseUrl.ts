import { PlatformApiError } from './platformApiError';

// Hosts where plain http is allowed: development servers on this machine only.
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** The tenant origin from a base URL: https only (http on loopback), no credentials; path, query and fragment dropped. */
export function toOrigin(baseUrl: unknown): string {
  let url: URL | undefined;
  try {
    if (typeof baseUrl == 'string' || baseUrl instanceof URL) url = new URL(String(baseUrl).trim());
  } catch {}
  if (!url || !(url.protocol == 'https:' || (url.protocol == 'http:' && LOOPBACK.test(url.hostname))) || url.username || url.password)
    // The value is not echoed: a base URL with credentials would put them in logs.
    throw new PlatformApiError(
      'invalid-option',
      'baseUrl must be your tenant\'s https:// address (http:// only for localhost, 127.x.x.x or [::1]; no user:password@), e.g. "https://acme.platform.example"',
    );
  return url.origin;
}
