import { describe, expectTypeOf, test } from 'vitest';
import {
  createAction,
  embedApp,
  embedChat,
  embedDashboard,
  parseMessage,
  type ActionMap,
  type ActionMessage,
  type EmbedError,
  type EmbedErrorCode,
  type EmbedHandle,
  type EmbedState,
  type EventMap,
  type EventMessage,
  type FilterUrlParameter,
  type LaunchOptionsOf,
  type ReadyPayload,
  type Schema,
  type Surface,
  type UnknownEventMessage,
} from '../src/index';

declare const h: EmbedHandle<'dashboard'>;

describe('event payload types', () => {
  test('each handler receives its exact payload type', () => {
    h.on('ready', (p, m) => {
      expectTypeOf(p).toEqualTypeOf<{
        embedTenant: string | null;
        deploymentId: number | null;
        mode: 'signed' | 'private';
        surface: Surface;
        publicId?: string;
      }>();
      expectTypeOf(m).toEqualTypeOf<EventMessage<'ready'>>();
      expectTypeOf(m.type).toEqualTypeOf<'platform:event:ready'>();
      expectTypeOf(m.surface).toEqualTypeOf<'dashboard' | 'app' | 'chat'>();
      expectTypeOf(m.timestamp).toEqualTypeOf<number>();
    });
    h.on('view', (p) => expectTypeOf(p).toEqualTypeOf<{ surface: Surface; path: string; publicId?: string; title?: string }>());
    h.on('navigate', (p) => expectTypeOf(p).toEqualTypeOf<{ path: string; previousPath?: string }>());
    h.on('dashboard-loaded', (p) => expectTypeOf(p).toEqualTypeOf<{ publicId?: string; widgetCount?: number; loadDurationMs?: number }>());
    h.on('download', (p) => {
      expectTypeOf(p).toEqualTypeOf<{
        format: 'csv' | 'xlsx' | 'png' | 'pdf';
        target: 'widget' | 'dashboard';
        widgetId?: string;
        title?: string;
        rowCount?: number;
      }>();
      expectTypeOf(p.format).toEqualTypeOf<'csv' | 'xlsx' | 'png' | 'pdf'>();
    });
    h.on('drilldown', (p) => expectTypeOf(p).toEqualTypeOf<{ member: string; value?: unknown; widgetId?: string }>());
    h.on('ai-query', (p) =>
      expectTypeOf(p).toEqualTypeOf<{ query: string; status: 'submitted' | 'completed' | 'error'; chatId?: string; agentId?: string }>(),
    );
    h.on('error', (p) => expectTypeOf(p).toEqualTypeOf<{ message: string; name?: string; context?: string; fatal?: boolean }>());
  });

  test('payloads are not any', () => {
    h.on('view', (p) => {
      expectTypeOf(p).not.toBeAny();
      expectTypeOf(p.path).not.toBeAny();
    });
    expectTypeOf<EventMap[keyof EventMap]>().not.toBeAny();
  });

  test('full type strings work like short names', () => {
    h.on('platform:event:view', (p, m) => {
      expectTypeOf(p).toEqualTypeOf<EventMap['view']>();
      expectTypeOf(m.type).toEqualTypeOf<'platform:event:view'>();
    });
    h.once('platform:event:download', (p) => expectTypeOf(p.target).toEqualTypeOf<'widget' | 'dashboard'>());
    h.off('platform:event:navigate', (_p: EventMap['navigate']) => {});
  });

  test("'*' gets the union of every known message and the unknown one", () => {
    h.on('*', (m) => {
      expectTypeOf(m).toEqualTypeOf<EventMessage | UnknownEventMessage>();
      if (m.type === 'platform:event:download') expectTypeOf(m.payload).toEqualTypeOf<EventMap['download'] | Record<string, unknown>>();
    });
  });

  test('once and the returned unsubscribe', () => {
    expectTypeOf(h.once('ready', (p) => expectTypeOf(p).toEqualTypeOf<ReadyPayload>())).toEqualTypeOf<() => void>();
    expectTypeOf(h.on('error', () => {})).toEqualTypeOf<() => void>();
  });

  test('unknown event names do not compile', () => {
    // @ts-expect-error not an event
    h.on('click', () => {});
    // @ts-expect-error actions are not events
    h.on('platform:action:refresh', () => {});
    // @ts-expect-error case matters
    h.on('Ready', () => {});
    // @ts-expect-error a full type string with an unknown name
    h.once('platform:event:clicked', () => {});
  });

  test('a handler for the wrong payload does not compile', () => {
    // @ts-expect-error a download handler cannot take a navigate payload
    h.on('download', (_p: { path: string }) => {});
    h.on('download', (p) => {
      // @ts-expect-error no such format
      if (p.format === 'json') return;
      // @ts-expect-error no such field
      void p.path;
    });
  });
});

describe('actions', () => {
  test('send payload types per action', () => {
    h.send('set-color-scheme', { scheme: 'dark' });
    h.send('platform:action:set-color-scheme', { scheme: 'auto' });
    h.send('set-theme', { primaryColor: '#7c5cff', borderRadius: 8, anything: { else: true } });
    h.send('set-theme', { borderRadius: '8px' });
    h.send('set-locale', { locale: 'es-MX' });
    h.send('set-filter', { filterUrlParameter: 'f_orders.status={"value":"completed"}' });
    h.send('navigate', { path: '/x' });
    h.send('refresh');
    h.send('platform:action:refresh');
    expectTypeOf<ActionMap['set-color-scheme']>().toEqualTypeOf<{ scheme: 'light' | 'dark' | 'auto' }>();
    expectTypeOf<ActionMap['set-locale']>().toEqualTypeOf<{ locale: string }>();
    expectTypeOf<ActionMap['set-filter']>().toEqualTypeOf<{ filterUrlParameter: FilterUrlParameter }>();
    expectTypeOf<ActionMap['navigate']>().toEqualTypeOf<{ path: string }>();
    expectTypeOf<ActionMap['set-theme']>().toEqualTypeOf<{
      primaryColor?: string;
      borderRadius?: number | string;
      font?: string;
      [key: string]: unknown;
    }>();
  });

  test('refresh takes no payload', () => {
    expectTypeOf(h.refresh).parameters.toEqualTypeOf<[]>();
    expectTypeOf(createAction('refresh')).toEqualTypeOf<ActionMessage<'refresh'>>();
    h.send('refresh', {});
    // @ts-expect-error refresh has no payload fields: a number is not a payload
    h.send('refresh', 42);
    // @ts-expect-error nor is an object with fields
    createAction('refresh', { force: true });
  });

  test('wrong action payloads do not compile', () => {
    // @ts-expect-error wrong enum literal
    h.send('set-color-scheme', { scheme: 'DARK' });
    // @ts-expect-error missing payload
    h.send('set-color-scheme');
    // @ts-expect-error missing field
    h.send('navigate', {});
    // @ts-expect-error wrong field type
    h.send('navigate', { path: 1 });
    // @ts-expect-error wrong theme field type
    h.send('set-theme', { primaryColor: 1 });
    // @ts-expect-error not a filterUrlParameter
    h.send('set-filter', { filterUrlParameter: 'orders.status=1' });
    // @ts-expect-error unknown action
    h.send('reload');
    // @ts-expect-error events are not actions
    h.send('platform:event:navigate', { path: '/' });
    // @ts-expect-error wrong enum literal
    h.setColorScheme('sepia');
    // @ts-expect-error the three-argument setFilter needs a JSON object
    h.setFilter('orders', 'status', 'completed');
    // @ts-expect-error wrong enum literal
    createAction('set-color-scheme', { scheme: 'Dark' });
    // @ts-expect-error unknown action
    createAction('reload');
  });

  test('action messages are typed and carry no surface', () => {
    const m = createAction('set-locale', { locale: 'fr' });
    expectTypeOf(m.type).toEqualTypeOf<'platform:action:set-locale'>();
    expectTypeOf(m.payload).toEqualTypeOf<{ locale: string }>();
    expectTypeOf(m.direction).toEqualTypeOf<'action'>();
    expectTypeOf(m).not.toHaveProperty('surface');
  });
});

describe('handles, state and results', () => {
  test('the embed functions return the handle of their surface', () => {
    const base = { container: '#c', baseUrl: 'https://t.example' };
    expectTypeOf(embedDashboard({ ...base, publicId: 'p' })).toEqualTypeOf<EmbedHandle<'dashboard'>>();
    expectTypeOf(embedChat(base)).toEqualTypeOf<EmbedHandle<'chat'>>();
    expectTypeOf(embedApp({ ...base, deploymentId: 1, session: 's' })).toEqualTypeOf<EmbedHandle<'app'>>();
    // @ts-expect-error the app needs a session
    embedApp({ ...base, deploymentId: 1 });
    // @ts-expect-error a dashboard needs its publicId
    embedDashboard(base);
    // @ts-expect-error launch options are booleans
    embedDashboard({ ...base, publicId: 'p', allowExport: 'true' });
    // @ts-expect-error time grains are lowercase literals
    embedDashboard({ ...base, publicId: 'p', timeGrains: { 'orders.created_at': 'Month' } });
    // @ts-expect-error member keys are view.dimension
    embedDashboard({ ...base, publicId: 'p', filters: { orders: { value: 1 } } });
    // @ts-expect-error the imperative API takes no null (the bindings do: not set)
    embedDashboard({ ...base, publicId: 'p', colorScheme: null });
  });

  test('state, ready and errors', () => {
    expectTypeOf(h.getState()).toEqualTypeOf<EmbedState>();
    expectTypeOf(h.getState().status).toEqualTypeOf<'idle' | 'loading' | 'ready' | 'error' | 'destroyed'>();
    expectTypeOf(h.ready).toEqualTypeOf<Promise<ReadyPayload>>();
    expectTypeOf(h.reload).returns.toEqualTypeOf<Promise<ReadyPayload>>();
    expectTypeOf(h.error).toEqualTypeOf<EmbedError | null>();
    expectTypeOf<EmbedError['code']>().toEqualTypeOf<EmbedErrorCode>();
    expectTypeOf<EmbedErrorCode>().toEqualTypeOf<
      | 'invalid-option'
      | 'invalid-action'
      | 'no-container'
      | 'no-dom'
      | 'session'
      | 'fatal'
      | 'timeout'
      | 'blocked'
      | 'opaque-origin'
      | 'destroyed'
    >();
    expectTypeOf(h.surface).toEqualTypeOf<'dashboard'>();
  });

  test('parseMessage narrows by ok and known', () => {
    const r = parseMessage({});
    if (r.ok && r.known) {
      expectTypeOf(r.message).toEqualTypeOf<EventMessage>();
      if (r.message.type === 'platform:event:ready') expectTypeOf(r.message.payload).toEqualTypeOf<ReadyPayload>();
    } else if (r.ok) expectTypeOf(r.message).toEqualTypeOf<UnknownEventMessage>();
    else expectTypeOf(r.reason).toEqualTypeOf<string>();
  });
});

describe('descriptors and the launch-option table', () => {
  test('a typo in a payload descriptor is a compile error', () => {
    const good: Schema = { name: 'string?', count: 'integer>=0', either: 'number|null', kind: ['a', 'b'] };
    // @ts-expect-error 'strng' is not a kind
    const typo: Schema = { name: 'strng?' };
    // @ts-expect-error a descriptor is a kind name (with alternatives and '?'), or a list of literals
    const wrong: Schema = { name: 42 };
    expectTypeOf(good).toEqualTypeOf<Schema>();
    expectTypeOf([typo, wrong]).toBeArray();
  });

  test('the launch options of each surface are derived from the table', () => {
    expectTypeOf<keyof LaunchOptionsOf<'chat'>>().toEqualTypeOf<'locale'>();
    expectTypeOf<LaunchOptionsOf<'app'>['showWorkbookBackButton']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<LaunchOptionsOf<'dashboard'>>().not.toHaveProperty('showWorkbookBackButton');
    expectTypeOf<NonNullable<LaunchOptionsOf<'dashboard'>['timeGrains']>[`${string}.${string}`]>().toEqualTypeOf<
      'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year'
    >();
  });
});
