import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  API_KEY_MIN_LENGTH,
  createSessionClient,
  PlatformApiError,
  PlatformApiErrorCodes,
  type GenerateSessionRequest,
} from '@platform-embed/server';
import { sessionRequestCases } from './sessionRequests.table';
import { startServer } from './localServer';

let platform: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  platform = await startServer();
});
afterAll(() => platform.close());
afterEach(() => {
  platform.received.length = 0;
});

const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('expected a rejection'),
    (e: unknown) => {
      expect(e).toBeInstanceOf(PlatformApiError);
      return e as PlatformApiError;
    },
  );

describe('the request table through the client and a local server', () => {
  const cases = sessionRequestCases.filter((c) => c.apiKey !== null);
  test.each(cases.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const client = createSessionClient({ baseUrl: platform.url, apiKey: c.apiKey ?? 'test-key-0123456789' });
    const platformMessage = 'message' in c.platform ? c.platform.message : undefined;
    platform.json(c.platform.status, c.platform.status == 200 ? { sessionId: 'sess-123' } : { message: platformMessage ?? 'rejected' });
    const call = client.generateSession(c.request as GenerateSessionRequest);
    if (!c.client.ok) {
      const e = await failure(call);
      expect(e).toMatchObject({ code: 'invalid-request', field: c.client.field });
      expect(platform.received).toHaveLength(0);
      return;
    }
    if (c.platform.status == 200) await expect(call).resolves.toEqual({ sessionId: 'sess-123' });
    else {
      const e = await failure(call);
      const code = ({ 400: 'bad-request', 401: 'unauthorized', 403: 'forbidden' } as Record<number, string>)[c.platform.status];
      expect(e).toMatchObject({ code, status: c.platform.status });
      if (platformMessage) expect(e.platformMessage).toContain(platformMessage);
    }
    expect(platform.received).toHaveLength(1);
    const [r] = platform.received;
    expect(r).toMatchObject({ method: 'POST', url: '/api/v1/embed/generate-session' });
    expect(r!.headers.authorization).toBe(`Api-Key ${c.apiKey ?? 'test-key-0123456789'}`);
    expect(r!.headers['content-type']).toBe('application/json');
    const sent = JSON.parse(r!.body);
    expect(sent.deploymentId).toBe((c.request as { deploymentId: number }).deploymentId);
    const externalId = (c.request as { externalId?: string }).externalId;
    if (externalId !== undefined) expect(sent.externalId).toBe(externalId.trim().toLowerCase());
  });
});

describe('responses', () => {
  const client = () => createSessionClient({ baseUrl: platform.url, apiKey: 'test-key-0123456789', timeoutMs: 2000 });
  const statusOf = async (status: number, body: string, contentType = 'application/json') => {
    platform.reply((_, res) => {
      res.writeHead(status, { 'Content-Type': contentType });
      res.end(body);
    });
    return failure(client().generateSession({ deploymentId: 1, externalId: 'u' }));
  };

  test.each([
    [JSON.stringify({ message: 'cannot change type' }), 'cannot change type'],
    [JSON.stringify({ error: 'User attributes not found' }), 'User attributes not found'],
    [JSON.stringify({ detail: 'Groups with names x not found' }), 'Groups with names x not found'],
    [JSON.stringify({ error: { message: 'nested' } }), 'nested'],
    [JSON.stringify({ message: '', detail: 'second choice' }), 'second choice'],
    ['plain   text\nbody', 'plain text body'],
    ['', undefined],
    [JSON.stringify({ code: 7 }), undefined],
  ])('takes the message from %j', async (body, message) => {
    const e = await statusOf(400, body);
    expect(e.code).toBe('bad-request');
    expect(e.platformMessage).toBe(message);
    expect(e.message).toContain(message ?? 'no message');
  });

  test('other statuses are http errors with their status', async () => {
    for (const status of [404, 409, 422, 500, 502]) {
      const e = await statusOf(status, JSON.stringify({ message: `m${status}` }));
      expect(e).toMatchObject({ code: 'http', status, platformMessage: `m${status}` });
    }
  });

  test('401 and 403 say what to check', async () => {
    expect((await statusOf(401, '')).message).toMatch(/401 \(the API key is missing, malformed or expired\)/);
    platform.json(403, {});
    const e = await failure(client().generateSession({ deploymentId: 2, externalId: 'u' }));
    expect(e.message).toMatch(/not allowed for deployment 2/);
  });

  test('a long message is cut', async () => {
    const e = await statusOf(400, 'x'.repeat(5000), 'text/plain');
    expect(e.platformMessage!.length).toBeLessThanOrEqual(501);
  });

  test.each([
    ['not JSON', 'sess-abc'],
    ['no sessionId', JSON.stringify({ session: 'sess-abc' })],
    ['empty sessionId', JSON.stringify({ sessionId: '' })],
    ['numeric sessionId', JSON.stringify({ sessionId: 12345 })],
    ['null body', 'null'],
  ])('200 with %s is invalid-response, without quoting the body', async (_, body) => {
    platform.reply((__, res) => res.end(body));
    const e = await failure(client().generateSession({ deploymentId: 1, externalId: 'u' }));
    expect(e).toMatchObject({ code: 'invalid-response', status: 200 });
    expect(e.message).not.toContain('sess-abc');
    expect(e.message).not.toContain('12345');
  });

  test('redirects are not followed, so the key never goes elsewhere', async () => {
    const other = await startServer();
    try {
      other.json(200, { sessionId: 'stolen' });
      platform.reply((_, res) => {
        res.writeHead(307, { Location: `${other.url}/api/v1/embed/generate-session` });
        res.end();
      });
      const e = await failure(client().generateSession({ deploymentId: 1, externalId: 'u' }));
      expect(e).toMatchObject({ code: 'http', status: 307 });
      expect(e.message).toContain(`redirect to ${other.url}`);
      expect(other.received).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});

describe('the size of the answer is bounded (issue 18)', () => {
  /**
   * A fetch whose answer body is produced on demand, 1 KiB a pull, up to 16 MiB (a client that
   * reads it all ends, and fails the count); `pulled` counts what the client took.
   */
  const endless = (status: number, headers: Record<string, string> = {}) => {
    const counter = { pulled: 0 };
    const fetchDouble: typeof fetch = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            counter.pulled += 1024;
            controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
            if (counter.pulled >= 16 * 1024 * 1024) controller.close();
          },
        }),
        { status, headers },
      );
    return { counter, fetchDouble };
  };

  test('an endless success body: invalid-response naming maxResponseBytes, after reading just past the limit', async () => {
    const { counter, fetchDouble } = endless(200);
    const client = createSessionClient({
      baseUrl: 'https://acme.platform.example',
      apiKey: 'k-0123456789abcdef',
      fetch: fetchDouble,
      maxResponseBytes: 8192,
    });
    const e = await failure(client.generateSession({ deploymentId: 1, externalId: 'u' }));
    expect(e).toMatchObject({ code: 'invalid-response', status: 200 });
    expect(e.message).toContain('larger than 8192 bytes (maxResponseBytes)');
    expect(counter.pulled).toBeLessThan(8192 + 8 * 1024);
  });

  test('an endless error body: the status is kept, its message cut from the first bytes', async () => {
    const { counter, fetchDouble } = endless(500, { 'content-type': 'text/html' });
    const client = createSessionClient({ baseUrl: 'https://acme.platform.example', apiKey: 'k-0123456789abcdef', fetch: fetchDouble });
    const e = await failure(client.generateSession({ deploymentId: 1, externalId: 'u' }));
    expect(e).toMatchObject({ code: 'http', status: 500 });
    expect(e.platformMessage).toMatch(/^x{500}…$/);
    expect(counter.pulled).toBeLessThan(65536 + 8 * 1024);
  });

  test('a success body within the limit is read whole, even in many small chunks', async () => {
    const text = JSON.stringify({ sessionId: 's'.repeat(3000) });
    const client = createSessionClient({
      baseUrl: 'https://acme.platform.example',
      apiKey: 'k-0123456789abcdef',
      maxResponseBytes: text.length,
      fetch: async () =>
        new Response(
          new ReadableStream({
            start(controller) {
              for (let at = 0; at < text.length; at += 7) controller.enqueue(new TextEncoder().encode(text.slice(at, at + 7)));
              controller.close();
            },
          }),
        ),
    });
    await expect(client.generateSession({ deploymentId: 1, externalId: 'u' })).resolves.toEqual({ sessionId: 's'.repeat(3000) });
  });

  test('maxResponseBytes is checked', () => {
    for (const maxResponseBytes of [0, -1, Number.NaN, '1000' as never])
      expect(() =>
        createSessionClient({ baseUrl: 'https://acme.platform.example', apiKey: 'k-0123456789abcdef', maxResponseBytes }),
      ).toThrow(/maxResponseBytes must be a positive number of bytes/);
  });
});

describe('timeouts, network failures and aborts', () => {
  test('no answer within timeoutMs is a timeout', async () => {
    platform.reply(() => {});
    const started = Date.now();
    const e = await failure(
      createSessionClient({ baseUrl: platform.url, apiKey: 'test-key-0123456789', timeoutMs: 150 }).generateSession({
        deploymentId: 1,
        externalId: 'u',
      }),
    );
    expect(e.code).toBe('timeout');
    expect(e.message).toMatch(/within 150 ms/);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  test('a body that stalls after the headers is a timeout too', async () => {
    platform.reply((_, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"sessionId":');
    });
    const e = await failure(
      createSessionClient({ baseUrl: platform.url, apiKey: 'test-key-0123456789', timeoutMs: 150 }).generateSession({
        deploymentId: 1,
        externalId: 'u',
      }),
    );
    expect(e.code).toBe('timeout');
  });

  test('a refused connection is a network error', async () => {
    const gone = await startServer();
    await gone.close();
    const e = await failure(
      createSessionClient({ baseUrl: gone.url, apiKey: 'test-key-0123456789' }).generateSession({ deploymentId: 1, externalId: 'u' }),
    );
    expect(e.code).toBe('network');
    expect(e.status).toBeUndefined();
    expect(e.message).toContain(gone.url);
    expect(e.cause).toBeInstanceOf(Error);
  });

  test("the caller's signal aborts with its reason", async () => {
    platform.reply(() => {});
    const controller = new AbortController();
    const call = createSessionClient({ baseUrl: platform.url, apiKey: 'test-key-0123456789' }).generateSession(
      { deploymentId: 1, externalId: 'u' },
      { signal: controller.signal },
    );
    const reason = new Error('user left');
    setTimeout(() => controller.abort(reason), 50);
    await expect(call).rejects.toBe(reason);
    await expect(
      createSessionClient({ baseUrl: platform.url, apiKey: 'test-key-0123456789' }).generateSession(
        { deploymentId: 1, externalId: 'u' },
        { signal: AbortSignal.abort(reason) },
      ),
    ).rejects.toBe(reason);
  });

  test('options.fetch is used instead of the global fetch', async () => {
    const calls: [string, RequestInit | undefined][] = [];
    const client = createSessionClient({
      baseUrl: 'https://acme.platform.example/some/path?x=1',
      apiKey: 'k-0123456789abcdef',
      fetch: async (input, init) => {
        calls.push([String(input), init]);
        return new Response(JSON.stringify({ sessionId: 's1' }));
      },
    });
    await expect(client.generateSession({ deploymentId: 1, externalId: 'U' })).resolves.toEqual({ sessionId: 's1' });
    expect(calls[0]![0]).toBe('https://acme.platform.example/api/v1/embed/generate-session');
    expect(calls[0]![1]).toMatchObject({ method: 'POST', redirect: 'manual', body: '{"deploymentId":1,"externalId":"u"}' });
  });
});

describe('the API key stays secret', () => {
  const KEY = 'sk_live_SECRET-9f8e7d6c5b4a';
  const everything = (e: unknown) =>
    `${inspect(e, { depth: Infinity, showHidden: true })}\n${String(e)}\n${(e as Error).stack}\n${JSON.stringify(e)}`;

  test('not in the client object', () => {
    const client = createSessionClient({ baseUrl: platform.url, apiKey: KEY });
    expect(JSON.stringify(client)).not.toContain(KEY);
    expect(inspect(client, { depth: Infinity, showHidden: true, getters: true })).not.toContain(KEY);
    expect(Object.values(client).map(String).join()).not.toContain(KEY);
  });

  test('redacted when the platform echoes it, in JSON or text', async () => {
    const client = createSessionClient({ baseUrl: platform.url, apiKey: KEY });
    const bodies: [number, string][] = [
      [401, JSON.stringify({ message: `invalid key Api-Key ${KEY}` })],
      [400, `bad header: Api-Key ${KEY} ${encodeURIComponent(KEY)}`],
      [500, JSON.stringify({ detail: `${'x'.repeat(495)}${KEY}` })],
    ];
    for (const [status, body] of bodies) {
      platform.reply((_, res) => {
        res.writeHead(status);
        res.end(body);
      });
      const e = await failure(client.generateSession({ deploymentId: 1, externalId: 'u' }));
      expect(e.platformMessage).toMatch(/\[reda/);
      expect(everything(e)).not.toContain(KEY);
      expect(everything(e)).not.toContain(KEY.slice(0, 12));
    }
  });

  test('not in network, timeout, invalid-request or invalid-response errors and their causes', async () => {
    const errors: unknown[] = [];
    const gone = await startServer();
    await gone.close();
    errors.push(
      await failure(createSessionClient({ baseUrl: gone.url, apiKey: KEY }).generateSession({ deploymentId: 1, externalId: 'u' })),
    );
    platform.reply(() => {});
    errors.push(
      await failure(
        createSessionClient({ baseUrl: platform.url, apiKey: KEY, timeoutMs: 100 }).generateSession({ deploymentId: 1, externalId: 'u' }),
      ),
    );
    errors.push(
      await failure(
        createSessionClient({ baseUrl: platform.url, apiKey: KEY }).generateSession({ deploymentId: 1 } as GenerateSessionRequest),
      ),
    );
    platform.reply((_, res) => res.end(`{"sessionId": null, "key": "${KEY}"}`));
    errors.push(
      await failure(createSessionClient({ baseUrl: platform.url, apiKey: KEY }).generateSession({ deploymentId: 1, externalId: 'u' })),
    );
    // A fetch that fails with the key in its error (as a misbehaving proxy agent might).
    const leaky = createSessionClient({
      baseUrl: 'https://acme.platform.example',
      apiKey: KEY,
      fetch: async (_, init) => {
        const header = new Headers(init?.headers).get('authorization');
        throw new TypeError(`fetch failed for ${header}`, {
          cause: Object.assign(new Error(`socket ${header}`), { code: 'ECONNRESET', headers: init?.headers }),
        });
      },
    });
    const leak = await failure(leaky.generateSession({ deploymentId: 1, externalId: 'u' }));
    expect(leak.code).toBe('network');
    expect((leak.cause as { cause?: { code?: string } }).cause?.code).toBe('ECONNRESET');
    errors.push(leak);
    for (const e of errors) expect(everything(e)).not.toContain(KEY);
  });

  test.each(['x', 'Zq9', 'a'.repeat(API_KEY_MIN_LENGTH - 1)])(
    'a key that cannot be real (%j, shorter than 16 characters) is refused, naming the rule, without echoing it',
    (apiKey) => {
      expect(API_KEY_MIN_LENGTH).toBe(16);
      const refused = (() => {
        try {
          createSessionClient({ baseUrl: 'https://acme.platform.example', apiKey });
        } catch (error) {
          return error as PlatformApiError;
        }
      })();
      expect(refused).toBeInstanceOf(PlatformApiError);
      expect(refused).toMatchObject({ code: 'invalid-option', message: expect.stringContaining('at least 16 characters') });
      expect(refused!.message.replace('[platform-embed/server] ', '')).not.toMatch(new RegExp(`\\b${apiKey}\\b`));
    },
  );

  test("redaction leaves the platform's words alone and removes only the key", async () => {
    const shortestKey = 'x'.repeat(API_KEY_MIN_LENGTH);
    const client = createSessionClient({ baseUrl: platform.url, apiKey: shortestKey });
    const message = 'Deployment nonexistent-xx not found (checked xxxx-xxxx)';
    platform.json(404, { message });
    const untouched = await failure(client.generateSession({ deploymentId: 1, externalId: 'u' }));
    expect(untouched.platformMessage).toBe(message);
    platform.json(401, { message: `unknown key ${shortestKey}, next to nonexistent` });
    const redacted = await failure(client.generateSession({ deploymentId: 1, externalId: 'u' }));
    expect(redacted.platformMessage).toBe('unknown key [redacted], next to nonexistent');
    expect(everything(redacted)).not.toContain(shortestKey);
  });

  test('bad keys are refused without echoing them', () => {
    for (const apiKey of [`Api-Key ${KEY}`, `Bearer ${KEY}`, `${KEY}\n`, ` ${KEY}`, `${KEY} x`]) {
      const e = (() => {
        try {
          createSessionClient({ baseUrl: 'https://acme.platform.example', apiKey });
        } catch (error) {
          return error as PlatformApiError;
        }
      })();
      expect(e).toBeInstanceOf(PlatformApiError);
      expect(e!.code).toBe('invalid-option');
      expect(everything(e)).not.toContain(KEY);
    }
  });
});

describe('options', () => {
  test.each([
    ['https://acme.platform.example', 'https://acme.platform.example'],
    ['https://Acme.Platform.Example:443/some/path?q=1#h', 'https://acme.platform.example'],
    ['https://acme.platform.example:8443/', 'https://acme.platform.example:8443'],
    ['  https://acme.platform.example  ', 'https://acme.platform.example'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://127.0.0.1:8080/x', 'http://127.0.0.1:8080'],
    ['http://127.1.2.3', 'http://127.1.2.3'],
    ['http://[::1]:4000', 'http://[::1]:4000'],
    [new URL('https://custom.example.com/embed'), 'https://custom.example.com'],
  ])('baseUrl %s is used as %s', (baseUrl, origin) => {
    expect(createSessionClient({ baseUrl, apiKey: 'k-0123456789abcdef' }).baseUrl).toBe(origin);
  });

  test.each([
    'http://acme.platform.example',
    'http://localhost.evil.example',
    'http://127.0.0.1.evil.example',
    'http://10.0.0.1',
    'acme.platform.example',
    '',
    '*',
    'ftp://acme.platform.example',
    'javascript:alert(1)',
    'https://user:hunter2@acme.platform.example',
    'https://:hunter2@acme.platform.example',
  ])('baseUrl %j is refused', (baseUrl) => {
    expect(() => createSessionClient({ baseUrl, apiKey: 'k-0123456789abcdef' })).toThrow(
      expect.objectContaining({ code: 'invalid-option', message: expect.stringMatching(/baseUrl must be .*https:\/\//) }),
    );
    try {
      createSessionClient({ baseUrl, apiKey: 'k-0123456789abcdef' });
    } catch (e) {
      expect((e as Error).message).not.toContain('hunter2');
    }
  });

  test('apiKey and timeoutMs are checked', () => {
    const base = { baseUrl: 'https://acme.platform.example' };
    expect(() => createSessionClient({ ...base, apiKey: '' })).toThrow(/apiKey is required/);
    expect(() => createSessionClient({ ...base } as never)).toThrow(/apiKey is required/);
    for (const timeoutMs of [0, -1, Number.NaN, 2 ** 31])
      expect(() => createSessionClient({ ...base, apiKey: 'k-0123456789abcdef', timeoutMs })).toThrow(
        /timeoutMs must be a positive number/,
      );
    expect(() => createSessionClient(undefined as never)).toThrow(/options object/);
  });

  test('the error codes are declared once and match the class', () => {
    expect(Object.values(PlatformApiErrorCodes).sort()).toEqual([
      'bad-request',
      'forbidden',
      'http',
      'invalid-option',
      'invalid-request',
      'invalid-response',
      'network',
      'rate-limited',
      'timeout',
      'unauthorized',
      'unavailable',
    ]);
    const e = new PlatformApiError('forbidden', 'x', { status: 403 });
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ name: 'PlatformApiError', code: 'forbidden', status: 403, message: '[platform-embed/server] x' });
  });
});
