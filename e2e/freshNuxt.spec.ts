import { expect, test, type Page } from '@playwright/test';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startMockPlatform, type MockPlatform } from '../packages/mock/src/index';
import { PROBE, developmentTexts, expectDevelopment, expectNoDevelopmentText, expectProduction, type Probe } from './support/devChecks';
import { freePort, runNode, scaffold, startNode, writeFiles, type Scaffold } from './support/scaffold';

// A fresh Nuxt 4.4.5 app, written by hand as `create-nuxt` would (its template is downloaded from
// GitHub, which this machine cannot reach), with the README's Nuxt files and our packed packages:
// `nuxi typecheck` and `nuxi build`, the built server against the mock platform, and `nuxt dev`,
// whose first load must mint one session. Its development server runs the core's development
// checks; its production build has none of their text.

const root = resolve(import.meta.dirname, '..');

/** The README's block (`lang`) whose first lines name `path` in a comment. */
function readmeFile(lang: 'ts' | 'vue', path: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(([, body]) => body!);
  const block = blocks.find((body) =>
    body
      .split('\n')
      .slice(0, 2)
      .some((line) => line.trim() == `// ${path}`),
  );
  if (!block) throw new Error(`README.md has no ${lang} block for ${path} any more: update e2e/freshNuxt.spec.ts`);
  return block;
}

let fresh: Scaffold;
let app: string;
let platform: MockPlatform;
const nuxi = () => fresh.file('nuxt', 'bin/nuxt.mjs');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  fresh = scaffold();
  platform = await startMockPlatform({ host: 'localhost' });
});
test.afterAll(async () => platform?.close());
test.beforeEach(() => platform.reset());

// A dev server may reload the page once it has prebundled a dependency found late (the probe's
// import of the core): the probe runs again in the new page.
const probeOf = async (page: Page, url: string): Promise<Probe> => {
  await page.goto(url);
  let probe: Probe | undefined;
  const read = () => page.evaluate(() => (window as unknown as { probe?: Probe }).probe).catch(() => undefined);
  await expect.poll(async () => (probe = await read()), { timeout: 60_000 }).toBeTruthy();
  return probe!;
};

/** A bad prop costs the embed, never the page: the page renders and responds, the #error slot says why, one console line. */
async function badPropCostsTheEmbed(page: Page, origin: string) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // (But the browser's line for the page's missing favicon.)
  page.on('console', (message) => message.type() === 'error' && !/favicon/.test(message.location().url) && errors.push(message.text()));
  platform.reset();
  await page.goto(`${origin}/mistake?scheme=purple`);
  await expect(page.getByTestId('error')).toHaveText('[platform-embed] "colorScheme" must be light|dark|auto (got "purple")', {
    timeout: 60_000,
  });
  await expect(page.getByRole('alert')).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'Sales' })).toBeVisible();
  await expect(page.getByTestId('after')).toBeVisible();
  await page.getByTestId('counter').click();
  await page.getByTestId('counter').click();
  await expect(page.getByTestId('counter')).toHaveText('clicked 2');
  await expect(page.locator('iframe')).toHaveCount(0);
  expect(platform.sessions()).toHaveLength(0);
  expect(errors).toEqual([expect.stringContaining('"colorScheme" must be light|dark|auto (got "purple")')]);
}

test("nuxi typecheck and nuxi build: the README's files in a fresh Nuxt app", async () => {
  test.setTimeout(300_000);
  app = fresh.app('nuxt');
  writeFiles(app, {
    'nuxt.config.ts': readmeFile('ts', 'nuxt.config.ts'),
    'tsconfig.json': JSON.stringify({
      files: [],
      references: ['app', 'server', 'shared', 'node'].map((name) => ({ path: `./.nuxt/tsconfig.${name}.json` })),
    }),
    'app/app.vue': '<template>\n  <NuxtPage />\n</template>\n',
    'app/pages/sales.vue': readmeFile('vue', 'app/pages/sales.vue').replaceAll('https://acme.platform.example', platform.origin),
    'server/api/embed-session.post.ts': readmeFile('ts', 'server/api/embed-session.post.ts'),
    // The reader's auth, which the README leaves out (a server util: auto-imported by Nitro).
    'server/utils/getUser.ts': `export async function getUser(_request: Request) {\n  return { id: 'jane', email: 'jane@example.com' };\n}\n`,
    // A bad prop: a color scheme from the page's query (as a CMS or a config would give it), which
    // nothing checks before the SDK. It must cost the embed, never the page.
    'app/pages/mistake.vue': `<script setup lang="ts">
import { computed, ref } from 'vue';
import { PlatformDashboard, type ColorScheme } from '@platform-embed/vue';

const scheme = computed(() => useRoute().query.scheme as ColorScheme);
const clicks = ref(0);
const session = () => $fetch<{ sessionId: string }>('/api/embed-session', { method: 'POST' });
</script>

<template>
  <h1>Sales</h1>
  <button data-testid="counter" @click="clicks++">clicked {{ clicks }}</button>
  <PlatformDashboard :base-url="'${platform.origin}'" public-id="sales-overview" :session="session" :color-scheme="scheme" style="height: 300px">
    <template #error="{ error }"><p data-testid="error">{{ error.message }}</p></template>
  </PlatformDashboard>
  <p data-testid="after">The rest of the page</p>
</template>
`,
    // A page whose component runs the development probe once mounted.
    'app/probe.js': PROBE,
    'app/pages/probe.vue': `<script setup lang="ts">
import { onMounted } from 'vue';
// Plain JavaScript (Nuxt's tsconfig allows it), shared with the other toolchains' probes.
import { runProbe } from '../probe.js';

onMounted(() => runProbe());
</script>

<template>
  <div id="embed" style="height: 100px" />
</template>
`,
  });
  runNode(nuxi(), ['typecheck'], { cwd: app, timeout: 240_000 });
  runNode(nuxi(), ['build'], { cwd: app, timeout: 240_000 });
  const assets = join(app, '.output/public/_nuxt');
  const bundle = readdirSync(assets)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(assets, file), 'utf8'))
    .join('\n');
  expect(bundle).toContain('platform-embed');
  expectNoDevelopmentText(bundle, developmentTexts(fresh));
});

test('the built server: the page mints the first session on the server, the dashboard is ready with it; the development-only check does not run', async ({
  page,
}) => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startNode(join(app, '.output/server/index.mjs'), [], {
    cwd: app,
    url: `${origin}/`,
    env: { PORT: String(port), HOST: '127.0.0.1', PLATFORM_URL: platform.origin, PLATFORM_API_KEY: platform.apiKey },
  });
  try {
    const response = await page.goto(`${origin}/sales`);
    expect(response!.headers()['cache-control']).toBe('private, no-store');
    await expect(page.frameLocator('iframe').getByTestId('embed-root')).toHaveAttribute('data-state', 'ready');
    const sessions = platform.sessions();
    expect(sessions).toHaveLength(1);
    expect(await page.locator('iframe').getAttribute('src')).toContain(sessions[0]!.sessionId);
    expectProduction(await probeOf(page, `${origin}/probe`));
    await badPropCostsTheEmbed(page, origin);
  } finally {
    await server.stop();
  }
});

test('nuxt dev: the first load mints exactly one session, and the development checks run', async ({ page }) => {
  test.setTimeout(240_000);
  // A first start: no build folder, no dependency cache of Vite.
  for (const folder of ['.nuxt', '.output', 'node_modules']) rmSync(join(app, folder), { recursive: true, force: true });
  rmSync(join(fresh.dir, 'node_modules/.cache'), { recursive: true, force: true });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startNode(nuxi(), ['dev', '--port', String(port), '--host', '127.0.0.1'], {
    cwd: app,
    // Built, and asked nothing yet: the first page load is the test's.
    ready: /Nitro server built/,
    env: { PLATFORM_URL: platform.origin, PLATFORM_API_KEY: platform.apiKey },
    timeoutMs: 120_000,
  });
  try {
    const loads: string[] = [];
    page.on('load', () => loads.push(page.url()));
    await page.goto(`${origin}/sales`);
    await expect(page.frameLocator('iframe').getByTestId('embed-root')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    // Long enough for a late dependency discovery to reload the page.
    await page.waitForTimeout(3000);
    expect(loads).toHaveLength(1);
    const sessions = platform.sessions();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.usedAt).toBeDefined();
    expectDevelopment(await probeOf(page, `${origin}/probe`));
    await badPropCostsTheEmbed(page, origin);
  } finally {
    await server.stop();
  }
});
