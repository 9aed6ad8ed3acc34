// What each part of the SDK costs (min+gzip, production), measured by removal: each row builds
// the shipped bundles from a copy of the sources with that part taken out (a few text edits,
// listed in PARTS), bundled, minified and gzipped as the packages' builds and scripts/size.mjs
// do, and prints what the removal saved. Run after edits to the controller to keep
// docs/size-budget.md honest:
//
//   node scripts/sizeAblation.mjs           # the table
//   node scripts/sizeAblation.mjs --check   # only that every edit still finds its text (fast; a unit test runs it)
//   node scripts/sizeAblation.mjs --write   # the table, also written into docs/size-budget.md (between
//                                           # its `<!-- ablation -->` and `<!-- /ablation -->` markers)
//
// So that a restructuring cannot break a row silently:
// - an edit names a piece of text, never a file: it is looked for in every source file of the
//   core and the element, and must occur exactly once (a part that moved to another file is
//   still found; one that was renamed or removed stops the run, naming the text);
// - every variant is run before it is measured: bundled again unminified and loaded in jsdom, an
//   embed must mount, become ready, send an action, and a binding must mount and unmount (a
//   removal that broke the SDK would otherwise read as a cheap part);
// - a removal that saves nothing is reported as an error (its text no longer does what the
//   row says).
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { rollup } from 'rollup';
import esbuild from 'rollup-plugin-esbuild';
import terser from '@rollup/plugin-terser';
import { devFlag, mangleInternals } from './rollup.mjs';

const root = resolve(import.meta.dirname, '..');
const PACKAGES = ['core', 'element'];

/**
 * The parts, each with the edits that take it out: `[text, replacement]`, where `text` occurs
 * exactly once in the sources of the core and the element. Keep every variant a working SDK:
 * take out the feature, not what the rest calls.
 */
export const PARTS = {
  // (The update stays, as a function that does nothing: the keeper's adoption calls it.)
  'update() and what it plans from the option tables (planUpdate)': [
    ['  c._update = (partial) => {\n', '  c._update = () => {};\n  const unused = (partial: Partial<AnyOptions>) => {\n'],
  ],
  'keep-alive, parking, preload (parking.ts)': [
    ['const adopted = adopter?.(surface, options as AnyOptions);', 'const adopted = undefined;'],
    [
      'export function createKeeper(c: Keeping): void {\n',
      // A keeping that keeps nothing: each operation does nothing and answers nothing.
      'export function createKeeper(c: Keeping): void {\n  c._away = c._shown = c._leave = () => undefined as never;\n  return;\n',
    ],
    // Nothing is stowed or parked (what the bindings and preload() call).
    ['const stowIn = (c: Keeping, place?: HTMLElement) => {\n', 'const stowIn = (c: Keeping, place?: HTMLElement) => {\n  return;\n'],
    ['  if (!c) return false;\n', '  return false;\n'],
    [' preload,', ''],
    ["export { configureParking, parkedCount, releaseEmbeds, type ParkingLimits } from './parking';", ''],
  ],
  'the session Response read (status, Retry-After, the route’s message)': [
    ["Object.prototype.toString.call(result) == '[object Response]'", 'false'],
  ],
  'the page-wide rate-limit gate': [['await afterWait(() =>', 'await ((call: () => Promise<unknown>) => call())(() =>']],
  'one session record per page (Symbol.for registry) instead of per copy': [
    [
      'export function pageRecord(report?: (diagnostic: Diagnostic) => void): PageRecord {\n',
      'export function pageRecord(report?: (diagnostic: Diagnostic) => void): PageRecord {\n  return (own ??= created(new Map()));\n',
    ],
  ],
  'opaque-origin refusal': [['      refuseOpaqueOrigin();\n', '']],
  'checks in every build (ids, timeouts, retry, sandbox)': [['  checkAlways(surface, o);\n', '']],
  'hidden is not gone (binding: a hidden container keeps its embed)': [
    ['if (!container || !hidden(container)) return drop();', 'return drop();'],
  ],
  'lazy loading (IntersectionObserver)': [
    ["if (seen || c._options.loading != 'lazy' || typeof IntersectionObserver == 'undefined') return start();", 'return start();'],
  ],
  'retries (backoff, offline and hidden-tab waits)': [
    ["if (!renewable || typeof session != 'function' || attempt >= max) return false;", 'return false;'],
  ],
  'CSP detection': [['      watchPolicy(c);\n', '']],
  'validation of incoming messages (envelope and payload)': [["if (!isPlainObject(data)) return 'not an object';", 'return;']],
  'validation of actions (the engine stays for events)': [
    ["return [problem || (isPlainObject(copy) ? check!(copy) : 'payload must be an object'), copy];", 'return [problem, copy];'],
  ],
  'the ready timeout': [
    ['const watchReady = (c: Attempt, mounted: Frame) => {\n', 'const watchReady = (c: Attempt, mounted: Frame) => {\n  return;\n'],
  ],
  'the session call timeout': [['const ms = clampTimeout(c._options.sessionTimeout ?? SESSION_TIMEOUT);', 'const ms = 0;']],
  'replay of the kept state after ready': [
    ['    _drain(): ActionMessage[] {\n', '    _drain(): ActionMessage[] {\n      return pending.splice(0);\n'],
  ],
  'debug logging': [['const { debug } = c._options;', 'const debug = false as boolean | Function;']],
  'the action helpers (setColorScheme, ...; send stays)': [['    ...actionHelpers(send),\n', '']],
};

/** The bundles measured: what a host's production build ships. */
const BUNDLES = {
  embedDashboard: { entry: `export { embedDashboard } from './core/src/index';` },
  // As packages/element/rollup.config.mjs builds platform-embed.min.js.
  'script tag': { input: 'element/src/global.ts', format: 'iife', exports: 'default', name: 'PlatformEmbed' },
};

/** The source files of the packages measured, as a map of path (`core/src/embed.ts`) to text. */
export function readSources(packagesDir = join(root, 'packages')) {
  const files = new Map();
  for (const name of PACKAGES) {
    const dir = join(packagesDir, name, 'src');
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
      const path = join(entry.parentPath, entry.name);
      files.set(relative(packagesDir, path), readFileSync(path, 'utf8'));
    }
  }
  return files;
}

function countOccurrences(text, piece) {
  let count = 0;
  for (let at = text.indexOf(piece); at !== -1; at = text.indexOf(piece, at + piece.length)) count++;
  return count;
}

/**
 * The sources with `edits` applied.
 * @throws when a text does not occur exactly once in all the sources together
 */
export function applyEdits(sources, edits) {
  const edited = new Map(sources);
  for (const [text, replacement] of edits) {
    const holders = [...edited].filter(([, code]) => code.includes(text));
    const occurrences = holders.reduce((sum, [, code]) => sum + countOccurrences(code, text), 0);
    if (occurrences !== 1) {
      const where = holders.map(([path]) => path).join(', ') || 'no source file';
      throw new Error(`the edit's text occurs ${occurrences} times (in ${where}), not once:\n${text}`);
    }
    const [path, code] = holders[0];
    edited.set(
      path,
      code.replace(text, () => replacement),
    );
  }
  return edited;
}

function writeSources(sources) {
  const dir = mkdtempSync(join(tmpdir(), 'ablation-'));
  for (const [path, code] of sources) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, code);
  }
  return dir;
}

async function bundle(
  dir,
  { entry, input, format = 'es', exports = 'named', name = 'Bundle' },
  { minify = true, development = false } = {},
) {
  const entryPath = join(dir, input ?? 'entry.ts');
  if (entry) writeFileSync(entryPath, entry);
  const build = await rollup({
    input: entryPath,
    plugins: [
      {
        name: 'core-source',
        resolveId: (id) => (id === '@platform-embed/core' ? join(dir, 'core/src/index.ts') : null),
      },
      devFlag(String(development)),
      esbuild({ target: 'es2022', tsconfig: join(root, 'tsconfig.base.json') }),
    ],
    onwarn: () => {},
  });
  // As the packages' builds ship it: internal names shortened (the smoke test runs them so too), then minified.
  const plugins = [mangleInternals(), ...(minify ? [terser({ compress: { passes: 2 }, format: { comments: false } })] : [])];
  const { output } = await build.generate({ format, name, exports, plugins });
  return output[0].code;
}

const gzipSize = (code) => gzipSync(code, { level: 9 }).length;

/**
 * Loads the variant's SDK in jsdom and uses it as a host would; throws when it does not work.
 * Only what every variant keeps is asked for: a mount, `ready`, an action sent after it, and a
 * binding that mounts and lets go.
 */
async function smokeTest(dir) {
  const code = await bundle(
    dir,
    { entry: `export { embedDashboard, createBinding } from './core/src/index';`, format: 'iife' },
    { minify: false },
  );
  const { JSDOM } = await import(pathToFileURL(join(root, 'node_modules/jsdom/lib/api.js')).href);
  const dom = new JSDOM('<!doctype html><div id="a"></div><div id="b"></div>', {
    url: 'https://host.example/',
    runScripts: 'outside-only',
  });
  const { window } = dom;
  try {
    window.eval(code);
    const { embedDashboard, createBinding } = window.Bundle;
    const baseUrl = 'https://tenant.example';
    const later = () => new Promise((done) => window.setTimeout(done, 0));

    const handle = embedDashboard({ container: '#a', baseUrl, publicId: 'sales', session: () => 'session-1' });
    await later();
    const iframe = window.document.querySelector('#a iframe');
    if (!iframe || !iframe.src.includes('/embed/dashboard/sales')) throw new Error('no iframe was mounted');
    const posted = [];
    iframe.contentWindow.postMessage = (message) => posted.push(message);
    const ready = { embedTenant: 'acme', deploymentId: 7, mode: 'signed', surface: 'dashboard' };
    const data = {
      source: 'platform-embed',
      direction: 'event',
      type: 'platform:event:ready',
      payload: ready,
      timestamp: 1,
      surface: 'dashboard',
    };
    window.dispatchEvent(new window.MessageEvent('message', { data, origin: baseUrl, source: iframe.contentWindow }));
    if (handle.getState().status !== 'ready') throw new Error(`the embed is ${handle.getState().status}, not ready`);
    handle.send('refresh');
    if (!posted.some((message) => message.type === 'platform:action:refresh')) throw new Error('an action sent after ready was not posted');
    handle.destroy();

    const binding = createBinding();
    binding.mount(window.document.querySelector('#b'), { surface: 'dashboard', baseUrl, publicId: 'costs', session: () => 'session-2' });
    await later();
    if (!window.document.querySelector('#b iframe')) throw new Error('the binding mounted no iframe');
    binding.unmount();
    await later();
    if (binding.getState().status !== 'destroyed') throw new Error('the binding did not let its embed go');
  } finally {
    window.close();
  }
}

/** Measures every bundle of the sources (after the smoke test), in bytes min+gzip. */
export async function measure(sources) {
  const dir = writeSources(sources);
  try {
    await smokeTest(dir);
    const sizes = {};
    for (const [name, spec] of Object.entries(BUNDLES)) sizes[name] = gzipSize(await bundle(dir, spec));
    return sizes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const sources = readSources();
  const variants = Object.entries(PARTS).map(([name, edits]) => [name, applyEdits(sources, edits)]);
  if (process.argv.includes('--check')) {
    console.log(`every edit of the ${variants.length} parts finds its text exactly once`);
    return;
  }
  const whole = await measure(sources);
  const names = Object.keys(BUNDLES);
  console.log(`production, min+gzip: ${names.map((name) => `${name} ${whole[name]} B`).join(', ')}\n`);
  const width = Math.max(...variants.map(([name]) => name.length));
  console.log(`${'part removed'.padEnd(width)}  ${names.map((name) => `${name} saves`.padStart(22)).join('')}`);
  const failures = [];
  const rows = [];
  for (const [name, variant] of variants) {
    const sizes = await measure(variant);
    const savings = names.map((bundleName) => whole[bundleName] - sizes[bundleName]);
    console.log(`${name.padEnd(width)}  ${savings.map((saved) => `${saved} B`.padStart(22)).join('')}`);
    if (savings.every((saved) => saved <= 0)) failures.push(name);
    rows.push([name, ...savings]);
  }
  if (failures.length > 0) {
    console.error(`\nThese removals saved nothing: their edits no longer take the part out.\n- ${failures.join('\n- ')}`);
    process.exitCode = 1;
  } else if (process.argv.includes('--write')) await writeTable(whole, names, rows);
}

/** Writes the table into docs/size-budget.md, between its ablation markers. */
async function writeTable(whole, names, rows) {
  const file = join(root, 'docs/size-budget.md');
  const [start, end] = ['<!-- ablation -->', '<!-- /ablation -->'];
  const text = readFileSync(file, 'utf8');
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) throw new Error(`docs/size-budget.md has no ${start} ... ${end} block`);
  const bytes = (n) => `${n.toLocaleString('en')} B`;
  const table = [
    `(\`node scripts/sizeAblation.mjs --write\`; the whole, production min+gzip: ${names.map((name) => `${name} ${bytes(whole[name])}`).join(', ')}.)`,
    '',
    `| part removed | ${names.map((name) => `${name} saves`).join(' | ')} |`,
    `| --- | ${names.map(() => '---:').join(' | ')} |`,
    ...rows.map(([name, ...savings]) => `| ${name} | ${savings.map(bytes).join(' | ')} |`),
  ].join('\n');
  const written = `${text.slice(0, from + start.length)}\n\n${table}\n\n${text.slice(to)}`;
  // (Formatted as `pnpm lint` checks it.)
  const prettier = await import('prettier');
  writeFileSync(file, await prettier.format(written, { ...(await prettier.resolveConfig(file)), filepath: file }));
  console.log(`\nwritten into ${relative(root, file)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
