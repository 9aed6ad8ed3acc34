// The one rollup helper every package uses: ESM (.mjs) + CJS (.cjs) from src/index.ts,
// and one bundled declaration file emitted as .d.mts and .d.cts (so each module
// system gets types of its own kind, as @arethetypeswrong/cli expects).
//
// A package whose source reads `__DEV__` (see packages/core/src/env.d.ts) is built four times,
// once per way its users' tools choose between development and production; its package.json
// `exports` names each build under the condition that selects it (scripts/checkPackages.mjs
// checks the shape):
// - [name].development.mjs/.cjs, `__DEV__` is `true`: the `development` condition (Vite, webpack,
//   Next.js, Nuxt, rollup's node-resolve, Node's and Deno's `--conditions`), and `deno` (Deno cannot
//   read NODE_ENV without a permission);
// - [name].production.mjs/.cjs, `false`: the `production` condition;
// - [name].bundler.mjs, `process.env.NODE_ENV !== 'production'`: the `module` condition, for a
//   bundler that resolves neither mode (esbuild without `--conditions`); it replaces
//   `process.env.NODE_ENV` (esbuild does so by itself for the browser) and drops the dead branch;
//   (these two, what production bundles are made of, have their internal names shortened: see
//   `mangleInternals`;)
// - [name].mjs/.cjs, `isDevelopment()`: `import`/`require` (Node, Jest, a browser without a
//   bundler); NODE_ENV is read when a check runs, never while the module loads, and without
//   `process` it is production.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { transform } from 'esbuild';
import esbuild from 'rollup-plugin-esbuild';
import { dts } from 'rollup-plugin-dts';

/** What a bundler folds: replaced by `"production"` (or `"development"`), the comparison becomes a constant. */
export const NODE_ENV_CHECK = "(process.env.NODE_ENV !== 'production')";

const FLAG_MODULE = '\0platform-embed:is-development';
// The default build's flag, read at each check: never while the package's modules load (Deno
// throws, or prompts, on reading the environment without a permission; scripts/checkPackages.mjs
// checks that nothing reads it at load). Without `process` (a browser without a bundler) it is
// production, like the minified script tag.
const FLAG_SOURCE = `export const isDevelopment = () => typeof process == 'object' && ${NODE_ENV_CHECK};
`;

/**
 * Replaces `__DEV__` (see packages/core/src/env.d.ts) with `value`: `'true'` or `'false'` for a
 * build of its own (development, production, the script-tag files), {@link NODE_ENV_CHECK} for
 * bundlers, or `'runtime'` for the build that reads NODE_ENV when a check runs (see the list above).
 * @param {string} [value]
 * @returns {import('rollup').Plugin}
 */
export function devFlag(value = NODE_ENV_CHECK) {
  if (value !== 'runtime')
    return {
      name: 'dev-flag',
      transform: (code) => (code.includes('__DEV__') ? { code: code.replaceAll('__DEV__', value), map: null } : null),
    };
  return {
    name: 'dev-flag-runtime',
    resolveId: (id) => (id === FLAG_MODULE ? id : null),
    load: (id) => (id === FLAG_MODULE ? FLAG_SOURCE : null),
    transform: (code) =>
      code.includes('__DEV__')
        ? {
            code: `import { isDevelopment as __isDevelopment } from '${FLAG_MODULE}';\n${code.replaceAll('__DEV__', '__isDevelopment()')}`,
            map: null,
          }
        : null,
  };
}

/**
 * The names of internal properties: `_` and a lowercase letter (the core's controller context,
 * its parts' operations; see packages/core/src/context.ts). Nothing public, nothing another package
 * reads and nothing of a page-wide record (read by other copies of the SDK) is named so.
 */
export const INTERNAL_NAME = /^_[a-z]/;

/**
 * Renames the internal properties (see {@link INTERNAL_NAME}) of each chunk to short names
 * (esbuild's `mangleProps`, which never picks a name another property of the chunk has), so a
 * readable name costs no bytes in what ships. A chunk is renamed whole: every file of it agrees.
 * (Two chunks of one build may not share an internal name: each is renamed on its own.)
 * @returns {import('rollup').Plugin} an output plugin
 */
export function mangleInternals() {
  return {
    name: 'mangle-internals',
    async renderChunk(code) {
      const result = await transform(code, { mangleProps: INTERNAL_NAME, target: 'es2022', sourcemap: 'external' });
      return { code: result.code, map: result.map };
    },
  };
}

/** The builds of a package whose source reads `__DEV__`; one build (`''`) for the others. `mangle`: what production bundles are made of. */
const DEV_BUILDS = [
  { suffix: '', flag: 'runtime', formats: ['es', 'cjs'] },
  { suffix: '.bundler', flag: NODE_ENV_CHECK, formats: ['es'], mangle: true },
  { suffix: '.development', flag: 'true', formats: ['es', 'cjs'] },
  { suffix: '.production', flag: 'false', formats: ['es', 'cjs'], mangle: true },
];

/** Whether a file under `dir` (the package's src) reads `__DEV__`, other than its declaration. */
export function readsDevFlag(dir = resolve('src')) {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).some(
    (entry) =>
      entry.isFile() &&
      /\.tsx?$/.test(entry.name) &&
      !entry.name.endsWith('.d.ts') &&
      readFileSync(join(entry.parentPath, entry.name), 'utf8').includes('__DEV__'),
  );
}

/**
 * @param {{
 *   input?: Record<string,string> | string,
 *   banner?: string,
 *   client?: string,
 *   extra?: import('rollup').RollupOptions[],
 *   self?: boolean,
 * }} [options] `self`: the package's other entries import its main entry by the package's name;
 *   each build writes that import as a relative one to its own main entry (`./index.development.mjs`
 *   from `testing.development.mjs`), so an entry and the SDK share one copy at run time.
 *   `client`: the package's client boundary (React's 'use client'), a module of named exports only
 *   (Next.js's webpack refuses `export *` in one): built on its own as `dist/client`, starting with
 *   'use client'; the other entries import it (`./client`) as that file, never inlined, so a server
 *   component that imports a component gets a client reference to it.
 * @returns {import('rollup').RollupOptions[]}
 */
export function packageConfig(options = {}) {
  const pkg = JSON.parse(readFileSync(resolve('package.json'), 'utf8'));
  const deps = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies });
  const isSelf = (id) => options.self && id === pkg.name;
  const external = (id) => id.startsWith('node:') || isSelf(id) || deps.some((d) => id === d || id.startsWith(`${d}/`));
  const CLIENT = './client';
  const clientPath = options.client && resolve(options.client).replace(/\.tsx?$/, '');
  const isClient = (id) => !!options.client && (id === CLIENT || id === clientPath);
  const input = options.input ?? { index: 'src/index.ts' };
  const onwarn = (warning, warn) => {
    // 'use client' is put back by `banner`; rollup only says it dropped the directive.
    if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'SOURCEMAP_ERROR') return;
    warn(warning);
  };
  const output = (format, suffix) => {
    const ext = format === 'es' ? 'mjs' : 'cjs';
    return {
      dir: 'dist',
      format,
      entryFileNames: `[name]${suffix}.${ext}`,
      chunkFileNames: `[name]-[hash]${suffix}.${ext}`,
      banner: options.banner,
      exports: 'named',
      sourcemap: false,
      // (Rollup names a relative external by its resolved path.)
      paths: (id) => (isSelf(id) ? `./index${suffix}.${ext}` : isClient(id) ? `${CLIENT}${suffix}.${ext}` : id),
    };
  };
  const builds = readsDevFlag() ? DEV_BUILDS : [{ suffix: '', flag: null, formats: ['es', 'cjs'] }];
  const plugins = (flag) => [
    ...(flag ? [devFlag(flag)] : []),
    esbuild({ target: 'es2022', tsconfig: resolve('../../tsconfig.base.json') }),
  ];
  return [
    ...builds.map(({ suffix, flag, formats, mangle }) => ({
      input,
      external: (id) => external(id) || isClient(id),
      onwarn,
      plugins: plugins(flag),
      output: formats.map((format) => ({ ...output(format, suffix), plugins: mangle ? [mangleInternals()] : [] })),
    })),
    ...(options.client
      ? builds.map(({ suffix, flag, formats }) => ({
          input: { client: options.client },
          external,
          onwarn,
          plugins: plugins(flag),
          output: formats.map((format) => ({ ...output(format, suffix), banner: "'use client';" })),
        }))
      : []),
    ...['mts', 'cts'].map((ext) => ({
      input,
      external,
      plugins: [dts({ tsconfig: resolve('../../tsconfig.base.json'), compilerOptions: { paths: {} } })],
      output: {
        dir: 'dist',
        entryFileNames: `[name].d.${ext}`,
        format: 'es',
        paths: options.self ? { [pkg.name]: `./index.${ext === 'mts' ? 'mjs' : 'cjs'}` } : undefined,
      },
    })),
    ...(options.extra ?? []),
  ];
}
