import { expect, test } from '@playwright/test';
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { startMockPlatform, type MockPlatform } from '../packages/mock/src/index';
import { developmentTexts, expectNoDevelopmentText } from './support/devChecks';
import { checkGuide, platformEnv, readGuide, type Guide } from './support/guides';
import { freePort, runNode, scaffold, startNode, type Scaffold } from './support/scaffold';

// The Vite guides as written (docs/guide/vite-react.md, docs/guide/vite-vue.md): `create-vite`'s
// react-ts and vue-ts templates with the guide's files over them and our packed packages, run by
// `vite` (development) and by `vite preview` after the template's own build (`tsc -b` or
// `vue-tsc -b`, then `vite build`: production), each driven by checkGuide. The session route is
// the guide's Vite plugin, in both servers.

const root = resolve(import.meta.dirname, '..');
const createVite = join(dirname(createRequire(join(root, 'e2e/package.json')).resolve('create-vite/package.json')), 'index.js');

const GUIDES = [
  { guide: 'vite-react', template: 'react-ts', typecheck: ['typescript', 'bin/tsc'] },
  { guide: 'vite-vue', template: 'vue-ts', typecheck: ['vue-tsc', 'bin/vue-tsc.js'] },
] as const;

let fresh: Scaffold;
let platform: MockPlatform;

test.beforeAll(async () => {
  test.setTimeout(600_000);
  fresh = scaffold();
  platform = await startMockPlatform({ host: 'localhost' });
});
test.afterAll(async () => platform?.close());

for (const { guide: name, template, typecheck } of GUIDES) {
  test.describe(`docs/guide/${name}.md`, () => {
    test.describe.configure({ mode: 'serial' });
    let guide: Guide;
    let app: string;
    const vite = () => fresh.file('vite', 'bin/vite.js');
    /** Starts `vite` or `vite preview` on a free port of 127.0.0.1. */
    const serve = async (command: string[]) => {
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      const server = await startNode(vite(), [...command, '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
        cwd: app,
        url: `${origin}/`,
        env: platformEnv(platform),
      });
      return { ...server, origin };
    };

    test.beforeAll(() => {
      guide = readGuide(name, platform.origin);
      const parent = fresh.app(name);
      runNode(createVite, ['sales-app', '--template', template, '--no-interactive', '--no-immediate'], { cwd: parent });
      app = join(parent, 'sales-app');
      guide.writeTo(app);
    });

    test('vite (development): the guide runs as written', async ({ page }) => {
      test.setTimeout(120_000);
      const server = await serve([]);
      try {
        // (Vite bundles the dependencies it found at the first request; one found later would
        // reload the page, which is not quiet.)
        const quiet = /\[vite\] \(client\) \[optimizer\] bundling dependencies\.\.\.$/;
        await checkGuide(page, { guide, platform, origin: server.origin, output: server.output, quiet });
      } finally {
        await server.stop();
      }
    });

    test(`${typecheck[0] === 'typescript' ? 'tsc' : 'vue-tsc'} -b, vite build and vite preview (production): the guide runs as written; no development text in the bundle`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      // The template's build script, as `npm run build` runs it.
      runNode(fresh.file(typecheck[0], typecheck[1]), ['-b'], { cwd: app });
      runNode(vite(), ['build', '--logLevel', 'warn'], { cwd: app });
      const assets = join(app, 'dist/assets');
      const bundle = readdirSync(assets)
        .filter((file) => file.endsWith('.js'))
        .map((file) => readFileSync(join(assets, file), 'utf8'))
        .join('\n');
      expect(bundle).toContain('platform-embed');
      expectNoDevelopmentText(bundle, developmentTexts(fresh));
      const server = await serve(['preview']);
      try {
        await checkGuide(page, { guide, platform, origin: server.origin, output: server.output });
      } finally {
        await server.stop();
      }
    });
  });
}
