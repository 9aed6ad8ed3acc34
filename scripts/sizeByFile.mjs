// What each source file of the core contributes to `embedDashboard`'s production bundle, as
// scripts/size.mjs measures it (production build, minified with terser, gzipped at level 9):
//
//   node scripts/sizeByFile.mjs                # the working tree
//   node scripts/sizeByFile.mjs 05fe50c        # a commit (its packages/core/src)
//   node scripts/sizeByFile.mjs --script-tag   # the production script tag of the working tree
//                                              # (packages/element/rollup.config.mjs's build: the
//                                              # element's files, then the core's as `core/…`)
//
// Each byte of the minified bundle is attributed, through the source map, to the source file
// (and line) it came from. Two figures per file: its minified bytes, and its marginal gzip cost,
// the gzip size of the whole bundle minus that of the bundle without that file's bytes (the
// compressed bytes the file adds, given everything else; the marginal costs add up to less than
// the whole, as a file's text also compresses what other files repeat). Bytes the map gives to
// no line (the glue between modules) are counted as "(no source)".
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { rollup } from 'rollup';
import esbuild from 'rollup-plugin-esbuild';
import terser from '@rollup/plugin-terser';
import { devFlag, mangleInternals } from './rollup.mjs';

const root = resolve(import.meta.dirname, '..');
const NO_SOURCE = '(no source)';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes one segment of a source map's `mappings` (base64 VLQ) into its numbers. */
function decodeSegment(segment) {
  const numbers = [];
  let value = 0;
  let shift = 0;
  for (const character of segment) {
    const digit = BASE64.indexOf(character);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    const negative = value & 1;
    value >>>= 1;
    numbers.push(negative ? -value : value);
    value = 0;
    shift = 0;
  }
  return numbers;
}

/**
 * For each line of generated code, its segments as absolute positions:
 * `[generatedColumn, sourceIndex, sourceLine]` (a segment without a source has only the column).
 */
function decodeMappings(mappings) {
  // (Source columns and names are not needed here: only the source and line are kept.)
  let sourceIndex = 0;
  let sourceLine = 0;
  return mappings.split(';').map((line) => {
    let column = 0;
    return line
      .split(',')
      .filter(Boolean)
      .map((segment) => {
        const numbers = decodeSegment(segment);
        column += numbers[0];
        if (numbers.length === 1) return [column];
        sourceIndex += numbers[1];
        sourceLine += numbers[2];
        return [column, sourceIndex, sourceLine];
      });
  });
}

/** The sources of the core at `commit` in a temporary folder (the caller removes it), or the working tree's. */
function coreSources(commit) {
  if (!commit) return { dir: join(root, 'packages/core/src'), cleanup: () => {} };
  const folder = mkdtempSync(join(tmpdir(), 'size-by-file-'));
  const archive = execFileSync('git', ['archive', commit, 'packages/core/src'], { cwd: root });
  execFileSync('tar', ['-x', '-C', folder], { input: archive });
  return { dir: join(folder, 'packages/core/src'), cleanup: () => rmSync(folder, { recursive: true, force: true }) };
}

/**
 * Bundles `embedDashboard` from the core sources in `dir` as a host's production build does, and
 * attributes each byte of the minified code to its source file and line.
 * @returns the code, and for each byte `[file, line]` (line 1-based) or `null`
 */
export async function attributedBundle(dir) {
  const entry = join(dir, '..', `size-entry-${process.pid}.ts`);
  writeFileSync(entry, `export { embedDashboard } from './src/index';`);
  try {
    return await attributed({ input: entry }, { format: 'es' });
  } finally {
    rmSync(entry, { force: true });
  }
}

/**
 * The production script tag (`platform-embed.min.js`) as packages/element/rollup.config.mjs builds
 * it, each byte attributed to its file and line; the core's files are named `core/<file>`.
 */
export async function attributedScriptTag() {
  const core = join(root, 'packages/core/src');
  return attributed(
    {
      input: join(root, 'packages/element/src/global.ts'),
      plugins: [{ name: 'core-source', resolveId: (id) => (id === '@platform-embed/core' ? join(core, 'index.ts') : null) }],
    },
    { format: 'iife', name: 'PlatformEmbed', exports: 'default' },
    {
      name: (source) => (source.startsWith(core) ? `core/${basename(source)}` : basename(source)),
      // (As packages/element/rollup.config.mjs minifies it.)
      passes: 3,
    },
  );
}

/**
 * Bundles `options.input` in production, shortens its internal names (mangleInternals), minifies it with terser (`passes` passes) and attributes
 * each byte to `[file, line]` (`file` is `name` of the source's path), or `null`.
 */
async function attributed(options, output, { name = (source) => basename(source), passes = 2 } = {}) {
  const build = await rollup({
    ...options,
    plugins: [
      ...(options.plugins ?? []),
      devFlag('false'),
      esbuild({ target: 'es2022', tsconfig: join(root, 'tsconfig.base.json'), sourceMap: true }),
    ],
    onwarn: () => {},
  });
  // As the production builds ship it: internal names shortened, then minified.
  const plugins = [mangleInternals(), terser({ compress: { passes }, format: { comments: false }, sourceMap: true })];
  const { output: chunks } = await build.generate({ ...output, sourcemap: true, plugins });
  const { code, map } = chunks[0];
  // (Sources are relative to the output file, here the working directory.)
  const files = map.sources.map((source) => name(resolve(source)));
  const owners = new Array(code.length).fill(null);
  const lines = decodeMappings(map.mappings);
  let offset = 0;
  code.split('\n').forEach((text, index) => {
    const segments = lines[index] ?? [];
    segments.forEach((segment, i) => {
      if (segment.length === 1) return;
      const end = i + 1 < segments.length ? segments[i + 1][0] : text.length;
      const owner = [files[segment[1]], segment[2] + 1];
      for (let column = segment[0]; column < end; column++) owners[offset + column] = owner;
    });
    offset += text.length + 1;
  });
  return { code, owners };
}

const gzipSize = (text) => gzipSync(text, { level: 9 }).length;

/**
 * The minified bytes and marginal gzip cost of each group of bytes, `groupOf(file, line)` naming
 * the group of a byte (`null` for bytes without a source).
 */
export function contributions({ code, owners }, groupOf = (file) => file) {
  const groups = new Map();
  owners.forEach((owner, index) => {
    const group = owner ? groupOf(owner[0], owner[1]) : NO_SOURCE;
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(index);
  });
  const whole = gzipSize(code);
  const rows = [...groups].map(([group, indexes]) => {
    const removed = new Set(indexes);
    const rest = [...code].filter((_, index) => !removed.has(index)).join('');
    return { group, minified: indexes.length, gzip: whole - gzipSize(rest) };
  });
  rows.sort((a, b) => b.minified - a.minified);
  return { whole, minified: code.length, rows };
}

async function main() {
  if (process.argv[2] === '--script-tag') {
    const { whole, minified, rows } = contributions(await attributedScriptTag());
    console.log(`the script tag of the working tree: ${minified} B minified, ${whole} B min+gzip\n`);
    const element = rows.filter((row) => !row.group.startsWith('core/'));
    const sum = (list, key) => list.reduce((total, row) => total + row[key], 0);
    console.log(`${'file'.padEnd(27)} ${'minified'.padStart(9)} ${'marginal gzip'.padStart(14)}`);
    for (const row of rows) console.log(`${row.group.padEnd(27)} ${`${row.minified} B`.padStart(9)} ${`${row.gzip} B`.padStart(14)}`);
    console.log(`\nthe element's files: ${sum(element, 'minified')} B minified, ${sum(element, 'gzip')} B marginal gzip (sum)`);
    return;
  }
  const commit = process.argv[2];
  const { dir, cleanup } = coreSources(commit);
  try {
    const { whole, minified, rows } = contributions(await attributedBundle(dir));
    console.log(`embedDashboard at ${commit ?? 'the working tree'}: ${minified} B minified, ${whole} B min+gzip\n`);
    console.log(`${'file'.padEnd(22)} ${'minified'.padStart(9)} ${'marginal gzip'.padStart(14)}`);
    for (const row of rows) console.log(`${row.group.padEnd(22)} ${`${row.minified} B`.padStart(9)} ${`${row.gzip} B`.padStart(14)}`);
  } finally {
    cleanup();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
