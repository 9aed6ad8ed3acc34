import { expect, test, type Page } from '@playwright/test';
import { createRequire } from 'node:module';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { startMockPlatform, type MockPlatform } from '../packages/mock/src/index';
import { developmentTexts, expectDevelopment, expectNoDevelopmentText, expectProduction, type Probe, PROBE } from './support/devChecks';
import { embedFrame, mark, markOf, messageListeners, navigate, watchEmbedLoads, watchRenders } from './support/nextRoutes';
import { freePort, runNode, scaffold, startNode, writeFiles, type Scaffold } from './support/scaffold';

// A fresh `create-next-app` scaffold (its offline template, as 16.4 writes it: `cacheComponents:
// true`) with the README's Next.js files and our packed packages: `next build`, then `next start`
// against the mock platform, and against a platform that is down. In its development servers
// (Turbopack, and webpack) the core's development checks run; its production build has none of
// their text.

const root = resolve(import.meta.dirname, '..');

/** The README's file that starts with `// <path>` (a tsx block of the Next.js section). */
function readmeFile(path: string): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```tsx\n([\s\S]*?)```/g)].map(([, body]) => body!);
  const block = blocks.find((body) =>
    body
      .split('\n')
      .slice(0, 2)
      .some((line) => line.startsWith(`// ${path}`)),
  );
  if (!block) throw new Error(`README.md has no tsx block for ${path} any more: update e2e/freshNext.spec.ts`);
  return block;
}

/** The host's own auth that the README leaves to the reader (`currentUser()`), from the request's cookies. */
const AUTH = `import { cookies } from 'next/headers';

export async function currentUser(): Promise<{ id: string; email: string } | null> {
  const viewer = (await cookies()).get('viewer')?.value ?? 'jane';
  return { id: viewer, email: \`\${viewer}@example.com\` };
}
`;

/** A page of the scaffold whose client component runs the development probe. */
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

/**
 * The host's navigation: a root layout with links to the README's dashboard and three pages of
 * the host's own, to leave the dashboard and come back (Next.js keeps the last 3 routes of a
 * level; a fourth pushes the oldest out).
 */
const ROUTES = ['/sales', '/settings', '/reports', '/team'];
const NAVIGATION = {
  'app/layout.tsx': `import Link from 'next/link';
import type { ReactNode } from 'react';

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <nav>
          ${ROUTES.map((href) => `<Link href="${href}">${href.slice(1)}</Link>`).join('\n          ')}
        </nav>
        {children}
      </body>
    </html>
  );
}
`,
  ...Object.fromEntries(
    ROUTES.slice(1).map((href) => [
      `app${href}/page.tsx`,
      `export default function Page() {\n  return <p data-testid="route">${href.slice(1)}</p>;\n}\n`,
    ]),
  ),
};

/** A route of the host's own shown (a link clicked), timed in the page. */
const toRoute = (page: Page, href: string) => navigate(page, href, `[data-testid=route]`);
/** Back on the README's dashboard: its iframe visible, timed in the page. */
const toSales = (page: Page) => navigate(page, '/sales', 'iframe');

/**
 * Sales → settings → sales 3 times, from a page on /sales with its embed ready: the same frame
 * document all along (a marker on its window), no session used, no embed page loaded again.
 * @returns the times from the click to the dashboard visible again, the page's renders on the
 *   server meanwhile, and the sessions they minted, which nothing used
 */
async function leaveAndComeBack(page: Page): Promise<{ returns: number[]; renders: number; minted: number }> {
  const frame = embedFrame(page, platform.origin);
  const sessions = platform.sessions().length;
  const used = () => platform.sessions().filter((session) => session.usedAt !== undefined).length;
  const usedBefore = used();
  const loads = watchEmbedLoads(page, platform.origin);
  const renders = watchRenders(page, new URL(page.url()).origin, '/sales');
  await mark(frame, 'the first document');
  const returns: number[] = [];
  for (let round = 0; round < 3; round++) {
    await toRoute(page, '/settings');
    await expect(page.locator('iframe')).toHaveCount(1);
    returns.push((await toSales(page)).ms);
    expect(await markOf(frame)).toBe('the first document');
    await expect(page.frameLocator('iframe').getByTestId('embed-root')).toHaveAttribute('data-state', 'ready');
  }
  expect(loads).toEqual([]);
  await expect(page.locator('iframe')).toHaveCount(1);
  // Each render of the page on the server mints the session it hands to the client as
  // initialSession (next dev renders it at every return): the embed, kept, uses none of them.
  await expect.poll(() => platform.sessions().length - sessions).toBe(renders.length);
  expect(used()).toBe(usedBefore);
  return { returns, renders: renders.length, minted: platform.sessions().length - sessions };
}

let fresh: Scaffold;
let app: string;
let platform: MockPlatform;
const next = () => fresh.file('next', 'dist/bin/next');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  fresh = scaffold();
  platform = await startMockPlatform({ host: 'localhost' });
});
test.afterAll(async () => platform?.close());

test("create-next-app 16.4 (cacheComponents on) with the README's page and client component: next build passes", async () => {
  test.setTimeout(300_000);
  const parent = fresh.app('next');
  const createNextApp = join(
    dirname(createRequire(join(root, 'e2e/package.json')).resolve('create-next-app/package.json')),
    'dist/index.js',
  );
  // Its template is in the package: nothing is downloaded; the install is the scaffold's (one for all
  // specs). `--empty`: the same next.config.ts, without the Geist fonts, which `next build` would
  // download from Google Fonts (this machine reaches no host but npm's registry).
  runNode(
    createNextApp,
    [
      'sales',
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
  app = join(parent, 'sales');
  expect(readFileSync(join(app, 'next.config.ts'), 'utf8')).toMatch(/cacheComponents:\s*true/);
  // The scaffold's pnpm settings would make its folder a project root of its own; its packages are
  // the shared install one folder up.
  rmSync(join(app, 'pnpm-workspace.yaml'), { force: true });
  writeFiles(app, {
    'app/auth.ts': AUTH,
    // The README's page, with the reader's auth imported and the embed pointed at the mock.
    'app/sales/page.tsx': `import { currentUser } from '../auth';\n${readmeFile('app/sales/page.tsx').replaceAll('https://acme.platform.example', platform.origin)}`,
    'app/sales/Sales.tsx': readmeFile('app/sales/Sales.tsx'),
    ...PROBE_PAGE,
    ...NAVIGATION,
  });
  runNode(next(), ['build'], { cwd: app, timeout: 280_000 });
  // The production client chunks have no development text (the probe page imports the core).
  const chunks = join(app, '.next/static/chunks');
  const bundle = readdirSync(chunks, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .map((file) => readFileSync(join(chunks, file), 'utf8'))
    .join('\n');
  expect(bundle).toContain('platform-embed');
  expectNoDevelopmentText(bundle, developmentTexts(fresh));
});

// A dev server may reload the page once it has prebundled a dependency found late (the probe's
// import of the core): the probe runs again in the new page.
const probeOf = async (page: Page, url: string): Promise<Probe> => {
  await page.goto(url);
  let probe: Probe | undefined;
  const read = () => page.evaluate(() => (window as unknown as { probe?: Probe }).probe).catch(() => undefined);
  await expect.poll(async () => (probe = await read()), { timeout: 60_000 }).toBeTruthy();
  return probe!;
};

const start = async (platformUrl: string, command: string[] = ['start']) => {
  const port = await freePort();
  return startNode(next(), [...command, '-p', String(port), '-H', '127.0.0.1'], {
    cwd: app,
    url: `http://127.0.0.1:${port}/`,
    env: { PLATFORM_URL: platformUrl, PLATFORM_API_KEY: platform.apiKey },
    timeoutMs: 90_000,
  }).then((server) => ({ ...server, origin: `http://127.0.0.1:${port}` }));
};

test('next start: the server component mints the first session, the dashboard is ready with it; the development-only check does not run', async ({
  page,
}) => {
  const server = await start(platform.origin);
  try {
    const response = await page.goto(`${server.origin}/sales`);
    expect(response!.headers()['cache-control']).toContain('no-store');
    await expect(page.frameLocator('iframe').getByTestId('embed-root')).toHaveAttribute('data-state', 'ready');
    const sessions = platform.sessions();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.usedAt).toBeDefined();
    expect(await page.locator('iframe').getAttribute('src')).toContain(sessions[0]!.sessionId);
    expectProduction(await probeOf(page, `${server.origin}/probe`));
  } finally {
    await server.stop();
  }
});

test("next start: the README's dashboard left and entered again 3 times keeps its frame and session; pushed out of the routes Next.js keeps, it is destroyed, and comes back with a fresh session", async ({
  page,
}) => {
  platform.reset();
  const server = await start(platform.origin);
  try {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.origin}/settings`);
    const listenersWithout = await messageListeners(page);
    await toSales(page);
    await expect(page.frameLocator('iframe').getByTestId('embed-root')).toHaveAttribute('data-state', 'ready');
    expect(platform.sessions()).toHaveLength(1);
    expect(await messageListeners(page)).toBe(listenersWithout + 1);
    const { returns, renders, minted } = await leaveAndComeBack(page);
    console.log(`next start (fresh app): back on the dashboard, visible in ${returns.join(', ')} ms`);
    for (const ms of returns) expect(ms).toBeLessThan(2_000);
    // The README's unstable_dynamicStaleTime: the page is not rendered again, nothing minted.
    expect(renders).toBe(0);
    expect(minted).toBe(0);

    // Three other routes after it: Next.js lets the dashboard's route go, its DOM removed.
    for (const href of ['/settings', '/reports', '/team']) await toRoute(page, href);
    await expect(page.locator('iframe')).toHaveCount(0);
    await expect.poll(() => messageListeners(page)).toBe(listenersWithout);
    // Nothing left in the SDK's lot either (its slots hold the frames of hidden and parked embeds).
    await expect(page.locator('body > [aria-hidden=true][inert] > *')).toHaveCount(0);

    // Back: a new embed. The route's last render is reused (unstable_dynamicStaleTime), its
    // initialSession already spent: the embed calls the Server Action for a fresh one.
    await toSales(page);
    await expect(page.frameLocator('iframe').getByTestId('embed-root')).toHaveAttribute('data-state', 'ready');
    expect(platform.sessions()).toHaveLength(2);
    expect(platform.sessions().every((session) => session.usedAt !== undefined)).toBe(true);
    expect(errors).toEqual([]);
  } finally {
    await server.stop();
  }
});

test('next start with the platform down: the page renders (no React error 441), without a session', async ({ page }) => {
  const server = await start(`http://localhost:${await freePort()}`);
  try {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(`${server.origin}/sales`);
    expect(response!.status()).toBe(200);
    await expect(page.locator('body')).not.toContainText('Application error');
    await expect(page.locator('body')).not.toContainText('Loading the dashboard');
    expect(errors.filter((message) => /#441|React error/.test(message))).toEqual([]);
    expect(server.output()).toContain('first session');
  } finally {
    await server.stop();
  }
});

test('next dev (Turbopack) and next dev --webpack: the development checks run, with the long messages; the dashboard left and entered again 3 times keeps its frame and session (StrictMode)', async ({
  page,
}) => {
  test.setTimeout(300_000);
  for (const bundler of [[], ['--webpack']]) {
    rmSync(join(app, '.next'), { recursive: true, force: true });
    const server = await start(platform.origin, ['dev', ...bundler]);
    try {
      expectDevelopment(await probeOf(page, `${server.origin}/probe`));
      // The dashboard and the route to leave it for, each compiled on its first request. (With
      // webpack, the README's page compiles only where the React package's client boundary has
      // named exports only: "export *" there fails the build.)
      await page.goto(`${server.origin}/settings`);
      await expect(page.getByTestId('route')).toBeVisible({ timeout: 60_000 });
      platform.reset();
      await page.goto(`${server.origin}/sales`);
      await expect(page.frameLocator('iframe').getByTestId('embed-root')).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
      const { returns, renders, minted } = await leaveAndComeBack(page);
      // (next dev renders again, at each return, a page it loaded whole, whatever its
      // unstable_dynamicStaleTime: the README's page mints a session each time, which nothing uses.)
      console.log(
        `next dev ${bundler[0] ?? '(Turbopack)'}: back on the dashboard, visible in ${returns.join(', ')} ms; rendered again ${renders} times on the server, ${minted} sessions minted there, unused`,
      );
    } finally {
      await server.stop();
    }
  }
});
