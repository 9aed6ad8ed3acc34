import { resolve } from 'node:path';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';
import { devFlag, mangleInternals, packageConfig } from '../../scripts/rollup.mjs';

// The script-tag bundles: the whole core and the elements in one IIFE, global `PlatformEmbed`.
// `platform-embed.js` is the development build (every option check and message), readable;
// `platform-embed.min.js` the production build, its internal names shortened (see mangleInternals), minified.
const core = resolve('../core/src/index.ts');
// Three passes: a third folds what the second exposed, ~20 B gzip here (scripts/sizeByFile.mjs
// --script-tag minifies it the same way).
const MINIFY = { compress: { passes: 3 }, format: { comments: false } };
const iife = (file, dev) => ({
  input: 'src/global.ts',
  plugins: [
    { name: 'core-source', resolveId: (id) => (id === '@platform-embed/core' ? core : null) },
    devFlag(String(dev)),
    esbuild({ target: 'es2022', tsconfig: resolve('../../tsconfig.base.json') }),
  ],
  output: {
    file,
    format: 'iife',
    name: 'PlatformEmbed',
    exports: 'default',
    plugins: dev ? [] : [mangleInternals(), terser(MINIFY)],
  },
});

export default packageConfig({ extra: [iife('dist/platform-embed.js', true), iife('dist/platform-embed.min.js', false)] });
