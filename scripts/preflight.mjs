#!/usr/bin/env node
/*
 * The first step of `pnpm test` and `pnpm demo`: on a checkout where `npm run setup` has not run,
 * say so, instead of the first missing tool's error (`rollup: not found`). Node built-ins only:
 * nothing else is installed yet. Checks what setup installs: the workspace's dependencies (their
 * node_modules, with the tools the scripts call) and the pnpm version the repository pins.
 *
 * Usage: node scripts/preflight.mjs [what]   (what: the command it guards, for the message)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const what = process.argv[2] ?? 'this command';
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager?.split('@')[1];

/** What is missing, in words; empty when set up. */
export function missing(dir = root) {
  const problems = [];
  // pnpm writes node_modules/.modules.yaml when it installs the workspace.
  if (!existsSync(join(dir, 'node_modules/.modules.yaml'))) problems.push('the dependencies are not installed');
  else
    for (const tool of ['rollup', 'tsc', 'vitest', 'vitepress'])
      if (!existsSync(join(dir, 'node_modules/.bin', tool))) problems.push(`\`${tool}\` is not installed`);
  return problems;
}

const problems = missing();
if (problems.length) {
  console.error(
    `${what} needs the repository set up first: ${problems.join(', ')}.\n` +
      `Run, once (Node 20 and npm are enough):\n\n  npm run setup\n\n` +
      `It installs pnpm ${pinned ?? ''}, the dependencies, and Chromium for the real-browser tests (with root; it says how otherwise).`,
  );
  process.exit(1);
}
