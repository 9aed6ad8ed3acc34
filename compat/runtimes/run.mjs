#!/usr/bin/env node
/*
 * The runtime matrix (issue 18): @platform-embed/server, as built, on every runtime a host
 * deploys to: Node (this one), Bun, Deno (also imported with no permission at all), Cloudflare's
 * workerd (with and without nodejs_compat) and Vercel's edge-runtime, each running checks.mjs
 * against the mock platform (packages/mock) and misbehaving upstreams started here on Node.
 *
 * The runtimes come from the npm registry as this package's devDependencies. Their binaries
 * are in per-platform optional packages (bun's, deno's and workerd's own install scripts are not
 * run): a runtime whose package did not install on this machine (no build for this platform)
 * is skipped, and the output says so. Any failing check fails the run (exit code 1).
 *
 * Usage: node compat/runtimes/run.mjs [runtime ...]   (run by `pnpm test:runtimes`, part of `pnpm test`)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, realpathSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { EdgeRuntime } from 'edge-runtime';
import { startMockPlatform } from '@platform-embed/mock';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const RUN_TIMEOUT_MS = 60_000;
const API_KEY = 'matrix-api-key-0123456789';

// ---------------------------------------------------------------------------------------------
// The targets: the mock platform, throttled copies of it, and upstreams that misbehave

/** Starts a Node server on the loopback answering every request with `answer(req, res)`. */
async function startUpstream(answer) {
  const server = createServer((req, res) => {
    req.resume();
    answer(req, res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}

async function startTargets() {
  const platform = await startMockPlatform({ host: '127.0.0.1', apiKeys: [API_KEY] });
  const limited = await startMockPlatform({ host: '127.0.0.1', apiKeys: [API_KEY] });
  limited.throttle({ status: 429, retryAfter: 7 });
  // An HTTP date a minute after each answer, with the answer's own Date.
  const unavailable = await startUpstream((_, res) => {
    res.writeHead(503, {
      'content-type': 'application/json',
      date: new Date().toUTCString(),
      'retry-after': new Date(Date.now() + 60_000).toUTCString(),
    });
    res.end(JSON.stringify({ message: 'maintenance' }));
  });
  const oversized = await startUpstream((_, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"sessionId":"${'s'.repeat(1024 * 1024)}"}`);
  });
  // Echoes the Authorization header it received: base64-encoded, upper-cased and URL-encoded.
  const echoing = await startUpstream((req, res) => {
    const header = req.headers.authorization ?? '';
    const key = header.replace(/^Api-Key /, '');
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        message: `invalid credentials ${Buffer.from(header).toString('base64')} (${key.toUpperCase()}, ${encodeURIComponent(key)})`,
      }),
    );
  });
  const targets = {
    platform: platform.origin,
    limited: limited.origin,
    unavailable: unavailable.origin,
    oversized: oversized.origin,
    echoing: echoing.origin,
    apiKey: API_KEY,
  };
  const close = () => Promise.all([platform.close(), limited.close(), unavailable.close(), oversized.close(), echoing.close()]);
  return { targets, close };
}

// ---------------------------------------------------------------------------------------------
// Finding a runtime's binary in its per-platform package

const PLATFORM_TOKENS = { linux: ['linux'], darwin: ['darwin'], win32: ['win32', 'windows'] };
const ARCH_TOKENS = { x64: ['x64', '64'], arm64: ['arm64', 'aarch64'] };

/**
 * The binary of a runtime package (`bun`, `deno`, `workerd`): in the optional dependency built
 * for this platform, at `pathInPackage`. Returns `{ binary }` or `{ skip: reason }`.
 */
function findBinary(wrapper, pathInPackage) {
  let wrapperDir;
  try {
    wrapperDir = dirname(realpathSync(require.resolve(`${wrapper}/package.json`)));
  } catch {
    return { skip: `the ${wrapper} package is not installed (run pnpm install)` };
  }
  const { optionalDependencies = {}, version } = JSON.parse(readFileSync(join(wrapperDir, 'package.json'), 'utf8'));
  const platformTokens = PLATFORM_TOKENS[process.platform] ?? [process.platform];
  const archTokens = ARCH_TOKENS[process.arch] ?? [process.arch];
  const fitting = Object.keys(optionalDependencies).filter((name) => {
    const parts = name.split('/').pop().split('-');
    const fits = parts.some((part) => platformTokens.includes(part)) && parts.some((part) => archTokens.includes(part));
    return fits && !parts.includes('musl') && !parts.includes('android');
  });
  const fromWrapper = createRequire(join(wrapperDir, 'package.json'));
  for (const name of fitting) {
    try {
      const binary = join(dirname(fromWrapper.resolve(`${name}/package.json`)), pathInPackage);
      if (existsSync(binary)) return { binary, version };
    } catch {}
  }
  return {
    skip: `${wrapper} ${version} has no build that installed on ${process.platform}-${process.arch} (looked for ${fitting.join(', ') || 'a package for this platform'})`,
  };
}

// ---------------------------------------------------------------------------------------------
// Running a program and reading the JSON line of results it prints

function runProgram(command, args, { env = {}, extraFd = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: here,
      env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', ...env },
      stdio: extraFd ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')}: no end within ${RUN_TIMEOUT_MS / 1000} s\n${stderr}`));
    }, RUN_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, child });
    });
    if (extraFd) resolve({ child, stdoutSoFar: () => stdout, stderrSoFar: () => stderr });
  });
}

/** The results line a program printed, or a single failed result saying what went wrong. */
function resultsOf({ code, stdout, stderr }, what) {
  const line = stdout.trim().split('\n').pop() ?? '';
  try {
    const results = JSON.parse(line);
    if (Array.isArray(results)) return results;
  } catch {}
  return [{ name: what, ok: false, detail: `exit code ${code}, no results printed\n${stdout}${stderr}`.trim() }];
}

async function bundle(entry, conditions, format) {
  const result = await build({
    entryPoints: [join(here, 'entries', entry)],
    bundle: true,
    write: false,
    format,
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions,
    target: 'es2022',
    logLevel: 'silent',
    metafile: true,
  });
  // The package as built, not its sources (esbuild follows a tsconfig's paths: this folder's has none).
  const inputs = Object.keys(result.metafile.inputs);
  if (!inputs.some((input) => input.endsWith('packages/server/dist/index.mjs')) || inputs.some((input) => input.includes('/src/')))
    throw new Error(`the ${entry} bundle does not use the built @platform-embed/server: ${inputs.join(', ')}`);
  return result.outputFiles[0].text;
}

// ---------------------------------------------------------------------------------------------
// The runtimes

/** Each runtime: its name and how to run the checks on it; `run` returns `{ version, results }` or `{ skip }`. */
const RUNTIMES = {
  async node(targets) {
    const run = await runProgram(process.execPath, [join('entries', 'direct.mjs'), JSON.stringify(targets)]);
    return { version: process.version, results: resultsOf(run, 'node') };
  },

  async bun(targets) {
    const found = findBinary('bun', 'bin/bun');
    if (found.skip) return found;
    const run = await runProgram(found.binary, [join('entries', 'direct.mjs'), JSON.stringify(targets)]);
    return { version: found.version, results: resultsOf(run, 'bun') };
  },

  async deno(targets) {
    const found = findBinary('deno', 'deno');
    if (found.skip) return found;
    // First with no permission at all: importing the server must not need one.
    const bare = await runProgram(found.binary, ['run', '--no-prompt', '--no-lock', join('entries', 'importOnly.mjs')]);
    const full = await runProgram(found.binary, [
      'run',
      '--no-prompt',
      '--no-lock',
      '--allow-net=127.0.0.1',
      join('entries', 'direct.mjs'),
      JSON.stringify(targets),
    ]);
    return { version: found.version, results: [...resultsOf(bare, 'deno with no permission'), ...resultsOf(full, 'deno')] };
  },

  async workerd(targets) {
    const found = findBinary('workerd', 'bin/workerd');
    if (found.skip) return found;
    const dir = mkdtempSync(join(tmpdir(), 'runtime-matrix-workerd-'));
    try {
      writeFileSync(join(dir, 'worker.mjs'), await bundle('worker.mjs', ['workerd', 'worker', 'browser'], 'esm'));
      writeFileSync(join(dir, 'config.capnp'), workerdConfig());
      const started = await runProgram(
        found.binary,
        ['serve', join(dir, 'config.capnp'), '--control-fd=3', '--socket-addr=plain=127.0.0.1:0', '--socket-addr=compat=127.0.0.1:0'],
        { extraFd: true },
      );
      try {
        const ports = await listenPorts(started.child, ['plain', 'compat'], started.stderrSoFar);
        const query = `?targets=${encodeURIComponent(JSON.stringify(targets))}`;
        const results = [];
        for (const [socket, label] of [
          ['plain', ''],
          ['compat', ' (nodejs_compat)'],
        ]) {
          const response = await fetch(`http://127.0.0.1:${ports[socket]}/${query}`);
          const text = await response.text();
          const run = { code: response.status, stdout: text, stderr: started.stderrSoFar() };
          results.push(...resultsOf(run, `workerd${label}`).map((result) => ({ ...result, name: `${result.name}${label}` })));
        }
        return { version: found.version, results };
      } finally {
        started.child.kill('SIGTERM');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },

  async 'edge-runtime'(targets) {
    const { version } = JSON.parse(readFileSync(require.resolve('edge-runtime/package.json'), 'utf8'));
    const runtime = new EdgeRuntime({ initialCode: await bundle('edge.mjs', ['edge-light', 'worker', 'browser'], 'iife') });
    const results = await runtime.evaluate(`runRuntimeChecks(${JSON.stringify(targets)})`);
    return { version, results: JSON.parse(JSON.stringify(results)) };
  },
};

/** Two workers from one bundle: one without and one with the nodejs_compat flag. */
function workerdConfig() {
  const worker = (flags) => `(
    modules = [ (name = "worker.mjs", esModule = embed "worker.mjs") ],
    compatibilityDate = "2025-09-01",
    compatibilityFlags = [${flags}],
    globalOutbound = "loopback",
  )`;
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "plain", worker = ${worker('')}),
    (name = "compat", worker = ${worker('"nodejs_compat"')}),
    # The checks call the mock platform on 127.0.0.1, which the default outbound refuses.
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [
    (name = "plain", address = "127.0.0.1:0", http = (), service = "plain"),
    (name = "compat", address = "127.0.0.1:0", http = (), service = "compat"),
  ],
);
`;
}

/** The ports workerd listens on, from the `listen` events it writes to its control file descriptor. */
function listenPorts(child, sockets, stderrSoFar) {
  return new Promise((resolve, reject) => {
    const ports = {};
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`workerd did not listen within 20 s\n${stderrSoFar()}`)), 20_000);
    child.stdio[3].on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) {
        const event = JSON.parse(line);
        if (event.event === 'listen') ports[event.socket] = event.port;
      }
      if (sockets.every((socket) => ports[socket])) {
        clearTimeout(timer);
        resolve(ports);
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`workerd exited (code ${code}) before listening\n${stderrSoFar()}`));
    });
  });
}

// ---------------------------------------------------------------------------------------------

function seconds(ms) {
  return `${(ms / 1000).toFixed(1)} s`;
}

async function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !(name in RUNTIMES));
  if (unknown.length) throw new Error(`unknown runtime ${unknown.join(', ')}: the runtimes are ${Object.keys(RUNTIMES).join(', ')}`);
  const names = wanted.length ? wanted : Object.keys(RUNTIMES);
  const startedAt = performance.now();
  const { targets, close } = await startTargets();
  const summary = { passed: 0, failed: 0, skipped: 0 };
  try {
    for (const name of names) {
      const runtimeStart = performance.now();
      let outcome;
      try {
        outcome = await RUNTIMES[name](targets);
      } catch (error) {
        outcome = { results: [{ name, ok: false, detail: error instanceof Error ? error.stack : String(error) }] };
      }
      const took = seconds(performance.now() - runtimeStart);
      if (outcome.skip) {
        summary.skipped++;
        console.log(`- ${name}: SKIPPED, ${outcome.skip}`);
        continue;
      }
      const failures = outcome.results.filter((result) => !result.ok);
      const label = `${name}${outcome.version ? ` ${outcome.version}` : ''}`;
      if (failures.length === 0) {
        summary.passed++;
        console.log(`✓ ${label}: ${outcome.results.length} checks passed in ${took}`);
      } else {
        summary.failed++;
        console.log(`✗ ${label}: ${failures.length} of ${outcome.results.length} checks failed in ${took}`);
        for (const failure of failures) console.log(`    ✗ ${failure.name}\n      ${String(failure.detail).split('\n').join('\n      ')}`);
      }
    }
  } finally {
    await close();
  }
  console.log(
    `runtime matrix: ${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped, in ${seconds(performance.now() - startedAt)}`,
  );
  process.exitCode = summary.failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exitCode = 1;
});
