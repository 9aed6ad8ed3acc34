// Issue 23, points 1 and 3: request bodies as real servers deliver them. A body parser in front
// of toNodeHandler (read or not, with something on req.body or not), an over-long body on a
// kept-alive connection, a body trickled by a slow client, in both route helpers. Over real
// HTTP on free ports, with Node's own client (a keep-alive agent), fetch and a raw socket.
// The real frameworks (Express 4 and 5, Fastify, Koa, Hono) are driven by compat/frameworks.
import { Agent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  createSessionHandler,
  PlatformApiError,
  toNodeHandler,
  type NodeHandlerOptions,
  type SessionHandlerOptions,
} from '@platform-embed/server';

const ROUTE = '/api/embed-session';
const json = { 'content-type': 'application/json' };

/** A route whose session id names who `resolveUser` read from the body, so an answer shows what body reached it. */
const sessionRoute = (options: Partial<SessionHandlerOptions> = {}) =>
  createSessionHandler({
    client: { baseUrl: 'https://platform.invalid', generateSession: async (request) => ({ sessionId: `for-${request.externalId}` }) },
    deploymentId: 1,
    resolveUser: async (request) => {
      const text = await request.text();
      return { externalId: text ? String((JSON.parse(text) as { who?: unknown }).who) : 'no-body' };
    },
    ...options,
  });

type Middleware = (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => void | Promise<void>;

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
  servers = [];
});

/** A Node server running `before` (a stand-in for a body parser), then the route through toNodeHandler; its URL. */
async function serve(options: { before?: Middleware; node?: NodeHandlerOptions; route?: Partial<SessionHandlerOptions> } = {}) {
  const node = toNodeHandler(sessionRoute(options.route), options.node);
  const server = createServer(async (req, res) => {
    await options.before?.(req, res);
    await node(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}${ROUTE}`;
}

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('toNodeHandler behind a body parser', () => {
  // body-parser 1.x (Express 4's express.json()) sets req.body = {} on every request it does not
  // parse, a request without any body included.
  const expressFourJson: Middleware = (req) => {
    req.body ??= {};
  };

  test('a parser’s {} on a request without a body is no body (Express 4 + express.json(): was 415)', async () => {
    const url = await serve({ before: expressFourJson });
    expect(await answer(await fetch(url, { method: 'POST' }))).toEqual({ status: 200, body: { sessionId: 'for-no-body' } });
  });

  test('a parser’s {} on a body it did not read: the body itself is read', async () => {
    const url = await serve({ before: expressFourJson });
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/vnd.api+json' }, body: '{"who":"erin"}' });
    expect(await answer(response)).toEqual({ status: 200, body: { sessionId: 'for-erin' } });
  });

  test('a body a parser read and parsed is passed on from req.body', async () => {
    const parse: Middleware = async (req) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      req.body = JSON.parse(text);
    };
    const url = await serve({ before: parse });
    const response = await fetch(url, { method: 'POST', headers: json, body: '{ "who": "fay" }' });
    expect(await answer(response)).toEqual({ status: 200, body: { sessionId: 'for-fay' } });
  });

  test('a body a middleware read, with nothing on req.body: a 500 naming the cause, not a body silently lost', async () => {
    const swallow: Middleware = async (req) => {
      for await (const _ of req);
    };
    const node = toNodeHandler(sessionRoute());
    const next = vi.fn();
    const server = createServer(async (req, res) => {
      await swallow(req, res);
      await node(req, res, (error) => {
        next(error);
        res.statusCode = 500;
        res.end();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${ROUTE}`, {
      method: 'POST',
      headers: json,
      body: '{"who":"gus"}',
    });
    expect(response.status).toBe(500);
    expect(next).toHaveBeenCalledWith(expect.any(PlatformApiError));
    expect(String(next.mock.calls[0]![0].message)).toMatch(/already read .*req\.body/);
  });

  test('a Fetch API Request whose body was already read: 500, the cause to onError', async () => {
    const onError = vi.fn();
    const request = new Request(`https://app.test${ROUTE}`, { method: 'POST', headers: json, body: '{"who":"hal"}' });
    await request.text();
    const response = await sessionRoute({ onError })(request);
    expect(response.status).toBe(500);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringMatching(/already read/) }), request);
  });
});

/** POSTs of `bytes` bytes one after the other on one kept-alive connection (Node's agent); each status, or what went wrong. */
async function postsOnOneConnection(url: string, bytes: number, count: number, declareLength = true): Promise<(number | string)[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const body = Buffer.alloc(bytes, 'x');
  const outcomes: (number | string)[] = [];
  try {
    for (let i = 0; i < count; i++)
      outcomes.push(
        await new Promise<number | string>((resolve) => {
          const headers = declareLength ? { ...json, 'content-length': String(bytes) } : json;
          const request = httpRequest(url, { method: 'POST', agent, headers }, (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode!));
          });
          request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
          request.setTimeout(3000, () => request.destroy(new Error('no answer in 3 s')));
          // Without a declared length, Node sends the body chunked, in pieces.
          if (declareLength) request.end(body);
          else {
            for (let at = 0; at < bytes; at += 64 * 1024) request.write(body.subarray(at, at + 64 * 1024));
            request.end();
          }
        }),
      );
  } finally {
    agent.destroy();
  }
  return outcomes;
}

describe('toNodeHandler: an over-long body is answered 413, then the connection closed cleanly', () => {
  test.each([
    ['70 KiB', 70 * 1024],
    ['256 KiB', 256 * 1024],
    ['1 MiB', 1024 * 1024],
    ['5 MiB', 5 * 1024 * 1024],
  ])('%s, three times on a kept-alive connection (Node’s agent): 413 each time, never a reset or silence', async (_, bytes) => {
    const url = await serve();
    expect(await postsOnOneConnection(url, bytes, 3)).toEqual([413, 413, 413]);
  });

  test('1 MiB sent chunked (no Content-Length), three times: 413 each time', async () => {
    const url = await serve();
    expect(await postsOnOneConnection(url, 1024 * 1024, 3, false)).toEqual([413, 413, 413]);
  });

  test('1 MiB with fetch (undici, keep-alive): 413 each time, with Connection: close', async () => {
    const url = await serve();
    for (let i = 0; i < 3; i++) {
      const response = await fetch(url, {
        method: 'POST',
        headers: json,
        body: 'x'.repeat(1024 * 1024),
        signal: AbortSignal.timeout(3000),
      });
      expect(response.status).toBe(413);
      expect(response.headers.get('connection')).toBe('close');
      await expect(response.json()).resolves.toMatchObject({ error: 'body-too-large' });
    }
  });

  test('the connection is closed after the 413, and a request under the limit on a new one is answered', async () => {
    const url = await serve();
    expect(await postsOnOneConnection(url, 1024 * 1024, 1)).toEqual([413]);
    const response = await fetch(url, { method: 'POST', headers: json, body: '{"who":"ivy"}' });
    expect(await answer(response)).toEqual({ status: 200, body: { sessionId: 'for-ivy' } });
  });
});

/** Sends headers declaring 100 bytes, then one byte every 100 ms: the answer's status line, whether the connection closed, and when. */
function trickle(url: string): Promise<{ statusLine: string | undefined; closed: boolean; ms: number }> {
  const { port } = new URL(url);
  const started = performance.now();
  const socket = connect(Number(port), '127.0.0.1');
  const drip = setInterval(() => socket.writable && socket.write('x'), 100);
  socket.on('error', () => {});
  socket.write(`POST ${ROUTE} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`);
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  return new Promise((resolve) => {
    const done = (closed: boolean) => {
      clearInterval(drip);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ statusLine: received.split('\r\n')[0] || undefined, closed, ms: performance.now() - started });
    };
    const giveUp = setTimeout(() => done(false), 3000);
    socket.on('close', () => done(true));
  });
}

describe('a body trickled by a slow client is answered 408 at bodyTimeoutMs', () => {
  test('toNodeHandler: 408, then the connection is closed (was: no answer until Node’s requestTimeout, 300 s)', async () => {
    const url = await serve({ node: { bodyTimeoutMs: 300 } });
    const { statusLine, closed, ms } = await trickle(url);
    expect(statusLine).toBe('HTTP/1.1 408 Request Timeout');
    expect(closed).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(2500);
  });

  test('createSessionHandler (Fetch API): 408, and the body is no longer read (was: no answer at all)', async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        pulls++;
        await new Promise((resolve) => setTimeout(resolve, 100));
        controller.enqueue(new TextEncoder().encode(' '));
      },
    });
    const request = new Request(`https://app.test${ROUTE}`, { method: 'POST', headers: json, body, duplex: 'half' } as RequestInit);
    const started = performance.now();
    const response = await Promise.race([
      sessionRoute({ bodyTimeoutMs: 300 })(request),
      new Promise<undefined>((resolve) => setTimeout(resolve, 3000)),
    ]);
    expect(response?.status).toBe(408);
    await expect(response!.json()).resolves.toEqual({ error: 'request-timeout', message: expect.any(String) });
    expect(performance.now() - started).toBeLessThan(2500);
    const pulled = pulls;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pulls).toBeLessThanOrEqual(pulled + 1);
  });

  test('a body that arrives in time is unaffected by the deadline', async () => {
    const url = await serve({ node: { bodyTimeoutMs: 300 }, route: { bodyTimeoutMs: 300 } });
    const response = await fetch(url, { method: 'POST', headers: json, body: '{"who":"jo"}' });
    expect(await answer(response)).toEqual({ status: 200, body: { sessionId: 'for-jo' } });
  });

  test.each([0, -1, Number.NaN, Infinity, '10' as unknown as number])('bodyTimeoutMs %s is refused when the route is created', (value) => {
    expect(() => sessionRoute({ bodyTimeoutMs: value })).toThrow(/bodyTimeoutMs must be a positive number of milliseconds/);
    expect(() => toNodeHandler(sessionRoute(), { bodyTimeoutMs: value })).toThrow(
      /bodyTimeoutMs must be a positive number of milliseconds/,
    );
  });
});

/** The status line and body of one raw HTTP/1.1 request `head` (the connection closed after it). */
async function rawRequest(url: string, head: string): Promise<{ statusLine: string; body: string }> {
  const { port } = new URL(url);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(head));
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
    socket.setTimeout(3000, () => socket.destroy(new Error('no answer in 3 s')));
  });
  return { statusLine: text.split('\r\n')[0]!, body: text.split('\r\n\r\n')[1] ?? '' };
}

describe('toNodeHandler: the request target names a path, never the origin the cross-site check compares', () => {
  // An older browser (no Sec-Fetch-Site) on http://evil.example calls this app at
  // http://app.example//evil.example/...: Node hands over `//evil.example/...` as req.url, which a
  // URL parser reads as a host. Behind a TLS proxy (the app sees http) the rebuilt request's
  // origin was then http://evil.example, the request's Origin: "same origin", a session minted.
  test.each([
    ['a path starting with //host (was 200: a session minted for a cross-site caller)', `//evil.example${ROUTE}`],
    ['the absolute form (was 200)', `http://evil.example${ROUTE}`],
  ])('%s: 403 cross-site', async (_, target) => {
    const url = await serve();
    const head = `POST ${target} HTTP/1.1\r\nHost: app.example\r\nOrigin: http://evil.example\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
    const { statusLine, body } = await rawRequest(url, head);
    expect(statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(JSON.parse(body)).toMatchObject({ error: 'cross-site' });
  });

  test('the same path from the app’s own origin is answered', async () => {
    const url = await serve();
    const head = `POST //evil.example${ROUTE} HTTP/1.1\r\nHost: app.example\r\nOrigin: http://app.example\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
    expect((await rawRequest(url, head)).statusLine).toBe('HTTP/1.1 200 OK');
  });
});

describe('toNodeHandler: a Host header that names no host is the client’s mistake', () => {
  // Node accepts these Host values as they came (its parser only refuses control characters);
  // the request URL rebuilt from one did not parse: a 500 internal-error, the route's "failure".
  test.each([
    ['a space in it', 'app example'],
    ['an unclosed IPv6 bracket', '[::1'],
    ['a port past 65535', 'app.example:99999'],
    ['a port that is no number', 'app.example:http'],
    ['credentials (the origin would be the part after @)', 'app.example@evil.example'],
    ['a path (the origin would be the part before /)', 'evil.example/app.example'],
    ['a query', 'app.example?x'],
  ])('%s: 400 invalid-host (was 500 internal-error, or another origin)', async (_, host) => {
    const url = await serve();
    const head = `POST ${ROUTE} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
    const { statusLine, body } = await rawRequest(url, head);
    expect(statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(body)).toEqual({ error: 'invalid-host', message: expect.stringMatching(/Host header/) });
  });

  test.each([
    ['a name and port', 'app.example:8080'],
    ['an IPv6 address', '[::1]:3000'],
    ['upper case', 'App.Example'],
  ])('%s is answered', async (_, host) => {
    const url = await serve();
    const head = `POST ${ROUTE} HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
    expect((await rawRequest(url, head)).statusLine).toBe('HTTP/1.1 200 OK');
  });
});
