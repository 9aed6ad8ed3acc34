import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from '../scripts/chromium.mjs';

// The specs import some packages' sources (through the root tsconfig's paths), which read the
// build-time flag `__DEV__` (see packages/core/src/env.d.ts): as in the unit tests, development.
globalThis.__DEV__ ??= true;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: [['list']],
  // Its own folder: Playwright empties it at the start of a run (test-results/ also holds the
  // logs of `pnpm test`'s stages and the benchmarks' results).
  outputDir: '../test-results/e2e',
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
    },
  },
});
