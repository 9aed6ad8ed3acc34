import { packageConfig } from '../../scripts/rollup.mjs';

// The entry re-exports the core and the client boundary (src/client.ts: the components and the hook).
export default packageConfig({ client: 'src/client.ts' });
