import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { test } from '@playwright/test';

/** Where the specs' figures go (Playwright's output folder, emptied at the start of a run). */
export const FIGURES_FILE = resolve(import.meta.dirname, '../../test-results/e2e/figures.txt');

/**
 * What a spec measured for a reader (timings, counts, a table), besides what it asserts: appended
 * to test-results/e2e/figures.txt under its spec file's name, and printed as well with
 * `E2E_FIGURES=1`. Printed at every run they were a hundred lines of raw figures on a pass.
 */
export function figures(text: string): void {
  mkdirSync(dirname(FIGURES_FILE), { recursive: true });
  appendFileSync(FIGURES_FILE, `${test.info().titlePath[0]}\n${text}\n\n`);
  if (process.env.E2E_FIGURES === '1') console.log(text);
}
