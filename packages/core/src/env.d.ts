/**
 * `true` in development builds. The build replaces it with
 * `(typeof process != 'undefined' && process.env.NODE_ENV !== 'production')`, the guard every
 * major bundler folds to `false` in production (so developer-only checks and long messages
 * are dropped), and which is `false` where there is no `process` (a browser without a bundler).
 * The tests set it on `globalThis`.
 */
// eslint-disable-next-line no-var -- a global the tests set on globalThis
declare var __DEV__: boolean;
