#!/usr/bin/env node
/*
 * `pnpm packs [folder]`: the packages as npm will serve them, for an app to install before they
 * are published. Packs every package of packages/ with `pnpm pack` (built first: run `pnpm build`)
 * into `folder` (default: packs/ at the root, ignored by git) and prints what the app's
 * package.json needs: the tarballs as dependencies, and the same tarballs as `pnpm.overrides`,
 * because the adapters depend on `@platform-embed/core@^<version>`, which the registry does not
 * have yet.
 *
 * Usage: node scripts/packAll.mjs [folder]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const folder = resolve(process.argv[2] ?? join(root, 'packs'));
const packages = readdirSync(join(root, 'packages')).filter((name) => existsSync(join(root, 'packages', name, 'package.json')));

const unbuilt = packages.filter((name) => !existsSync(join(root, 'packages', name, 'dist')));
if (unbuilt.length) {
  console.error(`packages/${unbuilt.join(', packages/')} not built: run \`pnpm build\` first.`);
  process.exit(1);
}

mkdirSync(folder, { recursive: true });
// pnpm, as the workspace runs it (`pnpm packs` sets npm_execpath), else the one on the PATH.
const runner = process.env.npm_execpath;
const [command, prefix] = runner && /pnpm/.test(runner) ? [process.execPath, [runner]] : ['pnpm', []];
const tarballs = {};
for (const name of packages) {
  const { name: packageName } = JSON.parse(readFileSync(join(root, 'packages', name, 'package.json'), 'utf8'));
  const output = execFileSync(command, [...prefix, 'pack', '--pack-destination', folder], {
    cwd: join(root, 'packages', name),
    encoding: 'utf8',
  });
  tarballs[packageName] = `file:${output.trim().split('\n').at(-1).trim()}`;
}

console.log(`Packed ${packages.length} packages into ${folder}. In your app's package.json, the ones it uses:\n`);
console.log(JSON.stringify({ dependencies: tarballs, pnpm: { overrides: tarballs } }, null, 2));
console.log('\nthen `pnpm install`. Keep `pnpm.overrides`: the adapters depend on @platform-embed/core, which npm does not serve yet.');
