import { packageConfig } from '../../scripts/rollup.mjs';

// The command (src/cli.ts, run by bin/platform-mock.mjs) is an ES module only and exports
// nothing: no CommonJS copy and no declaration file for it (an empty chunk otherwise).
// The Playwright kit (src/playwright.ts, `@platform-embed/mock/playwright`) is an entry of its
// own; its declarations are bundled on their own too (no shared declaration chunk).
const entries = { index: 'src/index.ts', playwright: 'src/playwright.ts' };
const [code, ...declarations] = packageConfig({ input: { ...entries, cli: 'src/cli.ts' } });
const [esm, cjs] = code.output;

export default [
  { ...code, output: esm },
  { ...code, input: entries, output: cjs },
  ...Object.entries(entries).flatMap(([name, file]) => declarations.map((config) => ({ ...config, input: { [name]: file } }))),
];
