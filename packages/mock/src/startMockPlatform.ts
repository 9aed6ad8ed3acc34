import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toOrigin } from '@platform-embed/core';
import type { GenerateSessionRequest } from '@platform-embed/server';
import { DEFAULT_DASHBOARDS, resolveDashboard, type MockDashboard, type ResolvedDashboard } from './demoData';
import { readLaunchOptions } from './launchOptions';
import { MockPlatformError, MockPlatformErrorCodes } from './mockPlatformError';
import { renderEmbedPage, renderIndexPage, type EmbedPageConfig } from './pages';
import {
  PlatformState,
  type ExternalUserSnapshot,
  type GenerateSessionResult,
  type MockAttributeDefinition,
  type MockGroup,
  type PlatformStateOptions,
  type SessionSnapshot,
} from './platformState';

/** Options of {@link startMockPlatform}. Every one has a default: `startMockPlatform()` just works. */
export interface MockPlatformOptions extends Omit<PlatformStateOptions, 'deployments'> {
  /** Host name to listen on; the origin of the mock is `http://{host}:{port}`. @default 'localhost' */
  host?: string;
  /** Port to listen on, 0-65535; `0` picks a free one. A port in use is refused (`invalid-option`). @default 0 */
  port?: number;
  /** Existing deployment ids. @default the deployments of `dashboards` */
  deployments?: number[];
  /** Published dashboards. @default `sales-overview` (deployment 1) and `support-health` (deployment 2) */
  dashboards?: MockDashboard[];
  /**
   * Host origins allowed to embed the pages, e.g. `['http://127.0.0.1:5173']`. Embedded
   * anywhere else, a page shows an error and posts nothing. @default any origin
   */
  allowedOrigins?: string[];
}

/** How {@link MockPlatform.throttle} makes generate-session refuse requests. */
export interface MockThrottle {
  /** `429` (rate limited) or `503` (unavailable). @default 429 */
  status?: 429 | 503;
  /**
   * The `Retry-After` header: a number of seconds, or a string sent as it is (an HTTP date, or
   * something malformed to test a client with); `null` sends none. @default 30
   */
  retryAfter?: number | string | null;
  /** How many calls are refused; the ones after it are answered as usual. @default every call until `throttle(false)` */
  times?: number;
}

/** A running mock platform. */
export interface MockPlatform {
  /** Its origin, e.g. `http://localhost:41234`: the `baseUrl` to give the SDK. */
  readonly origin: string;
  /** The first configured API key (`mock-platform-api-key` by default). */
  readonly apiKey: string;
  /**
   * An absolute URL on the mock: `url('/embed/chat')`.
   * @throws {MockPlatformError} `invalid-option` for a URL of another origin (`//host/x`, `https://host/x`).
   */
  url(path: string): string;
  /**
   * Mints a session in process, with generate-session's rules, as your backend would over HTTP.
   * @throws {MockPlatformError} with the HTTP status and message generate-session would answer.
   * @example
   * ```ts
   * const session = await platform.mintSession({ deploymentId: 1, externalId: 'jane@example.com' });
   * ```
   */
  mintSession(request: GenerateSessionRequest, apiKey?: string): Promise<string>;
  /** Runs generate-session in process on any body and returns the status and body it would answer. */
  generateSession(body: unknown, apiKey?: string | null): GenerateSessionResult;
  /** Copies of the sessions minted since start or the last reset, oldest first (with whether they were used). */
  sessions(): SessionSnapshot[];
  /** A copy of a stored external user (profile, attribute values and groups), or `undefined`. */
  externalUser(externalId: string): ExternalUserSnapshot | undefined;
  /** How many external users exist. */
  readonly externalUserCount: number;
  /** The attribute definitions and groups of the tenant (`null`) or of an embed tenant's scope. */
  catalog(embedTenant: string | null): { userAttributes: MockAttributeDefinition[]; groups: MockGroup[] } | undefined;
  /**
   * Makes generate-session refuse calls as a platform under load does, before it looks at the
   * key or the body: `429` (or `503`) with `Retry-After`. `throttle(false)` ends it.
   * @throws {MockPlatformError} `invalid-option` for a value it cannot use (naming it); the throttle in force stays.
   * @example
   * ```ts
   * platform.throttle({ retryAfter: 30, times: 1 }); // the next call answers 429 with Retry-After: 30
   * ```
   */
  throttle(throttle: MockThrottle | false): void;
  /** How many generate-session calls `throttle` refused since start or the last reset. */
  readonly throttledCount: number;
  /** Forgets users, sessions, catalog changes, the throttle and its count (back to the options), e.g. in `beforeEach`. */
  reset(): void;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

const ASSETS = fileURLToPath(new URL('../assets/', import.meta.url));
const ASSET_TYPES: Record<string, string> = { 'embed.js': 'text/javascript; charset=utf-8', 'embed.css': 'text/css; charset=utf-8' };
const MAX_BODY = 1 << 20;

function coreModulePath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@platform-embed/core/package.json')), 'dist/index.mjs');
}

/** Refuses a throttle the mock cannot answer as a platform under load would (a test written in plain JavaScript may pass anything). */
function checkThrottle(next: unknown): asserts next is MockThrottle | false {
  const refuse = (message: string) => {
    throw new MockPlatformError(MockPlatformErrorCodes.InvalidOption, `throttle: ${message}`);
  };
  if (next === false) return;
  if (typeof next !== 'object' || next === null) refuse(`pass false to end it, or { status, retryAfter, times } (got ${String(next)})`);
  const { status, retryAfter, times } = next as Record<string, unknown>;
  if (status !== undefined && status !== 429 && status !== 503) refuse(`status must be 429 or 503 (got ${JSON.stringify(status)})`);
  if (retryAfter !== undefined && retryAfter !== null && typeof retryAfter !== 'number' && typeof retryAfter !== 'string')
    refuse(`retryAfter must be a number of seconds, a string or null (got ${typeof retryAfter})`);
  if (times !== undefined && !(typeof times === 'number' && Number.isInteger(times)))
    refuse(`times must be a whole number of calls (got ${String(times)})`);
}

/** The port to listen on: a whole number 0-65535 (a string of digits, as environment variables hold it, too); `0` for a free one. */
function checkPort(port: unknown): number {
  const value = typeof port === 'string' && /^\d+$/.test(port) ? Number(port) : (port ?? 0);
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 65535)
    throw new MockPlatformError(
      MockPlatformErrorCodes.InvalidOption,
      `port must be a whole number from 0 to 65535, 0 for a free one (got ${typeof port === 'string' ? JSON.stringify(port) : String(port)})`,
    );
  return value;
}

/** A failure to listen as the option that caused it, when one did (the port in use, a host that is not this machine's); else the error itself. */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const because: Record<string, string> = {
    EADDRINUSE: `port ${port} is in use on ${host}: stop what listens there, or pass port 0 for a free one`,
    EACCES: `port ${port} needs privileges on ${host}: pass a port above 1023, or 0 for a free one`,
    EADDRNOTAVAIL: `host ${JSON.stringify(host)} is not an address of this machine: pass localhost, 127.0.0.1 or 0.0.0.0`,
    ENOTFOUND: `host ${JSON.stringify(host)} is not an address of this machine: pass localhost, 127.0.0.1 or 0.0.0.0`,
  };
  const message = error.code === undefined ? undefined : because[error.code];
  if (message === undefined) return error;
  const refused = new MockPlatformError(MockPlatformErrorCodes.InvalidOption, message);
  refused.cause = error;
  return refused;
}

/** A host origin by the SDK's one origin rule (https, or http on loopback). */
function normalizeOrigin(value: string): string {
  const origin = toOrigin(value);
  if (origin === undefined)
    throw new MockPlatformError(
      MockPlatformErrorCodes.InvalidOption,
      `allowedOrigins: ${JSON.stringify(value)} is not an origin such as "http://127.0.0.1:5173" (https, or http on localhost)`,
    );
  return origin;
}

/** The user a session is for: the external id, or the internal username. */
function sessionUserName(user: SessionSnapshot['user']): string {
  return user.kind === 'external' ? user.externalId : user.internalId;
}

/** The host name of the mock's origin: a wildcard address is reached as `localhost`, an IPv6 one in brackets. */
function originHostOf(listenHost: string): string {
  if (listenHost === '0.0.0.0' || listenHost === '::') return 'localhost';
  return listenHost.includes(':') ? `[${listenHost}]` : listenHost;
}

/**
 * Starts the mock platform: a real HTTP server with `POST /api/v1/embed/generate-session`
 * (in-memory tenant, single-use expiring sessions) and the three embed pages, which speak
 * the postMessage protocol to the page that embeds them.
 *
 * @example
 * ```ts
 * const platform = await startMockPlatform({ userAttributes: [{ name: 'region', type: 'string' }] });
 * const session = await platform.mintSession({ deploymentId: 1, externalId: 'jane' });
 * embedDashboard({ container, baseUrl: platform.origin, publicId: 'sales-overview', session });
 * await platform.close();
 * ```
 */
export async function startMockPlatform(options: MockPlatformOptions = {}): Promise<MockPlatform> {
  const dashboards = new Map<string, ResolvedDashboard>(
    (options.dashboards ?? DEFAULT_DASHBOARDS).map((d) => [d.publicId, resolveDashboard(d)]),
  );
  const deployments = options.deployments ?? [...new Set([...dashboards.values()].map((d) => d.deploymentId))];
  if (!deployments.length) deployments.push(1);
  const allowedOrigins = options.allowedOrigins ? options.allowedOrigins.map(normalizeOrigin) : null;
  const state = new PlatformState({ ...options, deployments });
  const host = options.host ?? 'localhost';
  const port = checkPort(options.port);

  const send = (res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers });
    res.end(body);
  };
  const json = (res: ServerResponse, status: number, body: unknown) =>
    send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));

  const readBody = (req: IncomingMessage) =>
    new Promise<string | null>((done, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BODY) chunks.push(chunk);
      });
      req.on('end', () => done(size > MAX_BODY ? null : Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });

  let throttle: MockThrottle | undefined;
  let throttledCount = 0;

  /** Answers a throttled call; `false` when the call is not throttled. */
  function answerThrottled(res: ServerResponse): boolean {
    if (!throttle) return false;
    const { status = 429, retryAfter = 30 } = throttle;
    if (throttle.times !== undefined && --throttle.times <= 0) throttle = undefined;
    throttledCount++;
    const message = status === 429 ? 'Too many requests: slow down' : 'Service unavailable, try again later';
    const headers: Record<string, string> = retryAfter === null ? {} : { 'retry-after': String(retryAfter) };
    send(res, status, 'application/json; charset=utf-8', JSON.stringify({ message }), headers);
    return true;
  }

  async function generateSessionRoute(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'POST') return json(res, 405, { message: 'Use POST' });
    if (answerThrottled(res)) {
      req.resume(); // the body is not read
      return;
    }
    const text = await readBody(req);
    if (text === null) return json(res, 413, { message: `Body larger than ${MAX_BODY} bytes` });
    // Credentials are checked before the body is even looked at, as the platform does.
    const auth = state.authenticate(req.headers.authorization);
    if ('status' in auth) return json(res, auth.status, auth.body);
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
      return json(res, 415, { message: 'Send the body as JSON with "Content-Type: application/json"' });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return json(res, 400, { message: 'The body is not valid JSON', field: '(request)' });
    }
    const result = state.generateSession(req.headers.authorization, body);
    json(res, result.status, result.body);
  }

  function embedRoute(surface: EmbedPageConfig['surface'], url: URL, res: ServerResponse, id?: string) {
    const base: EmbedPageConfig = { surface, mode: 'private', embedTenant: null, deploymentId: null, settings: {}, allowedOrigins };
    const page = (status: number, config: EmbedPageConfig) =>
      send(res, status, 'text/html; charset=utf-8', renderEmbedPage(config), { 'referrer-policy': 'no-referrer' });
    const error = (status: number, name: string, message: string) => page(status, { ...base, error: { name, message } });

    const sessionId = url.searchParams.get(surface === 'chat' ? 'sessionId' : 'session');
    let session: SessionSnapshot | undefined;
    if (sessionId !== null) {
      const used = state.consumeSession(sessionId);
      if (!used.ok) return error(401, 'SessionError', used.message);
      session = used.session;
    } else if (surface === 'app')
      return error(
        401,
        'SessionError',
        'The app surface needs a signed session: add ?session=<sessionId> from generate-session (creatorMode: true)',
      );

    let dashboard: ResolvedDashboard | undefined;
    if (surface === 'dashboard') {
      dashboard = dashboards.get(id!);
      if (!dashboard) return error(404, 'NotFoundError', `Dashboard "${id}" not found`);
      if (session && session.deploymentId !== dashboard.deploymentId)
        return error(
          403,
          'AccessError',
          `This session grants deployment ${session.deploymentId}; dashboard "${id}" belongs to deployment ${dashboard.deploymentId}`,
        );
    }
    if (surface === 'app') {
      if (String(session!.deploymentId) !== id)
        return error(403, 'AccessError', `This session grants deployment ${session!.deploymentId}, not ${id}`);
      if (!session!.creatorMode)
        return error(403, 'AccessError', 'The app surface needs a creator-mode session: mint it with creatorMode: true');
      dashboard =
        [...dashboards.values()].find((d) => d.deploymentId === session!.deploymentId) ??
        resolveDashboard({ publicId: 'workbook', title: 'Workbook', deploymentId: session!.deploymentId });
    }
    const who = session && sessionUserName(session.user);
    const profile: { displayName?: string; picture?: string } =
      (session?.user.kind === 'external' && state.externalUser(session.user.externalId)?.userProfile) || {};
    page(200, {
      ...base,
      launch: readLaunchOptions(url.searchParams, {
        filters: dashboard?.filters,
        timeGrains: dashboard?.timeGrains,
        fieldSwitches: dashboard?.fieldSwitches,
      }),
      mode: session ? 'signed' : 'private',
      embedTenant: session?.embedTenant ?? null,
      deploymentId: session?.deploymentId ?? dashboard?.deploymentId ?? null,
      ...(dashboard && surface === 'dashboard' ? { publicId: dashboard.publicId } : {}),
      ...(dashboard ? { dashboard } : {}),
      settings: session?.settings ?? {},
      ...(who ? { user: { name: profile.displayName ?? who, ...(profile.picture ? { picture: profile.picture } : {}) } } : {}),
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://mock.invalid');
    const path = url.pathname;
    if (path === '/api/v1/embed/generate-session') return generateSessionRoute(req, res);
    if (req.method === 'POST' && path === '/_mock/reset') {
      state.reset();
      res.writeHead(204).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { message: 'Method not allowed' });
    const dashboard = /^\/embed\/dashboard\/([^/]+)$/.exec(path);
    if (dashboard) return embedRoute('dashboard', url, res, decodeURIComponent(dashboard[1]!));
    if (path === '/embed/chat') return embedRoute('chat', url, res);
    const app = /^\/embed\/d\/([^/]+)\/app$/.exec(path);
    if (app) return embedRoute('app', url, res, decodeURIComponent(app[1]!));
    if (path === '/_mock/core.mjs') {
      let code: string;
      try {
        code = await readFile(coreModulePath(), 'utf8');
      } catch {
        return send(res, 500, 'text/plain', 'The core build is missing: run `pnpm --filter @platform-embed/core build`');
      }
      return send(res, 200, 'text/javascript; charset=utf-8', code);
    }
    const asset = /^\/_mock\/(embed\.(?:js|css))$/.exec(path)?.[1];
    if (asset) return send(res, 200, ASSET_TYPES[asset]!, await readFile(join(ASSETS, asset), 'utf8'));
    if (path === '/_mock/state')
      return json(res, 200, {
        externalUserCount: state.externalUserCount,
        sessions: state.listSessions().map(({ sessionId: _id, ...s }) => s),
      });
    if (path === '/')
      return send(res, 200, 'text/html; charset=utf-8', renderIndexPage(platform.origin, state.apiKey, [...dashboards.values()]));
    json(res, 404, { message: `Not found: ${path}` });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) json(res, 500, { message: `mock platform error: ${e instanceof Error ? e.message : String(e)}` });
      else res.destroy();
    });
  });
  await new Promise<void>((done, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(listenError(error, host, port));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      done();
    });
  });
  const originHost = originHostOf(host);

  const platform: MockPlatform = {
    origin: `http://${originHost}:${(server.address() as AddressInfo).port}`,
    apiKey: state.apiKey,
    url(path) {
      const url = new URL(path, platform.origin);
      // `//host/x` and `http://host/x` resolve to another origin: a test would load a page that is not the mock's.
      if (url.origin !== platform.origin)
        throw new MockPlatformError(
          MockPlatformErrorCodes.InvalidOption,
          `url() takes a path on the mock, such as "/embed/chat" (got ${JSON.stringify(path)}, which names another origin)`,
        );
      return url.href;
    },
    generateSession: (body, apiKey = state.apiKey) => state.generateSession(apiKey === null ? undefined : `Api-Key ${apiKey}`, body),
    async mintSession(request, apiKey) {
      const result = platform.generateSession(request, apiKey);
      if ('sessionId' in result.body) return result.body.sessionId;
      throw new MockPlatformError(MockPlatformErrorCodes.Refused, result.body.message, result.status);
    },
    sessions: () => state.listSessions(),
    externalUser: (id) => state.externalUser(id),
    get externalUserCount() {
      return state.externalUserCount;
    },
    catalog: (embedTenant) => state.catalog(embedTenant),
    throttle(next) {
      checkThrottle(next);
      const refusesNone = next === false || (next.times !== undefined && !(next.times > 0));
      throttle = refusesNone ? undefined : { ...next };
    },
    get throttledCount() {
      return throttledCount;
    },
    reset: () => {
      state.reset();
      throttle = undefined;
      throttledCount = 0;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
  return platform;
}
