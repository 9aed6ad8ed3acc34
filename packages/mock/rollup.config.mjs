import { packageConfig } from '../../scripts/rollup.mjs';

export default packageConfig({ input: { index: 'src/index.ts', cli: 'src/cli.ts' } });
