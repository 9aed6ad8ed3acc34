import { expect, test, type Page } from '@playwright/test';
import { createRequire } from 'node:module';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { startMockPlatform, type MockPlatform } from '../packages/mock/src/index';
import { developmentTexts, expectDevelopment, expectNoDevelopmentText, expectProduction, type Probe, PROBE } from './support/devChecks';
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

test('next dev (Turbopack) and next dev --webpack: the development checks run, with the long messages', async ({ page }) => {
  test.setTimeout(240_000);
  for (const bundler of [[], ['--webpack']]) {
    rmSync(join(app, '.next'), { recursive: true, force: true });
    const server = await start(platform.origin, ['dev', ...bundler]);
    try {
      expectDevelopment(await probeOf(page, `${server.origin}/probe`));
    } finally {
      await server.stop();
    }
  }
});
