import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { angularJit } from './packages/angular/test/angularJit';
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
    typecheck: { enabled: true, include: ['test/**/*.test-d.{ts,tsx}'], tsconfig: '../../tsconfig.json' },
    // What test/version.test.* asserts: the framework copy each project runs.
    provide: { react: line('.', 'react', 1), vue: line('.', 'vue', 2) },
  },
});

/**
 * The oldest framework line of a peer range, running the adapter's tests again. The type tests
 * are not repeated: they check our types against the root's React 19 / Vue 3.5 type packages
 * (and `pnpm typecheck` checks the React ones against React 18's, with compat/react18/tsconfig.json).
 */
const oldest = (p: 'react' | 'vue', dir: string, names: string[], parts: 1 | 2): TestProjectInlineConfiguration => {
  const base = project(p);
  return {
    resolve: { alias: [...compat(dir, names), ...workspace] },
    plugins: base.plugins,
    test: {
      ...base.test,
      name: `${p}@${line(`compat/${dir}`, p, parts).slice(0, -1)}`,
      typecheck: { enabled: false },
      provide: { ...base.test!.provide, [p]: line(`compat/${dir}`, p, parts) },
    },
  };
};

/**
 * The Angular binding's tests run against its build (dist: the partially compiled package users
 * install, built by ng-packagr), which Angular's JIT compiler links at run time, as it compiles
 * the test host components (compiled with Angular's JIT transform: packages/angular/test/angularJit.ts). Angular's compiler needs inputs and outputs declared statically, so the sources are
 * generated and compiled by the build: `pnpm --filter @platform-embed/angular build` first
 * (`pnpm test` builds first). Once without zone.js (zoneless, TestBed's default), once with it.
 */
const angular = (zone: boolean): TestProjectInlineConfiguration => ({
  resolve: {
    alias: [
      { find: /^@platform-embed\/angular$/, replacement: here('./packages/angular/dist/fesm2022/platform-embed-angular.mjs') },
      ...workspace,
    ],
  },
  plugins: [angularJit()],
  test: {
    name: zone ? 'angular+zone.js' : 'angular',
    root: './packages/angular',
    environment: 'jsdom',
    include: zone ? ['test/**/*.zone.test.ts'] : ['test/**/*.test.ts'],
    exclude: zone ? [] : ['test/**/*.zone.test.ts'],
    setupFiles: [
      here('./scripts/vitestSetup.ts'),
      here(zone ? './packages/angular/test/setupZone.ts' : './packages/angular/test/setup.ts'),
    ],
  },
});

export default defineConfig({
  test: {
    projects: [
      ...pkgs.map(project),
      angular(false),
      angular(true),
      // peer react ^18 || ^19
      oldest('react', 'react18', ['react', 'react-dom', '@testing-library/react'], 1),
      // peer vue ^3.3
      oldest('vue', 'vue3.3', ['vue', '@vue/server-renderer', '@vue/test-utils'], 2),
      // the repository's own scripts (the README check)
      { test: { name: 'scripts', root: './scripts', environment: 'node', include: ['test/**/*.test.ts'] } },
    ],
  },
});
