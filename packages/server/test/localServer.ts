import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a local test server received it. */
export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real HTTP server on 127.0.0.1 whose answer each test sets with `reply`. */
export async function startServer() {
  const received: Received[] = [];
  let reply: (req: Received, res: ServerResponse) => void = (_, res) => res.end();
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const r = { method: req.method!, url: req.url!, headers: req.headers, body };
    received.push(r);
    reply(r, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    reply(fn: (req: Received, res: ServerResponse) => void) {
      reply = fn;
    },
    json(status: number, body: unknown, headers: Record<string, string> = {}) {
      reply = (_, res) => {
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
