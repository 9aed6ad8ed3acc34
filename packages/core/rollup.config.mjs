import { packageConfig } from '../../scripts/rollup.mjs';

// Two entry points: the SDK, and the testing kit (`@platform-embed/core/testing`). The kit
// imports the SDK by its package name, kept external and written as a relative import of the
// built entry (./index.mjs, ./index.cjs): the two share one copy of the SDK at run time, and the
// SDK's own output is the same as with one entry (no shared chunk).
const self = '@platform-embed/core';
const ext = (output) => (output.format == 'cjs' || String(output.entryFileNames).includes('.d.cts') ? 'cjs' : 'mjs');

export default packageConfig({ input: { index: 'src/index.ts', testing: 'src/testing/index.ts' } }).map((config) => ({
  ...config,
  external: (id, ...rest) => id == self || config.external(id, ...rest),
  output: [config.output].flat().map((output) => ({ ...output, paths: { [self]: `./index.${ext(output)}` } })),
}));
