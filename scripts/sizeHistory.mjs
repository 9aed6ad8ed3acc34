// How the shipped sizes grew, commit by commit: for each commit given (default: every commit on
// main's first-parent line since 05fe50c, the last one measured by issue 15), a throwaway git
// worktree is checked out, installed and its core, element and Vue packages built with that
// commit's own build; then the bundles are measured the way scripts/size.mjs measures them today
// (the built packages resolved by name with the `production` export condition and
// `process.env.NODE_ENV` replaced, minified with terser, gzipped at level 9). So a commit from
// before the development/production builds existed is measured as a host's production build saw
// it then. The worktrees are removed afterwards.
//
//   node scripts/sizeHistory.mjs                 # 05fe50c..main, first parent
//   node scripts/sizeHistory.mjs 05fe50c d851aed # just these commits
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rollup } from 'rollup';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';

const repository = resolve(import.meta.dirname, '..');
const FIRST_COMMIT = '05fe50c';

function git(...args) {
  return execFileSync('git', args, { cwd: repository, encoding: 'utf8' }).trim();
}

function commitsToMeasure() {
  const given = process.argv.slice(2);
  if (given.length > 0) return given;
  const since = git('log', '--first-parent', '--reverse', '--format=%h', `${FIRST_COMMIT}..main`).split('\n');
  return [FIRST_COMMIT, ...since];
}

function nodeEnvReplacement(mode) {
  return {
    name: 'node-env',
    transform(code) {
      if (!code.includes('process.env.NODE_ENV')) return null;
      return code.replaceAll('process.env.NODE_ENV', JSON.stringify(mode));
    },
  };
}

// The file a host's production build resolves for `@platform-embed/<name>`: the package's `exports`
// read with the conditions a bundler uses in production (older commits' root package did not
// depend on the packages by name, so they are found in packages/<name>, not in node_modules).
const CONDITIONS = ['production', 'browser', 'import', 'default'];
function pickExport(target) {
  if (typeof target === 'string') return target;
  for (const condition of CONDITIONS) if (condition in target) return pickExport(target[condition]);
  return null;
}
function packageEntry(checkout, id) {
  const match = /^@platform-embed\/([^/]+)$/.exec(id);
  if (!match) return null;
  const folder = join(checkout, 'packages', match[1]);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  const target = manifest.exports ? pickExport(manifest.exports['.']) : manifest.module;
  return join(folder, target);
}

/** Bundles `entryCode` (importing packages by name) as a host's production build in `checkout`. */
async function bundleFromPackages(checkout, entryCode, external = []) {
  const entryPath = join(checkout, 'entry.mjs');
  const bundle = await rollup({
    input: entryPath,
    external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
    plugins: [
      {
        name: 'entry',
        resolveId: (id) => (id === entryPath ? id : null),
        load: (id) => (id === entryPath ? entryCode : null),
      },
      {
        name: 'workspace-packages',
        resolveId: (id) => (external.includes(id) ? null : packageEntry(checkout, id)),
      },
      nodeResolve({ browser: true, exportConditions: ['production'] }),
      nodeEnvReplacement('production'),
      terser({ compress: { passes: 2 }, format: { comments: false } }),
    ],
    onwarn(warning) {
      if (warning.code === 'UNRESOLVED_IMPORT') throw new Error(warning.message);
    },
  });
  const { output } = await bundle.generate({ format: 'es' });
  return output[0].code;
}

const gzipSize = (code) => gzipSync(code, { level: 9 }).length;

async function measureCheckout(checkout) {
  const dashboard = await bundleFromPackages(checkout, `export { embedDashboard } from '@platform-embed/core';`);
  const everything = await bundleFromPackages(checkout, `export * from '@platform-embed/core';`);
  const vue = await bundleFromPackages(checkout, `export * from '@platform-embed/vue';`, ['vue', '@platform-embed/core']);
  const scriptTagFile = join(checkout, 'packages/element/dist/platform-embed.min.js');
  return {
    embedDashboard: gzipSize(dashboard),
    embedDashboardMin: dashboard.length,
    everything: gzipSize(everything),
    vue: gzipSize(vue),
    scriptTag: existsSync(scriptTagFile) ? gzipSize(readFileSync(scriptTagFile)) : null,
  };
}

function prepareCheckout(commit) {
  const checkout = mkdtempSync(join(tmpdir(), `size-${commit}-`));
  git('worktree', 'add', '--detach', checkout, commit);
  const run = (command, args) => execFileSync(command, args, { cwd: checkout, stdio: ['ignore', 'ignore', 'inherit'] });
  run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--ignore-scripts']);
  run('pnpm', ['--filter', '@platform-embed/core', '--filter', '@platform-embed/element', '--filter', '@platform-embed/vue', 'build']);
  return checkout;
}

function removeCheckout(checkout) {
  git('worktree', 'remove', '--force', checkout);
  rmSync(checkout, { recursive: true, force: true });
}

const rows = [];
let previous;
for (const commit of commitsToMeasure()) {
  const checkout = prepareCheckout(commit);
  try {
    const sizes = await measureCheckout(checkout);
    const growth = previous ? sizes.embedDashboard - previous.embedDashboard : 0;
    const subject = git('log', '-1', '--format=%s', commit).slice(0, 70);
    rows.push({ commit, ...sizes, growth, subject });
    console.log(JSON.stringify(rows.at(-1)));
    previous = sizes;
  } finally {
    removeCheckout(checkout);
  }
}

console.log('\ncommit   embedDashboard  growth  everything  vue    script tag  subject');
for (const row of rows) {
  const cells = [
    row.commit.padEnd(8),
    `${row.embedDashboard} B`.padStart(14),
    `${row.growth >= 0 ? '+' : ''}${row.growth}`.padStart(6),
    `${row.everything} B`.padStart(10),
    `${row.vue} B`.padStart(6),
    `${row.scriptTag ?? '-'} B`.padStart(10),
    row.subject,
  ];
  console.log(cells.join('  '));
}
