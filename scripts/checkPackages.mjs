// For every publishable package: publint, @arethetypeswrong/cli, and an import of the
// built ESM and CJS entry points in plain Node (no DOM), as server rendering does.
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
  step('publint', () => {
    const out = execFileSync(bin('publint'), ['--strict'], { cwd: pkgDir, encoding: 'utf8', stdio: 'pipe' });
    if (/warning|error|suggestion/i.test(out) && !/All good/i.test(out)) throw Object.assign(new Error(out), { stdout: out });
  });
  step('are the types wrong', () => {
    execFileSync(bin('attw'), ['--pack', '.', '--format', 'ascii', ...(pkg.attw ?? [])], { cwd: pkgDir, encoding: 'utf8', stdio: 'pipe' });
  });
  const esm = resolve(pkgDir, 'dist/index.mjs');
  const cjs = resolve(pkgDir, 'dist/index.cjs');
  step('imports in Node without a DOM (ESM and CJS)', () => {
    // A child process, so that nothing in this one (or a DOM shim) can hide a problem.
    const script = `
      if (typeof window !== 'undefined' || typeof document !== 'undefined') throw new Error('DOM present');
      const m = await import(${JSON.stringify(pathToFileURL(esm).href)});
      const { createRequire } = await import('node:module');
      const c = createRequire(${JSON.stringify(pathToFileURL(cjs).href)})(${JSON.stringify(cjs)});
      if (!Object.keys(m).length || !Object.keys(c).length) throw new Error('no exports');
      for (const k of Object.keys(m)) if (!(k in c)) throw new Error('CJS lacks ' + k);
    `;
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: pkgDir, encoding: 'utf8', stdio: 'pipe' });
  });
}
void createRequire;
if (failed) {
  console.error(`${failed} package check(s) failed`);
  process.exitCode = 1;
}
