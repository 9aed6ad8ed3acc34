import { afterEach, beforeEach } from 'vitest';

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

/**
 * The SDK writes an error that no handler hears to the console, once, with its stack (`reportError`
 * in packages/core/src/errors.ts; the tests of that rule spy on `console.error` themselves:
 * packages/core/test/mistakes.test.ts). Many tests let an embed fail without an error handler
 * on purpose, and each would print a stack trace on a pass. Those reports are held back for the
 * test and printed only if it fails; anything else written to the console is printed as usual.
 */
export const isUnheardErrorReport = (args: unknown[]): boolean =>
  args.length === 1 && args[0] instanceof Error && args[0].name === 'EmbedError' && args[0].message.startsWith('[platform-embed] ');

const consoleError = console.error;
let held: unknown[][] = [];
console.error = function error(...args: unknown[]) {
  if (isUnheardErrorReport(args)) held.push(args);
  else consoleError.apply(console, args);
};
beforeEach(({ onTestFailed }) => {
  const mine: unknown[][] = (held = []);
  onTestFailed(() => {
    for (const args of mine) consoleError.apply(console, ['(held back, as the test passed until now: the SDK reported)', ...args]);
  });
});
