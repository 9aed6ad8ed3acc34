import { packageConfig } from '../../scripts/rollup.mjs';

export default packageConfig();
