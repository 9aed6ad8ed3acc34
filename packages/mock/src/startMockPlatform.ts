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
  /** Port to listen on; `0` picks a free one. @default 0 */
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

/** A running mock platform. */
export interface MockPlatform {
  /** Its origin, e.g. `http://localhost:41234`: the `baseUrl` to give the SDK. */
  readonly origin: string;
  /** The first configured API key (`mock-platform-api-key` by default). */
  readonly apiKey: string;
  /** An absolute URL on the mock: `url('/embed/chat')`. */
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
  /** Forgets users, sessions and catalog changes (back to the options), e.g. in `beforeEach`. */
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

  async function generateSessionRoute(req: IncomingMessage, res: ServerResponse) {
    if (req.method !== 'POST') return json(res, 405, { message: 'Use POST' });
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
    const who =
      session?.user.kind === 'external' ? session.user.externalId : session?.user.kind === 'internal' ? session.user.internalId : undefined;
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
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      done();
    });
  });
  const { port } = server.address() as AddressInfo;
  const originHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;

  const platform: MockPlatform = {
    origin: `http://${originHost}:${port}`,
    apiKey: state.apiKey,
    url: (path) => new URL(path, platform.origin).href,
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
    reset: () => state.reset(),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
  return platform;
}
