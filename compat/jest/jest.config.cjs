/* global module, __dirname */
// Jest in CommonJS with jsdom, as a host project would run it: the packages resolve through
// their `exports` (the `require` condition: dist/*.cjs, so `pnpm build` first), and
// transform.cjs compiles the TypeScript, TSX and Vue files of the tests to CommonJS.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  // jsdom, holding back the SDK's console report of an unheard error on a pass (environment.cjs).
  testEnvironment: '<rootDir>/environment.cjs',
  // Vue Test Utils' own advice for Jest: its Node build, not the browser bundle.
  testEnvironmentOptions: { customExportConditions: ['node', 'node-addons'] },
  testMatch: ['<rootDir>/**/*.test.{ts,tsx}'],
  testPathIgnorePatterns: ['/node_modules/'],
  moduleFileExtensions: ['ts', 'tsx', 'vue', 'js', 'cjs', 'json'],
  transform: { '\\.(tsx?|vue)$': '<rootDir>/transform.cjs' },
};
