import { describe, expect, test } from 'vitest';
import {
  ACTION_PREFIX,
  ACTION_SCHEMAS,
  ACTION_TYPES,
  EVENT_PREFIX,
  EVENT_SCHEMAS,
  EVENT_TYPES,
  EmbedError,
  SOURCE,
  SURFACES,
  checkPayload,
  createAction,
  isPlainObject,
  parseMessage,
  type ActionName,
  type EventName,
} from '../src/index';
import { envelope, thrown } from './helpers';

const absent = Symbol('absent');

/**
 * The event catalog as the interface document states it, written out by hand (not derived
 * from EVENT_SCHEMAS) so that a wrong schema makes these tables fail.
 */
interface FieldSpec {
  required: boolean;
  good: unknown[];
  bad: unknown[];
}
interface EventSpec {
  minimal: Record<string, unknown>;
  full: Record<string, unknown>;
  fields: Record<string, FieldSpec>;
}
const STRING_OPT: FieldSpec = { required: false, good: ['', 'x', 'ünïcode ✓'], bad: [1, null, true, {}, ['x']] };
const STRING_REQ: FieldSpec = { required: true, good: ['', '/a/b'], bad: [1, null, false, {}, [], absent] };

const EVENTS: Record<EventName, EventSpec> = {
  ready: {
    minimal: { embedTenant: null, deploymentId: null, mode: 'private', surface: 'chat' },
    full: { embedTenant: 'acme', deploymentId: 42, mode: 'signed', surface: 'dashboard', publicId: 'sales' },
    fields: {
      embedTenant: { required: true, good: ['acme', null, ''], bad: [1, true, {}, [], absent] },
      deploymentId: { required: true, good: [0, 42, null], bad: ['42', NaN, Infinity, -Infinity, true, {}, absent] },
      mode: { required: true, good: ['signed', 'private'], bad: ['Signed', 'SIGNED', 'public', '', null, 1, absent] },
      surface: { required: true, good: ['dashboard', 'app', 'chat'], bad: ['Dashboard', 'CHAT', 'widget', '', null, absent] },
      publicId: STRING_OPT,
    },
  },
  view: {
    minimal: { surface: 'app', path: '/' },
    full: { surface: 'dashboard', path: '/d/sales', publicId: 'sales', title: 'Sales' },
    fields: {
      surface: { required: true, good: ['dashboard', 'app', 'chat'], bad: ['App', 'home', null, 0, absent] },
      path: STRING_REQ,
      publicId: STRING_OPT,
      title: STRING_OPT,
    },
  },
  navigate: {
    minimal: { path: '/b' },
    full: { path: '/b', previousPath: '/a' },
    fields: { path: STRING_REQ, previousPath: STRING_OPT },
  },
  'dashboard-loaded': {
    minimal: {},
    full: { publicId: 'sales', widgetCount: 12, loadDurationMs: 850.5 },
    fields: {
      publicId: STRING_OPT,
      widgetCount: { required: false, good: [0, 1, 500], bad: [-1, 1.5, NaN, Infinity, '3', null, 2 ** 53] },
      loadDurationMs: { required: false, good: [0, 0.25, 12345], bad: [-0.1, -1, NaN, Infinity, '5', null, true] },
    },
  },
  download: {
    minimal: { format: 'png', target: 'dashboard' },
    full: { format: 'csv', target: 'widget', widgetId: 'w1', title: 'Orders', rowCount: 1000 },
    fields: {
      format: { required: true, good: ['csv', 'xlsx', 'png', 'pdf'], bad: ['CSV', 'Pdf', 'json', '', null, absent] },
      target: { required: true, good: ['widget', 'dashboard'], bad: ['Widget', 'page', null, absent] },
      widgetId: STRING_OPT,
      title: STRING_OPT,
      rowCount: { required: false, good: [0, 7], bad: [-1, 0.5, NaN, Infinity, '7', null] },
    },
  },
  drilldown: {
    minimal: { member: 'orders.count' },
    full: { member: 'orders.count', value: { status: 'completed' }, widgetId: 'w2' },
    fields: {
      member: STRING_REQ,
      value: { required: false, good: [null, 0, NaN, 'x', false, [1, 2], { a: { b: 1 } }], bad: [] },
      widgetId: STRING_OPT,
    },
  },
  'ai-query': {
    minimal: { query: 'top customers', status: 'submitted' },
    full: { query: 'top customers', status: 'completed', chatId: 'c1', agentId: 'a1' },
    fields: {
      query: STRING_REQ,
      status: { required: true, good: ['submitted', 'completed', 'error'], bad: ['Completed', 'done', '', null, absent] },
      chatId: STRING_OPT,
      agentId: STRING_OPT,
    },
  },
  error: {
    minimal: { message: 'boom' },
    full: { message: 'boom', name: 'SessionError', context: 'auth', fatal: true },
    fields: {
      message: STRING_REQ,
      name: STRING_OPT,
      context: STRING_OPT,
      fatal: { required: false, good: [true, false], bad: ['true', 1, 0, null, {}] },
    },
  },
};

const eventNames = Object.keys(EVENTS) as EventName[];
const show = (v: unknown) => (v === absent ? '(missing)' : typeof v == 'number' || v == null ? String(v) : JSON.stringify(v));
const withField = (base: Record<string, unknown>, field: string, value: unknown) => {
  const payload = { ...base };
  if (value === absent) delete payload[field];
  else payload[field] = value;
  return payload;
};

describe('event catalog', () => {
  test('covers exactly the 8 events of the interface document', () => {
    expect(Object.keys(EVENT_SCHEMAS).sort()).toEqual([...eventNames].sort());
  });

  test.each(eventNames.map((name) => [name, Object.keys(EVENTS[name].fields)] as const))(
    '%s declares the documented fields',
    (name, fields) => {
      expect(Object.keys(EVENT_SCHEMAS[name]).sort()).toEqual([...fields].sort());
    },
  );

  test.each(eventNames.flatMap((name) => [[name, 'minimal', EVENTS[name].minimal] as const, [name, 'full', EVENTS[name].full] as const]))(
    '%s: a %s valid payload is accepted',
    (name, _kind, payload) => {
      const result = parseMessage(envelope(name, payload));
      expect(result).toMatchObject({ ok: true, known: true });
      expect(result.ok && result.message.payload).toEqual(payload);
    },
  );

  test.each(eventNames)('%s: extra unknown fields are accepted and kept', (name) => {
    const payload = { ...EVENTS[name].full, addedLater: { nested: [1, 'two'] }, flag: true };
    const data = envelope(name, payload);
    const result = parseMessage(data);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.message.payload).toMatchObject({ addedLater: { nested: [1, 'two'] }, flag: true });
    expect(result.message).toBe(data);
  });

  const fieldCases = eventNames.flatMap((name) =>
    Object.entries(EVENTS[name].fields).flatMap(([field, spec]) => [
      ...spec.good.map((value) => ({ name, field, value, ok: true })),
      ...spec.bad.map((value) => ({ name, field, value, ok: false })),
      ...(spec.required ? [] : [{ name, field, value: absent, ok: true }]),
    ]),
  );

  test.each(fieldCases.filter((c) => c.ok).map((c) => [c.name, c.field, show(c.value), c] as const))(
    '%s.%s = %s is accepted',
    (_n, _f, _v, c) => {
      // Both on top of the full payload and of the minimal one (where the optional field is the only one set).
      for (const base of [EVENTS[c.name].full, EVENTS[c.name].minimal]) {
        const result = parseMessage(envelope(c.name, withField(base, c.field, c.value)));
        expect(result, JSON.stringify(result)).toMatchObject({ ok: true, known: true });
      }
    },
  );

  test.each(fieldCases.filter((c) => !c.ok).map((c) => [c.name, c.field, show(c.value), c] as const))(
    '%s.%s = %s is refused, naming the field',
    (_n, _f, _v, c) => {
      for (const base of [EVENTS[c.name].full, EVENTS[c.name].minimal]) {
        const result = parseMessage(envelope(c.name, withField(base, c.field, c.value)));
        expect(result.ok).toBe(false);
        expect(!result.ok && result.reason).toContain(`"${c.field}"`);
        expect(!result.ok && result.reason).toContain(`platform:event:${c.name}`);
      }
    },
  );

  test('a required field explicitly undefined counts as missing', () => {
    expect(parseMessage(envelope('navigate', { path: undefined })).ok).toBe(false);
  });

  test('the payload is checked against its own event only', () => {
    // A valid `navigate` payload is not a valid `download` payload.
    expect(parseMessage(envelope('download', EVENTS.navigate.full)).ok).toBe(false);
  });
});

describe('envelope', () => {
  const valid = () => envelope('navigate', { path: '/x' });

  test('a valid envelope is accepted as is', () => {
    const data = valid();
    expect(parseMessage(data)).toEqual({ ok: true, known: true, message: data });
  });

  test.each([
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['a string', 'platform-embed'],
    ['the JSON text of a valid envelope', JSON.stringify(envelope('navigate', { path: '/x' }))],
    ['a boolean', true],
    ['an array', [envelope('navigate', { path: '/x' })]],
    ['a Map', new Map(Object.entries(envelope('navigate', { path: '/x' })))],
    ['a Date', new Date()],
    ['a function', () => envelope('navigate', { path: '/x' })],
    ['a boxed string', Object('platform-embed')],
  ])('not a plain object (%s) is refused', (_what, data) => {
    expect(parseMessage(data)).toEqual({ ok: false, reason: 'not an object' });
  });

  test('a null-prototype object (as some structured clones give) is accepted', () => {
    const data = Object.assign(Object.create(null) as object, valid());
    expect(parseMessage(data).ok).toBe(true);
  });

  const bad: [string, unknown][] = [
    ['source', undefined],
    ['source', 'platform'],
    ['source', 'Platform-Embed'],
    ['source', 'platform-embed '],
    ['source', null],
    ['direction', 'action'],
    ['direction', 'Event'],
    ['direction', undefined],
    ['type', undefined],
    ['type', 42],
    ['type', 'navigate'],
    ['type', 'platform:event:'],
    ['type', 'platform:action:navigate'],
    ['type', 'PLATFORM:EVENT:navigate'],
    ['type', ' platform:event:navigate'],
    ['type', 'platform:event:navigate '],
    ['type', 'platform:event:navigate\n'],
    ['type', 'platform:event:nav igate'],
    ['type', 'platform:event:a/b'],
    ['type', 'platform:event:a.b'],
    ['type', 'platform:event:' + 'a'.repeat(65)],
    ['type', ['platform:event:navigate']],
    ['payload', undefined],
    ['payload', null],
    ['payload', []],
    ['payload', '/x'],
    ['payload', 1],
    ['payload', new Map([['path', '/x']])],
    ['payload', new Date()],
    ['timestamp', undefined],
    ['timestamp', NaN],
    ['timestamp', Infinity],
    ['timestamp', -Infinity],
    ['timestamp', '1700000000000'],
    ['timestamp', null],
    ['surface', undefined],
    ['surface', 'Dashboard'],
    ['surface', 'widget'],
    ['surface', ''],
    ['surface', null],
  ];
  test.each(bad.map(([field, value]) => [field, show(value), field, value] as const))('%s = %s is refused', (_f, _v, field, value) => {
    const data = valid();
    if (value === undefined) delete data[field];
    else data[field] = value;
    const result = parseMessage(data);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain(`"${field}"`);
  });

  test('checks are made in order: a wrong source is reported before anything else', () => {
    const result = parseMessage({ source: 'x', direction: 'action', type: 1, payload: null, timestamp: NaN });
    expect(!result.ok && result.reason).toContain('"source"');
  });

  test.each(['future-event', 'Ready', 'READY', 'a', 'x_y-z9', 'a'.repeat(64)])(
    'well-formed unknown type platform:event:%s is accepted with known: false',
    (name) => {
      // Its payload is not checked (this SDK version does not know it), but must still be an object.
      const data = envelope(name, { anything: [1, 2], nested: { deep: true } });
      expect(parseMessage(data)).toEqual({ ok: true, known: false, message: data });
    },
  );

  test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'])(
    'platform:event:%s is an unknown type, not an Object.prototype member',
    (name) => {
      const result = parseMessage(envelope(name, {}));
      expect(result).toMatchObject({ ok: true, known: false });
    },
  );

  test('an unknown type with a payload that is not an object is refused', () => {
    expect(parseMessage(envelope('future', 'text')).ok).toBe(false);
  });

  test('a payload keyed "__proto__" (as JSON.parse makes) does not pollute Object.prototype', () => {
    const payload = JSON.parse('{"path":"/x","__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(parseMessage(envelope('navigate', payload)).ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('reasons quote values shortly and never whole payloads', () => {
    const result = parseMessage(envelope('navigate', { path: 'x'.repeat(5000) }, { surface: 'y'.repeat(5000) }));
    expect(!result.ok && result.reason.length).toBeLessThan(200);
  });
});

describe('isPlainObject', () => {
  test.each([
    [{}, true],
    [Object.create(null), true],
    [{ a: 1 }, true],
    [[], false],
    [null, false],
    [undefined, false],
    [new Map(), false],
    [new Set(), false],
    [new Date(), false],
    [/x/, false],
    ['{}', false],
    [1, false],
    [() => ({}), false],
    [Object(1), false],
  ])('%o → %s', (value, expected) => {
    expect(isPlainObject(value)).toBe(expected);
  });

  test('accepts a plain object of another realm (an iframe)', () => {
    const frame = document.createElement('iframe');
    document.body.appendChild(frame);
    const Other = (frame.contentWindow as unknown as { Object: ObjectConstructor }).Object;
    const foreign = new Other();
    expect(foreign instanceof Object).toBe(false);
    expect(isPlainObject(foreign)).toBe(true);
    frame.remove();
  });
});

describe('checkPayload', () => {
  test('returns undefined on a match and a reason naming the field otherwise', () => {
    expect(checkPayload(EVENT_SCHEMAS.navigate, { path: '/a' })).toBeUndefined();
    expect(checkPayload(EVENT_SCHEMAS.navigate, { path: 1 })).toBe('"path" must be string (got 1)');
    expect(checkPayload(EVENT_SCHEMAS.navigate, { path: '/a', previousPath: null })).toBe(
      '"previousPath" must be string when present (got null)',
    );
    expect(checkPayload(EVENT_SCHEMAS.download, { format: 'CSV', target: 'widget' })).toBe('"format" must be csv|xlsx|png|pdf (got "CSV")');
  });
});

describe('EVENT_TYPES and ACTION_TYPES', () => {
  test('constants', () => {
    expect(SOURCE).toBe('platform-embed');
    expect(EVENT_PREFIX).toBe('platform:event:');
    expect(ACTION_PREFIX).toBe('platform:action:');
    expect(SURFACES).toEqual(['dashboard', 'app', 'chat']);
  });

  test('EVENT_TYPES maps every event to its full type string', () => {
    expect(EVENT_TYPES).toEqual({
      ready: 'platform:event:ready',
      view: 'platform:event:view',
      navigate: 'platform:event:navigate',
      'dashboard-loaded': 'platform:event:dashboard-loaded',
      download: 'platform:event:download',
      drilldown: 'platform:event:drilldown',
      'ai-query': 'platform:event:ai-query',
      error: 'platform:event:error',
    });
  });

  test('ACTION_TYPES maps every action to its full type string', () => {
    expect(ACTION_TYPES).toEqual({
      'set-color-scheme': 'platform:action:set-color-scheme',
      'set-theme': 'platform:action:set-theme',
      'set-locale': 'platform:action:set-locale',
      'set-filter': 'platform:action:set-filter',
      navigate: 'platform:action:navigate',
      refresh: 'platform:action:refresh',
    });
  });
});

describe('createAction', () => {
  const FILTER = 'f_orders.status={"value":"completed"}';
  const valid: [ActionName, unknown][] = [
    ['set-color-scheme', { scheme: 'light' }],
    ['set-color-scheme', { scheme: 'dark' }],
    ['set-color-scheme', { scheme: 'auto' }],
    ['set-theme', {}],
    ['set-theme', { primaryColor: '#7c5cff', borderRadius: 8 }],
    ['set-theme', { borderRadius: '8px', font: 'Inter' }],
    ['set-theme', { primaryColor: '#000', customKey: { nested: [1, 2] }, other: null }],
    ['set-locale', { locale: 'es-MX' }],
    ['set-locale', { locale: 'es' }],
    ['set-filter', { filterUrlParameter: FILTER }],
    ['set-filter', { filterUrlParameter: 'f_orders.created_at={"operator":"inDateRange","values":["2024-01-01","2024-12-31"]}' }],
    ['navigate', { path: '/dashboards/sales' }],
    ['navigate', { path: '' }],
    ['refresh', undefined],
    ['refresh', {}],
  ];

  test.each(valid.map(([name, payload]) => [name, JSON.stringify(payload), name, payload] as const))(
    '%s %s builds an envelope',
    (_n, _p, name, payload) => {
      const before = Date.now();
      const message = (createAction as (t: string, p?: unknown) => Record<string, unknown>)(name, payload);
      expect(Object.keys(message).sort()).toEqual(['direction', 'payload', 'source', 'timestamp', 'type']);
      expect(message).toMatchObject({ source: 'platform-embed', direction: 'action', type: `platform:action:${name}` });
      expect(message.payload).toEqual(payload ?? {});
      expect(message.timestamp).toBeGreaterThanOrEqual(before);
      expect(message.timestamp).toBeLessThanOrEqual(Date.now());
    },
  );

  test.each(valid.map(([name, payload]) => [name, name, payload] as const))(
    'full type string platform:action:%s is accepted',
    (_n, name, payload) => {
      const message = (createAction as (t: string, p?: unknown) => Record<string, unknown>)(`platform:action:${name}`, payload);
      expect(message.type).toBe(`platform:action:${name}`);
    },
  );

  test('never puts a surface on an action', () => {
    for (const name of Object.keys(ACTION_SCHEMAS)) {
      const [, payload] = valid.find(([n]) => n == name)!;
      expect('surface' in (createAction as (t: string, p?: unknown) => object)(name, payload)).toBe(false);
    }
  });

  const invalid: [string, unknown, string][] = [
    ['set-color-scheme', {}, '"scheme"'],
    ['set-color-scheme', undefined, '"scheme"'],
    ['set-color-scheme', { scheme: 'DARK' }, '"scheme"'],
    ['set-color-scheme', { scheme: 'Dark' }, '"scheme"'],
    ['set-color-scheme', { scheme: 'system' }, '"scheme"'],
    ['set-color-scheme', { scheme: null }, '"scheme"'],
    ['set-theme', { primaryColor: 1 }, '"primaryColor"'],
    ['set-theme', { borderRadius: NaN }, '"borderRadius"'],
    ['set-theme', { borderRadius: Infinity }, '"borderRadius"'],
    ['set-theme', { borderRadius: true }, '"borderRadius"'],
    ['set-theme', { font: null }, '"font"'],
    ['set-locale', {}, '"locale"'],
    ['set-locale', { locale: '' }, '"locale"'],
    ['set-locale', { locale: '   ' }, '"locale"'],
    ['set-locale', { locale: 5 }, '"locale"'],
    ['set-filter', {}, '"filterUrlParameter"'],
    ['set-filter', { filterUrlParameter: 'orders.status={"value":1}' }, '"filterUrlParameter"'],
    ['set-filter', { filterUrlParameter: 'f_orders={"value":1}' }, '"filterUrlParameter"'],
    ['set-filter', { filterUrlParameter: 'f_orders.status=' }, '"filterUrlParameter"'],
    ['set-filter', { filterUrlParameter: 'f_.status={"value":1}' }, '"filterUrlParameter"'],
    ['set-filter', { filterUrlParameter: 123 }, '"filterUrlParameter"'],
    ['navigate', {}, '"path"'],
    ['navigate', { path: 1 }, '"path"'],
    ['navigate', { path: null }, '"path"'],
    ['set-theme', 'dark', 'payload must be an object'],
    ['navigate', ['/x'], 'payload must be an object'],
    ['set-theme', new Map([['primaryColor', 'red']]), 'payload must be an object'],
    ['refresh', 42, 'payload must be an object'],
    ['refresh', 'now', 'payload must be an object'],
    ['reload', {}, 'unknown action'],
    ['platform:action:reload', {}, 'unknown action'],
    ['platform:event:refresh', {}, 'unknown action'],
    ['Refresh', {}, 'unknown action'],
    ['__proto__', {}, 'unknown action'],
    ['constructor', {}, 'unknown action'],
    ['toString', {}, 'unknown action'],
    ['set-theme', { primaryColor: 'red', onChange: () => {} }, 'cannot be cloned'],
    ['navigate', { path: '/x', nested: { fn: () => {} } }, 'cannot be cloned'],
    ['set-theme', { primaryColor: 'red', tag: Symbol('x') }, 'cannot be cloned'],
  ];

  test.each(invalid.map(([name, payload, says]) => [name, show(payload), says, name, payload] as const))(
    '%s %s is refused with a message containing %s',
    (_n, _p, says, name, payload) => {
      const error = thrown(() => (createAction as (t: string, p?: unknown) => unknown)(name, payload));
      expect(error).toBeInstanceOf(EmbedError);
      expect(error.code).toBe('invalid-action');
      expect(error.message).toContain(says);
      expect(error.message).toContain(`action "${name.replace('platform:action:', '')}"`);
    },
  );

  test('the payload is copied: changing the caller object later does not change the envelope', () => {
    const theme = { primaryColor: 'red', extra: { depth: 1 } };
    const message = createAction('set-theme', theme);
    theme.primaryColor = 'blue';
    theme.extra.depth = 2;
    expect(message.payload).toEqual({ primaryColor: 'red', extra: { depth: 1 } });
    expect(message.payload).not.toBe(theme);
  });

  test('an unknown action lists the known ones', () => {
    const error = thrown(() => (createAction as (t: string) => unknown)('reload'));
    for (const name of Object.keys(ACTION_SCHEMAS)) expect(error.message).toContain(name);
  });

  test.each([['refresh'], 42, null, undefined, Symbol('refresh')])(
    'a type that is not a string (%s) is an unknown action, not a crash',
    (type) => {
      const error = thrown(() => (createAction as (t: unknown) => unknown)(type));
      expect(error).toBeInstanceOf(EmbedError);
      expect(error.code).toBe('invalid-action');
      expect(error.message).toContain('unknown action');
    },
  );
});
