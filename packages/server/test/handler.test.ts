import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  createSessionHandler,
  toNodeHandler,
  PlatformApiError,
  type NodeRequestLike,
  type SessionHandlerOptions,
} from '@platform-embed/server';
import { startServer } from './localServer';

const KEY = 'sk_test_HANDLER-51a2b3';
let platform: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  platform = await startServer();
});
afterAll(() => platform.close());
afterEach(() => {
  platform.received.length = 0;
});

const handler = (options: Partial<SessionHandlerOptions> = {}) =>
  createSessionHandler({
    client: { baseUrl: platform.url, apiKey: KEY, timeoutMs: 300 },
    deploymentId: 1,
    resolveUser: (request) => (request.headers.get('cookie') == 'sid=jane' ? { externalId: 'Jane', groups: ['sales'] } : null),
    onError: () => {},
    ...options,
  });
const get = (cookie?: string, method = 'POST') =>
  new Request('http://host.test/api/embed-session', { method, headers: cookie ? { cookie } : {} });

describe('createSessionHandler (Fetch API)', () => {
  test('mints a session for the signed-in user, uncacheable', async () => {
    platform.json(200, { sessionId: 'sess-1' });
    const response = await handler()(get('sid=jane'));
    expect(response.status).toBe(200);
    await expect(response.json()).resolves.toEqual({ sessionId: 'sess-1' });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(platform.received[0]!.body)).toEqual({ deploymentId: 1, externalId: 'jane', groups: ['sales'] });
  });

  test('nobody signed in: 401 and no platform call', async () => {
    const response = await handler()(get());
    expect(response.status).toBe(401);
    await expect(response.json()).resolves.toEqual({ error: 'not-signed-in', message: expect.stringContaining('signed in') });
    expect(platform.received).toHaveLength(0);
  });

  test("resolveUser's deploymentId wins over the option", async () => {
    platform.json(200, { sessionId: 's' });
    await handler({ resolveUser: async () => ({ internalId: 'alice', deploymentId: 2 }) })(get());
    expect(JSON.parse(platform.received[0]!.body)).toEqual({ deploymentId: 2, internalId: 'alice' });
  });

  test('only the configured methods are answered', async () => {
    const h = handler({ methods: ['post'] });
    const response = await h(get('sid=jane', 'GET'));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect((await handler()(get('sid=jane', 'DELETE'))).status).toBe(405);
    expect(platform.received).toHaveLength(0);
  });

  test.each([
    ['platform 403', () => platform.json(403, { message: `key ${KEY} not scoped` }), 502, 'forbidden'],
    ['platform 400', () => platform.json(400, { message: 'Groups with names sales not found' }), 502, 'bad-request'],
    ['platform 500', () => platform.json(500, {}), 502, 'http'],
    ['platform timeout', () => platform.reply(() => {}), 504, 'timeout'],
  ])('%s: generic %i, details only to onError', async (_, arrange, status, code) => {
    arrange();
    const onError = vi.fn();
    const response = await handler({ onError })(get('sid=jane'));
    expect(response.status).toBe(status);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: expect.any(String), message: expect.stringContaining('session could not be created') });
    expect(onError).toHaveBeenCalledOnce();
    expect(onError.mock.calls[0]![0]).toMatchObject({ code });
    expect(onError.mock.calls[0]![1]).toBeInstanceOf(Request);
    expect(String(onError.mock.calls[0]![0].message)).not.toContain(KEY);
  });

  test('an invalid user request or a throwing resolveUser is a 500', async () => {
    const onError = vi.fn();
    const bad = await handler({ onError, resolveUser: () => ({ internalId: 'alice', groups: ['x'] }) as never })(get());
    expect(bad.status).toBe(500);
    expect(onError.mock.calls[0]![0]).toMatchObject({ code: 'invalid-request', field: 'groups' });
    const boom = new Error('db down');
    const thrown = await handler({ onError, resolveUser: () => Promise.reject(boom) })(get());
    expect(thrown.status).toBe(500);
    expect(onError.mock.calls[1]![0]).toBe(boom);
    expect(platform.received).toHaveLength(0);
  });

  test('the default onError logs the message, never the key', async () => {
    platform.json(401, { message: `bad key ${KEY}` });
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const response = await createSessionHandler({
        client: { baseUrl: platform.url, apiKey: KEY },
        deploymentId: 1,
        resolveUser: () => ({ externalId: 'u' }),
      })(get());
      expect(response.status).toBe(502);
      expect(log).toHaveBeenCalledOnce();
      expect(String(log.mock.calls[0]![0])).toMatch(/401/);
      expect(JSON.stringify(log.mock.calls)).not.toContain(KEY);
    } finally {
      log.mockRestore();
    }
  });

  // h/attack3: what a first week's route does to the handler.
  test.each<[string, () => void, number, string | null]>([
    ['a rate-limited platform', () => platform.json(429, { error: 'slow down' }, { 'retry-after': '7' }), 429, '7'],
    ['a failing platform', () => platform.json(500, { error: 'boom' }), 502, null],
  ])(
    'an onError that throws (a logger not set up yet), on %s: the route answers as it would, and logs both, the key redacted (was: the handler rejected, a bare 500)',
    async (_, prime, status, retryAfter) => {
      prime();
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        const response = await handler({
          onError: () => {
            throw new Error(`logger not ready (${KEY})`);
          },
        })(get('sid=jane'));
        expect(response.status).toBe(status);
        expect(response.headers.get('retry-after')).toBe(retryAfter);
        expect(log).toHaveBeenCalledOnce();
        expect(String(log.mock.calls[0]![0])).toMatch(
          /onError threw \(logger not ready \(\[redacted\]\)\) on: .*generate-session answered (429|500)/,
        );
        expect(JSON.stringify(log.mock.calls)).not.toContain(KEY);
      } finally {
        log.mockRestore();
      }
    },
  );

  test('the default onError logs what resolveUser rejected with, whatever it is (was: a null-prototype object made the handler reject)', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const route = createSessionHandler({
        client: { baseUrl: platform.url, apiKey: KEY },
        deploymentId: 1,
        resolveUser: () => Promise.reject(Object.create(null)),
      });
      expect((await route(get())).status).toBe(500);
      expect(log).toHaveBeenCalledWith('[object Object]');
    } finally {
      log.mockRestore();
    }
  });

  test.each<[string, unknown]>([
    ['the id string', 'jane'],
    ['a number', 42],
    ['true', true],
    ['an array', [{ externalId: 'jane' }]],
  ])(
    'resolveUser returning %s: a 500 whose cause names resolveUser and says what to return (was: "0 is not a field of generate-session")',
    async (_, user) => {
      const onError = vi.fn();
      const response = await handler({ onError, resolveUser: () => user as never })(get());
      expect(response.status).toBe(500);
      expect(onError.mock.calls[0]![0]).toMatchObject({
        code: 'invalid-option',
        message: expect.stringMatching(
          /resolveUser returned .*: return the signed-in user's session fields \(\{ externalId: \.\.\. \}\) or null/,
        ),
      });
      expect(platform.received).toHaveLength(0);
    },
  );

  test('takes a ready client, and refuses a missing resolveUser', async () => {
    const generateSession = vi.fn(async () => ({ sessionId: 'from-client' }));
    const h = createSessionHandler({
      client: { baseUrl: 'https://x.example', generateSession },
      resolveUser: () => ({ deploymentId: 3, externalId: 'u' }),
    });
    await expect((await h(get())).json()).resolves.toEqual({ sessionId: 'from-client' });
    expect(generateSession).toHaveBeenCalledWith(
      { deploymentId: 3, externalId: 'u' },
      expect.objectContaining({ signal: expect.any(AbortSignal) }),
    );
    expect(() => createSessionHandler({ client: { baseUrl: 'https://x.example', apiKey: 'k-0123456789abcdef' } } as never)).toThrow(
      PlatformApiError,
    );
  });

  test('a base URL or API key still missing when the module is evaluated (next build) is checked at the first request; a wrong one at once', async () => {
    const onError = vi.fn();
    const env: { url?: string; key?: string } = {};
    const h = createSessionHandler({
      client: { baseUrl: env.url!, apiKey: env.key! },
      resolveUser: () => ({ deploymentId: 3, externalId: 'u' }),
      onError,
    });
    const response = await h(get());
    expect(response.status).toBe(500);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'invalid-option', message: expect.stringContaining('baseUrl') }),
      expect.anything(),
    );
    expect(() =>
      createSessionHandler({ client: { baseUrl: 'ftp://x.example', apiKey: 'k-0123456789abcdef' }, resolveUser: () => null }),
    ).toThrow(PlatformApiError);
  });
});

describe('toNodeHandler with a real http server', () => {
  let server: Server;
  let url: string;
  const seen: { method: string; url: string; body: string; cookie: string | null }[] = [];
  beforeAll(async () => {
    const h = createSessionHandler({
      client: { baseUrl: platform.url, apiKey: KEY },
      deploymentId: 1,
      methods: ['GET', 'POST'],
      resolveUser: async (request) => {
        const body = request.method == 'POST' ? await request.text() : '';
        seen.push({ method: request.method, url: request.url, body, cookie: request.headers.get('cookie') });
        const who = body ? (JSON.parse(body) as { who?: string }).who : request.headers.get('cookie')?.replace('sid=', '');
        return who ? { externalId: who } : null;
      },
    });
    server = createServer(toNodeHandler(h, { maxBodyBytes: 1024 }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(() => {
    seen.length = 0;
  });

  test('GET with a cookie', async () => {
    platform.json(200, { sessionId: 'node-1' });
    const response = await fetch(`${url}/api/embed-session?x=1`, { headers: { cookie: 'sid=bob' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    await expect(response.json()).resolves.toEqual({ sessionId: 'node-1' });
    expect(seen[0]).toMatchObject({ method: 'GET', url: `${url}/api/embed-session?x=1`, cookie: 'sid=bob' });
  });

  test('POST body reaches resolveUser; nobody is 401', async () => {
    platform.json(200, { sessionId: 'node-2' });
    const json = { 'content-type': 'application/json' };
    const ok = await fetch(`${url}/s`, { method: 'POST', headers: json, body: JSON.stringify({ who: 'carol' }) });
    await expect(ok.json()).resolves.toEqual({ sessionId: 'node-2' });
    expect(JSON.parse(platform.received[0]!.body)).toEqual({ deploymentId: 1, externalId: 'carol' });
    const nobody = await fetch(`${url}/s`, { method: 'POST', headers: json, body: '{}' });
    expect(nobody.status).toBe(401);
  });

  test('a body over maxBodyBytes is 413, resolveUser is not called', async () => {
    const response = await fetch(`${url}/s`, { method: 'POST', body: 'x'.repeat(5000) });
    expect(response.status).toBe(413);
    expect(seen).toHaveLength(0);
  });

  test('an Express-style pre-parsed body and originalUrl are used; a throw goes to next', async () => {
    const h = vi.fn(
      async (request: Request) => new Response(`${request.url} ${await request.text()}`, { status: 201, headers: { 'x-test': '1' } }),
    );
    const res = {
      statusCode: 0,
      headers: {} as Record<string, string>,
      body: '',
      setHeader(k: string, v: string) {
        this.headers[k] = v;
      },
      end(chunk?: Uint8Array) {
        this.body = new TextDecoder().decode(chunk);
      },
    };
    const req = {
      method: 'POST',
      url: '/',
      originalUrl: '/api/embed-session',
      // As Express hands it over: the request had a body (Content-Length), which a parser read.
      headers: { host: 'app.example', 'content-type': 'application/json', 'content-length': '14' },
      body: { who: 'dave' },
      readableEnded: true,
      [Symbol.asyncIterator]: (): AsyncIterator<Uint8Array> => {
        throw new Error('the stream was already read');
      },
    } satisfies NodeRequestLike;
    await toNodeHandler(h)(req, res);
    expect(res).toMatchObject({ statusCode: 201, body: 'http://app.example/api/embed-session {"who":"dave"}' });
    expect(res.headers['x-test']).toBe('1');

    const next = vi.fn();
    const failing = toNodeHandler(() => {
      throw new Error('bug');
    });
    await failing({ ...req, method: 'GET' }, res, next);
    expect(next).toHaveBeenCalledWith(expect.objectContaining({ message: 'bug' }));
    await failing({ ...req, method: 'GET' }, res);
    expect(res.statusCode).toBe(500);
  });
});
