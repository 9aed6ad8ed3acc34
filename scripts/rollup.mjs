// The one rollup helper every package uses: ESM (.mjs) + CJS (.cjs) from src/index.ts,
// and one bundled declaration file emitted as .d.mts and .d.cts (so each module
// system gets types of its own kind, as @arethetypeswrong/cli expects).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import esbuild from 'rollup-plugin-esbuild';
import { dts } from 'rollup-plugin-dts';

/**
 * Replaces `__DEV__` (see packages/core/src/env.d.ts). The published builds keep the guard
 * that every major bundler folds in production; the script-tag builds get a literal.
 * @param {string} [value]
 * @returns {import('rollup').Plugin}
 */
export function devFlag(value = "(typeof process != 'undefined' && process.env.NODE_ENV !== 'production')") {
  return {
    name: 'dev-flag',
    transform: (code) => (code.includes('__DEV__') ? { code: code.replaceAll('__DEV__', value), map: null } : null),
  };
}

/**
 * @param {{ input?: Record<string,string> | string, banner?: string, extra?: import('rollup').RollupOptions[] }} [options]
 * @returns {import('rollup').RollupOptions[]}
 */
export function packageConfig(options = {}) {
  const pkg = JSON.parse(readFileSync(resolve('package.json'), 'utf8'));
  const deps = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies });
  const external = (id) => id.startsWith('node:') || deps.some((d) => id === d || id.startsWith(`${d}/`));
  const input = options.input ?? { index: 'src/index.ts' };
  const onwarn = (warning, warn) => {
    // 'use client' is put back by `banner`; rollup only says it dropped the directive.
    if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'SOURCEMAP_ERROR') return;
    warn(warning);
  };
  const output = (format, ext) => ({
    dir: 'dist',
    format,
    entryFileNames: `[name].${ext}`,
    chunkFileNames: `[name]-[hash].${ext}`,
    banner: options.banner,
    exports: 'named',
    sourcemap: false,
  });
  return [
    {
      input,
      external,
      onwarn,
      plugins: [devFlag(), esbuild({ target: 'es2022', tsconfig: resolve('../../tsconfig.base.json') })],
      output: [output('es', 'mjs'), output('cjs', 'cjs')],
    },
    ...['mts', 'cts'].map((ext) => ({
      input,
      external,
      plugins: [dts({ tsconfig: resolve('../../tsconfig.base.json'), compilerOptions: { paths: {} } })],
      output: { dir: 'dist', entryFileNames: `[name].d.${ext}`, format: 'es' },
    })),
    ...(options.extra ?? []),
  ];
}
