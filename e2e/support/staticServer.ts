import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/** A running local HTTP server. */
export interface RunningServer {
  /** The server's origin, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves files and optional routes on `host` (use `127.0.0.1` and `localhost` for two origins
 * that are different sites) on a free port.
 */
export async function startStaticServer(options: {
  host: '127.0.0.1' | 'localhost';
  /** Folders served at `/`, first match wins; `mounts` maps a URL prefix to a folder. */
  root?: string;
  mounts?: Record<string, string>;
  /** Extra routes: return true when handled. */
  routes?: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
  /** Inline pages by path. */
  pages?: Record<string, string>;
}): Promise<RunningServer> {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (options.routes && (await options.routes(req, res))) return;
    const page = options.pages?.[url.pathname];
    if (page !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(page);
      return;
    }
    const mounts = { ...(options.root ? { '/': options.root } : {}), ...options.mounts };
    for (const [prefix, dir] of Object.entries(mounts).sort((a, b) => b[0].length - a[0].length)) {
      if (!url.pathname.startsWith(prefix)) continue;
      const base = resolve(dir);
      const file = normalize(join(base, decodeURIComponent(url.pathname.slice(prefix.length))));
      if (!file.startsWith(base)) break;
      const target = existsSync(file) && statSync(file).isDirectory() ? join(file, 'index.html') : file;
      if (existsSync(target) && statSync(target).isFile()) {
        res.writeHead(200, { 'content-type': TYPES[extname(target)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        createReadStream(target).pipe(res);
        return;
      }
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((done) => server.listen(0, options.host, done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${options.host}:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
