// @vitest-environment node
import { createSSRApp, h } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { expect, test } from 'vitest';
import { PlatformDashboard } from '../src/index';

test('server rendering: the #fallback slot and aria-busy are in the HTML, #error is not, and window is never touched', async () => {
  expect(typeof window).toBe('undefined');
  const app = createSSRApp(() =>
    h(
      PlatformDashboard,
      { baseUrl: 'https://tenant.example', publicId: 'p', style: 'height:400px' },
      { fallback: () => h('p', 'Loading…'), error: () => h('p', 'failed') },
    ),
  );
  expect(await renderToString(app)).toBe(
    '<div data-platform-embed="dashboard" aria-busy="true" style="position:relative;height:400px;">' +
      '<div style="position:absolute;inset:0"><p>Loading…</p></div></div>',
  );
});
