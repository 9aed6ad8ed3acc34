// The sources run in development mode in the tests (the builds replace `__DEV__`, see
// packages/core/src/env.d.ts); a test of the production behaviour sets it to false and back.
globalThis.__DEV__ = true;
