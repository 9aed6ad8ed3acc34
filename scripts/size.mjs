// Prints min+gzip sizes of what a host actually ships, next to each budget.
// Each entry imports the built packages by their names, as a host's code does, and is bundled
// with rollup, resolved as a host's bundler resolves them in each mode (the `production` or
// `development` export condition, as Vite, webpack and rollup's node-resolve do, and
// `process.env.NODE_ENV` replaced), tree-shaken to the named imports, minified with terser and
// gzipped at level 9. Frameworks (and, for adapters, the core) are left out, as the budgets are
// "beyond the core and the framework".
//
//   node scripts/size.mjs [--strict] [--json]
//   --json prints the figures as JSON instead of the table (scripts/figures.mjs writes them into
//   docs/data/sizes.json, which the README and the documentation site show).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import { rollup } from 'rollup';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';

const root = resolve(import.meta.dirname, '..');
const dist = (pkg) => resolve(root, `packages/${pkg}/dist/index.mjs`);
// The Angular Package Format build of @platform-embed/angular (see angularBuild).
const angularDist = resolve(root, 'packages/angular/dist/fesm2022/platform-embed-angular.mjs');
const angularRouterDist = resolve(root, 'packages/angular/dist/fesm2022/platform-embed-angular-router.mjs');
const entries = [
  {
    label: 'core: embedDashboard (all it needs, validators included)',
    pkg: 'core',
    code: `export { embedDashboard } from '@platform-embed/core';`,
    budget: 7500,
  },
  { label: 'core: everything', pkg: 'core', code: `export * from '@platform-embed/core';` },
  {
    label: 'core: parseMessage + createAction only',
    pkg: 'core',
    code: `export { parseMessage, createAction } from '@platform-embed/core';`,
  },
  {
    label: 'react adapter (beyond core and react)',
    pkg: 'react',
    code: `export * from '@platform-embed/react';`,
    budget: 1000,
    external: ['react', 'react-dom', '@platform-embed/core'],
  },
  {
    label: 'vue adapter (beyond core and vue)',
    pkg: 'vue',
    code: `export * from '@platform-embed/vue';`,
    budget: 1100,
    external: ['vue', '@platform-embed/core'],
  },
  {
    label: 'angular adapter: one surface with its templates (beyond core and angular)',
    pkg: 'angular',
    file: angularDist,
    code: `export { PlatformDashboard, PlatformEmbedLoading, PlatformEmbedError } from '${angularDist}';`,
    budget: 1500,
    external: ['@angular', '@platform-embed/core'],
    angular: true,
  },
  {
    label: 'angular adapter: everything',
    pkg: 'angular',
    file: angularDist,
    code: `export * from '${angularDist}';`,
    external: ['@angular', '@platform-embed/core'],
    angular: true,
  },
  {
    label: 'angular router: keepEmbeds (beyond the adapter, core and angular)',
    pkg: 'angular',
    file: angularRouterDist,
    code: `export { keepEmbeds } from '${angularRouterDist}';`,
    external: ['@angular', '@platform-embed/core', '@platform-embed/angular'],
    angular: true,
  },
  { label: 'server client (node/edge)', pkg: 'server', code: `export * from '@platform-embed/server';` },
  {
    label: 'script tag bundle (everything)',
    pkg: 'element',
    file: resolve(root, 'packages/element/dist/platform-embed.min.js'),
    devFile: resolve(root, 'packages/element/dist/platform-embed.js'),
    budget: 10000,
  },
];

// A host's bundler resolves the packages with its mode's export condition (the production build
// has no development-only check or message, see packages/core/src/env.d.ts) and replaces
// `process.env.NODE_ENV` (read by packages built once for both modes).
const nodeEnv = (mode) => ({
  name: 'node-env',
  transform: (code) => (code.includes('process.env.NODE_ENV') ? code.replaceAll('process.env.NODE_ENV', JSON.stringify(mode)) : null),
});

/**
 * An Angular app's production build of a partially compiled package (APF), as the Angular CLI
 * makes it: Angular's linker turns the declarations into the definitions the app ships; each
 * class with static members (its definitions) is wrapped in a pure function, so a component the
 * app does not use is dropped (the CLI's "adjust static class members" step); Angular's
 * development-mode globals (`ngDevMode`, ...) are folded.
 */
async function angularBuild(mode) {
  const from = createRequire(resolve(root, 'packages/angular/package.json'));
  const { transformAsync, types: t } = from('@babel/core');
  const { default: linker } = await import(pathToFileURL(from.resolve('@angular/compiler-cli/linker/babel')).href);
  const { GLOBAL_DEFS_FOR_TERSER_WITH_AOT } = await import(pathToFileURL(from.resolve('@angular/compiler-cli/private/tooling')).href);
  const pureClasses = {
    visitor: {
      ClassDeclaration(path) {
        if (!path.parentPath.isProgram() || !path.node.body.body.some((member) => t.isStaticBlock(member))) return;
        const id = path.node.id;
        const factory = t.arrowFunctionExpression([], t.blockStatement([path.node, t.returnStatement(id)]));
        const call = t.addComment(t.callExpression(factory, []), 'leading', '#__PURE__');
        path.replaceWith(t.variableDeclaration('const', [t.variableDeclarator(t.identifier(id.name), call)]));
        path.skip();
      },
    },
  };
  const link = {
    name: 'angular-linker',
    async transform(code, id) {
      if (!code.includes('ɵɵngDeclare')) return null;
      const options = { filename: id, configFile: false, babelrc: false, sourceMaps: false };
      const linked = await transformAsync(code, { ...options, plugins: [linker] });
      const result = await transformAsync(linked.code, { ...options, plugins: [pureClasses] });
      return { code: result.code, map: null };
    },
  };
  return { link, globals: mode === 'production' ? GLOBAL_DEFS_FOR_TERSER_WITH_AOT : {} };
}

async function measure(entry, mode) {
  if (entry.file && !entry.angular) {
    const file = mode === 'production' ? entry.file : entry.devFile;
    if (!existsSync(file)) return null;
    if (mode === 'production') return readFileSync(file);
    // The development script tag ships unminified; minified here to show what its checks weigh.
    const { minify } = await import('terser');
    return Buffer.from((await minify(readFileSync(file, 'utf8'), { compress: { passes: 2 }, format: { comments: false } })).code);
  }
  if (!existsSync(entry.file ?? dist(entry.pkg))) return null;
  const external = entry.external ?? [];
  const angular = entry.angular ? await angularBuild(mode) : null;
  const bundle = await rollup({
    input: 'entry',
    external: (id) => external.some((e) => id === e || id.startsWith(`${e}/`)),
    plugins: [
      // The entry is a module of the repository's root, which depends on the packages (pnpm links them).
      {
        name: 'entry',
        resolveId: (id) => (id === 'entry' ? resolve(root, 'entry.mjs') : null),
        load: (id) => (id === resolve(root, 'entry.mjs') ? entry.code : null),
      },
      nodeResolve({ browser: true, exportConditions: [mode] }),
      nodeEnv(mode),
      ...(angular ? [angular.link] : []),
      terser({ compress: { passes: 2, global_defs: angular?.globals ?? {} }, format: { comments: false } }),
    ],
    onwarn: () => {},
  });
  const { output } = await bundle.generate({ format: 'es' });
  return Buffer.from(output[0].code);
}

/** Other embed SDKs, min+gzip, measured the same way when these budgets were set (their own builds do not change with ours). */
const COMPARISON = [
  { name: 'Superset SDK', kb: 3.6 },
  { name: 'Looker', kb: 17.5 },
  { name: 'Power BI', kb: 39.8 },
  { name: 'ThoughtSpot', kb: 100.6 },
];

const gzip = (code) => (code ? gzipSync(code, { level: 9 }).length : null);
const rows = [];
const figures = [];
let over = 0;
for (const entry of entries) {
  const production = await measure(entry, 'production');
  const development = await measure(entry, 'development');
  if (!production) {
    rows.push([entry.label, 'not built', '', '', '', '']);
    figures.push({ label: entry.label, notBuilt: true });
    continue;
  }
  const gz = gzip(production);
  const verdict = entry.budget ? (gz <= entry.budget ? 'ok' : 'OVER') : '';
  if (verdict === 'OVER') over++;
  figures.push({
    label: entry.label,
    min: production.length,
    gzip: gz,
    gzipDevelopment: development ? gzip(development) : null,
    budget: entry.budget ?? null,
  });
  rows.push([
    entry.label,
    `${production.length} B`,
    `${gz} B`,
    development ? `${gzip(development)} B` : '',
    entry.budget ? `${entry.budget} B` : '',
    verdict,
  ]);
}
// What Angular weighs where it is used: the main bundle of a fresh `ng new --ssr` app, with and
// without one <platform-embed-dashboard>. Building the app takes minutes, so it is measured by
// scripts/angularWeight.mjs (`--record`) and read here.
const angularWeight = resolve(root, 'docs/angular-weight.json');
const ANGULAR_APP_BUDGET = 8000;
/** The recorded weight in a fresh Angular app (docs/angular-weight.json), or null. */
const angularApp = existsSync(angularWeight) ? JSON.parse(readFileSync(angularWeight, 'utf8')) : null;
if (process.argv.includes('--json')) {
  const app = angularApp && { ...angularApp, budget: ANGULAR_APP_BUDGET };
  console.log(JSON.stringify({ bundles: figures, comparison: COMPARISON, angularApp: app }, null, 2));
  process.exit(0);
}
const head = ['bundle', 'min (production)', 'min+gzip (production)', 'min+gzip (development)', 'budget', ''];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (r) => r.map((c, i) => String(c).padEnd(widths[i])).join('  ');
console.log(line(head));
for (const r of rows) console.log(line(r));
console.log(
  `\nFor comparison (min+gzip, measured the same way): ${COMPARISON.map(({ name, kb }) => `${name} ${kb.toFixed(1)} KB`).join(', ')}.`,
);

if (angularApp) {
  const { measured, angular, addedGzip } = angularApp;
  const { dashboard, templates, core } = addedGzip;
  const verdict = dashboard <= ANGULAR_APP_BUDGET ? 'ok' : 'OVER';
  if (verdict === 'OVER') over++;
  console.log(
    `\nIn a fresh Angular ${angular} app (ng new --ssr, production; scripts/angularWeight.mjs, ${measured}), one <platform-embed-dashboard> adds ` +
      `${dashboard} B gzip to the main bundle (budget ${ANGULAR_APP_BUDGET} B: ${verdict}): the core's share ${core} B, the binding and the ` +
      `Angular code it uses ${dashboard - core} B; with a loading and an error template and an output bound, ${templates} B.`,
  );
}
if (over) {
  console.log(`\n${over} bundle(s) over budget (reported, not a test failure; run with --strict to fail).`);
  if (process.argv.includes('--strict')) process.exitCode = 1;
}
