import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { TENANT, type Guide } from './guides';
import { freePort } from './scaffold';

/*
 * The Angular guide's app (docs/guide/angular.md), as a user makes it: `ng new sales-app --ssr`
 * with the Angular CLI of the workspace (e2e/package.json), our packages installed from their
 * `pnpm pack` tarballs (core, angular, server, element) with the scaffold's own dependencies from
 * the registry, the guide's files over the scaffold, then `ng build` (the `production`
 * configuration: zoneless, as the guide's app is) and `ng serve` (development).
 *
 * The same app carries the pages of the test's own (e2e/angular: their routes are added to the
 * guide's), for what the guide does not show: outputs, the handle, hydration, route reuse, the
 * custom element. A second build, `production,zone`, bootstraps the same app with zone.js and the
 * test's RouteReuseStrategy (e2e/angular/src/main.zone.ts: routes marked `data: { reuse: true }`
 * are detached and attached again, through keepEmbeds() unless the page's address says
 * `?plainRouter`).
 *
 * It lives outside the repository (in the OS's temporary folder), so that nothing resolves
 * through the workspace's node_modules. The project (ng new, the install) is made once per build
 * of our packages; the app's builds once per change of what is written into it (the guide, the
 * test's pages, the mock platform's address the guide's tenant is pointed at).
 */

const root = resolve(import.meta.dirname, '../..');
const testPages = join(root, 'e2e/angular');
const packed = ['core', 'server', 'angular', 'element'] as const;
const workDir = join(tmpdir(), `platform-embed-angular-e2e-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`);
const NAME = 'sales-app';
const appDir = join(workDir, NAME);
/** The scaffold's src/ as `ng new` wrote it, restored before each app's files are written. */
const pristine = join(workDir, 'scaffold-src');

/** The two builds of the app: the guide's (`production`, zoneless), and `zone` on top of it. */
export type AngularBuild = 'zoneless' | 'zone';

/** The steps that ran and how long each took (nothing when everything was reused). */
export interface AngularAppReport {
  steps: { step: string; seconds: number }[];
}

/** The environment of the app's tools: without the NODE_PATH of pnpm's shims, which would resolve through the workspace. */
function appEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { NODE_PATH: _nodePath, ...inherited } = process.env;
  return { ...inherited, NG_CLI_ANALYTICS: 'false', NG_FORCE_TTY: 'false', ...extra };
}

function run(command: string, args: string[], cwd: string): void {
  try {
    execFileSync(command, args, { cwd, env: appEnv(), stdio: 'pipe', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`, { cause: error });
  }
}

/** Every file under `path`. */
function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

const hashOf = (parts: (string | Buffer)[]) => parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest('hex');

/** The project's inputs: our packages' builds, this file, the toolchain's versions. */
const projectStamp = () =>
  hashOf(
    [
      ...packed.flatMap((name) => filesUnder(join(root, 'packages', name, 'dist'))),
      import.meta.filename,
      join(root, 'e2e/package.json'),
    ].flatMap((file) => [relative(root, file), readFileSync(file)]),
  );

/** The scaffold's package.json with our packages from their tarballs (and the core they depend on, by override) and zone.js. */
function addDependencies(tarballs: Record<(typeof packed)[number], string>) {
  const manifestPath = join(appDir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const file = (name: (typeof packed)[number]) => `file:../${tarballs[name]}`;
  for (const name of packed) manifest.dependencies[`@platform-embed/${name}`] = file(name);
  manifest.dependencies['zone.js'] = '~0.16.0';
  // The packed packages depend on `@platform-embed/core@^0.1.0`: the tarball, not the registry.
  manifest.pnpm = { overrides: { '@platform-embed/core': file('core') } };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** angular.json: an output folder per build, the `zone` configuration, and the host the e2e serves from. */
function configureBuilds() {
  const configPath = join(appDir, 'angular.json');
  const config = JSON.parse(readFileSync(configPath, 'utf8'));
  const build = config.projects[NAME].architect.build;
  build.options.security = { allowedHosts: ['127.0.0.1'] };
  build.configurations.production.outputPath = 'dist/zoneless';
  build.configurations.zone = {
    outputPath: 'dist/zone',
    polyfills: ['zone.js'],
    fileReplacements: [{ replace: 'src/main.ts', with: 'src/main.zone.ts' }],
  };
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
}

/** `ng new`, our packed packages and the install, unless this build of our packages has them already. */
function prepareProject(timed: (step: string, work: () => void) => void) {
  const stamp = projectStamp();
  const stampFile = join(workDir, 'project-stamp');
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return;
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const ng = createRequire(join(root, 'e2e/package.json')).resolve('@angular/cli/bin/ng.js');
  timed('ng new', () =>
    run(
      process.execPath,
      [
        ng,
        'new',
        NAME,
        '--ssr',
        '--style=css',
        '--skip-git',
        '--skip-install',
        '--skip-tests',
        '--defaults',
        '--package-manager=pnpm',
        '--ai-config=none',
      ],
      workDir,
    ),
  );
  cpSync(join(appDir, 'src'), pristine, { recursive: true });
  const tarballs = {} as Record<(typeof packed)[number], string>;
  timed('pnpm pack', () => {
    for (const name of packed) {
      const before = new Set(readdirSync(workDir));
      run('pnpm', ['pack', '--pack-destination', workDir], join(root, 'packages', name));
      const tarball = readdirSync(workDir).find((file) => file.endsWith('.tgz') && !before.has(file));
      if (!tarball) throw new Error(`pnpm pack of packages/${name} wrote no tarball`);
      tarballs[name] = tarball;
    }
  });
  addDependencies(tarballs);
  configureBuilds();
  // Outside any workspace; the store of the workspace's own install makes this mostly links.
  timed('pnpm install', () => run('pnpm', ['install', '--ignore-workspace', '--prefer-offline', '--reporter=silent'], appDir));
  writeFileSync(stampFile, stamp);
}

/**
 * The app's files: the scaffold's src/ as `ng new` wrote it, the guide's files over it, the test's
 * pages beside them (their routes added to the guide's), every file embedding `platformOrigin`
 * where the guide embeds its tenant.
 */
function appFiles(guide: Guide, platformOrigin: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of filesUnder(pristine)) files.set(join('src', relative(pristine, file)), readFileSync(file, 'utf8'));
  for (const [path, content] of guide.files) files.set(path, content);
  for (const file of filesUnder(testPages))
    files.set(relative(testPages, file), readFileSync(file, 'utf8').replaceAll(TENANT, platformOrigin));
  const routes = 'src/app/app.routes.ts';
  files.set(
    routes,
    `${files.get(routes)}\n// The test's own pages (e2e/angular).\nimport { testRoutes } from './testRoutes';\nroutes.push(...testRoutes);\n`,
  );
  return files;
}

/** Makes the app (and the project, when needed) and its two builds, unless they are there and up to date. */
export function prepareAngularApp(guide: Guide, platformOrigin: string): AngularAppReport {
  const steps: AngularAppReport['steps'] = [];
  const timed = (step: string, work: () => void) => {
    const start = performance.now();
    work();
    steps.push({ step, seconds: Math.round((performance.now() - start) / 100) / 10 });
  };
  prepareProject(timed);
  const files = appFiles(guide, platformOrigin);
  const stamp = hashOf([readFileSync(join(workDir, 'project-stamp')), ...[...files].flat()]);
  const stampFile = join(workDir, 'app-stamp');
  const built = (build: AngularBuild) => existsSync(join(appDir, 'dist', build, 'server/server.mjs'));
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp && built('zoneless') && built('zone')) return { steps };
  rmSync(join(appDir, 'src'), { recursive: true, force: true });
  for (const [path, content] of files) {
    mkdirSync(resolve(appDir, path, '..'), { recursive: true });
    writeFileSync(join(appDir, path), content);
  }
  const ng = join(appDir, 'node_modules/@angular/cli/bin/ng.js');
  timed('ng build (zoneless)', () => run(process.execPath, [ng, 'build'], appDir));
  timed('ng build (zone.js)', () => run(process.execPath, [ng, 'build', '--configuration', 'production,zone'], appDir));
  writeFileSync(stampFile, stamp);
  return { steps };
}

/** A running server of the app: its origin, and its output so far. */
export interface AngularServer {
  origin: string;
  output(): string;
  close(): Promise<void>;
}

/**
 * Starts `command` (a Node script and its arguments, in the app's folder) and resolves once
 * `origin` answers; rejects with its output when it exits first or is not ready within `timeoutMs`.
 */
async function startServer(args: string[], origin: string, env: Record<string, string>, timeoutMs: number): Promise<AngularServer> {
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: appDir,
    env: appEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        // Its own process group: also the workers it starts.
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
    await exited;
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with code ${child.exitCode}:\n${output}`);
    const ready = await fetch(`${origin}/settings`, { signal: AbortSignal.timeout(5000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { origin, output: () => output, close };
    if (Date.now() > deadline) {
      await close();
      throw new Error(`${args.join(' ')} did not answer on ${origin} in time:\n${output}`);
    }
    await new Promise((done) => setTimeout(done, 250));
  }
}

/** The platform's address and key, under the names the guide's server reads. */
const platformEnv = (platform: { origin: string; apiKey: string }) => ({
  PLATFORM_URL: platform.origin,
  PLATFORM_API_KEY: platform.apiKey,
});

/** Starts the built Express server of `build` on a free port of 127.0.0.1, minting sessions on `platform`. */
export async function startAngularServer(build: AngularBuild, platform: { origin: string; apiKey: string }): Promise<AngularServer> {
  const port = await freePort();
  return startServer(
    [join(appDir, 'dist', build, 'server/server.mjs')],
    `http://127.0.0.1:${port}`,
    { ...platformEnv(platform), PORT: String(port), NODE_ENV: 'production' },
    20_000,
  );
}

/** Starts `ng serve` (the development build, with the guide's server.ts) on a free port of 127.0.0.1. */
export async function startAngularDevServer(platform: { origin: string; apiKey: string }): Promise<AngularServer> {
  const port = await freePort();
  return startServer(
    [join(appDir, 'node_modules/@angular/cli/bin/ng.js'), 'serve', '--port', String(port), '--host', '127.0.0.1'],
    `http://127.0.0.1:${port}`,
    platformEnv(platform),
    180_000,
  );
}
