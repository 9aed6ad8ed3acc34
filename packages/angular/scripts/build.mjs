#!/usr/bin/env node
/*
 * Builds the package: generates the components' inputs and outputs from the core
 * (scripts/generate.mjs), compiles them with ng-packagr into dist/ in the Angular Package Format
 * (partial compilation: the app's Angular CLI links it for the Angular version it runs), and
 * makes dist/ the published package (`publishConfig.directory`: `pnpm pack` and `pnpm publish`
 * take dist/package.json, which ng-packagr writes with the APF `exports`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ngPackagr } from 'ng-packagr';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

execFileSync(process.execPath, [join(packageRoot, 'scripts/generate.mjs')], { stdio: 'inherit' });
await ngPackagr().forProject(join(packageRoot, 'ng-package.json')).withTsConfig(join(packageRoot, 'tsconfig.lib.json')).build();

// The published manifest is dist/package.json itself: no directory to publish from, and the
// workspace's own packages named by version, as `pnpm publish` writes them (so that dist/ packs
// and installs on its own, as publint and attw do).
const manifestPath = join(packageRoot, 'dist/package.json');
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
delete manifest.publishConfig;
for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
  if (!range.startsWith('workspace:')) continue;
  const { version } = JSON.parse(readFileSync(join(packageRoot, 'node_modules', name, 'package.json'), 'utf8'));
  const prefix = range.slice('workspace:'.length);
  manifest.dependencies[name] = prefix === '*' ? version : prefix === '^' || prefix === '~' ? `${prefix}${version}` : prefix;
}
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
