import { packageConfig } from '../../scripts/rollup.mjs';

// Two entry points: the SDK, and the testing kit (`@platform-embed/core/testing`). The kit
// imports the SDK by its package name, written in each build as a relative import of that
// build's SDK entry (./index.development.mjs from testing.development.mjs, ...): the two share
// one copy of the SDK at run time, and the SDK's own output is the same as with one entry.
export default packageConfig({ input: { index: 'src/index.ts', testing: 'src/testing/index.ts' }, self: true });
