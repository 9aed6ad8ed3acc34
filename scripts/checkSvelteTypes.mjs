#!/usr/bin/env node
/*
 * Type test of the custom elements' Svelte 5 typings (packages/element/src/frameworks.ts), run by
 * `pnpm typecheck`: svelte-check over packages/element/test/svelte must report nothing in
 * Usage.svelte and an error at each line of Broken.svelte marked `BROKEN` (Svelte templates
 * have no `@ts-expect-error`), and nothing else. The program resolves the packages to their
 * built declarations (see the tsconfig.json there): `pnpm build` first.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'packages/element/test/svelte');
const require = createRequire(join(root, 'package.json'));
const bin = join(dirname(require.resolve('svelte-check/package.json')), 'bin/svelte-check');

const result = spawnSync(process.execPath, [bin, '--workspace', dir, '--tsconfig', './tsconfig.json', '--output', 'machine'], {
  encoding: 'utf8',
});
const diagnostics = `${result.stdout}${result.stderr}`
  .split('\n')
  .map((line) => /^\d+ (ERROR|WARNING) "(.+?)" (\d+):(\d+) "(.*)"$/.exec(line))
  .filter((m) => m !== null)
  .map(([, level, file, line, col, message]) => ({ level, file, line: Number(line), col, message: JSON.parse(`"${message}"`) }));

const broken = readFileSync(join(dir, 'Broken.svelte'), 'utf8')
  .split('\n')
  .flatMap((text, i) => (text.includes('BROKEN:') ? [i + 1] : []));
const problems = [];
for (const line of broken)
  if (!diagnostics.some((d) => d.file === 'Broken.svelte' && d.line === line && d.level === 'ERROR'))
    problems.push(`packages/element/test/svelte/Broken.svelte:${line}: expected a type error, svelte-check reported none`);
for (const d of diagnostics)
  if (!(d.file === 'Broken.svelte' && broken.includes(d.line)))
    problems.push(`packages/element/test/svelte/${d.file}:${d.line}:${d.col} - ${d.level.toLowerCase()}: ${d.message}`);
if (diagnostics.length === 0 && result.status !== 1)
  problems.push(`svelte-check failed (exit code ${result.status})\n${result.stdout}${result.stderr}`);

for (const problem of problems) console.error(problem);
console.log(
  problems.length
    ? `svelte-check: ${problems.length} problem${problems.length > 1 ? 's' : ''} in packages/element/test/svelte`
    : `svelte-check: Usage.svelte clean; the ${broken.length} lines of Broken.svelte marked BROKEN each fail`,
);
process.exitCode = problems.length ? 1 : 0;
