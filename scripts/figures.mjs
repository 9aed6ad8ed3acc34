#!/usr/bin/env node
/*
 * The figures of the README and of the documentation site, generated rather than typed:
 *
 * - sizes: `node scripts/size.mjs --json` (the built packages, as a host's bundler ships them),
 *   written to docs/data/sizes.json;
 * - benchmark figures: bench/results.json, written by `pnpm bench --update` with bench/RESULTS.md,
 *   which is rendered from it (bench/report.mjs).
 *
 * The site reads both files when it is built (docs/.vitepress/data). The README holds a copy of
 * some, between markers (`<!-- figures:NAME ... -->` and `<!-- /figures:NAME -->`), rendered here.
 *
 *   node scripts/figures.mjs            # measures the sizes, writes docs/data/sizes.json, the README's figures and bench/RESULTS.md
 *   node scripts/figures.mjs --no-measure   # the same from docs/data/sizes.json as it is (after `pnpm bench --update`)
 *   node scripts/figures.mjs --check    # fails (exit 1) when any of them differs from what generates it
 *   node scripts/figures.mjs --check --no-measure   # the same, without measuring the sizes again (docs/data/sizes.json taken as it is)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMITTED, format, readResults, renderResults, rowOf } from '../bench/report.mjs';

const root = resolve(import.meta.dirname, '..');
export const FILES = { readme: resolve(root, 'README.md'), sizes: resolve(root, 'docs/data/sizes.json') };

/** The bench rows the README shows (ids of bench/results.json); the site's benchmark page shows them all. */
export const HEADLINE_ROWS = ['1', '3', '4', '5', '7', '8', '9', '10', '11', '11b', '12'];
/** The bundles the README shows besides those with a budget (labels of scripts/size.mjs). */
const EXTRA_BUNDLES = ['core: parseMessage + createAction only'];

const bytes = (n) => `${n.toLocaleString('en')} B`;
const cell = (text) => String(text).replaceAll('|', '\\|');

/** The sizes measured now: scripts/size.mjs's figures (the packages must be built). */
export function measureSizes() {
  const sizes = JSON.parse(execFileSync(process.execPath, [resolve(root, 'scripts/size.mjs'), '--json'], { cwd: root, encoding: 'utf8' }));
  const unbuilt = sizes.bundles.filter((b) => b.notBuilt).map((b) => b.label);
  if (unbuilt.length) throw new Error(`not built: ${unbuilt.join('; ')}. Run \`pnpm build\` first.`);
  return sizes;
}

/** What one Angular component adds to a fresh app's main bundle (docs/angular-weight.json, as size.mjs reports it). */
export function angularAppSentence({ angular, measured, addedGzip, budget }) {
  return (
    `In a fresh Angular ${angular} app (\`ng new --ssr\`, production), one \`<platform-embed-dashboard>\` adds ${bytes(addedGzip.dashboard)} ` +
    `gzip to the main bundle (budget ${bytes(budget)}${addedGzip.dashboard > budget ? ', over' : ''}): the core's share ${bytes(addedGzip.core)}, ` +
    `the binding and the Angular code it uses ${bytes(addedGzip.dashboard - addedGzip.core)} (\`scripts/angularWeight.mjs\`, ${measured}).`
  );
}

/** The README's blocks, by name: their Markdown, rendered from the sizes and the bench results. */
export function readmeBlocks({ sizes, results }) {
  const shown = sizes.bundles.filter((b) => b.budget !== null || EXTRA_BUNDLES.includes(b.label));
  const sizeTable = [
    '| bundle | min+gzip, production | development | budget |',
    '| --- | ---: | ---: | ---: |',
    ...shown.map(
      (b) =>
        `| ${cell(b.label)} | ${bytes(b.gzip)} | ${b.gzipDevelopment === null ? '' : bytes(b.gzipDevelopment)} | ${b.budget === null ? '' : `${bytes(b.budget)}${b.gzip > b.budget ? ' (over)' : ''}`} |`,
    ),
    '',
    ...(sizes.angularApp ? [angularAppSentence(sizes.angularApp), ''] : []),
    `For comparison, measured the same way: ${sizes.comparison.map(({ name, kb }) => `${name} ${kb.toFixed(1)} KB`).join(', ')}.`,
  ];
  const rows = HEADLINE_ROWS.map((id) => rowOf(results, id));
  const benchTable = [
    '| # | benchmark | result | compared with | figure (spread) | target | verdict |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) => `| ${[r.id, r.name, r.result, r.baseline, r.figure, r.target, r.verdict || '(informational)'].map(cell).join(' | ')} |`,
    ),
    '',
    `Measured by \`pnpm bench\` on ${results.generated.slice(0, 10)} (${results.machine.cpus} CPUs, Chromium ${results.browser.version}): \`bench/RESULTS.md\`.`,
  ];
  return { sizes: sizeTable.join('\n'), bench: benchTable.join('\n') };
}

/** `text` with the content between each block's markers replaced; an error for a marker missing. */
export function applyBlocks(text, blocks, file = 'README.md') {
  let out = text;
  for (const [name, body] of Object.entries(blocks)) {
    const open = new RegExp(`(<!-- figures:${name}\\b[^>]*-->\\n)([\\s\\S]*?)(<!-- /figures:${name} -->)`);
    if (!open.test(out))
      throw new Error(`${file} has no figures:${name} block (<!-- figures:${name} ... --> ... <!-- /figures:${name} -->)`);
    out = out.replace(open, (_, start, _old, end) => `${start}\n${body}\n\n${end}`);
  }
  return out;
}

/**
 * The README, RESULTS.md and sizes.json as they must be, from `sizes` and the committed bench
 * results; `readme` another README to render the blocks of (the tests').
 */
export async function generate(sizes, { readme = FILES.readme } = {}) {
  const results = readResults();
  return {
    [FILES.sizes]: await format(JSON.stringify(sizes, null, 2), FILES.sizes),
    [readme]: await format(applyBlocks(readFileSync(readme, 'utf8'), readmeBlocks({ sizes, results })), FILES.readme),
    [COMMITTED.markdown]: await format(renderResults(results), COMMITTED.markdown),
  };
}

/** The first line where two texts differ, for the failure message. */
function firstDifference(actual, expected) {
  const a = actual.split('\n');
  const e = expected.split('\n');
  const i = a.findIndex((line, n) => line !== e[n]);
  const at = i === -1 ? a.length : i;
  return `line ${at + 1}:\n    is:        ${a[at] ?? '(end of file)'}\n    generated: ${e[at] ?? '(end of file)'}`;
}

/** Each file whose content differs from what generates it, with where (`readme`: another README to check, the tests'). */
export async function check({ measure = true, readme = FILES.readme } = {}) {
  const committed = JSON.parse(readFileSync(FILES.sizes, 'utf8'));
  const sizes = measure ? measureSizes() : committed;
  const problems = [];
  if (measure) {
    const before = new Map(committed.bundles.map((b) => [b.label, b]));
    for (const b of sizes.bundles) {
      const old = before.get(b.label);
      if (!old) problems.push(`docs/data/sizes.json has no "${b.label}"`);
      else if (old.gzip !== b.gzip || old.gzipDevelopment !== b.gzipDevelopment || old.min !== b.min || old.budget !== b.budget)
        problems.push(
          `docs/data/sizes.json: "${b.label}" is ${bytes(old.gzip)} (development ${old.gzipDevelopment}), measured now ${bytes(b.gzip)} (development ${b.gzipDevelopment})`,
        );
    }
    for (const label of before.keys())
      if (!sizes.bundles.some((b) => b.label === label))
        problems.push(`docs/data/sizes.json has "${label}", which size.mjs no longer measures`);
  }
  for (const [file, expected] of Object.entries(await generate(sizes, { readme }))) {
    if (file === FILES.sizes && !measure) continue;
    const actual = readFileSync(file, 'utf8');
    if (actual !== expected)
      problems.push(`${relative(root, file)} differs from what generates it, at ${firstDifference(actual, expected)}`);
  }
  return { problems, sizes };
}

/** The sizes as a table, for the log of `pnpm test` (what `pnpm size` printed). */
function printSizes(sizes) {
  const rows = sizes.bundles.map((b) => [
    b.label,
    bytes(b.gzip),
    b.gzipDevelopment === null ? '' : bytes(b.gzipDevelopment),
    b.budget === null ? '' : `${bytes(b.budget)}${b.gzip > b.budget ? ' OVER' : ''}`,
  ]);
  const head = ['bundle', 'min+gzip (production)', '(development)', 'budget'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const r of [head, ...rows]) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  try {
    if (args.includes('--check')) {
      const { problems, sizes } = await check({ measure: !args.includes('--no-measure') });
      printSizes(sizes);
      if (problems.length) {
        console.error(`\nfigures: ${problems.length} generated figure(s) out of date:`);
        for (const problem of problems) console.error(`  - ${problem}`);
        console.error(
          '\nRun `pnpm figures` to write them again (sizes measured now, benchmark figures from bench/results.json; `pnpm bench --update` measures those again).',
        );
        process.exitCode = 1;
      } else console.log('\nfigures: the README, docs/data/sizes.json and bench/RESULTS.md match what generates them.');
    } else {
      const sizes = args.includes('--no-measure') ? JSON.parse(readFileSync(FILES.sizes, 'utf8')) : measureSizes();
      for (const [file, text] of Object.entries(await generate(sizes))) writeFileSync(file, text);
      printSizes(sizes);
      console.log(`\nfigures: wrote docs/data/sizes.json, the README's figures and bench/RESULTS.md.`);
    }
  } catch (error) {
    console.error(`figures: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}
