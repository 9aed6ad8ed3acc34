import { h } from 'vue';
import { expectTypeOf, test } from 'vitest';
import type {
  AnyEventHandler,
  AppEmbedOptions,
  ChatEmbedOptions,
  DashboardEmbedOptions,
  EmbedHandle,
  EmbedState,
  EventMap,
  EventMessage,
} from '@platform-embed/core';
import {
  PlatformApp,
  PlatformChat,
  PlatformDashboard,
  usePlatformEmbed,
  type EmbedEventHandlers,
  type PlatformEmbedAction,
  type PlatformEmbedEmits,
} from '../src/index';
import type { OPTIONS } from '../src/PlatformEmbed';

type Dashboard = InstanceType<typeof PlatformDashboard>;

test('the runtime props declaration lists every option of every surface', () => {
  type Options = keyof Omit<
    DashboardEmbedOptions & AppEmbedOptions & ChatEmbedOptions,
    'container' | 'className' | 'style' | keyof EmbedEventHandlers
  >;
  expectTypeOf<(typeof OPTIONS)[number]>().toEqualTypeOf<Options>();
});

test('emits are derived from the catalog, with typed payloads', () => {
  expectTypeOf<keyof PlatformEmbedEmits>().toEqualTypeOf<
    'ready' | 'view' | 'navigate' | 'dashboard-loaded' | 'download' | 'drilldown' | 'ai-query' | 'error' | 'event'
  >();
  expectTypeOf<Parameters<PlatformEmbedEmits['dashboard-loaded']>>().toEqualTypeOf<
    [EventMap['dashboard-loaded'], EventMessage<'dashboard-loaded'>]
  >();
  expectTypeOf<Parameters<PlatformEmbedEmits['ai-query']>[0]['status']>().toEqualTypeOf<'submitted' | 'completed' | 'error'>();
  expectTypeOf<PlatformEmbedEmits['event']>().toEqualTypeOf<AnyEventHandler>();
  const vm = {} as Dashboard;
  vm.$emit('drilldown', { member: 'orders.revenue' }, {} as EventMessage<'drilldown'>);
  // @ts-expect-error wrong payload for the emit
  vm.$emit('drilldown', { path: '/' }, {} as EventMessage<'drilldown'>);
  // @ts-expect-error not an event of the catalog
  vm.$emit('dashboard-load');
});

test('listener props are camelCase and typed', () => {
  expectTypeOf<keyof EmbedEventHandlers>().toEqualTypeOf<
    'onReady' | 'onView' | 'onNavigate' | 'onDashboardLoaded' | 'onDownload' | 'onDrilldown' | 'onAiQuery' | 'onError' | 'onEvent'
  >();
  expectTypeOf<Dashboard['$props']['onDashboardLoaded']>().parameters.toEqualTypeOf<
    [EventMap['dashboard-loaded'], EventMessage<'dashboard-loaded'>]
  >();
  h(PlatformDashboard, { baseUrl: 'https://t.example', publicId: 'p', onView: (p) => expectTypeOf(p.path).toBeString() });
});

test('props follow the surface', () => {
  // (`null`: not known yet, the embed waits for it; on an optional prop, not set.)
  expectTypeOf<Dashboard['$props']['publicId']>().toEqualTypeOf<string | null>();
  h(PlatformDashboard, { baseUrl: 'https://t.example', publicId: null, colorScheme: null, filters: null });
  expectTypeOf<InstanceType<typeof PlatformApp>['$props']['session']>().not.toBeUndefined();
  expectTypeOf<InstanceType<typeof PlatformApp>['$props']>().toHaveProperty('deploymentId');
  expectTypeOf<InstanceType<typeof PlatformChat>['$props']>().not.toHaveProperty('publicId');
  expectTypeOf<InstanceType<typeof PlatformChat>['$props']>().not.toHaveProperty('allowExport');
  expectTypeOf<Dashboard['$props']>().not.toHaveProperty('container');
});

test('a template ref exposes the actions, state and embed', () => {
  expectTypeOf<PlatformEmbedAction>().toEqualTypeOf<
    'send' | 'reload' | 'update' | 'setColorScheme' | 'setTheme' | 'setLocale' | 'setFilter' | 'navigate' | 'refresh'
  >();
  expectTypeOf<Dashboard['setColorScheme']>().parameters.toEqualTypeOf<['light' | 'dark' | 'auto']>();
  expectTypeOf<Dashboard['reload']>().returns.resolves.toEqualTypeOf<EventMap['ready']>();
  expectTypeOf<Dashboard['state']>().toEqualTypeOf<EmbedState>();
  expectTypeOf<Dashboard['embed']>().toEqualTypeOf<EmbedHandle<'dashboard'> | null>();
});

test('the composable infers the surface and returns read-only refs', () => {
  const r = usePlatformEmbed(() => null, { surface: 'app', baseUrl: 'https://t.example', deploymentId: 1, session: 's' });
  expectTypeOf(r.embed.value).toEqualTypeOf<EmbedHandle<'app'> | null>();
  expectTypeOf(r.state.value).toEqualTypeOf<EmbedState>();
  // @ts-expect-error state is read-only
  r.state.value = { status: 'idle', error: null, ready: null };
  // @ts-expect-error publicId is required for a dashboard
  usePlatformEmbed(null, { surface: 'dashboard', baseUrl: 'https://t.example' });
});
