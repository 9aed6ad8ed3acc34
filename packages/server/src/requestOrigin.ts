/*
 * The origin the browser called: what the route compares a request's `Origin` with.
 *
 * Behind a TLS-terminating proxy (a load balancer, Heroku, Render, Fly, a Kubernetes ingress)
 * the app receives `http://` requests, sometimes for an internal host name, while the browser
 * called `https://app.example.com`. The proxy says what the browser called in the standard
 * `Forwarded` header (RFC 7239: `Forwarded: proto=https;host=app.example.com`) or in the de
 * facto `X-Forwarded-Proto` and `X-Forwarded-Host`. Anyone who reaches the app without that
 * proxy can send these headers too, so they are read only when the host says its proxy sets
 * them (`trustProxy`).
 *
 * Each proxy on the way adds its own entry after those of the proxies before it, so the first
 * entry is what the browser called. A browser page cannot set these headers on a request to
 * another site without a CORS preflight, which the route does not grant, so believing the
 * first entry lets no other site through.
 */

/** A protocol a proxy may say the browser used. */
const FORWARDED_PROTOCOLS = new Set(['http', 'https']);

/** Characters that cannot be in a `host[:port]`, or would make the URL parser read a path, credentials or another host. */
const NOT_A_HOST = /[\s/\\?#@]/;

/** The first element of a list header (`a, b`): up to the first comma outside a quoted string. */
function firstElement(value: string): string {
  let quoted = false;
  for (let index = 0; index < value.length; index++) {
    const char = value[index];
    if (char === '\\' && quoted) index++;
    else if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) return value.slice(0, index);
  }
  return value;
}

/** The parameters of one `Forwarded` element (`for=...;proto=https;host="a.example"`), names lowercased, quotes removed. */
function forwardedParameters(element: string): Map<string, string> {
  const parameters = new Map<string, string>();
  for (const match of element.matchAll(/([\w-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)/g)) {
    const [, name, raw] = match as unknown as [string, string, string];
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    if (!parameters.has(name.toLowerCase())) parameters.set(name.toLowerCase(), value);
  }
  return parameters;
}

/** The protocol and host the first proxy received, from `Forwarded`, else `X-Forwarded-Proto`/`X-Forwarded-Host`. */
function forwardedTarget(headers: Headers): { protocol?: string; host?: string } {
  const forwarded = headers.get('forwarded');
  const standard = forwarded === null ? new Map<string, string>() : forwardedParameters(firstElement(forwarded));
  const protocol = standard.get('proto') ?? headers.get('x-forwarded-proto')?.split(',')[0];
  const host = standard.get('host') ?? headers.get('x-forwarded-host')?.split(',')[0];
  return { protocol: protocol?.trim().toLowerCase(), host: host?.trim() };
}

/**
 * The origin the browser called: the request URL's, or with `trustProxy` the one the proxy
 * forwarded (each part it names; a part that is malformed is ignored, and the request URL's
 * used instead).
 */
export function requestOrigin(request: Request, trustProxy: boolean): string {
  const own = new URL(request.url);
  if (!trustProxy) return own.origin;
  const forwarded = forwardedTarget(request.headers);
  const protocol =
    forwarded.protocol !== undefined && FORWARDED_PROTOCOLS.has(forwarded.protocol) ? forwarded.protocol : own.protocol.slice(0, -1);
  const host = forwarded.host && !NOT_A_HOST.test(forwarded.host) ? forwarded.host : own.host;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return new URL(`${protocol}://${own.host}`).origin;
  }
}
