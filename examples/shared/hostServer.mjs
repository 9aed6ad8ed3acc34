// A demo host's own backend: serves the host's static files and its session route.
// The route mints a fresh session for the signed-in demo user through @platform-embed/server,
// so the API key stays here and never reaches the browser.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { createSessionClient, createSessionHandler, toNodeHandler } from '@platform-embed/server';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * Starts one demo host.
 * @param {{
 *   name: string,
 *   mounts: Record<string, string>,
 *   host?: string,
 *   port?: number,
 *   platform: { baseUrl: string, apiKey: string, deploymentId: number, publicId: string, mode: 'mock' | 'tenant' },
 *   user?: { externalId: string, email?: string, displayName?: string },
 *   log?: (line: string) => void,
 * }} options  `mounts` maps URL prefixes to folders (longest prefix first); `/` is the app; `log`
 *   writes the cause of each failed session (default `console.error`; a test may keep them).
 * @returns {Promise<{ origin: string, sessionsMinted: () => number, close: () => Promise<void> }>}
 */
export async function startHost(options) {
  const { platform, user = { externalId: 'demo.viewer@example.com', displayName: 'Demo Viewer' }, log = console.error } = options;
  let minted = 0;
  const client = createSessionClient({ baseUrl: platform.baseUrl, apiKey: platform.apiKey });
  const failureCauses = new WeakMap();
  const sessionRoute = createSessionHandler({
    client,
    deploymentId: platform.deploymentId,
    methods: ['POST'],
    // A real host reads its own signed-in user from the request (cookie, token...).
    resolveUser: () => {
      minted++;
      return { externalId: user.externalId, email: user.email, userProfile: { displayName: user.displayName } };
    },
    onError: (error, request) => {
      const cause = error instanceof Error ? error.message : String(error);
      log(`${options.name} host, session route: ${cause}`);
      failureCauses.set(request, cause);
    },
  });
  // The demo's route answers the cause of a failure as its `message`, which the SDK puts in the
  // embed's error, so the host page shows it instead of a blank embed (the client's errors never
  // contain the API key). A production route answers only the generic message and logs the
  // cause, as createSessionHandler does.
  const session = toNodeHandler(async (request) => {
    const response = await sessionRoute(request);
    const cause = failureCauses.get(request);
    if (cause === undefined) return response;
    const { error } = await response.json();
    return new Response(JSON.stringify({ error, message: cause }), { status: response.status, headers: response.headers });
  });
  const config = JSON.stringify({
    baseUrl: platform.baseUrl,
    publicId: platform.publicId,
    deploymentId: platform.deploymentId,
    mode: platform.mode,
    host: options.name,
  });
  // The shared stylesheet and icon (every page links /favicon.svg: no request for /favicon.ico).
  const shared = { '/demo.css': resolve(import.meta.dirname, 'demo.css'), '/favicon.svg': resolve(import.meta.dirname, 'favicon.svg') };
  const mounts = Object.entries({ ...shared, ...options.mounts }).sort((a, b) => b[0].length - a[0].length);

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://host');
    if (url.pathname === '/api/session') return session(req, res);
    if (url.pathname === '/config.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      return res.end(config);
    }
    for (const [prefix, target] of mounts) {
      if (!url.pathname.startsWith(prefix)) continue;
      const base = resolve(target);
      let file = prefix.endsWith('/') ? normalize(join(base, decodeURIComponent(url.pathname.slice(prefix.length)))) : base;
      if (!file.startsWith(base)) break;
      if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
      if (existsSync(file) && statSync(file).isFile()) {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        return void createReadStream(file).pipe(res);
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise((done, fail) => server.once('error', fail).listen(options.port ?? 0, options.host ?? '127.0.0.1', done));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    origin: `http://${options.host ?? '127.0.0.1'}:${port}`,
    sessionsMinted: () => minted,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done(undefined));
      }),
  };
}

/** Where each demo host's files are, relative to the repository. */
export const HOSTS = {
  html: (root) => ({ '/': join(root, 'examples/html'), '/vendor/': join(root, 'packages/element/dist') }),
  react: (root) => ({ '/': join(root, 'examples/react/dist') }),
  vue: (root) => ({ '/': join(root, 'examples/vue/dist') }),
};
