import { expect, type CDPSession, type Frame, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { MockPlatform } from '../../packages/mock/src/index';
import { runNode, writeFiles, type Scaffold } from './scaffold';
import { startStaticServer, type RunningServer } from './staticServer';

// The keep-alive apps of e2e/keepAliveVue.spec.ts: a fresh Vue Router app built with Vite from the
// packed packages, and host pages of the custom element's script-tag build, both served from
// 127.0.0.1 with a session route minting on the mock platform (on localhost).

/** How a dashboard route is kept across navigations: the query parameter `variant` picks one at boot. */
export type Variant = 'keep-alive-component' | 'keep-alive-prop' | 'plain';

/** The fresh Vue app's files: /sales shows a `<PlatformDashboard>`, /settings does not and switches the color scheme. */
const vueApp = (platformOrigin: string): Record<string, string> => ({
  'index.html': `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><link rel="icon" href="data:," /><title>keep-alive</title></head>
  <body>
    <div id="app"></div>
    <script type="module" src="/src/main.ts"></script>
  </body>
</html>
`,
  'vite.config.js': `import vue from '@vitejs/plugin-vue';

export default { plugins: [vue()], build: { sourcemap: false } };
`,
  // As Vite documents for a development build (\`vite build --mode development\`).
  '.env.development': `NODE_ENV=development\nVITE_PLATFORM_URL=${platformOrigin}\n`,
  '.env.production': `VITE_PLATFORM_URL=${platformOrigin}\n`,
  'src/env.d.ts': '/// <reference types="vite/client" />\n',
  'src/shared.ts': `import { ref } from 'vue';

/** How the dashboard route is kept (chosen once, at boot). */
export const variant = new URLSearchParams(location.search).get('variant') ?? 'plain';
export const baseUrl: string = import.meta.env.VITE_PLATFORM_URL;
/** The viewer's color scheme, switched on the settings page. */
export const scheme = ref<'light' | 'dark'>('light');
export const session = () => fetch('/api/embed-session', { method: 'POST' });
/** What the test reads: every status the sales dashboard went through, in order. */
export const statuses: string[] = [];
`,
  'src/Sales.vue': `<script setup lang="ts">
import { ref, watch } from 'vue';
import { PlatformDashboard } from '@platform-embed/vue';
import { baseUrl, scheme, session, statuses, variant } from './shared';

const dashboard = ref<InstanceType<typeof PlatformDashboard> | null>(null);
watch(() => dashboard.value?.state.status, (status) => status && statuses.push(status), { flush: 'sync' });
(window as unknown as { sales: typeof dashboard }).sales = dashboard;
</script>

<template>
  <section class="sales">
    <h1>Sales</h1>
    <PlatformDashboard
      v-if="variant == 'keep-alive-prop'"
      ref="dashboard"
      keep-alive
      :base-url="baseUrl"
      public-id="sales-overview"
      :session="session"
      :color-scheme="scheme"
      style="height: 400px"
    />
    <PlatformDashboard
      v-else
      ref="dashboard"
      :base-url="baseUrl"
      public-id="sales-overview"
      :session="session"
      :color-scheme="scheme"
      style="height: 400px"
    />
  </section>
</template>
`,
  'src/Settings.vue': `<script setup lang="ts">
import { scheme } from './shared';
</script>

<template>
  <section class="settings">
    <h1>Settings</h1>
    <button @click="scheme = scheme == 'dark' ? 'light' : 'dark'">Dark</button>
  </section>
</template>
`,
  'src/KeptApp.vue': `<template>
  <nav><RouterLink to="/sales">Sales</RouterLink> <RouterLink to="/settings">Settings</RouterLink></nav>
  <main>
    <RouterView v-slot="{ Component }">
      <KeepAlive>
        <component :is="Component" />
      </KeepAlive>
    </RouterView>
  </main>
</template>
`,
  'src/PlainApp.vue': `<template>
  <nav><RouterLink to="/sales">Sales</RouterLink> <RouterLink to="/settings">Settings</RouterLink></nav>
  <main>
    <RouterView />
  </main>
</template>
`,
  'src/main.ts': `import { createApp } from 'vue';
import { createRouter, createWebHistory } from 'vue-router';
import { listenerCount, parkedCount } from '@platform-embed/vue';
import KeptApp from './KeptApp.vue';
import PlainApp from './PlainApp.vue';
import Sales from './Sales.vue';
import Settings from './Settings.vue';
import { statuses, variant } from './shared';

const router = createRouter({
  history: createWebHistory(),
  routes: [
    { path: '/sales', component: Sales },
    { path: '/settings', component: Settings },
  ],
});
const app = createApp(variant == 'keep-alive-component' ? KeptApp : PlainApp).use(router);
app.mount('#app');
// For the test.
Object.assign(window, { keptApp: { statuses, listenerCount, parkedCount, unmount: () => app.unmount() } });
`,
});

/** The app's test hooks on `window` (see main.ts above). */
export interface KeptAppHooks {
  keptApp: {
    statuses: string[];
    listenerCount(): number;
    parkedCount(): number;
    unmount(): void;
  };
  sales: { value: { state: { status: string }; embed: object | null } | null };
}

/** The production and development builds of the app. */
export type Mode = 'development' | 'production';

/** Writes the Vue app into the scaffold and builds it with Vite in `mode`; returns its `dist` folder. */
export function buildVueApp(fresh: Scaffold, mode: Mode, platformOrigin: string): string {
  const dir = fresh.app(`keep-alive-vue-${mode}`);
  writeFiles(dir, vueApp(platformOrigin));
  runNode(fresh.file('vite', 'bin/vite.js'), ['build', '--mode', mode, '--logLevel', 'warn'], { cwd: dir, timeout: 240_000 });
  return join(dir, 'dist');
}

const elementDist = resolve(import.meta.dirname, '../../packages/element/dist');

/** A host page of the script-tag build (`script`: the development or the minified one), with two places for a dashboard. */
const elementPage = (script: string) => `<!doctype html><title>element</title><link rel="icon" href="data:,">
<script src="/element/${script}"></script>
<div id="first" style="width:400px;height:300px"></div>
<div id="second" style="width:400px;height:300px"></div>
`;

/** The script-tag builds: development (every check, readable) and production (minified). */
export const ELEMENT_SCRIPTS = { development: 'platform-embed.js', production: 'platform-embed.min.js' } as const;

/**
 * Serves `dist` (a built single-page app: any path without a file extension answers its
 * index.html), the element's dist at /element/ with a host page per build at /element-<mode>.html,
 * and POST /api/embed-session, the host backend's session route, minting on `platform`.
 */
export function serveHost(dist: string, platform: MockPlatform): Promise<RunningServer> {
  return startStaticServer({
    host: '127.0.0.1',
    root: dist,
    mounts: { '/element/': elementDist },
    pages: {
      '/element-development.html': elementPage(ELEMENT_SCRIPTS.development),
      '/element-production.html': elementPage(ELEMENT_SCRIPTS.production),
    },
    routes: async (request, response) => {
      const path = new URL(request.url ?? '/', 'http://host').pathname;
      if (path == '/api/embed-session' && request.method == 'POST') {
        const sessionId = await platform.mintSession({ deploymentId: 1, externalId: 'jane@example.com' });
        response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        response.end(JSON.stringify({ sessionId }));
        return true;
      }
      if (path.startsWith('/element') || path.startsWith('/assets/') || /\.[a-z]+$/.test(path)) return false;
      // A route of the app (/sales, /settings): its index.html, as a host serves a single-page app.
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(readFileSync(join(dist, 'index.html')));
      return true;
    },
  });
}

/** The session id in an embed URL (`?session=`). */
export const sessionOf = (url: string) => new URL(url).searchParams.get('session');

/** The embed documents the page loaded (each frame navigation to the mock's embed pages), with their HTTP status. */
export function countEmbedLoads(page: Page, platformOrigin: string): { status: number; url: string }[] {
  const loads: { status: number; url: string }[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (
      request.resourceType() == 'document' &&
      request.frame() != page.mainFrame() &&
      response.url().startsWith(`${platformOrigin}/embed/`)
    )
      loads.push({ status: response.status(), url: response.url() });
  });
  return loads;
}

/** The document of the iframe `selector` finds (the page has one). */
export async function frameOf(page: Page, selector: string): Promise<Frame> {
  const iframe = page.locator(selector);
  await expect(iframe).toHaveCount(1);
  const frame = await (await iframe.elementHandle())!.contentFrame();
  return frame!;
}

/** Marks the window of the embed document in `frame` (cross-origin: Playwright evaluates inside it). */
export const markDocument = (frame: Frame, mark: string) =>
  frame.evaluate((value) => void ((window as unknown as { keptMark?: string }).keptMark = value), mark);

/** The mark on the window of the embed document in `frame`, if this is the marked document. */
export const documentMark = (frame: Frame) => frame.evaluate(() => (window as unknown as { keptMark?: string }).keptMark ?? null);

/** The `message` listeners on the page's `window`, counted by CDP (`DOMDebugger.getEventListeners`), as bench/run.mjs does. */
export async function messageListeners(cdp: CDPSession): Promise<number> {
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' });
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId! });
  await cdp.send('Runtime.releaseObject', { objectId: result.objectId! });
  return listeners.filter((listener) => listener.type == 'message').length;
}

/** An init script: the page has no `Element.prototype.moveBefore` (as Safari today), from before anything loads. */
export const withoutMoveBefore = () => void delete (Element.prototype as { moveBefore?: unknown }).moveBefore;
