// @vitest-environment node
import { createSSRApp, defineComponent, h } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { expect, test } from 'vitest';
import { PlatformApp, PlatformChat, PlatformDashboard, usePlatformEmbed } from '../src/index';

const Own = defineComponent(() => {
  const { state, embed } = usePlatformEmbed(null, {
    surface: 'dashboard',
    baseUrl: 'https://tenant.example',
    publicId: 'p',
    session: () => 's',
  });
  return () => h('p', { 'data-embed': String(embed.value) }, state.value.status);
});

test('server rendering renders the containers and never touches window', async () => {
  expect(typeof window).toBe('undefined');
  expect(typeof document).toBe('undefined');
  const app = createSSRApp(() =>
    h('main', [
      h(PlatformDashboard, {
        baseUrl: 'https://tenant.example',
        publicId: 'p',
        session: () => 's',
        class: 'dash',
        style: 'height:400px',
        onReady: () => {},
      }),
      h(PlatformChat, { baseUrl: 'https://tenant.example' }),
      h(PlatformApp, { baseUrl: 'https://tenant.example', deploymentId: 3, session: 's' }),
      h(Own),
    ]),
  );
  const html = await renderToString(app);
  expect(html).toBe(
    '<main><div data-platform-embed="dashboard" class="dash" style="height:400px;"></div><div data-platform-embed="chat"></div>' +
      '<div data-platform-embed="app"></div><p data-embed="null">idle</p></main>',
  );
});
