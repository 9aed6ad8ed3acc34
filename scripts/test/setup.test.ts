import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';

// scripts/setup.sh run as a user without root, without Chromium and without write access to
// npm's global folder: on a machine of stubs (a PATH holding only the commands it may call),
// so the test needs neither root nor the network.
const root = fileURLToPath(new URL('../..', import.meta.url));
const want = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function machine(stubs: Record<string, string>) {
  dir = mkdtempSync(join(tmpdir(), 'setup-'));
  mkdirSync(join(dir, 'repo/scripts'), { recursive: true });
  copyFileSync(join(root, 'scripts/setup.sh'), join(dir, 'repo/scripts/setup.sh'));
  copyFileSync(join(root, 'package.json'), join(dir, 'repo/package.json'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const real of ['bash', 'cat', 'dirname']) symlinkSync(`/bin/${real}`, join(bin, real));
  symlinkSync(process.execPath, join(bin, 'node'));
  for (const [name, body] of Object.entries(stubs)) {
    writeFileSync(join(bin, name), `#!/bin/bash\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  }
  const log = join(dir, 'calls.log');
  const run = () =>
    spawnSync('/bin/bash', [join(dir, 'repo/scripts/setup.sh')], {
      encoding: 'utf8',
      env: { PATH: bin, HOME: dir, CALLS: log },
    });
  return { run, calls: () => readFileSync(log, 'utf8').trim().split('\n') };
}

test('without root, Chromium or a writable npm prefix: installs the dependencies with npx pnpm and says how to get both', () => {
  const { run, calls } = machine({
    id: 'echo 1000',
    npm: 'if [[ $1 == install ]]; then echo "npm error code EACCES" >&2; exit 243; fi; echo /usr/local',
    npx: 'echo "npx $*" >> "$CALLS"',
  });
  const { status, stderr } = run();
  expect(status).toBe(0);
  expect(calls()).toEqual([`npx --yes pnpm@${want} install --frozen-lockfile`]);
  expect(stderr).toContain(`npm install -g --prefix ~/.local "pnpm@${want}"`);
  expect(stderr).toContain('Chromium is not installed, and installing it needs root.');
  expect(stderr).toContain('sudo apt-get install chromium');
});

test('with the pinned pnpm and Chromium: only the dependencies are installed, nothing is said', () => {
  const { run, calls } = machine({
    id: 'echo 1000',
    pnpm: `if [[ $1 == -v ]]; then echo ${want}; else echo "pnpm $*" >> "$CALLS"; fi`,
    chromium: 'exit 0',
  });
  const { status, stderr } = run();
  expect(status).toBe(0);
  expect(calls()).toEqual(['pnpm install --frozen-lockfile']);
  expect(stderr).toBe('');
});
