import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The `platform-mock` command as the README shows it, run in a real shell: inside the repository
// (where `npx` must find the workspace's own bin instead of asking the registry) and from the
// packed packages installed in an empty project. Needs the packages built (`pnpm build`).
const repositoryRoot = resolve(import.meta.dirname, '../../..');
const temporaryFolders: string[] = [];
afterAll(() => {
  for (const folder of temporaryFolders) rmSync(folder, { recursive: true, force: true });
});

/** Runs `command` in its own process group until it prints the mock's origin; answers the origin and a stop function. */
async function startCommand(command: string, args: string[], cwd: string) {
  const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const stopCommand = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already exited
    }
  };
  let output = '';
  const origin = await new Promise<string>((found, failed) => {
    const timer = setTimeout(() => failed(new Error(`${command} ${args.join(' ')} printed no origin in 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /platform mock listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        found(match[1]!);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      failed(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  }).catch((error: unknown) => {
    stopCommand();
    throw error;
  });
  return { origin, output: () => output, stop: stopCommand };
}

/** Checks that the mock at `origin` serves its home page and mints a session with the key it printed. */
async function expectServing(origin: string, output: string) {
  const apiKey = /API key: (\S+)/.exec(output)?.[1];
  expect(apiKey).toBe('mock-platform-api-key');
  const home = await fetch(`${origin}/`);
  expect(home.status).toBe(200);
  expect(await home.text()).toContain('platform mock');
  const minted = await fetch(`${origin}/api/v1/embed/generate-session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Api-Key ${apiKey}` },
    body: JSON.stringify({ deploymentId: 1, externalId: 'jane@example.com' }),
  });
  expect(minted.status).toBe(200);
  expect(await minted.json()).toEqual({ sessionId: expect.any(String) });
}

describe('the platform-mock command', () => {
  it.each(['npx platform-mock --port 0', 'pnpm exec platform-mock --port 0'])(
    'runs from the repository root as `%s`',
    { timeout: 60_000 },
    async (commandLine) => {
      const [command, ...args] = commandLine.split(' ') as [string, ...string[]];
      expect(existsSync(join(repositoryRoot, 'packages/mock/dist/cli.mjs')), 'build the packages first: pnpm build').toBe(true);
      const mock = await startCommand(command, args, repositoryRoot);
      try {
        await expectServing(mock.origin, mock.output());
      } finally {
        mock.stop();
      }
    },
  );

  it('runs from the packed package installed in another project', { timeout: 120_000 }, async () => {
    const project = mkdtempSync(join(tmpdir(), 'platform-mock-packed-'));
    temporaryFolders.push(project);
    for (const name of ['core', 'server', 'mock'])
      execFileSync('pnpm', ['pack', '--pack-destination', project], { cwd: join(repositoryRoot, 'packages', name), stdio: 'pipe' });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'packed-mock-check', private: true }));
    const tarballs = readdirSync(project).filter((file) => file.endsWith('.tgz'));
    expect(tarballs).toHaveLength(3);
    // Every dependency is one of the tarballs, so the install needs no registry.
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tarballs.map((file) => `./${file}`)], {
      cwd: project,
      stdio: 'pipe',
    });
    const mock = await startCommand('npx', ['platform-mock', '--port', '0'], project);
    try {
      await expectServing(mock.origin, mock.output());
    } finally {
      mock.stop();
    }
  });
});
