import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
// @ts-expect-error -- a Node script without declarations
import { applyBlocks, check, readmeBlocks } from '../figures.mjs';
// @ts-expect-error -- a Node script without declarations
import { readResults } from '../../bench/report.mjs';

// The figures of the README and bench/RESULTS.md are generated (scripts/figures.mjs): these tests
// hold the committed files to what generates them, without measuring the sizes again (`pnpm
// check:figures`, part of `pnpm test`, measures them and compares docs/data/sizes.json too).
const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'figures-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the README's figures and bench/RESULTS.md are what their sources generate", async () => {
  const { problems } = await check({ measure: false });
  expect(problems).toEqual([]);
}, 30_000);

test('a figure typed over in the README is caught, naming the line', async () => {
  const readme = join(dir, 'README.md');
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  const sizes = JSON.parse(readFileSync(join(root, 'docs/data/sizes.json'), 'utf8'));
  const core = sizes.bundles.find((b: { label: string }) => b.label.startsWith('core: embedDashboard'));
  const shown = `${core.gzip.toLocaleString('en')} B`;
  expect(text).toContain(shown);
  writeFileSync(readme, text.replace(shown, '4,999 B'));
  const { problems } = await check({ measure: false, readme });
  expect(problems).toHaveLength(1);
  expect(problems[0]).toContain('differs from what generates it');
  expect(problems[0]).toContain('4,999 B');
}, 30_000);

test('every block of the README is rendered between its markers; a missing marker is an error', () => {
  const sizes = JSON.parse(readFileSync(join(root, 'docs/data/sizes.json'), 'utf8'));
  const blocks = readmeBlocks({ sizes, results: readResults() });
  const text =
    '# x\n\n<!-- figures:sizes (generated) -->\nSTALE FIGURES\n<!-- /figures:sizes -->\n\n<!-- figures:bench -->\n<!-- /figures:bench -->\n';
  const out = applyBlocks(text, blocks);
  expect(out).not.toContain('STALE FIGURES');
  expect(out).toContain(blocks.sizes);
  expect(out).toContain(blocks.bench);
  expect(() => applyBlocks('# no markers\n', blocks)).toThrow(/no figures:sizes block/);
});

test('bench/RESULTS.md says one size for embedDashboard: its table and its explanation agree', () => {
  const results = readFileSync(join(root, 'bench/RESULTS.md'), 'utf8');
  const table = /\| Size: core: embedDashboard[^|]*\| (\d+) B/.exec(results)?.[1];
  const prose = /`embedDashboard` path \([^)]*\) is (\d+) B min\+gzip/.exec(results)?.[1];
  expect(table).toBeDefined();
  // The explanation is there while the budget is missed.
  if (prose !== undefined) expect(prose).toBe(table);
});

test('bench/results.json and bench/RESULTS.md come from one run: every row of the table is in the data', () => {
  const markdown = readFileSync(join(root, 'bench/RESULTS.md'), 'utf8');
  const { rows, generated } = readResults();
  expect(markdown).toContain(generated);
  for (const row of rows) expect(markdown).toContain(row.figure.replaceAll('|', '\\|'));
});
