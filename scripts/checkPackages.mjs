// For every publishable package: publint, @arethetypeswrong/cli, the development and production
// builds named in `exports` as scripts/rollup.mjs writes them, and an import of every built ESM
// and CJS file in plain Node (no DOM, as server rendering does) that reads no environment
// variable while it loads (Deno refuses that without a permission).
// A package published from a folder of its own (`publishConfig.directory`: @platform-embed/angular,
// whose dist/ is an Angular Package Format package) is checked there, with the entry point its
// published manifest declares; it is ESM only, as Angular packages are.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');

/** The builds of a package whose source reads `__DEV__` (scripts/rollup.mjs), by file suffix. */
const DEV_BUILDS = ['', '.bundler', '.development', '.production'];

/**
 * The `exports` entry of a built entry point `name` (`index`, `testing`) of a package built for
 * development and production, in the order resolvers must see its conditions: the two modes
 * first (Vite, webpack, Next.js, Nuxt, Node's and Deno's `--conditions`), Deno (development:
 * it cannot read NODE_ENV without a permission), bundlers that resolve neither (`module`: they
 * replace process.env.NODE_ENV), then Node and everything else. Types first in every condition.
 */
const buildExports = (name) => {
  const leaf = (suffix, ext) => ({ types: `./dist/${name}.d.${ext === 'mjs' ? 'mts' : 'cts'}`, default: `./dist/${name}${suffix}.${ext}` });
  const both = (suffix) => ({ import: leaf(suffix, 'mjs'), require: leaf(suffix, 'cjs') });
  return {
    development: both('.development'),
    production: both('.production'),
    deno: both('.development'),
    module: leaf('.bundler', 'mjs'),
    import: leaf('', 'mjs'),
    require: leaf('', 'cjs'),
  };
};

/** Every entry point built in four builds is exported with {@link buildExports}, and `module` names the bundlers' build. */
function checkBuildExports(pkg, pkgDir) {
  const problems = [];
  const entries = readdirSync(resolve(pkgDir, 'dist'))
    .filter((file) => file.endsWith('.development.mjs'))
    .map((file) => file.slice(0, -'.development.mjs'.length));
  for (const name of entries) {
    const subpath = name === 'index' ? '.' : `./${name}`;
    const expected = JSON.stringify(buildExports(name), null, 2);
    if (JSON.stringify(pkg.exports?.[subpath], null, 2) !== expected)
      problems.push(`exports["${subpath}"] must be, in this order (see scripts/rollup.mjs):\n${expected}`);
    for (const suffix of DEV_BUILDS)
      for (const ext of ['mjs', 'cjs'])
        if (!(suffix === '.bundler' && ext === 'cjs') && !existsSync(resolve(pkgDir, `dist/${name}${suffix}.${ext}`)))
          problems.push(`dist/${name}${suffix}.${ext} was not built`);
  }
  if (pkg.module !== './dist/index.bundler.mjs') problems.push('"module" must be "./dist/index.bundler.mjs" (the bundlers\' build)');
  if (problems.length) throw new Error(problems.join('\n'));
}
const bin = (name) => resolve(root, 'node_modules/.bin', name);
let failed = 0;
const only = process.argv.slice(2);

for (const dir of readdirSync(resolve(root, 'packages'))) {
  const pkgDir = resolve(root, 'packages', dir);
  const pkgFile = resolve(pkgDir, 'package.json');
  if (!existsSync(pkgFile) || (only.length && !only.includes(dir))) continue;
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  if (pkg.private) continue;
  const step = (label, fn) => {
    try {
      fn();
      console.log(`ok   ${pkg.name}: ${label}`);
    } catch (error) {
      failed++;
      console.log(
        `FAIL ${pkg.name}: ${label}\n${error.stdout ?? ''}${error.stderr ?? ''}${error.stdout || error.stderr ? '' : error.message}`,
      );
    }
  };
  const publishDir = pkg.publishConfig?.directory ? resolve(pkgDir, pkg.publishConfig.directory) : pkgDir;
  if (!existsSync(resolve(publishDir, 'package.json'))) {
    step('built', () => {
      throw new Error(`${publishDir}/package.json is missing: run pnpm build first`);
    });
    continue;
  }
  const published = JSON.parse(readFileSync(resolve(publishDir, 'package.json'), 'utf8'));
  step('publint', () => {
    const out = execFileSync(bin('publint'), ['--strict'], { cwd: publishDir, encoding: 'utf8', stdio: 'pipe' });
    if (/warning|error|suggestion/i.test(out) && !/All good/i.test(out)) throw Object.assign(new Error(out), { stdout: out });
  });
  step('are the types wrong', () => {
    execFileSync(bin('attw'), ['--pack', '.', '--format', 'ascii', ...(pkg.attw ?? [])], {
      cwd: publishDir,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  });
  // A module that starts with 'use client' is a client boundary, whose exports must all be named:
  // Next.js's webpack refuses `export *` in one ("use named exports instead"), failing the build of
  // any page that imports the package. (@platform-embed/react keeps the core's re-export in its
  // entry, and its components in dist/client.)
  step("client boundaries ('use client') export names only", () => {
    const dist = resolve(publishDir, 'dist');
    if (!existsSync(dist)) return;
    for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((name) => /\.[cm]?js$/.test(name))) {
      const code = readFileSync(resolve(dist, file), 'utf8');
      if (/^\s*(['"])use client\1/.test(code) && /^export \*|__exportStar|Object\.keys\(\w+\)\.forEach/m.test(code))
        throw new Error(`dist/${file} starts with 'use client' and re-exports a whole module: name its exports`);
    }
  });
  if (pkg.publishConfig?.directory) {
    const entry = (condition) => {
      const target = published.exports?.['.']?.[condition] ?? (condition === 'import' ? published.exports?.['.']?.default : undefined);
      const file = typeof target === 'string' ? target : target?.default;
      return file && resolve(publishDir, file);
    };
    const esm = entry('import');
    const cjs = entry('require');
    // Angular's packages (its own and ours) are partially compiled: outside an app build, which
    // links them ahead of time, Node evaluates them with Angular's JIT compiler loaded.
    const preload = pkg.peerDependencies?.['@angular/core'] ? "await import('@angular/compiler');" : '';
    step(`imports in Node without a DOM (${cjs ? 'ESM and CJS' : 'ESM only'})`, () => {
      // A child process, so that nothing in this one (or a DOM shim) can hide a problem.
      const script = `
        if (typeof window !== 'undefined' || typeof document !== 'undefined') throw new Error('DOM present');
        ${preload}
        const m = await import(${JSON.stringify(pathToFileURL(esm).href)});
        if (!Object.keys(m).length) throw new Error('no exports');
        if (${JSON.stringify(Boolean(cjs))}) {
          const { createRequire } = await import('node:module');
          const c = createRequire(${JSON.stringify(pathToFileURL(cjs ?? esm).href)})(${JSON.stringify(cjs)});
          if (!Object.keys(c).length) throw new Error('no exports');
          for (const k of Object.keys(m)) if (!(k in c)) throw new Error('CJS lacks ' + k);
        }
      `;
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: pkgDir, encoding: 'utf8', stdio: 'pipe' });
    });
  } else {
    const builds = existsSync(resolve(pkgDir, 'dist/index.development.mjs')) ? DEV_BUILDS : [''];
    if (builds.length > 1)
      step('development and production builds under their conditions in exports', () => checkBuildExports(pkg, pkgDir));
    for (const suffix of builds) {
      const esm = resolve(pkgDir, `dist/index${suffix}.mjs`);
      const cjs = resolve(pkgDir, `dist/index${suffix}.cjs`);
      // The bundlers' build reads process.env.NODE_ENV where a bundler replaces it by a string.
      const readsEnv = suffix === '.bundler';
      const what = `${existsSync(cjs) ? 'ESM and CJS' : 'ESM'}${suffix ? `, ${suffix.slice(1)} build` : ''}`;
      step(`imports in Node without a DOM${readsEnv ? '' : ', reading no environment variable while it loads'} (${what})`, () => {
        // A child process, so that nothing in this one (or a DOM shim) can hide a problem.
        const script = `
          if (typeof window !== 'undefined' || typeof document !== 'undefined') throw new Error('DOM present');
          // The variables this package's own files read (its dependencies, React for one, may read NODE_ENV).
          const reads = [];
          const env = process.env;
          const ours = (stack) => stack.includes(${JSON.stringify(resolve(pkgDir, 'dist') + '/')});
          Object.defineProperty(process, 'env', {
            value: new Proxy(env, { get: (target, name) => (${!readsEnv} && ours(new Error().stack) && reads.push(String(name)), target[name]) }),
          });
          const m = await import(${JSON.stringify(pathToFileURL(esm).href)});
          const { createRequire } = await import('node:module');
          const c = ${existsSync(cjs)} ? createRequire(${JSON.stringify(pathToFileURL(cjs).href)})(${JSON.stringify(cjs)}) : m;
          if (reads.length) throw new Error('read process.env.' + reads.join(', process.env.') + ' while loading: Deno refuses that without --allow-env; read it when it is needed');
          if (!Object.keys(m).length || !Object.keys(c).length) throw new Error('no exports');
          for (const k of Object.keys(m)) if (!(k in c)) throw new Error('CJS lacks ' + k);
        `;
        execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: pkgDir, encoding: 'utf8', stdio: 'pipe' });
      });
    }
  }
}
if (failed) {
  console.error(`${failed} package check(s) failed`);
  process.exitCode = 1;
}
