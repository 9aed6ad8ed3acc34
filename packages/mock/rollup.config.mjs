import { packageConfig } from '../../scripts/rollup.mjs';

// The command (src/cli.ts, run by bin/platform-mock.mjs) is an ES module only and exports
// nothing: no CommonJS copy and no declaration file for it (an empty chunk otherwise).
const [code, ...declarations] = packageConfig({ input: { index: 'src/index.ts', cli: 'src/cli.ts' } });
const [esm, cjs] = code.output;

export default [
  { ...code, output: esm },
  { ...code, input: { index: 'src/index.ts' }, output: cjs },
  ...declarations.map((config) => ({ ...config, input: { index: 'src/index.ts' } })),
];
