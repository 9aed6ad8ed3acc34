import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockPlatform, type MockPlatform } from '../packages/mock/src/index';
import { developmentTexts, expectNoDevelopmentText } from './support/devChecks';
import { checkGuide, platformEnv, readGuide, type Guide } from './support/guides';
import { freePort, runNode, scaffold, startNode, writeFiles, type Scaffold } from './support/scaffold';

// The guides of pages without a framework, as written: docs/guide/html.md (the script tag and
// `<platform-dashboard>`, served by the guide's Node server, which serves the development script
// unless NODE_ENV is production) and docs/guide/webpack.md (`embedDashboard` bundled by webpack 5,
// `--mode development` and `--mode production`). Each in a folder as `npm init -y` and
// `npm pkg set type=module` leave it, with our packed packages, driven by checkGuide. The pages
// are tabs of one page (`#sales`, `#settings`): signed out, the viewer reloads it.

/** What `npm init -y && npm pkg set type=module` writes. */
const PACKAGE = { 'package.json': JSON.stringify({ name: 'sales-page', version: '1.0.0', type: 'module' }, null, 2) };

let fresh: Scaffold;
let platform: MockPlatform;
let devTexts: string[];

test.beforeAll(async () => {
  test.setTimeout(600_000);
  fresh = scaffold();
  devTexts = developmentTexts(fresh);
  platform = await startMockPlatform({ host: 'localhost' });
});
test.afterAll(async () => platform?.close());

/** Starts the guide's server.mjs on a free port of 127.0.0.1. */
async function serve(app: string, nodeEnv: 'development' | 'production') {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startNode(join(app, 'server.mjs'), [], {
    cwd: app,
    url: `${origin}/`,
    env: { ...platformEnv(platform), PORT: String(port), NODE_ENV: nodeEnv },
  });
  return { ...server, origin };
}

const pageOf = { dashboard: '/', start: '/#settings', afterSignOut: 'reload' } as const;

test.describe('docs/guide/html.md', () => {
  let guide: Guide;
  let app: string;
  test.beforeAll(() => {
    guide = readGuide('html', platform.origin);
    app = fresh.app('html');
    writeFiles(app, PACKAGE);
    guide.writeTo(app);
  });

  for (const mode of ['development', 'production'] as const) {
    test(`NODE_ENV=${mode}: the guide runs as written, with the ${mode} script`, async ({ page }) => {
      const server = await serve(app, mode);
      try {
        const script = await (await fetch(`${server.origin}/platform-embed.js`)).text();
        if (mode === 'production') expectNoDevelopmentText(script, devTexts);
        else expect(devTexts.filter((text) => script.includes(text)).length).toBeGreaterThan(devTexts.length / 2);
        await checkGuide(page, { guide, platform, origin: server.origin, output: server.output, ...pageOf });
      } finally {
        await server.stop();
      }
    });
  }
});

test.describe('docs/guide/webpack.md', () => {
  let guide: Guide;
  let app: string;
  test.beforeAll(() => {
    guide = readGuide('webpack', platform.origin);
    app = fresh.app('webpack');
    writeFiles(app, PACKAGE);
    guide.writeTo(app);
  });

  for (const mode of ['development', 'production'] as const) {
    test(`webpack --mode ${mode}: the guide runs as written, with the SDK's ${mode} build`, async ({ page }) => {
      test.setTimeout(120_000);
      runNode(fresh.file('webpack-cli', 'bin/cli.js'), ['--mode', mode], { cwd: app });
      const bundle = readFileSync(join(app, 'dist/main.js'), 'utf8');
      if (mode === 'production') expectNoDevelopmentText(bundle, devTexts);
      else expect(devTexts.filter((text) => bundle.includes(text)).length).toBeGreaterThan(devTexts.length / 2);
      const server = await serve(app, mode);
      try {
        await checkGuide(page, { guide, platform, origin: server.origin, output: server.output, ...pageOf });
      } finally {
        await server.stop();
      }
    });
  }
});
