// The benchmark's results, as bench/run.mjs wrote them (bench/results.json, `pnpm bench --update`):
// the site's charts and every benchmark figure in its pages are read from here when it is built.
import { readFileSync } from 'node:fs';
import { defineLoader } from 'vitepress';

/** A bar of a row's chart; `value` null: never (the baseline showed an error instead). */
export interface Bar {
  label: string;
  value: number | null;
  note?: string;
}

/** One row of the benchmark's summary table (bench/report.mjs). */
export interface BenchRow {
  id: string;
  name: string;
  result: string;
  baseline: string;
  figure: string;
  target: string;
  verdict: string;
  chart?: { unit: string; scale?: 'log'; bars: Bar[] };
}

/** bench/results.json, as far as the site reads it. */
export interface BenchResults {
  command: string;
  generated: string;
  machine: { cpus: number; model: string };
  browser: { version: string };
  rows: BenchRow[];
}

declare const data: BenchResults;
export { data };

export default defineLoader({
  watch: ['../../../bench/results.json'],
  load: ([file]): BenchResults => JSON.parse(readFileSync(file!, 'utf8')),
});
