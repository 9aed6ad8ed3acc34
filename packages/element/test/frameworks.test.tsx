import { act, render } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { createApp, h, nextTick } from 'vue';
import { listenerCount, type PlatformDashboardElement, type PlatformEvent } from '../src/index';

// The JSX typings promise that these props work at runtime: checked here with the real frameworks.
const TENANT = 'https://tenant.example';
const READY = { embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard' };

function ready(el: PlatformDashboardElement) {
  window.dispatchEvent(
    new MessageEvent('message', {
      origin: TENANT,
      source: el.handle!.iframe!.contentWindow,
      data: {
        source: 'platform-embed',
        direction: 'event',
        type: 'platform:event:ready',
        payload: READY,
        timestamp: 1,
        surface: 'dashboard',
      },
    }),
  );
}

afterEach(() => {
  document.body.innerHTML = '';
});

test('React 19 (StrictMode): attributes, the session property as a function, on<event> props, unmount', async () => {
  let n = 0;
  const session = vi.fn(async () => `react-${++n}`);
  const onReady = vi.fn((e: PlatformEvent<'ready'>) => e.detail.mode);
  const { container, unmount } = render(
    <StrictMode>
      <platform-dashboard base-url={TENANT} public-id="p1" show-dashboard-header="false" session={session} onplatform-ready={onReady} />
    </StrictMode>,
  );
  const el = container.querySelector('platform-dashboard')!;
  await vi.waitFor(() => expect(el.handle?.iframe).toBeTruthy());
  expect(el.handle!.iframe!.src).toBe(`${TENANT}/embed/dashboard/p1?session=react-1&showDashboardHeader=false`);
  expect(session).toHaveBeenCalledOnce();
  ready(el);
  expect(onReady).toHaveBeenCalledOnce();
  expect(onReady.mock.results[0]!.value).toBe('signed');
  act(() => unmount());
  await new Promise((r) => setTimeout(r, 0));
  expect(listenerCount()).toBe(0);
});

test('Vue: attributes, the session property and @platform-ready (onPlatformReady)', async () => {
  const onReady = vi.fn();
  document.body.innerHTML = '<div id="app"></div>';
  const app = createApp({
    render: () => h('platform-dashboard', { 'base-url': TENANT, 'public-id': 'p1', session: 'vue-1', onPlatformReady: onReady }),
  });
  app.mount('#app');
  await nextTick();
  const el = document.querySelector('platform-dashboard')!;
  await vi.waitFor(() => expect(el.handle?.iframe?.src).toBe(`${TENANT}/embed/dashboard/p1?session=vue-1`));
  ready(el);
  expect(onReady).toHaveBeenCalledWith(expect.objectContaining({ type: 'platform-ready', detail: READY }));
  app.unmount();
  await new Promise((r) => setTimeout(r, 0));
  expect(listenerCount()).toBe(0);
});
