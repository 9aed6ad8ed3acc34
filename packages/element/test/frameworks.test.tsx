import { act, render } from '@testing-library/react';
import { StrictMode, useState } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { createApp, h, nextTick, ref } from 'vue';
import { listenerCount, type PlatformDashboardElement, type PlatformEvent } from '../src/index';
import { READY, TENANT, fromFrame } from './frame';

// The JSX typings promise that these props work at runtime: checked here with the real frameworks.
const ready = (el: PlatformDashboardElement) => fromFrame(el, 'ready', READY);

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

// h/attack3: a text child of the element that changes with its state (a loading text) makes React
// (ContentReset) and Vue (setElementText) write the element's text, which takes its iframe out.
// The element fails saying why; it never loads again by itself, each time for a fresh session
// (a loop: tried, React minted 11 sessions in 5 readies, Vue 6).
test.each(['React', 'Vue'])(
  '%s: a loading text child that goes at ready takes the iframe out once: the error, one session, no loop',
  async (framework) => {
    let n = 0;
    const session = vi.fn(async () => `text-${framework}-${++n}`);
    const status = (e: Event) => (e.target as PlatformDashboardElement).state.status;
    let el: PlatformDashboardElement;
    let unmount: () => void;
    if (framework == 'React') {
      function App() {
        const [state, setState] = useState('idle');
        return (
          <platform-dashboard base-url={TENANT} public-id="p1" session={session} onplatform-statechange={(e: Event) => setState(status(e))}>
            {state == 'ready' ? null : 'Loading…'}
          </platform-dashboard>
        );
      }
      const view = render(<App />);
      el = view.container.querySelector('platform-dashboard')!;
      unmount = view.unmount;
    } else {
      const state = ref('idle');
      const app = createApp({
        render: () =>
          h(
            'platform-dashboard',
            {
              'base-url': TENANT,
              'public-id': 'p1',
              '.session': session,
              'onPlatform-statechange': (e: Event) => (state.value = status(e)),
            },
            state.value == 'ready' ? '' : 'Loading…',
          ),
      });
      app.mount(document.body.appendChild(document.createElement('div')));
      el = document.querySelector('platform-dashboard')!;
      unmount = () => app.unmount();
    }
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await act(() => vi.waitFor(() => expect(el.handle?.iframe?.isConnected).toBe(true)));
    await act(async () => {
      ready(el);
      await nextTick();
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(el.state.error?.code).toBe('no-container');
    expect(session).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledTimes(1);
    unmount();
    error.mockRestore();
  },
);
