// A tiny HTTP server for the benchmark pages: one instance per origin (host, embed, hostile).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8' };

/**
 * Serves `routes` (pathname prefix → `(url) => html`) and `mounts` (URL prefix → folder) on
 * `host` at a free port. Nothing is cached, so every iframe load is a real load.
 * @returns {Promise<{ origin: string, close: () => Promise<void> }>}
 */
export async function serve({ host, routes = {}, mounts = {} }) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status, type, body) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    for (const [prefix, page] of Object.entries(routes)) if (url.pathname.startsWith(prefix)) return send(200, TYPES['.html'], page(url));
    for (const [prefix, dir] of Object.entries(mounts)) {
      if (!url.pathname.startsWith(prefix)) continue;
      const base = resolve(dir);
      const file = normalize(join(base, decodeURIComponent(url.pathname.slice(prefix.length))));
      if (file.startsWith(base) && existsSync(file) && statSync(file).isFile()) {
        res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        return void createReadStream(file).pipe(res);
      }
    }
    send(404, 'text/plain', 'not found');
  });
  await new Promise((done) => server.listen(0, host, done));
  const origin = `http://${host}:${server.address().port}`;
  return {
    origin,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
