// Issue 23, point 2: the session route behind a TLS-terminating proxy. The app receives
// `http://app.test/...` while the browser called `https://...`; an older browser (no
// Sec-Fetch-Site) sends `Origin: https://...`, which must match the route's own origin. With
// `trustProxy`, the route takes its own origin from `Forwarded` or `X-Forwarded-Proto`/`-Host`
// (the first entry: what the browser called); without it, those headers are ignored.
import { describe, expect, test } from 'vitest';
import { createSessionHandler, type SessionHandlerOptions } from '@platform-embed/server';
import { requestOrigin } from '../src/requestOrigin';

const APP_URL = 'http://app.test/api/embed-session';

interface Row {
  name: string;
  trustProxy: boolean;
  headers: Record<string, string>;
  /** The origin the route takes as its own. */
  own: string;
}

const rows: Row[] = [
  { name: 'no proxy header: the request URL', trustProxy: true, headers: {}, own: 'http://app.test' },
  {
    name: 'trustProxy off: X-Forwarded-Proto ignored',
    trustProxy: false,
    headers: { 'x-forwarded-proto': 'https' },
    own: 'http://app.test',
  },
  {
    name: 'trustProxy off: Forwarded ignored',
    trustProxy: false,
    headers: { forwarded: 'proto=https;host=app.example.com' },
    own: 'http://app.test',
  },
  { name: 'X-Forwarded-Proto: https', trustProxy: true, headers: { 'x-forwarded-proto': 'https' }, own: 'https://app.test' },
  { name: 'X-Forwarded-Proto in capitals', trustProxy: true, headers: { 'x-forwarded-proto': 'HTTPS' }, own: 'https://app.test' },
  {
    name: 'X-Forwarded-Proto from two proxies: the first (the browser’s)',
    trustProxy: true,
    headers: { 'x-forwarded-proto': 'https, http' },
    own: 'https://app.test',
  },
  {
    name: 'X-Forwarded-Host and -Proto',
    trustProxy: true,
    headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'app.example.com' },
    own: 'https://app.example.com',
  },
  {
    name: 'X-Forwarded-Host from two proxies, with a port: the first',
    trustProxy: true,
    headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'app.example.com:8443, internal:3000' },
    own: 'https://app.example.com:8443',
  },
  {
    name: 'the default port is dropped, as browsers do in Origin',
    trustProxy: true,
    headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'App.Example.com:443' },
    own: 'https://app.example.com',
  },
  {
    name: 'Forwarded (RFC 7239)',
    trustProxy: true,
    headers: { forwarded: 'for=192.0.2.60;proto=https;host=app.example.com;by=203.0.113.43' },
    own: 'https://app.example.com',
  },
  {
    name: 'Forwarded with quoted values and names in capitals',
    trustProxy: true,
    headers: { forwarded: 'For="[2001:db8::1]:4711"; Proto=HTTPS; Host="app.example.com:8443"' },
    own: 'https://app.example.com:8443',
  },
  {
    name: 'Forwarded from two proxies: the first element',
    trustProxy: true,
    headers: { forwarded: 'proto=https;host=app.example.com, proto=http;host=internal:3000' },
    own: 'https://app.example.com',
  },
  {
    name: 'Forwarded with a quoted comma in the first element',
    trustProxy: true,
    headers: { forwarded: 'for="a,b";proto=https;host=app.example.com, proto=http' },
    own: 'https://app.example.com',
  },
  {
    name: 'Forwarded wins over X-Forwarded-*, part by part',
    trustProxy: true,
    headers: { forwarded: 'proto=https', 'x-forwarded-proto': 'http', 'x-forwarded-host': 'app.example.com' },
    own: 'https://app.example.com',
  },
  {
    name: 'a protocol that is not http or https is ignored',
    trustProxy: true,
    headers: { 'x-forwarded-proto': 'javascript' },
    own: 'http://app.test',
  },
  {
    name: 'a host with a path is ignored',
    trustProxy: true,
    headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example/app.test' },
    own: 'https://app.test',
  },
  {
    name: 'a host with credentials is ignored',
    trustProxy: true,
    headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'app.test@evil.example' },
    own: 'https://app.test',
  },
  { name: 'a host that does not parse is ignored', trustProxy: true, headers: { 'x-forwarded-host': 'a b' }, own: 'http://app.test' },
  { name: 'an empty host is ignored', trustProxy: true, headers: { 'x-forwarded-host': ' ' }, own: 'http://app.test' },
];

describe('requestOrigin: the origin the browser called', () => {
  test.each(rows.map((row) => [row.name, row] as const))('%s', (_, row) => {
    expect(requestOrigin(new Request(APP_URL, { headers: row.headers }), row.trustProxy)).toBe(row.own);
  });
});

const route = (options: Partial<SessionHandlerOptions>) =>
  createSessionHandler({
    client: { baseUrl: 'https://platform.invalid', generateSession: async () => ({ sessionId: 'session' }) },
    deploymentId: 1,
    resolveUser: () => ({ externalId: 'jane' }),
    ...options,
  });
const post = (headers: Record<string, string>) => new Request(APP_URL, { method: 'POST', headers });

describe('createSessionHandler behind a proxy: an Origin without Sec-Fetch-Site is compared with that origin', () => {
  test.each(rows.map((row) => [row.name, row] as const))('%s', async (_, row) => {
    const h = route({ trustProxy: row.trustProxy });
    expect((await h(post({ ...row.headers, origin: row.own }))).status).toBe(200);
    const other = row.own.startsWith('https:') ? row.own.replace('https:', 'http:') : row.own.replace('http:', 'https:');
    expect((await h(post({ ...row.headers, origin: other }))).status).toBe(403);
  });

  test('the TLS proxy case of the issue: Origin https://<host>, X-Forwarded-Proto: https, no Sec-Fetch-Site (was 403)', async () => {
    const headers = { origin: 'https://app.test', 'x-forwarded-proto': 'https' };
    expect((await route({ trustProxy: true })(post(headers))).status).toBe(200);
    expect((await route({})(post(headers))).status).toBe(403);
  });

  test('Sec-Fetch-Site still decides first: cross-site is refused whatever the proxy headers say', async () => {
    const headers = { 'sec-fetch-site': 'cross-site', origin: 'https://app.test', 'x-forwarded-proto': 'https' };
    expect((await route({ trustProxy: true })(post(headers))).status).toBe(403);
  });

  test.each(['yes', 1, 'false'])('trustProxy %s is refused when the route is created', (value) => {
    expect(() => route({ trustProxy: value as unknown as boolean })).toThrow(/trustProxy must be true or false/);
  });
});
