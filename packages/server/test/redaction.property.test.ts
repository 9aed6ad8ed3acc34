// Issue 18, point 3: redaction that survives encodings. A platform (or a proxy, or a fetch
// implementation) that echoes the API key back, in any form, must not get it into an error, its
// cause chain, its stack, or what the default onError logs. The echoes are generated: the key
// (random printable ASCII, 16-64 characters, some holding `%41` or `\\u0041`) in random text, raw, in another letter case,
// URL-encoded (partly or wholly), JSON-escaped, base64 or base64url encoded alone or inside a
// longer encoded value, or cut to a piece of 12 characters or more.
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { createSessionClient, createSessionHandler, PlatformApiError } from '@platform-embed/server';
import { createRedactor, REDACTED_PIECE_LENGTH } from '../src/redactSecret';

const printableAscii = fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code));
const plainKey = fc.string({ unit: printableAscii, minLength: 16, maxLength: 64 });
// Keys that hold what looks like an escape sequence, so that reading the echo decodes part of the key itself.
const keyWithEscapeLookalike = fc
  .tuple(plainKey, fc.constantFrom('%41', '%2f', '\\u0041', '\\x41', '\\"', '\\\\'), fc.nat())
  .map(([key, sequence, at]) => {
    const middle = at % key.length;
    return `${key.slice(0, middle)}${sequence}${key.slice(middle)}`;
  });
const apiKey = fc.oneof(plainKey, keyWithEscapeLookalike);
const surroundings = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 20 }), fc.constant(''));

const base64 = (text: string) => Buffer.from(text, 'latin1').toString('base64');
const base64url = (text: string) => Buffer.from(text, 'latin1').toString('base64url');
const percentEncodeAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');

/** Every way the key is echoed; `seed` picks cases, `context` surrounds an encoded key, `piece` cuts. */
const ENCODINGS = {
  raw: (key: string) => key,
  upper: (key: string) => key.toUpperCase(),
  lower: (key: string) => key.toLowerCase(),
  'mixed case': (key: string, seed: number) =>
    [...key].map((c, i) => ((seed >> (i % 30)) & 1 ? c.toUpperCase() : c.toLowerCase())).join(''),
  encodeURIComponent: (key: string) => encodeURIComponent(key),
  'percent-encoded, every character': (key: string) => percentEncodeAll(key),
  'percent-encoded, lower-case hex': (key: string) => percentEncodeAll(key).toLowerCase(),
  'JSON string': (key: string) => JSON.stringify(key),
  base64: (key: string) => base64(key),
  base64url: (key: string) => base64url(key),
  'base64 inside a longer value': (key: string, _: number, context: string) => base64(`${context}:${key}:${context}`),
  'base64url inside a longer value': (key: string, _: number, context: string) => base64url(`Api-Key ${key}${context}`),
  'a Basic credential': (key: string) => `Basic ${base64(`api:${key}`)}`,
  piece: (key: string, seed: number) => {
    const length = REDACTED_PIECE_LENGTH + (seed % (key.length - REDACTED_PIECE_LENGTH + 1));
    const start = seed % (key.length - length + 1);
    return key.slice(start, start + length);
  },
  'upper-cased piece': (key: string, seed: number) => ENCODINGS.piece(key, seed).toUpperCase(),
};
type Encoding = keyof typeof ENCODINGS;

// ---------------------------------------------------------------------------------------------
// What a reader of the output could recover: written apart from the redaction, on purpose.

const windowsOf = (text: string) => {
  const lower = text.toLowerCase();
  return Array.from({ length: lower.length - REDACTED_PIECE_LENGTH + 1 }, (_, i) => lower.slice(i, i + REDACTED_PIECE_LENGTH));
};

const percentDecoded = (text: string) => text.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
const jsonUnescaped = (text: string) =>
  text.replace(/\\(["\\/])/g, '$1').replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** The texts base64 runs of the output decode to, at every alignment. */
function base64Decodings(text: string): string[] {
  const decodings: string[] = [];
  for (const run of text.match(/[A-Za-z0-9+/_-]{16,}/g) ?? []) {
    const standard = run.replace(/-/g, '+').replace(/_/g, '/');
    for (let skip = 0; skip < 4; skip++) {
      const aligned = standard.slice(skip, skip + Math.floor((standard.length - skip) / 4) * 4);
      decodings.push(Buffer.from(aligned, 'base64').toString('latin1'));
    }
  }
  return decodings;
}

/** The first piece of the key a reader could recover from `output`, or `undefined`. */
function leakedPiece(output: string, key: string): string | undefined {
  const readings = [output, percentDecoded(output), jsonUnescaped(output), ...base64Decodings(output)].map((t) => t.toLowerCase());
  return windowsOf(key).find((piece) => readings.some((reading) => reading.includes(piece)));
}

const everything = (error: unknown) =>
  [inspect(error, { depth: Infinity, showHidden: true }), String(error), (error as Error).stack, JSON.stringify(error)].join('\n');

// ---------------------------------------------------------------------------------------------

const echoCase = fc.record({
  key: apiKey,
  encoding: fc.constantFrom(...(Object.keys(ENCODINGS) as Encoding[])),
  seed: fc.nat(),
  context: fc.string({ unit: printableAscii, maxLength: 12 }),
  before: surroundings,
  after: surroundings,
  where: fc.constantFrom('JSON message', 'text body', 'fetch error'),
  status: fc.constantFrom(400, 401, 403, 404, 429, 500, 503),
});

/** A client whose fetch echoes `echo` the way `where` says. */
function echoingFetch(echo: string, where: string, status: number): typeof fetch {
  return async () => {
    if (where === 'fetch error')
      throw new TypeError(`fetch failed: ${echo}`, { cause: Object.assign(new Error(`socket: ${echo}`), { code: 'ECONNRESET' }) });
    const body = where === 'JSON message' ? JSON.stringify({ message: echo }) : echo;
    return new Response(body, { status, headers: { 'content-type': where === 'JSON message' ? 'application/json' : 'text/plain' } });
  };
}

describe('the API key never survives an echo (property)', () => {
  test('not in the error, its cause chain and stack, nor in what the default onError logs', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await fc.assert(
        fc.asyncProperty(echoCase, async ({ key, encoding, seed, context, before, after, where, status }) => {
          const echo = `${before}${ENCODINGS[encoding](key, seed, context)}${after}`;
          const fetchDouble = echoingFetch(echo, where, status);
          const client = createSessionClient({ baseUrl: 'https://acme.platform.example', apiKey: key, fetch: fetchDouble });
          const error = await client.generateSession({ deploymentId: 1, externalId: 'u' }).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(PlatformApiError);
          const inError = leakedPiece(everything(error), key);
          expect(inError, `${encoding} echo in a ${where}: "${inError}" is in the error`).toBeUndefined();

          log.mockClear();
          const route = createSessionHandler({
            client: { baseUrl: 'https://acme.platform.example', apiKey: key, fetch: fetchDouble },
            deploymentId: 1,
            resolveUser: () => ({ externalId: 'u' }),
          });
          const response = await route(new Request('https://app.example/api/embed-session', { method: 'POST' }));
          const logged = JSON.stringify(log.mock.calls);
          expect(log).toHaveBeenCalledOnce();
          const inLog = leakedPiece(`${logged}\n${await response.text()}`, key);
          expect(inLog, `${encoding} echo in a ${where}: "${inLog}" is in the log or the answer`).toBeUndefined();
        }),
        { numRuns: 400 },
      );
    } finally {
      log.mockRestore();
    }
  }, 60_000); // 400 clients and routes: room for a loaded CI machine

  test('the default onError redacts the key from errors resolveUser throws too', async () => {
    const key = 'sk_live_RESOLVE-0123456789ab';
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const route = createSessionHandler({
        client: { baseUrl: 'https://acme.platform.example', apiKey: key },
        resolveUser: () => {
          throw new Error(`config dump: PLATFORM_API_KEY=${key} (${Buffer.from(key).toString('base64')})`);
        },
      });
      expect((await route(new Request('https://app.example/s', { method: 'POST' }))).status).toBe(500);
      expect(leakedPiece(JSON.stringify(log.mock.calls), key)).toBeUndefined();
      expect(String(log.mock.calls[0]![0])).toContain('config dump: PLATFORM_API_KEY=[redacted]');
    } finally {
      log.mockRestore();
    }
  });
});

describe('redaction leaves other text alone (property)', () => {
  test('text that shares no 12-character piece with the key comes back unchanged', () => {
    fc.assert(
      fc.property(apiKey, fc.string({ maxLength: 200 }), (key, text) => {
        fc.pre(leakedPiece(text, key) === undefined);
        expect(createRedactor(key)(text)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  test('an 11-character piece of the key is not a secret, a 12-character one is', () => {
    const key = 'abcdefghijklmnopqrstuvwxyz';
    const redact = createRedactor(key);
    expect(redact('see abcdefghijk here')).toBe('see abcdefghijk here');
    expect(redact('see abcdefghijkl here')).toBe('see [redacted] here');
    expect(redact('see ABCDEFGHIJKLmnop here')).toBe('see [redacted] here');
    expect(redact(`t=${Buffer.from(`x${key}`).toString('base64url')}`)).toMatch(/^t=.{0,3}\[redacted\].{0,3}$/);
  });
});

test('regression: a key holding a backslash and %41, echoed JSON-escaped (found by the property test)', () => {
  const key = '!!!!\\%41!!!!!\\!!!!!';
  const echo = JSON.stringify(key).slice(1, -1); // !!!!\\%41!!!!!\\!!!!!
  expect(createRedactor(key)(`platform said: ${echo}`)).toBe('platform said: [redacted]');
});
