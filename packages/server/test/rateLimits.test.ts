// Issue 18, point 1 (server side): a platform that asks to wait is answered with the wait, end to
// end: the client surfaces 429/503 with the parsed Retry-After, the route answers the browser
// 429/503 with Retry-After in seconds (the contract with the browser SDK), never a bare 502.
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { startMockPlatform, type MockPlatform } from '@platform-embed/mock';
import {
  createSessionClient,
  createSessionHandler,
  DEFAULT_RETRY_AFTER_SECONDS,
  PlatformApiError,
  toNodeHandler,
  type SessionHandlerOptions,
} from '@platform-embed/server';
import { parseHttpDate, parseRetryAfter } from '../src/retryAfter';
import { startServer } from './localServer';

let platform: MockPlatform;
beforeAll(async () => {
  platform = await startMockPlatform({ host: '127.0.0.1' });
});
afterAll(() => platform.close());
beforeEach(() => platform.reset());

const request = { deploymentId: 1, externalId: 'jane' };
const client = () => createSessionClient({ baseUrl: platform.origin, apiKey: platform.apiKey });
const failure = (call: Promise<unknown>) =>
  call.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => {
      expect(error).toBeInstanceOf(PlatformApiError);
      return error as PlatformApiError;
    },
  );

describe('Retry-After, parsed', () => {
  const now = Date.UTC(2026, 10, 24, 12, 0, 0);
  test.each([
    ['0', 0],
    ['30', 30],
    [' 120 ', 120],
    ['Tue, 24 Nov 2026 12:00:30 GMT', 30],
    ['Tue, 24 Nov 2026 12:05:00 GMT', 300],
    ['Tuesday, 24-Nov-26 12:00:10 GMT', 10],
    ['Tue Nov 24 12:01:00 2026', 60],
    ['Tue Nov  3 12:00:00 2026', 0],
    ['Tue, 24 Nov 2026 11:00:00 GMT', 0],
    ['Tue, 24 Nov 2026 12:00:00.5 GMT', undefined],
    ['-5', undefined],
    ['1.5', undefined],
    ['soon', undefined],
    ['', undefined],
    [null, undefined],
  ])('%j is %s seconds', (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });

  test('HTTP dates in the three formats are the same instant', () => {
    const instant = Date.UTC(1994, 10, 6, 8, 49, 37);
    expect(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(instant);
    expect(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', Date.UTC(2026, 0, 1))).toBe(instant);
    expect(parseHttpDate('Sun Nov  6 08:49:37 1994')).toBe(instant);
    expect(parseHttpDate('Sun, 06 Foo 1994 08:49:37 GMT')).toBeUndefined();
  });
});

describe('the client surfaces 429 and 503 with their Retry-After', () => {
  test('429 from the mock platform: code rate-limited, retryAfter in seconds, a message that says so', async () => {
    platform.throttle({ retryAfter: 30 });
    const error = await failure(client().generateSession(request));
    expect(error).toMatchObject({ code: 'rate-limited', status: 429, retryAfter: 30 });
    expect(error.message).toMatch(/429 \(rate limited: .*it asks to wait 30 s\)/);
    expect(platform.throttledCount).toBe(1);
  });

  test('503 with an HTTP date: code unavailable, the wait measured from the answer’s own Date header', async () => {
    const server = await startServer();
    try {
      // The platform's clock is an hour behind ours: the wait is still the 120 s it means.
      const answeredAt = Date.now() - 3_600_000;
      server.json(
        503,
        { message: 'maintenance' },
        {
          Date: new Date(answeredAt).toUTCString(),
          'Retry-After': new Date(answeredAt + 120_000).toUTCString(),
        },
      );
      const error = await failure(createSessionClient({ baseUrl: server.url, apiKey: 'k-0123456789abcdef' }).generateSession(request));
      expect(error).toMatchObject({ code: 'unavailable', status: 503, retryAfter: 120, platformMessage: 'maintenance' });
    } finally {
      await server.close();
    }
  });

  test('without a usable Retry-After, retryAfter is undefined and the message says none was sent', async () => {
    platform.throttle({ retryAfter: null, times: 1 });
    const missing = await failure(client().generateSession(request));
    expect(missing).toMatchObject({ code: 'rate-limited', retryAfter: undefined });
    expect(missing.message).toContain('it sent no Retry-After');
    platform.throttle({ status: 503, retryAfter: 'whenever', times: 1 });
    expect(await failure(client().generateSession(request))).toMatchObject({ code: 'unavailable', retryAfter: undefined });
    // The throttle is over: the next call is answered.
    await expect(client().generateSession(request)).resolves.toEqual({ sessionId: expect.any(String) });
  });
});

describe('the route answers the browser 429/503 with Retry-After, never a bare 502', () => {
  const onError = vi.fn();
  const handler = (options: Partial<SessionHandlerOptions> = {}) =>
    createSessionHandler({
      client: { baseUrl: platform.origin, apiKey: platform.apiKey },
      deploymentId: 1,
      resolveUser: () => ({ externalId: 'jane' }),
      onError,
      ...options,
    });
  const post = () => new Request('http://app.test/api/embed-session', { method: 'POST', headers: { 'sec-fetch-site': 'same-origin' } });

  test.each([
    ['429 with Retry-After: 30', { status: 429, retryAfter: 30 }, 429, '30', 'rate-limited'],
    [
      '429 with an HTTP date 90 s ahead',
      // Read when the test throttles the platform, not when the file is collected: the seconds
      // left are counted from the answer, and a loaded machine may run the test seconds later.
      {
        status: 429,
        get retryAfter() {
          return new Date(Date.now() + 90_500).toUTCString();
        },
      },
      429,
      /^(89|90|91)$/,
      'rate-limited',
    ],
    ['429 without Retry-After', { status: 429, retryAfter: null }, 429, String(DEFAULT_RETRY_AFTER_SECONDS), 'rate-limited'],
    ['503 with Retry-After: 7', { status: 503, retryAfter: 7 }, 503, '7', 'platform-unavailable'],
    ['503 without Retry-After', { status: 503, retryAfter: null }, 503, String(DEFAULT_RETRY_AFTER_SECONDS), 'platform-unavailable'],
  ] as const)('platform %s', async (_, throttle, status, retryAfter, code) => {
    platform.throttle(throttle);
    const response = await handler()(post());
    expect(response.status).toBe(status);
    expect(response.headers.get('retry-after')).toMatch(typeof retryAfter === 'string' ? new RegExp(`^${retryAfter}$`) : retryAfter);
    expect(response.headers.get('cache-control')).toBe('no-store');
    await expect(response.json()).resolves.toEqual({ error: code, message: expect.stringContaining('Retry-After') });
    expect(onError).toHaveBeenLastCalledWith(expect.objectContaining({ status }), expect.any(Request));
  });

  test('toNodeHandler passes the 429 and its Retry-After on to the browser', async () => {
    platform.throttle({ retryAfter: 12 });
    const res = { statusCode: 0, headers: {} as Record<string, string>, body: '' };
    await toNodeHandler(handler())(
      {
        method: 'POST',
        url: '/api/embed-session',
        headers: { host: 'app.test', 'sec-fetch-site': 'same-origin' },
        readableEnded: true,
        async *[Symbol.asyncIterator]() {},
      },
      {
        setHeader: (name: string, value: string) => (res.headers[name.toLowerCase()] = value),
        end: (chunk?: Uint8Array) => (res.body = new TextDecoder().decode(chunk)),
        set statusCode(status: number) {
          res.statusCode = status;
        },
        get statusCode() {
          return res.statusCode;
        },
      },
    );
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('12');
    expect(JSON.parse(res.body)).toMatchObject({ error: 'rate-limited' });
  });

  test('a platform that is not limiting: other refusals stay 502, without Retry-After', async () => {
    const refused = await handler({ client: { baseUrl: platform.origin, apiKey: 'not-a-known-key-0123' } })(post());
    expect(refused.status).toBe(502);
    expect(refused.headers.get('retry-after')).toBeNull();
    await expect(refused.json()).resolves.toMatchObject({ error: 'session-not-created' });
  });
});
