import { expect, test, type Page } from '@playwright/test';
import { createRequire } from 'node:module';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { startMockPlatform, type MockPlatform } from '../packages/mock/src/index';
import { developmentTexts, expectDevelopment, expectNoDevelopmentText, expectProduction, type Probe, PROBE } from './support/devChecks';
import { checkGuide, errorUi, platformEnv, readGuide, type Guide } from './support/guides';
import { freePort, runNode, scaffold, startNode, writeFiles, type Scaffold } from './support/scaffold';

// docs/guide/nextjs.md as written: a fresh `create-next-app` 16.4 scaffold (its defaults:
// `cacheComponents` and `partialPrefetching` on) with the guide's files over it and our packed
// packages, driven by checkGuide in `next build` + `next start` and in `next dev` (Turbopack),
// plus a platform that is down. A page of the test's own (app/probe, not the guide's) runs the
// core's development probe: the checks run in `next dev`, and the production client chunks have
// none of their text.

const root = resolve(import.meta.dirname, '..');

/** A page of the scaffold whose client component runs the development probe (not part of the guide). */
const PROBE_PAGE = {
  'app/probe/probe.js': PROBE,
  'app/probe/Probe.tsx': `'use client';
import { useEffect } from 'react';
// Plain JavaScript (the scaffold allows it), shared with the other toolchains' probes.
import { runProbe } from './probe.js';

export function Probe() {
  useEffect(() => runProbe(), []);
  return <div id="embed" style={{ height: 100 }} />;
}
`,
  'app/probe/page.tsx': `import { Probe } from './Probe';

export default function ProbePage() {
  return <Probe />;
}
`,
};

let fresh: Scaffold;
let app: string;
let guide: Guide;
let platform: MockPlatform;
const next = () => fresh.file('next', 'dist/bin/next');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  fresh = scaffold();
  platform = await startMockPlatform({ host: 'localhost' });
  guide = readGuide('nextjs', platform.origin);
  const parent = fresh.app('next');
  const createNextApp = join(
    dirname(createRequire(join(root, 'e2e/package.json')).resolve('create-next-app/package.json')),
    'dist/index.js',
  );
  // The guide's `--yes` defaults (TypeScript, the App Router, `@/*`, no src folder, Turbopack),
  // without what needs the network (Tailwind and ESLint installs; the Geist fonts, which
  // `next build` downloads: `--empty` writes the same next.config.ts without them). Its template
  // is in the package; the install is the scaffold's (one for all specs).
  runNode(
    createNextApp,
    [
      'sales-app',
      '--ts',
      '--app',
      '--no-tailwind',
      '--no-eslint',
      '--no-src-dir',
      '--no-react-compiler',
      '--import-alias',
      '@/*',
      '--skip-install',
      '--disable-git',
      '--yes',
      '--use-pnpm',
      '--no-agent-feedback',
      '--empty',
    ],
    { cwd: parent },
  );
  app = join(parent, 'sales-app');
  expect(readFileSync(join(app, 'next.config.ts'), 'utf8')).toMatch(/cacheComponents:\s*true/);
  expect(readFileSync(join(app, 'next.config.ts'), 'utf8')).toMatch(/partialPrefetching:\s*true/);
  // The scaffold's pnpm settings would make its folder a project root of its own; its packages are
  // the shared install one folder up.
  rmSync(join(app, 'pnpm-workspace.yaml'), { force: true });
  guide.writeTo(app);
  writeFiles(app, PROBE_PAGE);
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

const start = async (command: string[], env = platformEnv(platform)) => {
  const port = await freePort();
  return startNode(next(), [...command, '-p', String(port), '-H', '127.0.0.1'], {
    cwd: app,
    url: `http://127.0.0.1:${port}/`,
    env,
    timeoutMs: 90_000,
  }).then((server) => ({ ...server, origin: `http://127.0.0.1:${port}` }));
};

test('next build and next start (production): the guide runs as written; the first session is minted on the server, silently', async ({
  page,
}) => {
  test.setTimeout(300_000);
  runNode(next(), ['build'], { cwd: app, timeout: 280_000 });
  const chunks = join(app, '.next/static/chunks');
  const bundle = readdirSync(chunks, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(chunks, file), 'utf8'))
    .join('\n');
  expect(bundle).toContain('platform-embed');
  expectNoDevelopmentText(bundle, developmentTexts(fresh));

  const server = await start(['start']);
  try {
    // The page as the browser first gets it: never cached, the first session in it.
    platform.reset();
    const response = await fetch(`${server.origin}/sales`, { headers: { cookie: 'user=jane' } });
    expect(response.headers.get('cache-control')).toContain('no-store');
    const html = await response.text();
    expect(platform.sessions()).toHaveLength(1);
    expect(html).toContain(platform.sessions()[0]!.sessionId);

    await checkGuide(page, { guide, platform, origin: server.origin, output: server.output });
    expectProduction(await probeOf(page, `${server.origin}/probe`));
  } finally {
    await server.stop();
  }
});

test('next start with the platform down: the page renders without a session, logs why once, and the embed shows its error after its retries', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const server = await start(['start'], { ...platformEnv(platform), PLATFORM_URL: `http://localhost:${await freePort()}` });
  try {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const routeCalls: string[] = [];
    page.on('request', (request) => request.url().endsWith('/api/embed-session') && routeCalls.push(request.method()));
    await page.context().addCookies([{ name: 'user', value: 'jane', url: server.origin }]);
    const response = await page.goto(`${server.origin}/sales`);
    expect(response!.status()).toBe(200);
    await expect(errorUi(page)).toContainText('502', { timeout: 30_000 });
    expect(errors).toEqual([]);
    // Once for the render (not for the prerender Next.js ends during the call), and once for
    // each call of the session route (its onError).
    const logged = server.output().match(/could not reach/g) ?? [];
    expect(routeCalls.length).toBeGreaterThan(1);
    expect(logged).toHaveLength(1 + routeCalls.length);
    expect(guide.text).toContain('logs `generate-session: could not reach ...` once');
  } finally {
    await server.stop();
  }
});

test('next dev (Turbopack): the guide runs as written; the development checks run, with the long messages', async ({ page }) => {
  test.setTimeout(240_000);
  rmSync(join(app, '.next'), { recursive: true, force: true });
  const server = await start(['dev']);
  try {
    expectDevelopment(await probeOf(page, `${server.origin}/probe`));
    // The pages, each compiled at its first request, before the viewer's clicks.
    for (const path of ['/settings', '/sales']) await page.goto(`${server.origin}${path}`, { timeout: 60_000 });
    await checkGuide(page, {
      guide,
      platform,
      origin: server.origin,
      output: server.output,
      returnsMint: 'renders the page again at every return',
      // next dev's own lines: each request it answered, each page it compiled, each Server Action it ran.
      quiet: /^\s*((GET|POST|HEAD) \/\S* \d{3} in |○ Compiling |✓ Compiled |└─ ƒ )/,
    });
  } finally {
    await server.stop();
  }
});
