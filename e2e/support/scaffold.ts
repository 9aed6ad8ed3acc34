import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// Fresh apps as a user builds them: our packages as `pnpm pack` writes them (what npm would
// serve), installed with the toolchains into one project in a temporary folder, and resolved by
// package name with each tool's own conditions. Installed once: the folder's name is a hash of
// the packed packages and the toolchains' versions, so the specs of one run (and later runs on
// the same build) reuse it; the toolchains come from pnpm's store, where `npm run setup` put them
// (they are e2e's devDependencies), so the install downloads nothing.

const root = resolve(import.meta.dirname, '../..');
const e2e = resolve(import.meta.dirname, '..');
/** The packages an app installs, packed from packages/<name>. */
const PACKED = ['core', 'react', 'vue', 'server', 'element'];

/**
 * The version of `name` installed for `from` (a workspace folder): the scaffold installs the same
 * one. Its package.json is looked for in the folders Node resolves `name` from, not through
 * `require.resolve('<name>/package.json')`, which a package whose `exports` leave it out refuses
 * (@vitejs/plugin-react 6).
 */
function versionOf(name: string, from: string): string {
  const folders = createRequire(join(from, 'package.json')).resolve.paths(name) ?? [];
  const manifest = folders.map((folder) => join(folder, name, 'package.json')).find((path) => existsSync(path));
  if (!manifest) throw new Error(`${name} is not installed for ${from}`);
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** The toolchains and frameworks of the fresh apps, at the versions the workspace installs. */
const toolchains = (): Record<string, string> => {
  const next = join(root, 'examples/next');
  return {
    esbuild: versionOf('esbuild', root),
    vite: versionOf('vite', root),
    webpack: versionOf('webpack', e2e),
    'webpack-cli': versionOf('webpack-cli', e2e),
    next: versionOf('next', next),
    react: versionOf('react', next),
    'react-dom': versionOf('react-dom', next),
    nuxt: versionOf('nuxt', e2e),
    vue: versionOf('vue', root),
    'vue-tsc': versionOf('vue-tsc', root),
    typescript: versionOf('typescript', root),
    '@types/node': versionOf('@types/node', root),
    '@types/react': versionOf('@types/react', root),
    '@types/react-dom': versionOf('@types/react-dom', root),
    // The routers of the keep-alive apps (a route left and entered again).
    'react-router': versionOf('react-router', e2e),
    'vue-router': versionOf('vue-router', e2e),
    '@vitejs/plugin-react': versionOf('@vitejs/plugin-react', root),
    '@vitejs/plugin-vue': versionOf('@vitejs/plugin-vue', root),
    // What create-vite's vue-ts template extends its tsconfig from.
    '@vue/tsconfig': versionOf('@vue/tsconfig', e2e),
  };
};

/** The installed project: `dir` holds node_modules; each app lives in a folder of its own inside it. */
export interface Scaffold {
  dir: string;
  /** The path of an installed package's file, e.g. `bin('vite', 'bin/vite.js')`. */
  file(pkg: string, path: string): string;
  /** A fresh folder for one app (emptied first), inside the project so it resolves its node_modules. */
  app(name: string): string;
}

/** The environment of the commands run in the scaffold: no settings of the pnpm that runs the tests. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(npm_|pnpm_|NODE_PATH$|NODE_ENV$|INIT_CWD$|PNPM_)/i.test(key)) env[key] = value;
  return { ...env, NEXT_TELEMETRY_DISABLED: '1', NUXT_TELEMETRY_DISABLED: '1', CI: 'true', ...extra };
}

/** pnpm: the one running the tests (`pnpm e2e` sets npm_execpath), else the one on the PATH. */
function pnpm(args: string[], options: { cwd: string; timeout?: number }): string {
  const runner = process.env.npm_execpath;
  const [command, prefix] = runner && /pnpm/.test(runner) ? [process.execPath, [runner]] : ['pnpm', []];
  return execFileSync(command, [...prefix, ...args], { ...options, env: cleanEnv(), encoding: 'utf8', stdio: 'pipe' });
}

/** The folders of this checkout's installs start with this (other checkouts on the machine have their own). */
const PREFIX = `platform-embed-fresh-apps-${createHash('sha256').update(root).digest('hex').slice(0, 8)}-`;

/** A hash of every built file of the packed packages and of the toolchains' versions. */
function fingerprint(versions: Record<string, string>): string {
  const hash = createHash('sha256').update(JSON.stringify(versions));
  for (const name of PACKED) {
    const dist = join(root, 'packages', name, 'dist');
    if (!existsSync(dist)) throw new Error(`packages/${name} is not built: run \`pnpm build\` first`);
    hash.update(readFileSync(join(root, 'packages', name, 'package.json')));
    for (const file of readdirSync(dist).sort()) hash.update(file).update(readFileSync(join(dist, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

function install(dir: string, versions: Record<string, string>) {
  rmSync(dir, { recursive: true, force: true });
  const packs = join(dir, 'packs');
  mkdirSync(packs, { recursive: true });
  const tarballs: Record<string, string> = {};
  for (const name of PACKED) {
    const out = pnpm(['pack', '--pack-destination', packs], { cwd: join(root, 'packages', name) });
    const tarball = out.trim().split('\n').at(-1)!.trim();
    tarballs[`@platform-embed/${name}`] = `file:${tarball}`;
  }
  const manifest = {
    name: 'platform-embed-fresh-apps',
    private: true,
    type: 'module',
    dependencies: { ...tarballs, ...versions },
    // The packed adapters depend on `@platform-embed/core@^<version>`: the packed one, not npm's.
    pnpm: { overrides: tarballs },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  try {
    pnpm(['install', '--prefer-offline', '--ignore-workspace', '--reporter=append-only'], { cwd: dir, timeout: 600_000 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`installing the fresh apps' project in ${dir} failed:\n${stdout}\n${stderr}`, { cause: error });
  }
  writeFileSync(join(dir, '.installed'), new Date().toISOString());
}

let installed: Scaffold | undefined;

/** The installed project, installing it when this build of the packages has none yet. */
export function scaffold(): Scaffold {
  if (installed) return installed;
  const versions = toolchains();
  const dir = join(tmpdir(), PREFIX + fingerprint(versions));
  if (!existsSync(join(dir, '.installed'))) {
    // This checkout's installs of earlier builds (about 600 MB each) are not needed any more.
    for (const name of readdirSync(tmpdir())) if (name.startsWith(PREFIX)) rmSync(join(tmpdir(), name), { recursive: true, force: true });
    install(dir, versions);
  }
  const file = (pkg: string, path: string) => join(dir, 'node_modules', pkg, path);
  const app = (name: string) => {
    const folder = join(dir, 'apps', name);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    return folder;
  };
  return (installed = { dir, file, app });
}

/** Writes `files` (path relative to `dir` → content) under `dir`. */
export function writeFiles(dir: string, files: Record<string, string>) {
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    mkdirSync(resolve(target, '..'), { recursive: true });
    writeFileSync(target, content);
  }
}

/** Runs a Node script (a tool's bin) to its end; throws with its output when it fails. */
export function runNode(script: string, args: string[], options: { cwd: string; env?: Record<string, string>; timeout?: number }) {
  try {
    return execFileSync(process.execPath, [script, ...args], {
      cwd: options.cwd,
      env: cleanEnv(options.env),
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: options.timeout ?? 300_000,
    });
  } catch (error) {
    const { stdout = '', stderr = '', status } = error as { stdout?: string; stderr?: string; status?: number };
    throw new Error(`${script} ${args.join(' ')} failed (exit code ${status}):\n${stdout}\n${stderr}`, { cause: error });
  }
}

/** A free port on 127.0.0.1. */
export const freePort = () =>
  new Promise<number>((done, fail) => {
    const probe = createServer();
    probe.once('error', fail).listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

/** A long-running command (a dev server): its output so far, and a stop that waits for its exit. */
export interface RunningCommand {
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a Node script (a dev server) and resolves once `url` answers (any status), or once its
 * output matches `ready` (for a server that must not be asked anything before the test does), or
 * rejects with the output when it exits first or is not ready within `timeoutMs`.
 */
export async function startNode(
  script: string,
  args: string[],
  options: { cwd: string; url?: string; ready?: RegExp; env?: Record<string, string>; timeoutMs?: number },
): Promise<RunningCommand> {
  const child: ChildProcess = spawn(process.execPath, [script, ...args], {
    cwd: options.cwd,
    env: cleanEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that stop() also ends the workers it starts.
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    await exited;
  };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} ${args.join(' ')} exited with code ${child.exitCode}:\n${output}`);
    const ready = options.ready
      ? options.ready.test(output)
      : await fetch(options.url!, { signal: AbortSignal.timeout(2000) }).then(
          () => true,
          () => false,
        );
    if (ready) return { output: () => output, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${script} ${args.join(' ')} was not ready (${options.ready ?? options.url}) in time:\n${output}`);
    }
    await new Promise((done) => setTimeout(done, 250));
  }
}
