import { createRef } from 'react';
import { expectTypeOf, test } from 'vitest';
import type { AnyEventHandler, EmbedHandle, EmbedState, EventMap, EventMessage } from '@platform-embed/core';
import {
  PlatformApp,
  PlatformChat,
  PlatformDashboard,
  usePlatformEmbed,
  type EmbedEventProps,
  type EventPropName,
  type PlatformEmbedProps,
} from '../src/index';

const base = { baseUrl: 'https://tenant.example' };

test('event props are derived from the catalog', () => {
  expectTypeOf<keyof EmbedEventProps>().toEqualTypeOf<
    'onReady' | 'onView' | 'onNavigate' | 'onDashboardLoaded' | 'onDownload' | 'onDrilldown' | 'onAiQuery' | 'onError' | 'onEvent'
  >();
  expectTypeOf<EventPropName<'ai-query'>>().toEqualTypeOf<'onAiQuery'>();
  expectTypeOf<PlatformEmbedProps<'dashboard'>['onEvent']>().toEqualTypeOf<AnyEventHandler | undefined>();
});

test('handlers get typed payloads and envelopes', () => {
  <PlatformDashboard
    {...base}
    publicId="p"
    onDashboardLoaded={(p, m) => {
      expectTypeOf(p).toEqualTypeOf<EventMap['dashboard-loaded']>();
      expectTypeOf(p.widgetCount).toEqualTypeOf<number | undefined>();
      expectTypeOf(m).toEqualTypeOf<EventMessage<'dashboard-loaded'>>();
    }}
    onAiQuery={(p) => expectTypeOf(p.status).toEqualTypeOf<'submitted' | 'completed' | 'error'>()}
    onDownload={(p) => expectTypeOf(p.format).toEqualTypeOf<'csv' | 'xlsx' | 'png' | 'pdf'>()}
    onError={(p) => expectTypeOf(p.fatal).toEqualTypeOf<boolean | undefined>()}
  />;
  // @ts-expect-error a handler expecting another payload does not fit
  <PlatformDashboard {...base} publicId="p" onDrilldown={(p: { path: string }) => p} />;
  // @ts-expect-error no such event prop
  <PlatformDashboard {...base} publicId="p" onDashboardLoad={() => {}} />;
});

test('props follow the surface', () => {
  <PlatformDashboard
    {...base}
    publicId="p"
    session={async ({ signal }) => ({ sessionId: String(signal.aborted) })}
    allowExport
    filters={{ 'orders.status': { value: 'x' } }}
  />;
  // @ts-expect-error publicId is required
  <PlatformDashboard {...base} />;
  <PlatformApp {...base} deploymentId={3} session="s" showWorkbookBackButton={false} />;
  // @ts-expect-error the app needs a session
  <PlatformApp {...base} deploymentId={3} />;
  <PlatformChat {...base} locale="es" />;
  // @ts-expect-error chat has no dashboard launch options
  <PlatformChat {...base} allowExport />;
  // @ts-expect-error launch flags are booleans
  <PlatformDashboard {...base} publicId="p" allowExport="true" />;
  // @ts-expect-error the container is the component's own
  <PlatformDashboard {...base} publicId="p" container="#x" />;
  <PlatformDashboard {...base} publicId="p" style={{ height: 600 }} className="c" />;
  // null: not set (an optional prop), not known yet (an id: the embed waits for it)
  <PlatformDashboard {...base} publicId={null} colorScheme={null} title={null} retry={null} filters={null} />;
  <PlatformApp {...base} deploymentId={null} session={null} />;
});

test('the ref is the embed handle of the surface', () => {
  const ref = createRef<EmbedHandle<'dashboard'>>();
  <PlatformDashboard ref={ref} {...base} publicId="p" />;
  const chat = createRef<EmbedHandle<'chat'>>();
  // @ts-expect-error a chat handle ref on a dashboard
  <PlatformDashboard ref={chat} {...base} publicId="p" />;
  expectTypeOf(ref.current!.setColorScheme).parameters.toEqualTypeOf<['light' | 'dark' | 'auto']>();
  expectTypeOf(ref.current!.reload).returns.resolves.toEqualTypeOf<EventMap['ready']>();
});

test('the hook infers the surface from options', () => {
  const r = usePlatformEmbed(null, {
    surface: 'app',
    ...base,
    deploymentId: 1,
    session: 's',
    onAiQuery: (p) => expectTypeOf(p.query).toBeString(),
  });
  expectTypeOf(r.embed).toEqualTypeOf<EmbedHandle<'app'> | null>();
  expectTypeOf(r.state).toEqualTypeOf<EmbedState>();
  // @ts-expect-error publicId is required for a dashboard
  usePlatformEmbed(null, { surface: 'dashboard', ...base });
});
