import { resolve } from 'node:path';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { packageConfig } from '../../scripts/rollup.mjs';

// The script-tag bundle: the whole core and the elements in one IIFE, global `PlatformEmbed`.
const core = resolve('../core/src/index.ts');
const iife = (file, plugins = []) => ({ file, format: 'iife', name: 'PlatformEmbed', exports: 'default', plugins });

export default packageConfig({
  extra: [
    {
      input: 'src/global.ts',
      plugins: [
        { name: 'core-source', resolveId: (id) => (id === '@platform-embed/core' ? core : null) },
        esbuild({ target: 'es2022', tsconfig: resolve('../../tsconfig.base.json') }),
      ],
      output: [
        iife('dist/platform-embed.js'),
        iife('dist/platform-embed.min.js', [terser({ compress: { passes: 2 }, format: { comments: false } })]),
      ],
    },
  ],
});
