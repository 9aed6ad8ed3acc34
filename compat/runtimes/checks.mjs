// The checks of the runtime matrix: what @platform-embed/server must do on every runtime a host
// deploys to. Web APIs only (fetch, Request, Response, streams, timers, btoa), so the same file
// runs on Node, Bun and Deno (imported as it is) and on workerd and Vercel's edge-runtime
// (bundled). run.mjs starts the mock platform and the misbehaving upstreams on Node and passes
// their addresses in `targets`.
/* global ReadableStream, TextEncoder */
import { createSessionClient, createSessionHandler, PlatformApiError } from '@platform-embed/server';

/**
 * @typedef {object} Targets
 * @property {string} platform origin of a mock platform that answers normally
 * @property {string} limited origin of a mock platform that answers 429 with Retry-After: 7
 * @property {string} unavailable origin of a mock platform that answers 503 with an HTTP-date Retry-After
 * @property {string} oversized origin of an upstream that answers 200 with a 1 MB body
 * @property {string} echoing origin of an upstream that answers 401 echoing the key it received
 * @property {string} apiKey the key the mock platforms accept
 */

/** @typedef {{ name: string, ok: boolean, detail?: string }} CheckResult */

const ROUTE = 'https://app.test/api/embed-session';
const sameOrigin = { 'sec-fetch-site': 'same-origin' };

class CheckFailed extends Error {}

/** @param {unknown} condition @param {string} message */
function expect(condition, message) {
  if (!condition) throw new CheckFailed(message);
}

/** @param {Promise<unknown>} promise @returns {Promise<PlatformApiError>} */
async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    expect(error instanceof PlatformApiError, `expected a PlatformApiError, got ${String(error)}`);
    return /** @type {PlatformApiError} */ (error);
  }
  throw new CheckFailed('expected a rejection');
}

/** @param {Targets} targets @param {string} [baseUrl] */
function routeFor(targets, baseUrl = targets.platform) {
  return createSessionHandler({
    client: { baseUrl, apiKey: targets.apiKey, timeoutMs: 5000 },
    deploymentId: 1,
    resolveUser: () => ({ externalId: 'matrix-user' }),
    onError: () => {},
  });
}

/** @param {Response} response @param {number} status @param {string} [error] */
async function expectAnswer(response, status, error) {
  expect(response.status === status, `answered ${response.status}, expected ${status}`);
  const body = await response.json();
  if (error === undefined) expect(typeof body.sessionId === 'string' && body.sessionId, 'no sessionId in the answer');
  else expect(body.error === error && typeof body.message === 'string', `answered ${JSON.stringify(body)}, expected error ${error}`);
}

/** A 12-character piece of `key`, in any letter case, found in `text`. */
function keyPieceIn(text, key) {
  const lower = text.toLowerCase();
  for (let start = 0; start + 12 <= key.length; start++) {
    const piece = key.slice(start, start + 12).toLowerCase();
    if (lower.includes(piece)) return piece;
  }
  return undefined;
}

/** @type {Record<string, (targets: Targets) => Promise<void>>} */
export const CHECKS = {
  async 'the client mints a session from the mock platform'(targets) {
    const client = createSessionClient({ baseUrl: targets.platform, apiKey: targets.apiKey });
    const { sessionId } = await client.generateSession({ deploymentId: 1, externalId: 'matrix-user' });
    expect(typeof sessionId === 'string' && sessionId.length >= 20, `sessionId ${JSON.stringify(sessionId)}`);
  },

  async 'the route mints on a same-origin POST'(targets) {
    await expectAnswer(await routeFor(targets)(new Request(ROUTE, { method: 'POST', headers: sameOrigin })), 200);
  },

  async 'the route refuses GET with 405 and Allow: POST'(targets) {
    const response = await routeFor(targets)(new Request(ROUTE, { headers: sameOrigin }));
    expect(response.headers.get('allow') === 'POST', `Allow: ${response.headers.get('allow')}`);
    await expectAnswer(response, 405, 'method-not-allowed');
  },

  async 'the route refuses a cross-site POST with 403'(targets) {
    const headers = { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' };
    await expectAnswer(await routeFor(targets)(new Request(ROUTE, { method: 'POST', headers })), 403, 'cross-site');
  },

  async 'the route refuses a body over 16 KiB with 413, and a form with 415'(targets) {
    const json = { ...sameOrigin, 'content-type': 'application/json' };
    const big = JSON.stringify({ padding: 'x'.repeat(20_000) });
    await expectAnswer(await routeFor(targets)(new Request(ROUTE, { method: 'POST', headers: json, body: big })), 413, 'body-too-large');
    const form = { ...sameOrigin, 'content-type': 'application/x-www-form-urlencoded' };
    await expectAnswer(
      await routeFor(targets)(new Request(ROUTE, { method: 'POST', headers: form, body: 'a=1' })),
      415,
      'unsupported-media-type',
    );
  },

  async 'a platform 429 reaches the client as retryAfter and the browser as 429 with Retry-After'(targets) {
    const client = createSessionClient({ baseUrl: targets.limited, apiKey: targets.apiKey });
    const error = await rejection(client.generateSession({ deploymentId: 1, externalId: 'matrix-user' }));
    expect(error.code === 'rate-limited' && error.retryAfter === 7, `code ${error.code}, retryAfter ${error.retryAfter}`);
    const response = await routeFor(targets, targets.limited)(new Request(ROUTE, { method: 'POST', headers: sameOrigin }));
    expect(response.headers.get('retry-after') === '7', `Retry-After: ${response.headers.get('retry-after')}`);
    await expectAnswer(response, 429, 'rate-limited');
  },

  async 'a platform 503 with an HTTP date reaches the browser as 503 with Retry-After in seconds'(targets) {
    const response = await routeFor(targets, targets.unavailable)(new Request(ROUTE, { method: 'POST', headers: sameOrigin }));
    const seconds = Number(response.headers.get('retry-after'));
    expect(seconds >= 50 && seconds <= 70, `Retry-After: ${response.headers.get('retry-after')}, expected about 60`);
    await expectAnswer(response, 503, 'platform-unavailable');
  },

  async 'a 1 MB success answer is refused past maxResponseBytes'(targets) {
    const client = createSessionClient({ baseUrl: targets.oversized, apiKey: targets.apiKey });
    const error = await rejection(client.generateSession({ deploymentId: 1, externalId: 'matrix-user' }));
    expect(error.code === 'invalid-response' && error.message.includes('maxResponseBytes'), error.message);
  },

  async 'the key echoed back (base64, upper-cased, URL-encoded) is in no error'(targets) {
    const client = createSessionClient({ baseUrl: targets.echoing, apiKey: targets.apiKey });
    const error = await rejection(client.generateSession({ deploymentId: 1, externalId: 'matrix-user' }));
    const text = `${error.message}\n${error.stack}\n${error.platformMessage}`;
    expect(error.status === 401 && /\[redacted\]/.test(text), `the echo was not seen: ${error.message}`);
    const decoded = [text, decodeURIComponent(text.replace(/%(?![0-9a-f]{2})/gi, '%25'))];
    for (const run of text.match(/[A-Za-z0-9+/]{16,}/g) ?? []) for (let skip = 0; skip < 4; skip++) decoded.push(safeAtob(run.slice(skip)));
    const leaked = decoded.map((reading) => keyPieceIn(reading, targets.apiKey)).find(Boolean);
    expect(leaked === undefined, `"${leaked}" of the key is in the error`);
  },

  async 'a body still arriving after bodyTimeoutMs is answered 408 (issue 23)'(targets) {
    const route = createSessionHandler({
      client: { baseUrl: targets.platform, apiKey: targets.apiKey },
      deploymentId: 1,
      bodyTimeoutMs: 200,
      resolveUser: () => ({ externalId: 'matrix-user' }),
      onError: () => {},
    });
    // One byte, then nothing: a stalled client.
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{'));
      },
    });
    const request = new Request(ROUTE, {
      method: 'POST',
      headers: { ...sameOrigin, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    });
    const answer = await Promise.race([route(request), new Promise((resolve) => setTimeout(() => resolve(undefined), 3000))]);
    expect(answer !== undefined, 'no answer within 3 s');
    await expectAnswer(/** @type {Response} */ (answer), 408, 'request-timeout');
  },

  async 'a success answer holding the key is refused: 502, never passed on (issue 23)'(targets) {
    const keyAsSession = async () =>
      new Response(JSON.stringify({ sessionId: targets.apiKey }), { headers: { 'content-type': 'application/json' } });
    const client = createSessionClient({ baseUrl: targets.platform, apiKey: targets.apiKey, fetch: keyAsSession });
    const error = await rejection(client.generateSession({ deploymentId: 1, externalId: 'matrix-user' }));
    expect(
      error.code === 'invalid-response' && keyPieceIn(`${error.message}\n${error.stack}`, targets.apiKey) === undefined,
      error.message,
    );
    const route = createSessionHandler({
      client: { baseUrl: targets.platform, apiKey: targets.apiKey, fetch: keyAsSession },
      deploymentId: 1,
      resolveUser: () => ({ externalId: 'matrix-user' }),
      onError: () => {},
    });
    await expectAnswer(await route(new Request(ROUTE, { method: 'POST', headers: sameOrigin })), 502, 'session-not-created');
  },
};

/** @param {string} text */
function safeAtob(text) {
  try {
    return globalThis.atob(text.slice(0, Math.floor(text.length / 4) * 4));
  } catch {
    return '';
  }
}

/**
 * Runs every check, one after the other.
 * @param {Targets} targets
 * @returns {Promise<CheckResult[]>}
 */
export async function runChecks(targets) {
  /** @type {CheckResult[]} */
  const results = [];
  for (const [name, check] of Object.entries(CHECKS)) {
    try {
      await check(targets);
      results.push({ name, ok: true });
    } catch (error) {
      results.push({ name, ok: false, detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    }
  }
  return results;
}
