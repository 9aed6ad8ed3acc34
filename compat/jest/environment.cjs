/* global module, require */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS test environment, as Jest loads it */
// Jest's jsdom environment (jest.config.cjs), and one thing more. The SDK writes an error that
// no handler hears to the console, once, with its stack (reportError in
// packages/core/src/errors.ts); the README's tests let an embed fail on purpose and would print
// it on every pass. Such a report is held back for its test and written only if the test fails,
// as the Vitest setup does (scripts/vitestSetup.ts); anything else goes to the console as usual.
const { TestEnvironment } = require('jest-environment-jsdom');

/** The console.error arguments of the SDK's report: one EmbedError (from the test's realm, so not by `instanceof`). */
const isUnheardErrorReport = (args) =>
  args.length === 1 &&
  typeof args[0] === 'object' &&
  args[0] !== null &&
  args[0].name === 'EmbedError' &&
  String(args[0].message).startsWith('[platform-embed] ');

module.exports = class HoldingReports extends TestEnvironment {
  held = [];
  write = undefined;

  handleTestEvent(event) {
    if (event.name === 'test_start') {
      this.held = [];
      const console = this.global.console;
      if (!this.write) {
        this.write = console.error.bind(console);
        console.error = (...args) => (isUnheardErrorReport(args) ? this.held.push(args) : this.write(...args));
      }
    } else if (event.name === 'test_done' && event.test.errors.length)
      for (const args of this.held) this.write('(held back, as the test passed until now: the SDK reported)', ...args);
  }
};
