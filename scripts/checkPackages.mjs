// For every publishable package: publint, @arethetypeswrong/cli, and an import of the
// built ESM and CJS entry points in plain Node (no DOM), as server rendering does.
// A package published from a folder of its own (`publishConfig.directory`: @platform-embed/angular,
// whose dist/ is an Angular Package Format package) is checked there, with the entry points its
// published manifest declares; an ESM-only one (as Angular packages are) has no CJS to import.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');
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
}
void createRequire;
if (failed) {
  console.error(`${failed} package check(s) failed`);
  process.exitCode = 1;
}
