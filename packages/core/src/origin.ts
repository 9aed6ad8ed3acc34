import { EmbedError } from './errors';

// Hosts where plain http is allowed: development servers on this machine only.
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * The one origin rule of the SDK, shared by the core, `@platform-embed/server` and the mock:
 * the exact origin of an `https:` URL (plain `http:` only for `localhost`, `127.x.x.x` and
 * `[::1]`), lowercase host, default port dropped, path, query and fragment ignored; `undefined`
 * for anything else, and for URLs with embedded credentials.
 * @example `toOrigin('https://Acme.Platform.example:443/x')` → `'https://acme.platform.example'`
 */
export function toOrigin(value: unknown): string | undefined {
  let url: URL | undefined;
  try {
    if (typeof value == 'string' || value instanceof URL) url = new URL(String(value).trim());
  } catch {}
  return url && (url.protocol == 'https:' || (url.protocol == 'http:' && LOOPBACK.test(url.hostname))) && !url.username && !url.password
    ? url.origin
    : undefined;
}

/**
 * Normalizes a tenant base URL (tenant host or custom domain) to the exact origin that
 * messages must come from and that actions are posted to: lowercase host, default port
 * dropped, path, query and fragment ignored.
 *
 * Refuses anything that cannot be a tenant origin: empty, `*`, no scheme, schemes other
 * than `https:` (plain `http:` only for `localhost`, `127.x.x.x` and `[::1]`), and URLs with
 * embedded credentials.
 *
 * @throws {EmbedError} `invalid-option`, saying what to pass instead.
 * @example
 * ```ts
 * normalizeBaseUrl('https://Acme.Platform.example:443/some/path'); // 'https://acme.platform.example'
 * ```
 */
export function normalizeBaseUrl(baseUrl: string | URL): string {
  const origin = toOrigin(baseUrl);
  // The refused value is quoted without any `user:password@` part (secrets stay secret).
  if (!origin)
    throw new EmbedError(
      'invalid-option',
      !__DEV__
        ? 'baseUrl'
        : `baseUrl must be your tenant's https:// address (http:// only on localhost, no credentials), e.g. "https://acme.platform.example"; got ${JSON.stringify(
            String(baseUrl)
              .replace(/\/\/[^/?#]*@/, '//')
              .slice(0, 80),
          )}`,
    );
  return origin;
}
