import { build, type BuildOptions } from 'esbuild';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const apps = resolve(import.meta.dirname, '../apps');

// The built packages, as a user installs them (dist only).
const BUILT_PACKAGES = {
  '@platform-embed/core': join(root, 'packages/core/dist/index.mjs'),
  '@platform-embed/react': join(root, 'packages/react/dist/index.mjs'),
  '@platform-embed/vue': join(root, 'packages/vue/dist/index.mjs'),
};
// React 18 (compat/react18) for a second bundle of the same fixture; real paths, so react-dom finds the same copy.
const REACT_18 = {
  react: realpathSync(join(root, 'compat/react18/node_modules/react')),
  'react-dom': realpathSync(join(root, 'compat/react18/node_modules/react-dom')),
};

/** The fixture bundles: `client` files for the browser (IIFE, served by the host), `render` functions for the server side. */
export interface Fixtures {
  /** Removes the bundles (a temporary folder). */
  remove(): void;
  /** Folder of the browser bundles: `react19.js`, `react18.js`, `vue.js`. */
  clientDir: string;
  /** Server rendering with React 19, React 18 and Vue, as a Node server would do it. */
  render: {
    react19: (props: object) => string;
    react18: (props: object) => string;
    vue: (props: object) => Promise<string>;
  };
  /** React's versions inside the server bundles, to prove which React each one holds. */
  serverReactVersions: { react19: string; react18: string };
}

/**
 * Bundles the fixture apps of e2e/apps with esbuild against the built packages, in development
 * mode (`process.env.NODE_ENV` is "development", so React's StrictMode double-invokes effects
 * and both frameworks run their development builds, as under `next dev` or `vite`).
 */
export async function bundleFixtures(): Promise<Fixtures> {
  const out = mkdtempSync(join(tmpdir(), 'platform-embed-bindings-'));
  const common: BuildOptions = {
    bundle: true,
    logLevel: 'warning',
    jsx: 'automatic',
    define: {
      'process.env.NODE_ENV': '"development"',
      __VUE_OPTIONS_API__: 'true',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
  };
  const browser: BuildOptions = { ...common, platform: 'browser', format: 'iife', target: 'es2022' };
  // CommonJS for Node, so the frameworks' CommonJS server builds may require Node's modules.
  const server: BuildOptions = { ...common, platform: 'node', format: 'cjs', target: 'node20' };
  await Promise.all([
    build({ ...browser, entryPoints: [join(apps, 'reactClient.tsx')], outfile: join(out, 'client/react19.js'), alias: BUILT_PACKAGES }),
    build({
      ...browser,
      entryPoints: [join(apps, 'reactClient.tsx')],
      outfile: join(out, 'client/react18.js'),
      alias: { ...BUILT_PACKAGES, ...REACT_18 },
    }),
    build({ ...browser, entryPoints: [join(apps, 'vueClient.ts')], outfile: join(out, 'client/vue.js'), alias: BUILT_PACKAGES }),
    build({ ...server, entryPoints: [join(apps, 'reactServer.tsx')], outfile: join(out, 'server/react19.cjs'), alias: BUILT_PACKAGES }),
    build({
      ...server,
      entryPoints: [join(apps, 'reactServer.tsx')],
      outfile: join(out, 'server/react18.cjs'),
      alias: { ...BUILT_PACKAGES, ...REACT_18 },
    }),
    build({ ...server, entryPoints: [join(apps, 'vueServer.ts')], outfile: join(out, 'server/vue.cjs'), alias: BUILT_PACKAGES }),
  ]);
  const load = createRequire(import.meta.url);
  type ReactServer = { render: (props: object) => string; version: string };
  const react19 = load(join(out, 'server/react19.cjs')) as ReactServer;
  const react18 = load(join(out, 'server/react18.cjs')) as ReactServer;
  const vue = load(join(out, 'server/vue.cjs')) as { render: (props: object) => Promise<string> };
  return {
    remove: () => rmSync(out, { recursive: true, force: true }),
    clientDir: join(out, 'client'),
    render: { react19: react19.render, react18: react18.render, vue: vue.render },
    serverReactVersions: { react19: react19.version, react18: react18.version },
  };
}
