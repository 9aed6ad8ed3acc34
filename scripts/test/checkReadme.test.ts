import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const script = fileURLToPath(new URL('../checkReadme.mjs', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
const readme = `${fixtures}/README.md`;
const vueTsc = (from: string) =>
  createRequire(fileURLToPath(new URL(`../../${from}/package.json`, import.meta.url)))('vue-tsc/package.json').version;
const [newest, oldest] = [vueTsc('.'), vueTsc('compat/vue3.3')];

test('the README check fails on a broken block, naming the README, the line and each vue-tsc', () => {
  const { status, stdout, stderr } = spawnSync(process.execPath, [script, '--preludes', fixtures, readme], { encoding: 'utf8' });
  const errors = stderr.split('\n').filter((line) => line.includes(' - error TS'));
  const broken = readFileSync(readme, 'utf8')
    .split('\n')
    .flatMap((line, i) => (/BROKEN:/.test(line) ? [{ line: i + 1, vue: /\/\* BROKEN/.test(line) }] : []));
  // Each ts block is checked once; each vue block with the newest and the oldest vue-tsc (compat/vue3.3).
  const expected = broken.flatMap(({ line, vue }) =>
    (vue ? [newest, oldest] : [newest]).map((version) => `scripts/test/fixtures/README.md:${line}: [vue-tsc ${version}]`),
  );
  const reported = errors.map((e) => e.replace(/^(\S+?:\d+):\d+ - error TS\d+: .* (\[vue-tsc [\d.]+\])$/, '$1: $2'));
  expect(status).toBe(1);
  expect(broken).toHaveLength(5);
  expect(reported.sort()).toEqual(expected.sort());
  expect(stderr).toContain('README.md:9:22 - error TS2345: Argument of type \'"purple"\' is not assignable');
  expect(stdout).toMatch(
    /^readme-check: 5 blocks checked \(3 ts, 0 tsx, 2 vue; .*\), 1 skipped: scripts\/test\/fixtures\/README\.md:\d+; 7 errors$/m,
  );
}, 120_000);

test("a prelude's types= checks its blocks against that runtime's types, in a program no other block sees", () => {
  const readme = `${fixtures}/runtimes.md`;
  const { status, stdout, stderr } = spawnSync(process.execPath, [script, '--preludes', fixtures, readme], { encoding: 'utf8' });
  const broken = readFileSync(readme, 'utf8')
    .split('\n')
    .flatMap((line, i) => (/BROKEN:/.test(line) ? [i + 1] : []));
  const reported = stderr
    .split('\n')
    .filter((line) => line.includes(' - error TS'))
    .map((line) => Number(/^scripts\/test\/fixtures\/runtimes\.md:(\d+):/.exec(line)?.[1]));
  expect(status).toBe(1);
  expect([...new Set(reported)].sort((a, b) => a - b)).toEqual(broken);
  // The Deno block: Deno.env.get is known (string | undefined), the assignment is what fails.
  expect(stderr).toMatch(/runtimes\.md:\d+:\d+ - error TS2322: Type 'string' is not assignable to type 'number'/);
  expect(stderr).toMatch(/runtimes\.md:\d+:\d+ - error TS2304: Cannot find name 'Deno'/);
  expect(stdout).toMatch(/1 with the types node,deno in a program of their own/);
}, 120_000);
