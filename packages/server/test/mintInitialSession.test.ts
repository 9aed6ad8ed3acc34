import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { createSessionClient, mintInitialSession, PlatformApiError } from '@platform-embed/server';
import { startServer } from './localServer';

let platform: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  platform = await startServer();
});
afterAll(() => platform.close());
afterEach(() => vi.restoreAllMocks());

const apiKey = 'test-key-0123456789';
const request = { deploymentId: 1, externalId: 'jane' };

/** What Next.js's fetch rejects with when a prerender ends during the call (its HangingPromiseRejectionError). */
class PrerenderEnded extends Error {
  digest = 'HANGING_PROMISE_REJECTION';
  constructor() {
    super('During prerendering, fetch() rejects when the prerender is complete. This occurred at route "/sales".');
  }
}

test('resolves to the session id the platform minted', async () => {
  platform.json(200, { sessionId: 'sess-123' });
  await expect(mintInitialSession(createSessionClient({ baseUrl: platform.url, apiKey }), request)).resolves.toBe('sess-123');
});

test('a failure resolves to undefined and goes to onError (by default console.error, its message without the key)', async () => {
  platform.json(503, { message: 'down' });
  const onError = vi.fn();
  const client = createSessionClient({ baseUrl: platform.url, apiKey });
  await expect(mintInitialSession(client, request, { onError })).resolves.toBeUndefined();
  expect(onError).toHaveBeenCalledOnce();
  expect(onError.mock.calls[0]![0]).toBeInstanceOf(PlatformApiError);

  platform.json(503, { message: `down, ${apiKey}` });
  const log = vi.spyOn(console, 'error').mockImplementation(() => {});
  await expect(mintInitialSession(client, request)).resolves.toBeUndefined();
  expect(log).toHaveBeenCalledOnce();
  expect(String(log.mock.calls[0]![0])).toContain('503');
  expect(String(log.mock.calls[0]![0])).not.toContain(apiKey);
});

test('an onError that throws (a logger not set up yet), or a session client that rejects with a value without a string form: undefined all the same, logged (was: the page’s render failed)', async () => {
  const log = vi.spyOn(console, 'error').mockImplementation(() => {});
  platform.json(503, { message: 'down' });
  const client = createSessionClient({ baseUrl: platform.url, apiKey });
  const onError = () => {
    throw new Error('logger not ready');
  };
  await expect(mintInitialSession(client, request, { onError })).resolves.toBeUndefined();
  expect(String(log.mock.calls[0]![0])).toMatch(/onError threw \(logger not ready\) on: .*503/);
  const odd = { generateSession: () => Promise.reject(Object.create(null)) } as unknown as typeof client;
  await expect(mintInitialSession(odd, request)).resolves.toBeUndefined();
  expect(log.mock.calls[1]).toEqual(['[object Object]']);
});

test("a prerender's end (Next.js's signal, as fetch rejects with it) is thrown on as a signal Next.js recognizes, unreported", async () => {
  const onError = vi.fn();
  const client = createSessionClient({ baseUrl: platform.url, apiKey, fetch: () => Promise.reject(new PrerenderEnded()) });
  const thrown = await mintInitialSession(client, request, { onError }).then(
    () => expect.unreachable('expected the signal'),
    (error: unknown) => error,
  );
  // Next.js's isHangingPromiseRejectionError() reads the digest.
  expect(thrown).toMatchObject({ digest: 'HANGING_PROMISE_REJECTION' });
  expect(onError).not.toHaveBeenCalled();
});

test("the client keeps a framework's digest in its error's cause, so Next.js's unstable_rethrow recognizes it too", async () => {
  const client = createSessionClient({ baseUrl: platform.url, apiKey, fetch: () => Promise.reject(new PrerenderEnded()) });
  const error = await client.generateSession(request).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PlatformApiError);
  expect((error as PlatformApiError).cause).toMatchObject({ digest: 'HANGING_PROMISE_REJECTION' });
});
