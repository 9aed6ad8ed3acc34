import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  ACTION_SCHEMAS,
  EVENT_SCHEMAS,
  checkPayload,
  createAction,
  embedDashboard,
  listenerCount,
  parseMessage,
  type EmbedHandle,
  type EventName,
  type Schema,
} from '../src/index';
import { catalogArbitraries, envelopeIsValid, hostileValue, nearValid as nearValidOf, schemaOf } from './arbitraries';
import { BASE, envelope, fakeEvent, flush } from './helpers';

// ---- Arbitraries derived from the catalog (arbitraries.ts) ----

const { payload: payloadArbitrary, validEvent } = catalogArbitraries(fc.anything());
const hostile = hostileValue;
const cloneable = catalogArbitraries(fc.jsonValue());
const eventNames = Object.keys(EVENT_SCHEMAS) as EventName[];
// Valid events with zero, one or two changes to the envelope or the payload.
const nearValid = nearValidOf(validEvent, { maxLength: 2 });

const knownSchema = schemaOf;

// ---- The controller under test: one embed, every typed handler and the catch-all recorded ----

type Listener = (event: MessageEvent) => void;
let handle: EmbedHandle;
let ours: Window;
let others: (Window | null)[];
let onMessage: Listener;
let typed: { name: string; payload: unknown; message: unknown }[] = [];
let any: unknown[] = [];

beforeAll(async () => {
  document.body.innerHTML = '<div id="c"></div><iframe id="other"></iframe>';
  const add = vi.spyOn(window, 'addEventListener');
  handle = embedDashboard({
    container: '#c',
    baseUrl: BASE,
    publicId: 'p',
    session: 'prop-session',
    readyTimeout: 0,
    onDiagnostic: () => {},
  });
  await flush();
  ours = handle.iframe!.contentWindow!;
  others = [(document.getElementById('other') as HTMLIFrameElement).contentWindow, window, null];
  onMessage = add.mock.calls.find(([type]) => type == 'message')![1] as Listener;
  add.mockRestore();
  for (const event of eventNames) handle.on(event, (payload: unknown, message: unknown) => typed.push({ name: event, payload, message }));
  handle.on('*', (message) => any.push(message));
});

afterAll(() => {
  handle.destroy();
  expect(listenerCount()).toBe(0);
});

beforeEach(() => {
  typed = [];
  any = [];
});

function expectTypedCallsValid() {
  for (const call of typed) {
    const message = call.message as { type: string; payload: unknown };
    expect(message.type).toBe(`platform:event:${call.name}`);
    expect(message.payload).toBe(call.payload);
    expect(checkPayload(EVENT_SCHEMAS[call.name as EventName], call.payload as Record<string, unknown>)).toBeUndefined();
  }
}

describe('the page listener, from our iframe and origin', () => {
  test('never throws on arbitrary data, and typed handlers only get payloads their schema accepts', () => {
    fc.assert(
      fc.property(hostile, (data) => {
        typed = [];
        expect(() => onMessage(fakeEvent(ours, BASE, data).event)).not.toThrow();
        expectTypedCallsValid();
      }),
      { numRuns: 500 },
    );
  });

  test('near-valid envelopes: a typed call exactly when the envelope and the payload are valid', () => {
    const seen = { typed: 0, untypedOnly: 0, dropped: 0 };
    fc.assert(
      fc.property(nearValid, (data) => {
        typed = [];
        any = [];
        expect(() => onMessage(fakeEvent(ours, BASE, data).event)).not.toThrow();
        expectTypedCallsValid();
        const valid = envelopeIsValid(data);
        const schema = valid ? knownSchema(data.type as string) : undefined;
        const payloadOk = !!schema && checkPayload(schema, data.payload as Record<string, unknown>) === undefined;
        expect(typed).toHaveLength(payloadOk ? 1 : 0);
        // The catch-all gets every valid envelope: known with a valid payload, or of an unknown type.
        expect(any).toHaveLength(valid && (!schema || payloadOk) ? 1 : 0);
        if (any.length) expect(any[0]).toBe(data);
        seen[typed.length ? 'typed' : any.length ? 'untypedOnly' : 'dropped']++;
      }),
      { numRuns: 1000 },
    );
    // The generator must exercise all three outcomes, or the property above proves little.
    expect(Math.min(seen.typed, seen.untypedOnly, seen.dropped)).toBeGreaterThan(20);
  });

  test('valid generated events always reach their typed handler and the catch-all', () => {
    fc.assert(
      fc.property(validEvent, (data) => {
        typed = [];
        any = [];
        window.dispatchEvent(new MessageEvent('message', { source: ours, origin: BASE, data }));
        expect(typed).toHaveLength(1);
        expect(typed[0]!.payload).toBe(data.payload);
        expect(any).toEqual([data]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('untrusted senders never reach a handler', () => {
  test('another window (or none), any origin: no handler, data never read', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0, 1, 2),
        fc.oneof(
          fc.constant(BASE),
          fc.webUrl().map((u) => new URL(u).origin),
          fc.string(),
        ),
        validEvent,
        (which, origin, data) => {
          const { event, reads } = fakeEvent(others[which], origin, data);
          onMessage(event);
          expect(reads.data).toBe(0);
          expect(typed).toEqual([]);
          expect(any).toEqual([]);
        },
      ),
    );
  }, 30_000); // many runs: room for a loaded CI machine

  test('an arbitrary value as event.source: no handler, data never read, no throw', () => {
    fc.assert(
      fc.property(fc.anything({ withMap: true, withSet: true, withNullPrototype: true }), validEvent, (source, data) => {
        const { event, reads } = fakeEvent(source, BASE, data);
        expect(() => onMessage(event)).not.toThrow();
        expect(reads.data).toBe(0);
        expect(typed).toEqual([]);
      }),
    );
  });

  test('our window with any other origin: no handler, data never read', () => {
    const nearMisses = fc.constantFrom(
      'null',
      '',
      'http://tenant.example',
      'https://tenant.example:443',
      'https://tenant.example.evil',
      'https://TENANT.EXAMPLE',
      `${BASE}/`,
      ` ${BASE}`,
    );
    const origin = fc
      .oneof(
        nearMisses,
        fc.webUrl().map((u) => new URL(u).origin),
        fc.string(),
        fc.string().map((s) => BASE + s),
      )
      .filter((o) => o !== BASE);
    fc.assert(
      fc.property(origin, validEvent, (o, data) => {
        const { event, reads } = fakeEvent(ours, o, data);
        onMessage(event);
        expect(reads.data).toBe(0);
        expect(typed).toEqual([]);
        expect(any).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('validators', () => {
  test('parseMessage never throws, and accepts only what it returns unchanged', () => {
    fc.assert(
      fc.property(fc.oneof(hostile, nearValid), (data) => {
        const result = parseMessage(data);
        if (result.ok) {
          expect(result.message).toBe(data);
          expect(envelopeIsValid(data)).toBe(true);
        } else expect(typeof result.reason).toBe('string');
      }),
      { numRuns: 1000 },
    );
  });

  test('parseMessage agrees with an independent reading of the envelope rules', () => {
    fc.assert(
      fc.property(nearValid, (data) => {
        const result = parseMessage(data);
        if (!envelopeIsValid(data)) expect(result.ok).toBe(false);
        else if (!knownSchema(data.type as string)) expect(result).toMatchObject({ ok: true, known: false });
        else expect(result.ok).toBe(checkPayload(knownSchema(data.type as string)!, data.payload as Record<string, unknown>) === undefined);
      }),
      { numRuns: 1000 },
    );
  });

  test.each(eventNames)('every generated valid %s payload is accepted', (event) => {
    fc.assert(
      fc.property(payloadArbitrary(EVENT_SCHEMAS[event]), (payload) => {
        expect(checkPayload(EVENT_SCHEMAS[event], payload)).toBeUndefined();
        expect(parseMessage(envelope(event, payload))).toMatchObject({ ok: true, known: true });
      }),
    );
  });

  test.each(Object.keys(ACTION_SCHEMAS) as (keyof typeof ACTION_SCHEMAS)[])(
    'every generated valid %s action payload is accepted and copied',
    (action) => {
      // Actions must be cloneable: `any` fields and extra fields are JSON values.
      const schema: Schema = ACTION_SCHEMAS[action];
      const payloads = cloneable.payload(schema);
      fc.assert(
        fc.property(payloads, (payload) => {
          const message = (createAction as (t: string, p: unknown) => { type: string; payload: unknown })(action, payload);
          expect(message.type).toBe(`platform:action:${action}`);
          expect(message.payload).toEqual(payload);
          expect(message.payload).not.toBe(payload);
        }),
      );
    },
  );

  test('createAction never throws anything but an EmbedError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...Object.keys(ACTION_SCHEMAS)), fc.string()), hostile, (action, payload) => {
        try {
          (createAction as (t: string, p: unknown) => unknown)(action, payload);
        } catch (e) {
          expect((e as { code?: string }).code).toBe('invalid-action');
        }
      }),
      { numRuns: 500 },
    );
  });
});
