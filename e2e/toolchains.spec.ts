import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  PAGE,
  PROBE,
  PROBE_ENTRY,
  developmentTexts,
  expectDevelopment,
  expectNoDevelopmentText,
  expectProduction,
  type Probe,
} from './support/devChecks';
import { expectOnlyTheEmbedFailed } from './support/guides';
import { freePort, runNode, scaffold, startNode, writeFiles, type Scaffold } from './support/scaffold';
import { startStaticServer, type RunningServer } from './support/staticServer';

// The development checks run in each toolchain's development build and are absent from its
// production build: the packed core, installed in a fresh project and imported by its package
// name, bundled by esbuild and Vite as a user's app would be, then run in Chromium. (Issue 17:
// the published guard was false in every bundled browser build.) webpack 5's two modes and
// `vite build` are checked by the guides' apps (guidePlain.spec.ts, guideVite.spec.ts).

let fresh: Scaffold;
let devTexts: string[];
let server: RunningServer;

test.beforeAll(async () => {
  test.setTimeout(600_000);
  fresh = scaffold();
  devTexts = developmentTexts(fresh);
  server = await startStaticServer({ host: '127.0.0.1', root: join(fresh.dir, 'apps') });
});
test.afterAll(async () => server?.close());

// A dev server may reload the page once it has prebundled a dependency found late (the probe's
// import of the core): the probe runs again in the new page.
const probeOf = async (page: Page, url: string): Promise<Probe> => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  let probe: Probe | undefined;
  const read = () => page.evaluate(() => (window as unknown as { probe?: Probe }).probe).catch(() => undefined);
  await expect.poll(async () => (probe = await read()), { message: `the probe did not run: ${errors.join('; ')}` }).toBeTruthy();
  return probe!;
};

test('the packed core has development-only texts to look for', () => {
  // Otherwise the "absent from production" checks below could not fail.
  expect(devTexts.length).toBeGreaterThan(5);
});

test.describe('esbuild, the packed core by package name', () => {
  const build = (name: string, options: string[]) => {
    const dir = fresh.app(name);
    writeFiles(dir, { 'probe.js': PROBE, 'entry.js': PROBE_ENTRY, 'index.html': PAGE('out.js') });
    runNode(
      fresh.file('esbuild', 'bin/esbuild'),
      ['entry.js', '--bundle', '--format=iife', '--outfile=out.js', '--log-level=warning', ...options],
      {
        cwd: dir,
      },
    );
    return readFileSync(join(dir, 'out.js'), 'utf8');
  };

  test('development (only --define:process.env.NODE_ENV=\'"development"\'): the checks run, with the long messages', async ({ page }) => {
    const bundle = build('esbuild-development', ['--define:process.env.NODE_ENV="development"']);
    expectDevelopment(await probeOf(page, `${server.origin}/esbuild-development/`));
    expect(devTexts.filter((text) => bundle.includes(text)).length).toBeGreaterThan(devTexts.length / 2);
  });

  test('production (--minify): no development text in the bundle, the development-only check does not run, readyTimeout "abc" refused with code and field', async ({
    page,
  }) => {
    const bundle = build('esbuild-production', ['--minify']);
    expectNoDevelopmentText(bundle, devTexts);
    expectProduction(await probeOf(page, `${server.origin}/esbuild-production/`));
  });

  test('production refuses readyTimeout "abc" with code and field', async ({ page }) => {
    build('esbuild-production-numbers', ['--minify', '--define:process.env.NODE_ENV="production"']);
    expectProduction(await probeOf(page, `${server.origin}/esbuild-production-numbers/`));
  });
});

test.describe('Vite, a fresh app importing the packed core by package name', () => {
  const app = (name: string, files: Record<string, string> = {}) => {
    const dir = fresh.app(name);
    writeFiles(dir, { 'probe.js': PROBE, 'entry.js': PROBE_ENTRY, 'index.html': PAGE('/entry.js', 'module'), ...files });
    return dir;
  };
  const vite = () => fresh.file('vite', 'bin/vite.js');

  test('the dev server: the checks run, with the long messages', async ({ page }) => {
    test.setTimeout(120_000);
    const dir = app('vite-dev');
    const port = await freePort();
    const server = await startNode(vite(), ['--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
      cwd: dir,
      url: `http://127.0.0.1:${port}/`,
    });
    try {
      expectDevelopment(await probeOf(page, `http://127.0.0.1:${port}/`));
    } finally {
      await server.stop();
    }
  });

  test('vite build --mode development with NODE_ENV=development in .env.development (as Vite documents): the checks run', async ({
    page,
  }) => {
    const dir = app('vite-build-development', {
      'vite.config.js': "export default { base: '/vite-build-development/dist/' };\n",
      '.env.development': 'NODE_ENV=development\n',
    });
    runNode(vite(), ['build', '--mode', 'development', '--logLevel', 'warn'], { cwd: dir });
    expectDevelopment(await probeOf(page, `${server.origin}/vite-build-development/dist/`));
  });
});

test.describe('Vite + React, a fresh app with the packed @platform-embed/react: a bad prop costs the embed, never the page', () => {
  // The color scheme comes from the page's query (as a CMS or a config would give it): nothing
  // checks it before the SDK. Before issue 24 the component threw it into React, which
  // unmounted the whole app (the root ended with no children).
  const files = (base: string) => ({
    'index.html': '<!doctype html><title>sales</title><div id="root"></div><script type="module" src="./main.jsx"></script>\n',
    'vite.config.js': `import react from '@vitejs/plugin-react';\nexport default { base: ${JSON.stringify(base)}, plugins: [react()] };\n`,
    'main.jsx': `import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { PlatformDashboard } from '@platform-embed/react';

function App() {
  const [clicks, setClicks] = useState(0);
  return (
    <main>
      <h1>Sales</h1>
      <button data-testid="counter" onClick={() => setClicks(clicks + 1)}>clicked {clicks}</button>
      <PlatformDashboard
        baseUrl="https://acme.platform.example"
        publicId="sales-overview"
        session={() => fetch('/api/embed-session', { method: 'POST' })}
        colorScheme={new URLSearchParams(location.search).get('scheme')}
        errorFallback={({ error }) => <p data-testid="error">{error.message}</p>}
        style={{ height: 300 }}
      />
      <p data-testid="after">The rest of the page</p>
    </main>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
`,
  });
  const vite = () => fresh.file('vite', 'bin/vite.js');

  const mistakePageCostsOnlyTheEmbed = async (page: Page, url: string) => {
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // (But the browser's line for the page's missing favicon.)
    page.on('console', (message) => message.type() === 'error' && !/favicon/.test(message.location().url) && errors.push(message.text()));
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${url}?scheme=purple`);
    await expectOnlyTheEmbedFailed(page, page.locator('iframe'));
    expect(requests.filter((request) => request.includes('/api/embed-session'))).toEqual([]);
    // One console line (React's StrictMode mounts twice: the same mistake is not written twice).
    expect(errors).toEqual([expect.stringContaining('"colorScheme" must be light|dark|auto (got "purple")')]);
  };

  test('the dev server', async ({ page }) => {
    test.setTimeout(120_000);
    const dir = fresh.app('vite-react-dev');
    writeFiles(dir, files('/'));
    const port = await freePort();
    const dev = await startNode(vite(), ['--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
      cwd: dir,
      url: `http://127.0.0.1:${port}/`,
    });
    try {
      await mistakePageCostsOnlyTheEmbed(page, `http://127.0.0.1:${port}/`);
    } finally {
      await dev.stop();
    }
  });

  test('vite build', async ({ page }) => {
    const dir = fresh.app('vite-react-build');
    writeFiles(dir, files('/vite-react-build/dist/'));
    runNode(vite(), ['build', '--logLevel', 'warn'], { cwd: dir });
    await mistakePageCostsOnlyTheEmbed(page, `${server.origin}/vite-react-build/dist/`);
  });
});
