import { afterEach } from 'vitest';

// The sources run in development mode in the tests (the builds replace `__DEV__`, see
// packages/core/src/env.d.ts); a test of the production behaviour sets it to false and back.
globalThis.__DEV__ = true;

// A binding's unmount finishes in a microtask (see packages/core/src/binding.ts): a test that
// unmounts last would leave it to run after the file's DOM environment is torn down (an
// unhandled "getComputedStyle is not defined" in whichever file runs next in the worker). The
// last after-each hook (hooks after a test run in reverse order) lets such microtasks run first;
// promises, not timers, so that tests with fake timers are not held.
afterEach(async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
});
