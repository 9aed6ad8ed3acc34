import type { GlobalComponents } from 'vue';
import { expectTypeOf, test } from 'vitest';
import type { AttributeKind, AttributesOf } from '@platform-embed/core';
import type {
  EmbedState,
  EventMessage,
  PlatformDashboardElement,
  PlatformElementAttributes,
  PlatformElementEventMap,
  PlatformEvent,
  ReadyPayload,
} from '../src/index';

test('tag names map to the element classes', () => {
  expectTypeOf(document.createElement('platform-dashboard')).toEqualTypeOf<PlatformDashboardElement>();
  expectTypeOf(document.querySelector('platform-app')!.surface).toEqualTypeOf<'app'>();
  expectTypeOf(document.querySelector('platform-chat')!.handle!.surface).toEqualTypeOf<'chat'>();
});

test('element events are typed from the catalog, on the element and on any ancestor', () => {
  const el = document.createElement('platform-dashboard');
  el.addEventListener('platform-drilldown', (e) => {
    expectTypeOf(e.detail.member).toBeString();
    expectTypeOf(e.message).toEqualTypeOf<EventMessage<'drilldown'>>();
    // @ts-expect-error drilldown has no `mode`
    void e.detail.mode;
  });
  document.body.addEventListener('platform-ready', (e) => expectTypeOf(e.detail).toEqualTypeOf<ReadyPayload>());
  el.addEventListener('platform-statechange', (e) => expectTypeOf(e.detail).toEqualTypeOf<EmbedState>());
  el.addEventListener('platform-download', (e) => {
    expectTypeOf(e.detail.format).toEqualTypeOf<'csv' | 'xlsx' | 'png' | 'pdf'>();
  });
  expectTypeOf<PlatformElementEventMap['platform-ai-query']>().toEqualTypeOf<PlatformEvent<'ai-query'>>();
  // @ts-expect-error not an event of the catalog
  expectTypeOf<PlatformElementEventMap['platform-unknown']>();
});

test('actions are typed like the core handle', () => {
  const el = document.createElement('platform-dashboard');
  el.send('set-color-scheme', { scheme: 'dark' });
  el.send('platform:action:refresh');
  // @ts-expect-error not a color scheme
  el.send('set-color-scheme', { scheme: 'purple' });
  // @ts-expect-error navigate needs a path
  el.navigate();
  // @ts-expect-error the filter value must be a JSON object
  el.setFilter('orders', 'status', 'completed');
  el.session = async () => ({ sessionId: 'x' });
  // @ts-expect-error a session is an id or a function
  el.session = 42;
});

test('Vue GlobalComponents: template props (camelCased, as vue-tsc checks them) and events', () => {
  type Props = InstanceType<GlobalComponents['platform-dashboard']>['$props'];
  expectTypeOf<Props['baseUrl']>().toEqualTypeOf<string>();
  expectTypeOf<Props['colorScheme']>().toEqualTypeOf<'light' | 'dark' | 'auto' | undefined>();
  expectTypeOf<NonNullable<Props['onPlatformDrilldown']>>().parameter(0).toEqualTypeOf<PlatformEvent<'drilldown'>>();
  expectTypeOf<NonNullable<Props['onPlatform-ready']>>().parameter(0).toEqualTypeOf<PlatformEvent<'ready'>>();
  expectTypeOf<InstanceType<GlobalComponents['platform-app']>['$props']['deploymentId']>().toEqualTypeOf<string | number>();
});

test('the attribute types (JSX, Vue, Svelte, Solid) accept every option of the tables that is an attribute', () => {
  type FromTables = AttributesOf<AttributeKind>;
  // (`session` is typed as the property, which also takes a function.)
  type Declared = keyof PlatformElementAttributes<'public-id'> | 'session';
  expectTypeOf<FromTables>().toExtend<Declared>();
  // And nothing else: the attribute types are the tables' attributes and session-url.
  expectTypeOf<Declared>().toEqualTypeOf<FromTables | 'session-url'>();
  expectTypeOf<'retry' | 'session-timeout' | 'ready-timeout' | 'debug' | 'iframe-title'>().toExtend<Declared>();
});
