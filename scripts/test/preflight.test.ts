import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';

// `pnpm test` and `pnpm demo` on a checkout where `npm run setup` never ran: the repository's own
// package.json and scripts/preflight.mjs in a folder with no node_modules, run by the pnpm that
// runs this test. They must name `npm run setup`, not fail on the first missing tool.
const root = fileURLToPath(new URL('../..', import.meta.url));
const repo = mkdtempSync(join(tmpdir(), 'preflight-'));
mkdirSync(join(repo, 'scripts'));
copyFileSync(join(root, 'package.json'), join(repo, 'package.json'));
copyFileSync(join(root, 'scripts/preflight.mjs'), join(repo, 'scripts/preflight.mjs'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

const runner = process.env.npm_execpath && /pnpm/.test(process.env.npm_execpath) ? process.env.npm_execpath : undefined;
const pnpm = (script: string) => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|pnpm_)/i.test(key)));
  const [command, args] = runner ? [process.execPath, [runner, script]] : ['pnpm', [script]];
  return spawnSync(command, args, { cwd: repo, encoding: 'utf8', env, timeout: 60_000 });
};

for (const script of ['test', 'demo']) {
  test(`pnpm ${script} before set-up says to run npm run setup, and runs nothing else`, () => {
    const { status, stdout, stderr } = pnpm(script);
    const output = `${stdout}${stderr}`;
    expect(status).not.toBe(0);
    expect(output).toContain('npm run setup');
    expect(output).toContain(`pnpm ${script} needs the repository set up first`);
    expect(output).not.toMatch(/not found|Cannot find module|ERR_MODULE_NOT_FOUND/);
  });
}
