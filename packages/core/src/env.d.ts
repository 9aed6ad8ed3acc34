/**
 * `true` in development builds. Never evaluated by the published files as a global: the build
 * (scripts/rollup.mjs) writes the package four times, and its `exports` conditions choose one
 * the way each tool chooses React's or Vue's development build:
 * - `development` / `production` (Vite, webpack 5, Next.js with webpack or Turbopack, Nuxt,
 *   rollup's node-resolve, `node --conditions=development`, `deno --conditions=…`): `true` / `false`;
 * - `deno` without a mode condition: `true` (Deno cannot read NODE_ENV without a permission);
 * - `module` (a bundler that resolves neither mode, such as esbuild without `--conditions`):
 *   `process.env.NODE_ENV !== 'production'`, which the bundler replaces and folds;
 * - `import` / `require` (Node, Jest, a browser without a bundler): NODE_ENV read when a check
 *   runs, never while the module loads; production where there is no `process`.
 * So in production builds the developer-only checks and long messages are dropped. Never put
 * a check that protects the page behind it. The tests set it on `globalThis`.
 */
// eslint-disable-next-line no-var -- a global the tests set on globalThis
declare var __DEV__: boolean;
