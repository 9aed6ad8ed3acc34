import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { angularJit } from './packages/angular/test/angularJit.ts';
import type { Plugin } from 'vite';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const pkgs = ['core', 'react', 'vue', 'element', 'server', 'mock'];
// The second entry points first: `@platform-embed/core` would also match `@platform-embed/core/testing`.
const entries = [
  { find: '@platform-embed/core/testing', replacement: here('./packages/core/src/testing/index.ts') },
  { find: '@platform-embed/mock/playwright', replacement: here('./packages/mock/src/playwright.ts') },
];
const workspace = [...entries, ...pkgs.map((p) => ({ find: `@platform-embed/${p}`, replacement: here(`./packages/${p}/src/index.ts`) }))];

const dom = new Set(['core', 'react', 'vue', 'element']);

/**
 * The packages' tests' default timeout (Vitest's is 5 s). The first test of a file pays for its
 * warm-up (the first jsdom iframe, render or Angular compile): 0.2 to 0.9 s in `pnpm test`, up
 * to 2.7 s when the machine's 2 cores also ran other test suites (load 10 to 12). Tests that
 * run longer on purpose say so with their own timeout.
 */
const TEST_TIMEOUT = 15_000;

/** `^18.3.1` → `18.`, `~3.3.13` → `3.3.`: the release line of `name` that `dir`/package.json declares. */
const line = (dir: string, name: string, parts: 1 | 2) => {
  const pkg = JSON.parse(readFileSync(here(`./${dir}/package.json`), 'utf8'));
  const range: string = pkg.devDependencies[name];
  return range.replace(/^[~^]/, '').split('.').slice(0, parts).join('.') + '.';
};

/**
 * The framework copies installed by the workspace package compat/<dir>, for every import of
 * `name` or `name/<subpath>` that Vite resolves (tests, sources, inlined dependencies). The
 * dependencies Node loads itself (@testing-library/react, @vue/test-utils) find the same
 * copies, because pnpm resolved their peers inside that package.
 */
const compat = (dir: string, names: string[]) =>
  names.map((name) => ({ find: new RegExp(`^${name}(?=/|$)`), replacement: here(`./compat/${dir}/node_modules/${name}`) }));

const project = (p: string): TestProjectInlineConfiguration => ({
  resolve: { alias: workspace },
  // The Vue adapter's tests mount a host's single-file component (the README's testing example).
  plugins: p == 'vue' ? [vue()] : [],
  test: {
    name: p,
    root: `./packages/${p}`,
    environment: dom.has(p) ? 'jsdom' : 'node',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: [here('./scripts/vitestSetup.ts')],
    testTimeout: TEST_TIMEOUT,
    // The type tests (test/**/*.test-d.{ts,tsx}: expectTypeOf, @ts-expect-error) are not run here:
    // they are files of tsconfig.json's program, which `pnpm typecheck` checks (tsc -p
    // tsconfig.json), so a failing one fails it; Vitest's typecheck mode ran the same tsc again
    // on each project's type tests.
    // What test/version.test.* asserts: the framework copy each project runs.
    provide: { react: line('.', 'react', 1), vue: line('.', 'vue', 2) },
  },
});

/**
 * The oldest framework line of a peer range, running the adapter's tests again. (The type tests
 * check our types against the root's React 19 / Vue 3.5 type packages, and `pnpm typecheck`
 * against React 18's too, with compat/react18/tsconfig.json.)
 */
const oldest = (p: 'react' | 'vue', dir: string, names: string[], parts: 1 | 2): TestProjectInlineConfiguration => {
  const base = project(p);
  return {
    resolve: { alias: [...compat(dir, names), ...workspace] },
    plugins: base.plugins,
    test: {
      ...base.test,
      name: `${p}@${line(`compat/${dir}`, p, parts).slice(0, -1)}`,
      provide: { ...base.test!.provide, [p]: line(`compat/${dir}`, p, parts) },
    },
  };
};

/**
 * Resolves the imports matching `ids` (with their subpaths, through the packages' `exports`) to
 * the copies the workspace package `dir` installed, for every import Vite resolves; the
 * packages Node loads itself find the same copies, as pnpm resolved their peers there.
 */
const resolveFrom = (dir: string, ids: RegExp): Plugin => {
  const require = createRequire(here(`./${dir}/package.json`));
  return { name: `resolve-from-${dir}`, enforce: 'pre', resolveId: (id) => (ids.test(id) ? require.resolve(id) : null) };
};

/**
 * The Angular binding's tests run against its build (dist: the partially compiled package users
 * install, built by ng-packagr), which Angular's JIT compiler links at run time, as it compiles
 * the test host components (compiled with Angular's JIT transform: packages/angular/test/angularJit.ts).
 * Angular's compiler needs inputs and outputs declared statically, so the sources are generated
 * and compiled by the build: `pnpm --filter @platform-embed/angular build` first (`pnpm test`
 * builds first). Zoneless, and with zone.js; with Angular 21 (the package's own) and again with
 * Angular 20.3 (compat/angular20), the oldest line of its peer range, linking the same build.
 */
const angular = (zone: boolean, compatDir?: string): TestProjectInlineConfiguration => ({
  resolve: {
    alias: [
      { find: /^@platform-embed\/angular$/, replacement: here('./packages/angular/dist/fesm2022/platform-embed-angular.mjs') },
      {
        find: /^@platform-embed\/angular\/router$/,
        replacement: here('./packages/angular/dist/fesm2022/platform-embed-angular-router.mjs'),
      },
      ...workspace,
    ],
  },
  plugins: [angularJit(), ...(compatDir ? [resolveFrom(`compat/${compatDir}`, /^(@angular\/|zone\.js(\/|$))/)] : [])],
  test: {
    name: `${zone ? 'angular+zone.js' : 'angular'}${compatDir ? `@${line(`compat/${compatDir}`, '@angular/core', 1).slice(0, -1)}` : ''}`,
    root: './packages/angular',
    environment: 'jsdom',
    include: zone ? ['test/**/*.zone.test.ts'] : ['test/**/*.test.ts'],
    exclude: zone ? [] : ['test/**/*.zone.test.ts'],
    setupFiles: [here('./scripts/vitestSetup.ts'), here(`./packages/angular/test/${zone ? 'setupZone' : 'setupZoneless'}.ts`)],
    testTimeout: TEST_TIMEOUT,
    provide: { angular: line(compatDir ? `compat/${compatDir}` : 'packages/angular', '@angular/core', 1) },
  },
});

export default defineConfig({
  test: {
    projects: [
      ...pkgs.map(project),
      angular(false),
      angular(true),
      // peer @angular/core ^20 || ^21
      angular(false, 'angular20'),
      angular(true, 'angular20'),
      // peer react ^18 || ^19
      oldest('react', 'react18', ['react', 'react-dom', '@testing-library/react'], 1),
      // peer vue ^3.3
      oldest('vue', 'vue3.3', ['vue', '@vue/server-renderer', '@vue/test-utils'], 2),
      // the repository's own scripts (the README check)
      { test: { name: 'scripts', root: './scripts', environment: 'node', include: ['test/**/*.test.ts'] } },
    ],
  },
});
