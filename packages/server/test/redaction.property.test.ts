// Issue 18, point 3, and issue 23, point 4: redaction that survives encodings. A platform (or a
// proxy, or a fetch implementation) that echoes the API key back, in any form, must not get it
// into an error, its cause chain, its stack, or what the default onError logs, nor to a browser
// as a session id. The echoes are generated: the key (random printable ASCII, 16-64 characters,
// some holding `%41` or `\\u0041`) in random text, raw, in another letter case, URL-encoded
// (partly or wholly), JSON-escaped, hex (either case), base64 or base64url encoded alone or
// inside a longer encoded value, cut to a piece of 12 characters or more, and two of these
// combined (the hex of a JSON string, a URL-encoded base64 value, the base64 of the URL-encoded
// key...). They come back in an error answer, in a network error, and in a successful answer:
// as its session id (`200 {"sessionId": "<the key>"}`) or beside one.
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
const hex = (text: string) => Buffer.from(text, 'latin1').toString('hex');
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
  hex: (key: string) => hex(key),
  'upper-case hex': (key: string) => hex(key).toUpperCase(),
  'hex inside a longer value': (key: string, _: number, context: string) => hex(`${context}Api-Key ${key}${context}`),
  'hex, a piece': (key: string, seed: number) => ENCODINGS.piece(hex(key), seed),
};
type Encoding = keyof typeof ENCODINGS;

/** The encodings a second one can be applied to (a piece is cut last). */
const INNER: Encoding[] = ['raw', 'upper', 'JSON string', 'encodeURIComponent', 'hex', 'base64', 'base64url'];
/** The encodings applied to an encoded key: escapes and letter case (an escape of an escape is one of them). */
const OUTER: Encoding[] = [
  'encodeURIComponent',
  'percent-encoded, every character',
  'JSON string',
  'hex',
  'upper-case hex',
  'base64',
  'base64url',
  'upper',
  'piece',
];

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

/** The texts hex runs of the output decode to, at both alignments. */
function hexDecodings(text: string): string[] {
  const decodings: string[] = [];
  for (const run of text.match(/[0-9a-f]{24,}/gi) ?? [])
    for (const skip of [0, 1])
      decodings.push(Buffer.from(run.slice(skip, skip + Math.floor((run.length - skip) / 2) * 2), 'hex').toString('latin1'));
  return decodings;
}

/** What a reader could make of a text in one step: the text, and each decoding of it. */
const oneStep = (text: string) => [text, percentDecoded(text), jsonUnescaped(text), ...base64Decodings(text), ...hexDecodings(text)];

/** The first piece of the key a reader could recover from `output` in up to two decoding steps, or `undefined`. */
function leakedPiece(output: string, key: string): string | undefined {
  const readings = oneStep(output)
    .flatMap(oneStep)
    .map((t) => t.toLowerCase());
  return windowsOf(key).find((piece) => readings.some((reading) => reading.includes(piece)));
}

const everything = (error: unknown) =>
  [inspect(error, { depth: Infinity, showHidden: true }), String(error), (error as Error).stack, JSON.stringify(error)].join('\n');

/**
 * Every string a value holds, deeply: its own properties' keys and values, hidden and
 * symbol-keyed ones too (an error's message, stack and cause).
 */
function stringsIn(value: unknown, seen = new Set<unknown>()): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null || seen.has(value)) return [];
  seen.add(value);
  return Reflect.ownKeys(value).flatMap((key) => [
    ...(typeof key === 'string' ? [key] : []),
    ...stringsIn((value as Record<PropertyKey, unknown>)[key], seen),
  ]);
}

/** A text's JSON value, or the text when it is not JSON. */
const jsonOrText = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/**
 * The first piece of the key a reader could recover from any one string of `value` (see
 * stringsIn), each read apart: a serialization of the whole (JSON.stringify, inspect) would put
 * its own quotes beside a string's end, and a string that ends with 11 characters of a key
 * holding a quote, its last one a backslash, would read as 12 with the quote after it.
 */
const leakedPieceIn = (value: unknown, key: string) =>
  stringsIn(value)
    .map((text) => leakedPiece(text, key))
    .find((piece) => piece !== undefined);

// ---------------------------------------------------------------------------------------------

/** One encoding, or two: `[inner, outer]` applies `outer` to what `inner` made. */
const encodingChain = fc.oneof(
  fc.constantFrom(...(Object.keys(ENCODINGS) as Encoding[])).map((encoding) => [encoding]),
  fc.tuple(fc.constantFrom(...INNER), fc.constantFrom(...OUTER)),
);

/** Where the echo comes back: in an error answer (status from `status`), a network error, or a successful answer. */
const WHERE = ['JSON message', 'text body', 'fetch error', 'session answer', 'beside a session id'] as const;

const echoCase = fc.record({
  key: apiKey,
  encodings: encodingChain,
  seed: fc.nat(),
  context: fc.string({ unit: printableAscii, maxLength: 12 }),
  before: surroundings,
  after: surroundings,
  where: fc.constantFrom(...WHERE),
  status: fc.constantFrom(400, 401, 403, 404, 429, 500, 503),
});

/** A client whose fetch echoes `echo` the way `where` says. */
function echoingFetch(echo: string, where: (typeof WHERE)[number], status: number): typeof fetch {
  return async () => {
    const jsonAnswer = (answerStatus: number, body: object) =>
      new Response(JSON.stringify(body), { status: answerStatus, headers: { 'content-type': 'application/json' } });
    switch (where) {
      case 'fetch error':
        throw new TypeError(`fetch failed: ${echo}`, { cause: Object.assign(new Error(`socket: ${echo}`), { code: 'ECONNRESET' }) });
      case 'session answer':
        return jsonAnswer(200, { sessionId: echo });
      case 'beside a session id':
        return jsonAnswer(201, { sessionId: 'a-real-looking-session-id', debug: { authorization: echo } });
      case 'JSON message':
        return jsonAnswer(status, { message: echo });
      case 'text body':
        return new Response(echo, { status, headers: { 'content-type': 'text/plain' } });
    }
  };
}

/**
 * One echo through the client and the route: a successful answer holding the key is refused, and
 * no string of the error, of what the default onError logs (`log`) or of the answer holds it.
 */
async function checkEcho(
  { key, encodings, seed, context, before, after, where, status }: typeof echoCase extends fc.Arbitrary<infer C> ? C : never,
  log: ReturnType<typeof vi.spyOn>,
) {
  const encoded = encodings.reduce((text, encoding) => ENCODINGS[encoding](text, seed, context), key);
  const encoding = encodings.join(', then ');
  const echo = `${before}${encoded}${after}`;
  // (A piece cut from an encoded key can hold less of the key than a reader could recover,
  // e.g. 12 characters of its JSON string starting with the quote: an answer holding no
  // recoverable piece is a real answer, and accepted.)
  const successful = where === 'session answer' || where === 'beside a session id';
  fc.pre(!successful || leakedPiece(echo, key) !== undefined);
  const fetchDouble = echoingFetch(echo, where, status);
  const client = createSessionClient({ baseUrl: 'https://acme.platform.example', apiKey: key, fetch: fetchDouble });
  const error = await client.generateSession({ deploymentId: 1, externalId: 'u' }).catch((e: unknown) => e);
  // A successful answer that holds the key is refused, whatever field holds it.
  expect(error, `${encoding} echo in a ${where}: the answer was accepted`).toBeInstanceOf(PlatformApiError);
  if (successful) expect(error).toMatchObject({ code: 'invalid-response' });
  const inError = leakedPieceIn(error, key);
  expect(inError, `${encoding} echo in a ${where}: "${inError}" is in the error`).toBeUndefined();

  log.mockClear();
  const route = createSessionHandler({
    client: { baseUrl: 'https://acme.platform.example', apiKey: key, fetch: fetchDouble },
    deploymentId: 1,
    resolveUser: () => ({ externalId: 'u' }),
  });
  const response = await route(new Request('https://app.example/api/embed-session', { method: 'POST' }));
  if (successful) expect(response.status).toBe(502);
  expect(log).toHaveBeenCalledOnce();
  // The answer's strings, as its JSON holds them (or its text, if it is not JSON).
  const answer = await response.text();
  const inLog = leakedPieceIn([log.mock.calls, jsonOrText(answer)], key);
  expect(inLog, `${encoding} echo in a ${where}: "${inLog}" is in the log or the answer`).toBeUndefined();
}

describe('the API key never survives an echo (property)', () => {
  test('not in the error, its cause chain and stack, nor in what the default onError logs', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await fc.assert(
        fc.asyncProperty(echoCase, (c) => checkEcho(c, log)),
        { numRuns: 400 },
      );
    } finally {
      log.mockRestore();
    }
    // 400 clients and routes: 7 s in `pnpm test`, 26 to 36 s when the machine's 2 cores also ran
    // other test suites (load 10 to 12).
  }, 120_000);

  test('regression: 12 characters of the JSON string of a key holding \\", from its quote, hold 11 of the key: the JSON quote after the error\'s text is no 12th (found by a longer run: seed -356481614, its 562nd case)', async () => {
    // The echo "!!!!!!!!!!\ (the JSON string's quote, 10 "!" and the first backslash of the
    // key's \\ escaped) holds 11 characters of the key: kept, as an 11-character piece is no
    // secret. The error's JSON text (as the property read it before) puts its own quote after
    // it: !!!!!!!!!!\" is 12 characters of the key, but one of them is the serializer's.
    const key = '!!!!!!!!!!\\"!!!!!!';
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await checkEcho(
        { key, encodings: ['JSON string', 'piece'], seed: 0, context: '', before: '', after: '', where: 'JSON message', status: 400 },
        log,
      );
    } finally {
      log.mockRestore();
    }
  });

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
  }, 30_000); // 1,000 redactors, each with the key's forms encoded once and twice: room for a loaded CI machine

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

test('regression: a key holding a quote, echoed as the JSON string of its JSON string beside a session id, is refused (found by CI, seed 786270085)', async () => {
  // In the raw answer the quote is escaped three times, once more than the text's own decoding
  // and the key's JSON-escaped form meet; the answer's strings, decoded, hold it escaped once.
  const key = '!!!!!!!"!!!!!!!!';
  const fetchDouble = async () =>
    new Response(
      JSON.stringify({ sessionId: 'a-real-looking-session-id', debug: { authorization: JSON.stringify(JSON.stringify(key)) } }),
      {
        status: 201,
        headers: { 'content-type': 'application/json' },
      },
    );
  const error = await createSessionClient({ baseUrl: 'https://acme.platform.example', apiKey: key, fetch: fetchDouble })
    .generateSession({ deploymentId: 1, externalId: 'u' })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PlatformApiError);
  expect(error).toMatchObject({ code: 'invalid-response' });
});

describe('the examples of issue 23', () => {
  const key = 'sk_live_ISSUE23-0123456789abcdef';
  const answering = (status: number, body: unknown) => async () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  test.each([
    ['lower-case hex', Buffer.from(key).toString('hex')],
    ['upper-case hex', Buffer.from(key).toString('hex').toUpperCase()],
  ])('a key echoed in %s is redacted from the error and the default log line', async (_, echo) => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const client = { baseUrl: 'https://acme.platform.example', apiKey: key, fetch: answering(401, { message: `bad key ${echo}` }) };
      const error = await createSessionClient(client)
        .generateSession({ deploymentId: 1, externalId: 'u' })
        .catch((e: unknown) => e);
      expect(everything(error)).not.toContain(echo);
      expect((error as Error).message).toContain('bad key [redacted]');
      await createSessionHandler({ client, deploymentId: 1, resolveUser: () => ({ externalId: 'u' }) })(
        new Request('https://app.example/s', { method: 'POST' }),
      );
      expect(JSON.stringify(log.mock.calls)).not.toContain(echo);
    } finally {
      log.mockRestore();
    }
  });

  test('a platform answer 200 {"sessionId": "<the API key>"} is refused (502, invalid-response), never passed on', async () => {
    const onError = vi.fn();
    const route = createSessionHandler({
      client: { baseUrl: 'https://acme.platform.example', apiKey: key, fetch: answering(200, { sessionId: key }) },
      deploymentId: 1,
      resolveUser: () => ({ externalId: 'u' }),
      onError,
    });
    const response = await route(new Request('https://app.example/s', { method: 'POST' }));
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(text).not.toContain(key);
    expect(JSON.parse(text)).toMatchObject({ error: 'session-not-created' });
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'invalid-response', message: expect.stringContaining('with the API key in its body') }),
      expect.any(Request),
    );
    expect(leakedPiece(everything(onError.mock.calls[0]![0]), key)).toBeUndefined();
  });

  test('an ordinary session id is still passed on', async () => {
    const client = createSessionClient({
      baseUrl: 'https://acme.platform.example',
      apiKey: key,
      fetch: answering(200, { sessionId: 'sess_9f8e7d6c5b4a' }),
    });
    await expect(client.generateSession({ deploymentId: 1, externalId: 'u' })).resolves.toEqual({ sessionId: 'sess_9f8e7d6c5b4a' });
  });
});
