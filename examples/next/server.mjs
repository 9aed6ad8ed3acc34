// Starts the Next.js host as in production (`next start`), with the platform in its environment:
// used by `pnpm demo` (examples/shared/demo.mjs) and the end-to-end tests (e2e/next.spec.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { join } from 'node:path';

const app = import.meta.dirname;
const root = join(app, '../..');
const nextBin = createRequire(join(app, 'package.json')).resolve('next/dist/bin/next');

/** The environment of `next build` and `next start`: telemetry off, and without an inherited NODE_PATH. */
function nextEnv(extra = {}) {
  // pnpm's bin shims (of playwright, for one) set NODE_PATH to pnpm's hoisted store; inherited,
  // it makes `next build` fail to prerender ("Cannot read properties of null (reading 'useContext')").
  const { NODE_PATH: _nodePath, ...inherited } = process.env;
  return { ...inherited, NEXT_TELEMETRY_DISABLED: '1', ...extra };
}

/** The newest modification time under `path` (a file or a folder). */
const newest = (path) =>
  statSync(path).isDirectory()
    ? readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), 0)
    : statSync(path).mtimeMs;

/** Whether `.next` holds a production build newer than the app and the packages it bundles. */
export function isBuilt() {
  const marker = join(app, '.next/BUILD_ID');
  if (!existsSync(marker)) return false;
  const sources = [
    join(app, 'app'),
    join(app, 'next.config.ts'),
    join(app, 'package.json'),
    ...['core', 'react', 'server'].map((p) => join(root, 'packages', p, 'dist')),
  ].filter((path) => existsSync(path));
  return statSync(marker).mtimeMs > Math.max(...sources.map(newest));
}

/** Runs `next build` unless the build is up to date; throws with its output when it fails. */
export function buildIfStale() {
  if (isBuilt()) return;
  const build = spawnSync(process.execPath, [nextBin, 'build'], { cwd: app, env: nextEnv(), encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`next build failed (exit code ${build.status}):\n${build.stdout}\n${build.stderr}`);
}

/** A free port on `host` (the port 0 of the demo's variables means "pick one"). */
const freePort = (host) =>
  new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail).listen(0, host, () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });

/**
 * Starts `next start` on `port` (0: a free one) and resolves once it answers.
 * Rejects with `code: 'EADDRINUSE'` when the port is taken, else with the server's output.
 * @param {{
 *   platform: { baseUrl: string, apiKey: string, deploymentId: number, publicId: string },
 *   port?: number,
 *   host?: string,
 *   timeoutMs?: number,
 * }} options
 * @returns {Promise<{ origin: string, output: () => string, close: () => Promise<void> }>}
 */
export async function startNextHost({ platform, port = 0, host = '127.0.0.1', timeoutMs = 30_000 }) {
  if (!existsSync(join(app, '.next/BUILD_ID')))
    throw new Error('the Next.js host is not built: run `pnpm build:examples` (or `pnpm --filter @platform-embed/example-next build`)');
  const listenOn = port || (await freePort(host));
  const child = spawn(process.execPath, [nextBin, 'start', '-p', String(listenOn), '-H', host], {
    cwd: app,
    env: nextEnv({
      PLATFORM_URL: platform.baseUrl,
      PLATFORM_API_KEY: platform.apiKey,
      PLATFORM_DEPLOYMENT_ID: String(platform.deploymentId),
      PLATFORM_DASHBOARD_ID: platform.publicId,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((done) => child.once('exit', () => done(undefined)));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const origin = `http://${host}:${listenOn}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // `next start` may keep running after it failed to listen: its output says so.
    if (/EADDRINUSE/.test(output)) {
      await close();
      throw Object.assign(new Error(`port ${listenOn} on ${host} is already in use`), { code: 'EADDRINUSE' });
    }
    if (child.exitCode !== null) {
      await exited;
      throw new Error(`next start exited with code ${child.exitCode}:\n${output}`);
    }
    // Any answer will do (a 404 for this path): the server is listening. Not waiting long: another
    // program on the port may accept the connection and never answer.
    const answered = await fetch(`${origin}/_next/ping`, { signal: AbortSignal.timeout(1000) }).then(
      () => true,
      () => false,
    );
    if (answered && !/EADDRINUSE/.test(output)) return { origin, output: () => output, close };
    if (Date.now() > deadline) {
      await close();
      throw new Error(`next start did not answer within ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((done) => setTimeout(done, 200));
  }
}
