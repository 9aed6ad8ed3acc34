import { expect, test, type Page } from '@playwright/test';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startMockPlatform, type MockPlatform } from '../packages/mock/src/index';
import { PROBE, developmentTexts, expectDevelopment, expectNoDevelopmentText, expectProduction, type Probe } from './support/devChecks';
import { checkGuide, expectOnlyTheEmbedFailed, platformEnv, readGuide, type Guide } from './support/guides';
import { freePort, runNode, scaffold, startNode, writeFiles, type Scaffold } from './support/scaffold';

// docs/guide/nuxt.md as written: a fresh Nuxt 4.4 app (the files `npm create nuxt` writes with
// its minimal template, written here: the template is downloaded from GitHub, which this machine
// cannot reach) with the guide's files over it and our packed packages: `nuxi typecheck` and
// `nuxt build`, the built server, and `nuxt dev`, each driven by checkGuide. A page of the test's
// own (app/pages/probe.vue, not the guide's) runs the core's development probe: the checks run in
// `nuxt dev`, and the production build has none of their text.

/** The minimal template of `npm create nuxt` (Nuxt 4), but the files the guide writes over it. */
const TEMPLATE = {
  'package.json': JSON.stringify(
    {
      name: 'sales-app',
      type: 'module',
      private: true,
      scripts: { build: 'nuxt build', dev: 'nuxt dev', generate: 'nuxt generate', preview: 'nuxt preview', postinstall: 'nuxt prepare' },
    },
    null,
    2,
  ),
  'tsconfig.json': JSON.stringify(
    { files: [], references: ['app', 'server', 'shared', 'node'].map((name) => ({ path: `./.nuxt/tsconfig.${name}.json` })) },
    null,
    2,
  ),
  'public/robots.txt': 'User-Agent: *\nDisallow:\n',
};

/** A page whose component runs the development probe once mounted (not part of the guide). */
const PROBE_PAGE = {
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
};

/**
 * A page of the test's own with a bad prop: a color scheme from the page's query (as a CMS or a
 * config would give it), which nothing checks before the SDK. It must cost the embed, never the page.
 */
const mistakePage = (tenant: string) => ({
  'app/pages/mistake.vue': `<script setup lang="ts">
import { computed, ref } from 'vue';
import { PlatformDashboard, type ColorScheme } from '@platform-embed/vue';

const scheme = computed(() => useRoute().query.scheme as ColorScheme);
const clicks = ref(0);
const session = () => fetch('/api/embed-session', { method: 'POST' });
</script>

<template>
  <h1>Sales</h1>
  <button data-testid="counter" @click="clicks++">clicked {{ clicks }}</button>
  <PlatformDashboard base-url="${tenant}" public-id="sales-overview" :session="session" :color-scheme="scheme" style="height: 300px">
    <template #error="{ error }"><p data-testid="error">{{ error.message }}</p></template>
  </PlatformDashboard>
  <p data-testid="after">The rest of the page</p>
</template>
`,
});

/** A bad prop costs the embed, never the page: the page renders and responds, the #error slot says why, one console line. */
async function badPropCostsTheEmbed(page: Page, origin: string) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // (But the browser's line for the page's missing favicon.)
  page.on('console', (message) => message.type() === 'error' && !/favicon/.test(message.location().url) && errors.push(message.text()));
  platform.reset();
  await page.goto(`${origin}/mistake?scheme=purple`);
  await expectOnlyTheEmbedFailed(page, page.locator('iframe'), 60_000);
  expect(platform.sessions()).toHaveLength(0);
  expect(errors).toEqual([expect.stringContaining('"colorScheme" must be light|dark|auto (got "purple")')]);
}

let fresh: Scaffold;
let app: string;
let guide: Guide;
let platform: MockPlatform;
const nuxi = () => fresh.file('nuxt', 'bin/nuxt.mjs');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  fresh = scaffold();
  platform = await startMockPlatform({ host: 'localhost' });
  guide = readGuide('nuxt', platform.origin);
  app = fresh.app('nuxt');
  writeFiles(app, TEMPLATE);
  guide.writeTo(app);
  writeFiles(app, { ...PROBE_PAGE, ...mistakePage(platform.origin) });
});
test.afterAll(async () => platform?.close());

// A dev server may reload the page once it has prebundled a dependency found late (the probe's
// import of the core): the probe runs again in the new page.
const probeOf = async (page: Page, url: string): Promise<Probe> => {
  await page.goto(url);
  let probe: Probe | undefined;
  const read = () => page.evaluate(() => (window as unknown as { probe?: Probe }).probe).catch(() => undefined);
  await expect.poll(async () => (probe = await read()), { timeout: 60_000 }).toBeTruthy();
  return probe!;
};

test('nuxi typecheck, nuxt build and the built server (production): the guide runs as written; the first session is minted on the server', async ({
  page,
}) => {
  test.setTimeout(420_000);
  runNode(nuxi(), ['typecheck'], { cwd: app, timeout: 240_000 });
  runNode(nuxi(), ['build'], { cwd: app, timeout: 240_000 });
  const assets = join(app, '.output/public/_nuxt');
  const bundle = readdirSync(assets)
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(assets, file), 'utf8'))
    .join('\n');
  expect(bundle).toContain('platform-embed');
  expectNoDevelopmentText(bundle, developmentTexts(fresh));

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startNode(join(app, '.output/server/index.mjs'), [], {
    cwd: app,
    url: `${origin}/`,
    env: { PORT: String(port), HOST: '127.0.0.1', ...platformEnv(platform) },
  });
  try {
    // The page as the browser first gets it: never cached, the first session in its payload.
    platform.reset();
    const response = await fetch(`${origin}/sales`, { headers: { cookie: 'user=jane' } });
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const html = await response.text();
    expect(platform.sessions()).toHaveLength(1);
    expect(html).toContain(platform.sessions()[0]!.sessionId);

    await checkGuide(page, { guide, platform, origin, output: server.output });
    expectProduction(await probeOf(page, `${origin}/probe`));
    await badPropCostsTheEmbed(page, origin);
  } finally {
    await server.stop();
  }
});

test('nuxt dev: the guide runs as written; a first load mints exactly one session; the development checks run', async ({ page }) => {
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
    env: platformEnv(platform),
    timeoutMs: 120_000,
  });
  try {
    // The first load of the dashboard's page in a new dev server: Vite must not reload it (a
    // dependency found late), which would mint a second session.
    platform.reset();
    await page.context().addCookies([{ name: 'user', value: 'jane', url: origin }]);
    const loads: string[] = [];
    page.on('load', () => loads.push(page.url()));
    await page.goto(`${origin}/sales`, { timeout: 60_000 });
    await expect(page.frameLocator('iframe').getByTestId('embed-root')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    await page.waitForTimeout(3000);
    expect(loads).toHaveLength(1);
    expect(platform.sessions()).toHaveLength(1);

    await checkGuide(page, { guide, platform, origin, output: server.output });
    expectDevelopment(await probeOf(page, `${origin}/probe`));
    await badPropCostsTheEmbed(page, origin);
  } finally {
    await server.stop();
  }
});
