// Tiny HTTP servers for the benchmark pages: one instance per origin (host, embed, hostile).
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

export const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
};

/**
 * Listens on `host` at a free port. `handle(url, send, res)` answers a request, with
 * `send(status, type, body)` or on `res` itself, and returns (or resolves to) whether it did;
 * anything it leaves is a 404. Nothing is cached, so every iframe load is a real load.
 * @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export async function listen(host, handle) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status, type, body) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    Promise.resolve(handle(url, send, res)).then((handled) => handled || send(404, 'text/plain', 'not found'));
  });
  await new Promise((done) => server.listen(0, host, done));
  return {
    origin: `http://${host}:${server.address().port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** Serves `url`'s path below `prefix` from `dir`, when it is a file there. @returns whether it did */
export function serveFile(url, prefix, dir, res) {
  if (!url.pathname.startsWith(prefix)) return false;
  const base = resolve(dir);
  const path = normalize(join(base, decodeURIComponent(url.pathname.slice(prefix.length))));
  if (!path.startsWith(base) || !existsSync(path) || !statSync(path).isFile()) return false;
  res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
  createReadStream(path).pipe(res);
  return true;
}

/**
 * Serves `routes` (pathname prefix → `(url) => html`) and `mounts` (URL prefix → folder) on
 * `host` at a free port.
 * @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export function serve({ host, routes = {}, mounts = {} }) {
  return listen(host, (url, send, res) => {
    for (const [prefix, page] of Object.entries(routes))
      if (url.pathname.startsWith(prefix)) {
        send(200, TYPES['.html'], page(url));
        return true;
      }
    return Object.entries(mounts).some(([prefix, dir]) => serveFile(url, prefix, dir, res));
  });
}

const RESILIENT_EMBED = readFileSync(resolve(import.meta.dirname, 'pages/resilientEmbed.js'), 'utf8');

/**
 * The embed of the resilience and keep-alive rows (pages/resilientEmbed.js) on `localhost`: a
 * dashboard page at `/embed/dashboard/<id>` that talks to the host at `hostOrigin()`.
 * @param {() => string} hostOrigin the host's origin (known once the host listens)
 * @param {(id: string) => void} [loaded] told of every dashboard page served
 */
export function listenResilientEmbed(hostOrigin, loaded = () => {}) {
  return listen('localhost', (url, send) => {
    if (!url.pathname.startsWith('/embed/dashboard/')) return false;
    loaded(decodeURIComponent(url.pathname.split('/').pop()));
    send(
      200,
      TYPES['.html'],
      `<!doctype html><meta charset="utf-8"><title>embed</title><body><script>const HOST = ${JSON.stringify(hostOrigin())};\n${RESILIENT_EMBED}</script>`,
    );
    return true;
  });
}

/** A host page that runs the module `script` (a path the host serves), `body` first. */
export const hostPage = (script, body = '') =>
  `<!doctype html><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,"><body style="margin:0">${body}<script type="module" src="${script}"></script>`;
