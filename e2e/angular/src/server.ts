import { AngularNodeAppEngine, createNodeRequestHandler, isMainModule, writeResponseToNodeResponse } from '@angular/ssr/node';
import { createSessionHandler, toNodeHandler } from '@platform-embed/server';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

// The scaffold's Express server, with the host's session route (minting through
// @platform-embed/server on the platform of PLATFORM_URL) and a test hook that makes the next
// session calls fail. Listens on 127.0.0.1:$PORT (0: a free port) and prints its origin.

const browserDistFolder = join(import.meta.dirname, '../browser');
const app = express();
const angularApp = new AngularNodeAppEngine();

const mintSession = toNodeHandler(
  createSessionHandler({
    client: { baseUrl: process.env['PLATFORM_URL']!, apiKey: process.env['PLATFORM_API_KEY']! },
    deploymentId: 1,
    resolveUser: () => ({ externalId: 'jane@example.com' }),
  }),
);
let failingSessions = 0;
app.post('/test/fail-sessions/:count', (req, res) => {
  failingSessions = Number(req.params.count);
  res.status(204).end();
});
app.post('/api/embed-session', (req, res, next) => {
  if (failingSessions > 0) {
    failingSessions--;
    res.status(503).json({ error: 'the platform is unavailable' });
    return;
  }
  void mintSession(req, res, next);
});

app.use(express.static(browserDistFolder, { maxAge: '1y', index: false, redirect: false }));

app.use((req, res, next) => {
  angularApp
    .handle(req)
    .then((response) => (response ? writeResponseToNodeResponse(response, res) : next()))
    .catch(next);
});

if (isMainModule(import.meta.url)) {
  const server = app.listen(Number(process.env['PORT'] ?? 4000), '127.0.0.1', (error) => {
    if (error) throw error;
    console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
}

export const reqHandler = createNodeRequestHandler(app);
