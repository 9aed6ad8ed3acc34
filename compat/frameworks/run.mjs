#!/usr/bin/env node
/*
 * The framework matrix (issue 23): @platform-embed/server's route helpers, as built, mounted in
 * the servers hosts run (Node's http, Express 4 and 5 with each of their body parsers, Fastify
 * 5, Koa 3 with and without koa-body, Hono 4 on Node with and without a middleware that read
 * the body) and driven over real HTTP on free ports. Every server must give the answers Node's
 * own http server gives, except where its body parser answers first (an invalid JSON body, a
 * body over the parser's own limit): then the status must still be the same.
 *
 * The framework recipes of packages/server/README.md (the blocks marked "run by
 * compat/frameworks: NAME") are run too, as written: the recipes a reader copies are tested.
 *
 * The frameworks come from the npm registry as this package's devDependencies, at exact
 * versions; Express 4 and 5 side by side as `express4` and `express5`.
 *
 * Usage: node compat/frameworks/run.mjs   (run by `pnpm test:frameworks`, part of `pnpm test`,
 * after `pnpm build`, with the dot reporter and a count of the checks: compat/frameworks/count.mjs)
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createAdaptorServer } from '@hono/node-server';
import express4 from 'express4';
import express5 from 'express5';
import Fastify from 'fastify';
import { Hono } from 'hono';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import { createSessionHandler, toNodeHandler, SessionRouteErrors } from '@platform-embed/server';

const README = fileURLToPath(new URL('../../packages/server/README.md', import.meta.url));
const ROUTE = '/api/embed-session';
/** Short, so that the slow client’s 408 comes in a second (and long enough to drain a 1 MiB body on a loaded machine). */
const BODY_TIMEOUT_MS = 1000;
const OVER_LONG_BYTES = 1024 * 1024 + 1;

// The frameworks log the errors of the requests the cases send on purpose (bodies that do not
// parse, or over a parser's limit) with their stacks, unless they run for tests: Express (its
// final handler) by NODE_ENV, read when an app is created; Koa by `app.silent`, below.
process.env.NODE_ENV ??= 'test';

if (
  !import.meta.resolve('@platform-embed/server').endsWith('/dist/index.mjs') ||
  !existsSync(fileURLToPath(import.meta.resolve('@platform-embed/server')))
)
  throw new Error('@platform-embed/server is not built: run pnpm build first');

// ---------------------------------------------------------------------------------------------
// The route: a fake session client whose session id names the user resolveUser found, so that
// an answer shows whether the request body reached resolveUser.

const errors = [];
const sessionRoute = () =>
  createSessionHandler({
    client: {
      baseUrl: 'https://platform.invalid',
      generateSession: async (request) => ({ sessionId: `session-for-${request.externalId}` }),
    },
    deploymentId: 1,
    trustProxy: true,
    bodyTimeoutMs: BODY_TIMEOUT_MS,
    resolveUser: async (request) => {
      const text = await request.text();
      return { externalId: text ? String(JSON.parse(text).who) : 'no-body' };
    },
    onError: (error) => errors.push(error),
  });
const nodeRoute = () => toNodeHandler(sessionRoute(), { bodyTimeoutMs: BODY_TIMEOUT_MS });

// ---------------------------------------------------------------------------------------------
// The servers

/** Listens on a free loopback port; `{ origin, close }`. */
async function listen(server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}

const express = { express4, express5 };
/** Express's body parsers, as a host puts them in front. */
const EXPRESS_PARSERS = {
  'express.json()': (e) => [e.json()],
  'express.urlencoded()': (e) => [e.urlencoded({ extended: false })],
  'express.text()': (e) => [e.text()],
  'express.json(), urlencoded() and text()': (e) => [e.json(), e.urlencoded({ extended: false }), e.text()],
};

/**
 * The answers a framework gives itself, before the route runs, by case name: the status only is
 * compared. Every other case must get the route's own answer, exactly.
 */
const JSON_PARSER_ANSWERS = { 'JSON that does not parse: 400': 400 };

/** Each server: its name, how it starts with a fresh route, and the answers its parsers give. */
const SETUPS = [
  { name: 'node:http', start: () => listen(createServer(nodeRoute())) },
  ...Object.entries(express).flatMap(([version, e]) => [
    { name: `${version}, no body parser`, start: () => listen(createServer(e().all(ROUTE, nodeRoute()))) },
    ...Object.entries(EXPRESS_PARSERS).map(([parsers, make]) => ({
      name: `${version}, ${parsers}`,
      start: () =>
        listen(
          createServer(
            e()
              .use(...make(e))
              .all(ROUTE, nodeRoute()),
          ),
        ),
      frameworkAnswers: parsers.includes('json') ? JSON_PARSER_ANSWERS : {},
    })),
  ]),
  {
    name: 'fastify',
    start: async () => {
      const app = Fastify();
      const route = nodeRoute();
      app.all(ROUTE, async (request, reply) => {
        reply.hijack();
        await route(Object.assign(request.raw, { body: request.body }), reply.raw);
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      return { origin: `http://127.0.0.1:${app.server.address().port}`, close: () => app.close() };
    },
    // Fastify parses JSON and text only; it refuses other types with 415 before any route runs.
    frameworkAnswers: {
      ...JSON_PARSER_ANSWERS,
      'a form body: 415': 415,
      'a body trickled byte by byte: 408': 415,
    },
  },
  ...[false, true].map((parsed) => ({
    name: parsed ? 'koa with koa-body' : 'koa, no body parser',
    start: () => {
      const app = new Koa();
      app.silent = true;
      const route = nodeRoute();
      if (parsed) app.use(koaBody());
      app.use(async (ctx, next) => {
        if (ctx.path !== ROUTE) return next();
        ctx.respond = false;
        await route(Object.assign(ctx.req, { body: ctx.request.body }), ctx.res);
      });
      return listen(createServer(app.callback()));
    },
    frameworkAnswers: parsed ? JSON_PARSER_ANSWERS : {},
  })),
  ...[false, true].map((readFirst) => ({
    name: readFirst ? 'hono on Node, a middleware read the body' : 'hono on Node',
    start: () => {
      const app = new Hono();
      const route = sessionRoute();
      if (readFirst)
        app.use(async (c, next) => {
          if (c.req.header('content-type')?.startsWith('application/json')) await c.req.json().catch(() => undefined);
          await next();
        });
      app.all(ROUTE, async (c) => route(c.req.raw.bodyUsed ? new Request(c.req.raw, { body: await c.req.text() }) : c.req.raw));
      return listen(createAdaptorServer({ fetch: app.fetch }));
    },
  })),
];

// ---------------------------------------------------------------------------------------------
// The README's recipes, as written

/** The framework recipes of the README: `{ name, code }` for each block marked "run by compat/frameworks: NAME". */
function readmeRecipes() {
  const text = readFileSync(README, 'utf8');
  const recipes = [];
  for (const match of text.matchAll(/<!--[^>]*run by compat\/frameworks: ([\w-]+)[^>]*-->\s*```ts\n([\s\S]*?)```/g))
    recipes.push({ name: match[1], code: match[2] });
  return recipes;
}

/** How each recipe's `app` is served, and which package its `express` import stands for. */
const RECIPE_SERVERS = {
  express: (app) => listen(createServer(app)),
  fastify: async (app) => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { origin: `http://127.0.0.1:${app.server.address().port}`, close: () => app.close() };
  },
  koa: (app) => {
    app.silent = true; // as above: not logging the errors of the requests sent on purpose
    return listen(createServer(app.callback()));
  },
  hono: (app) => listen(createAdaptorServer({ fetch: app.fetch })),
};
const RECIPE_FRAMEWORK_ANSWERS = {
  express: JSON_PARSER_ANSWERS,
  fastify: SETUPS.find((s) => s.name === 'fastify').frameworkAnswers,
  koa: JSON_PARSER_ANSWERS,
};
const HANDLER = Symbol.for('platform-embed.frameworkMatrix.handler');
const recipeDir = mkdtempSync(join(tmpdir(), 'framework-matrix-'));
process.on('exit', () => rmSync(recipeDir, { recursive: true, force: true }));

/**
 * A recipe as a module: its imports resolved from this package (`express` as `aliasOf.express`),
 * `handler` a fresh route, `app` exported.
 */
async function loadRecipe(recipe, aliases) {
  const code = recipe.code.replace(
    /from '([^'.][^']*)'/g,
    (_, specifier) => `from '${import.meta.resolve(aliases[specifier] ?? specifier)}'`,
  );
  const file = join(recipeDir, `${recipe.name}-${Object.values(aliases).join('-') || 'as-written'}.mjs`);
  writeFileSync(file, `const handler = globalThis[Symbol.for('platform-embed.frameworkMatrix.handler')];\n${code}\nexport { app };\n`);
  globalThis[HANDLER] = sessionRoute();
  return (await import(pathToFileURL(file).href)).app;
}

for (const recipe of readmeRecipes()) {
  const serve = RECIPE_SERVERS[recipe.name];
  if (!serve) throw new Error(`README recipe "${recipe.name}": compat/frameworks/run.mjs does not know how to serve it`);
  const variants = recipe.name === 'express' ? [{ express: 'express4' }, { express: 'express5' }] : [{}];
  for (const aliases of variants)
    SETUPS.push({
      name: `README recipe: ${recipe.name}${aliases.express ? ` (${aliases.express})` : ''}`,
      start: async () => serve(await loadRecipe(recipe, aliases)),
      frameworkAnswers: RECIPE_FRAMEWORK_ANSWERS[recipe.name] ?? {},
      // The recipes keep the default bodyTimeoutMs (10 s): the trickle is tested on the setups above.
      trickle: false,
    });
}

// ---------------------------------------------------------------------------------------------
// The requests, and the answer Node's own http server gives each

const json = { 'content-type': 'application/json' };

/** `request(origin)` gives fetch's url and init; the answer is `status` with `error` (a refusal) or `sessionId`. */
const CASES = [
  { name: 'a POST without a body mints', request: () => ({ method: 'POST' }), status: 200, sessionId: 'session-for-no-body' },
  {
    name: 'a JSON body reaches resolveUser',
    request: () => ({ method: 'POST', headers: json, body: '{"who":"carol"}' }),
    status: 200,
    sessionId: 'session-for-carol',
  },
  {
    name: 'a JSON body with a charset reaches resolveUser',
    request: () => ({ method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"who":"dora"}' }),
    status: 200,
    sessionId: 'session-for-dora',
  },
  {
    name: 'a text/plain body: 415',
    request: () => ({ method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"who":"carol"}' }),
    status: 415,
    error: 'unsupported-media-type',
  },
  {
    name: 'a form body: 415',
    request: () => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'who=carol' }),
    status: 415,
    error: 'unsupported-media-type',
  },
  {
    name: 'JSON that does not parse: 400',
    request: () => ({ method: 'POST', headers: json, body: '{"who":' }),
    status: 400,
    error: 'invalid-body',
  },
  {
    name: 'a JSON body of 20 KiB, over maxBodyBytes and under the parsers’ limits: 413',
    request: () => ({ method: 'POST', headers: json, body: JSON.stringify({ who: 'x'.repeat(20 * 1024) }) }),
    status: 413,
    error: 'body-too-large',
  },
  { name: 'GET: 405, Allow: POST', request: () => ({ method: 'GET' }), status: 405, error: 'method-not-allowed', allow: 'POST' },
  {
    name: 'another site (Origin, no Sec-Fetch-Site): 403',
    request: () => ({ method: 'POST', headers: { origin: 'https://evil.example' } }),
    status: 403,
    error: 'cross-site',
  },
  {
    name: 'behind a TLS proxy: Origin https://<host> with X-Forwarded-Proto: https mints',
    request: (origin) => ({ method: 'POST', headers: { origin: origin.replace('http:', 'https:'), 'x-forwarded-proto': 'https' } }),
    status: 200,
    sessionId: 'session-for-no-body',
  },
  {
    name: 'behind a proxy: Origin https://app.example with Forwarded: proto=https;host=app.example mints',
    request: () => ({
      method: 'POST',
      headers: { origin: 'https://app.example', forwarded: 'for=192.0.2.1;proto=https;host=app.example' },
    }),
    status: 200,
    sessionId: 'session-for-no-body',
  },
  {
    name: 'Origin https://<host> without a proxy header: 403',
    request: (origin) => ({ method: 'POST', headers: { origin: origin.replace('http:', 'https:') } }),
    status: 403,
    error: 'cross-site',
  },
];

/** Whether `body` is one of the route's own refusals (`{ error, message }` with a known code). */
const isRouteRefusal = (body) => typeof body?.error === 'string' && Object.hasOwn(SessionRouteErrors, body.error);

async function checkCase(origin, row, frameworkAnswers) {
  const response = await fetch(`${origin}${ROUTE}`, { ...row.request(origin), signal: AbortSignal.timeout(5000) });
  const text = await response.text();
  const frameworkStatus = frameworkAnswers[row.name];
  if (frameworkStatus !== undefined) return assert.equal(response.status, frameworkStatus, text);
  assert.equal(response.status, row.status, text);
  const body = JSON.parse(text);
  if (row.sessionId) return assert.deepEqual(body, { sessionId: row.sessionId });
  assert.ok(isRouteRefusal(body), text);
  assert.equal(body.error, row.error);
  if (row.allow) assert.equal(response.headers.get('allow'), row.allow);
}

/**
 * Sends `count` POSTs of `bytes` of JSON one after the other on one kept-alive connection (Node's
 * agent), with a Content-Length or chunked; their statuses, or what went wrong.
 */
async function overLongOnKeptAliveConnection(origin, bytes, count, { chunked = false } = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const body = Buffer.from(JSON.stringify({ who: 'x'.repeat(bytes) }));
  const outcomes = [];
  try {
    for (let i = 0; i < count; i++)
      outcomes.push(
        await new Promise((resolve) => {
          const request = httpRequest(
            `${origin}${ROUTE}`,
            { method: 'POST', agent, headers: chunked ? json : { ...json, 'content-length': body.length } },
            (response) => {
              response.resume();
              response.on('end', () => resolve(response.statusCode));
            },
          );
          request.on('error', (error) => resolve(`${error.code ?? error.message}`));
          request.setTimeout(3000, () => request.destroy(new Error('no answer in 3 s')));
          // Chunked: no Content-Length, the body in pieces of 64 KiB.
          if (chunked) for (let at = 0; at < body.length; at += 64 * 1024) request.write(body.subarray(at, at + 64 * 1024));
          request.end(chunked ? undefined : body);
        }),
      );
  } finally {
    agent.destroy();
  }
  return outcomes;
}

/**
 * A client that sends a body of 100 bytes, one byte every 100 ms: the status line of the answer
 * it gets, and whether the server closed the connection within a second of that answer.
 */
function trickledBody(origin) {
  const { port } = new URL(origin);
  const socket = connect(Number(port), '127.0.0.1');
  const drip = setInterval(() => socket.writable && socket.write('x'), 100);
  socket.write(
    `POST ${ROUTE} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/octet-stream\r\nContent-Length: 100\r\n\r\n`,
  );
  socket.on('error', () => {});
  const closed = new Promise((resolve) => socket.on('close', () => resolve(true)));
  const answered = new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
      if (received.includes('\r\n')) resolve(received.split('\r\n')[0]);
    });
    socket.on('close', () => resolve(undefined));
  });
  const within = (ms, promise, otherwise) => Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(otherwise), ms))]);
  return (async () => {
    try {
      const statusLine = await within(3000, answered, undefined);
      if (!statusLine) throw new Error('no answer in 3 s');
      return { statusLine, closed: await within(1000, closed, false) };
    } finally {
      clearInterval(drip);
      socket.destroy();
    }
  })();
}

// ---------------------------------------------------------------------------------------------

// The servers run side by side, each its cases one after the other.
describe('the framework matrix', { concurrency: true }, () => {
  const only = process.argv[2];
  for (const setup of SETUPS.filter((s) => !only || s.name.includes(only))) {
    describe(setup.name, { concurrency: false }, () => {
      let server;
      const frameworkAnswers = setup.frameworkAnswers ?? {};
      before(async () => {
        server = await setup.start();
      });
      after(() => server.close());

      for (const row of CASES) test(row.name, () => checkCase(server.origin, row, frameworkAnswers));

      test('a JSON body of 1 MiB on a kept-alive connection: 413 each time', async () => {
        assert.deepEqual(await overLongOnKeptAliveConnection(server.origin, OVER_LONG_BYTES, 3), [413, 413, 413]);
      });

      test('a JSON body of 1 MiB sent chunked (no Content-Length) on a kept-alive connection: 413 each time', async () => {
        assert.deepEqual(await overLongOnKeptAliveConnection(server.origin, OVER_LONG_BYTES, 3, { chunked: true }), [413, 413, 413]);
      });

      if (setup.trickle !== false)
        test('a body trickled byte by byte: 408', async () => {
          const frameworkStatus = frameworkAnswers['a body trickled byte by byte: 408'];
          const { statusLine, closed } = await trickledBody(server.origin);
          assert.match(statusLine, new RegExp(`^HTTP/1\\.1 ${frameworkStatus ?? 408} `));
          // The route's 408 closes the connection: the rest of the body is never read.
          if (frameworkStatus === undefined) assert.ok(closed, 'the connection stayed open after the 408');
        });
    });
  }
});

after(() => assert.deepEqual(errors, [], 'onError was called'));
