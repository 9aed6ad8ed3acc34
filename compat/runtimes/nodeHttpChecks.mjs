// The checks of toNodeHandler, for the runtimes that have node:http (Node, Bun, Deno): the route
// served by a real http.createServer, called over the loopback with fetch.
import { createServer } from 'node:http';
import { createSessionHandler, toNodeHandler } from '@platform-embed/server';

/** @param {import('./checks.mjs').Targets} targets @param {string} baseUrl @param {(url: string) => Promise<void>} use */
async function withNodeServer(targets, baseUrl, use) {
  const route = createSessionHandler({
    client: { baseUrl, apiKey: targets.apiKey },
    deploymentId: 1,
    resolveUser: () => ({ externalId: 'matrix-user' }),
    onError: () => {},
  });
  const node = toNodeHandler(route);
  const server = createServer((req, res) => void node(req, res));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  try {
    await use(`http://127.0.0.1:${address.port}/api/embed-session`);
  } finally {
    await new Promise((resolve) => server.close(() => resolve(undefined)));
  }
}

/** @param {unknown} condition @param {string} message */
function expect(condition, message) {
  if (!condition) throw new Error(message);
}

/** @type {Record<string, (targets: import('./checks.mjs').Targets) => Promise<void>>} */
export const NODE_HTTP_CHECKS = {
  async 'toNodeHandler on node:http: a same-origin POST mints, a GET is 405'(targets) {
    await withNodeServer(targets, targets.platform, async (url) => {
      const minted = await fetch(url, { method: 'POST', headers: { 'sec-fetch-site': 'same-origin' } });
      const body = await minted.json();
      expect(minted.status === 200 && typeof body.sessionId === 'string', `POST answered ${minted.status} ${JSON.stringify(body)}`);
      const get = await fetch(url);
      await get.arrayBuffer();
      expect(get.status === 405 && get.headers.get('allow') === 'POST', `GET answered ${get.status}`);
    });
  },

  async 'toNodeHandler on node:http: a 1 MiB body is answered 413, three times in a row (issue 23)'(targets) {
    await withNodeServer(targets, targets.platform, async (url) => {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
          body: 'x'.repeat(1024 * 1024),
          signal: AbortSignal.timeout(5000),
        }).catch((error) => ({ status: String(error), arrayBuffer: async () => {} }));
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      expect(
        statuses.every((status) => status === 413),
        `answered ${statuses.join(', ')}`,
      );
    });
  },

  async 'toNodeHandler on node:http: a platform 429 is answered 429 with Retry-After'(targets) {
    await withNodeServer(targets, targets.limited, async (url) => {
      const response = await fetch(url, { method: 'POST', headers: { 'sec-fetch-site': 'same-origin' } });
      await response.arrayBuffer();
      expect(
        response.status === 429 && response.headers.get('retry-after') === '7',
        `answered ${response.status}, Retry-After ${response.headers.get('retry-after')}`,
      );
    });
  },
};
