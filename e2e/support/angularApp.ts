import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

/*
 * A fresh Angular app, as a user makes one: `ng new --ssr` with the Angular CLI of the
 * workspace (e2e/package.json), our packages installed from their `pnpm pack` tarballs (core,
 * angular, server, element) with the scaffold's own dependencies from the registry, the files of
 * e2e/angular copied over the scaffold, then `ng build` three times: the `production` configuration
 * (zoneless), `production,zone` (zone.js) and `development` (zoneless). Each build is a browser and a server bundle (SSR,
 * `outputMode: server`); the server bundle is the scaffold's Express server with a session route.
 *
 * It lives outside the repository (in the OS's temporary folder), so that nothing resolves
 * through the workspace's node_modules, and is made once per change of its inputs (our packages'
 * builds, e2e/angular, this file): a run after that reuses the app and its two builds.
 */

const root = resolve(import.meta.dirname, '../..');
const template = join(root, 'e2e/angular');
const packed = ['core', 'server', 'angular', 'element'] as const;
const workDir = join(tmpdir(), `platform-embed-angular-e2e-${createHash('sha256').update(root).digest('hex').slice(0, 8)}`);
const appDir = join(workDir, 'host');
const stampFile = join(workDir, 'stamp');

/** The builds of the app: its zoneless `production` configuration, `zone` on top of it, and its `development` configuration. */
export type AngularBuild = 'zoneless' | 'zone' | 'development';

/** The steps that ran and how long each took (nothing when the app was reused). */
export interface AngularAppReport {
  reused: boolean;
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

/** Every file under `path`, for the stamp. */
function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => filesUnder(join(path, name)));
}

/** A hash of everything the app is made from. */
function inputsStamp(): string {
  const hash = createHash('sha256');
  const inputs = [
    ...packed.flatMap((name) => filesUnder(join(root, 'packages', name, 'dist'))),
    ...filesUnder(template),
    import.meta.filename,
    join(root, 'e2e/package.json'),
  ];
  for (const file of inputs) hash.update(relative(root, file)).update(readFileSync(file));
  return hash.digest('hex');
}

const isBuilt = (build: AngularBuild) => existsSync(join(appDir, 'dist', build, 'server/server.mjs'));

/** The scaffold's package.json with our packages from their tarballs (and the core they depend on, by override) and zone.js. */
function addDependencies(tarballs: Record<(typeof packed)[number], string>) {
  const manifestPath = join(appDir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const file = (name: (typeof packed)[number]) => `file:../${tarballs[name]}`;
  manifest.dependencies['@platform-embed/angular'] = file('angular');
  manifest.dependencies['@platform-embed/core'] = file('core');
  manifest.dependencies['@platform-embed/server'] = file('server');
  manifest.dependencies['@platform-embed/element'] = file('element');
  manifest.dependencies['zone.js'] = '~0.16.0';
  // The packed packages depend on `@platform-embed/core@^0.1.0`: the tarball, not the registry.
  manifest.pnpm = { overrides: { '@platform-embed/core': file('core') } };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** angular.json: an output folder per build, the `zone` configuration, and the host the e2e serves from. */
function configureBuilds() {
  const configPath = join(appDir, 'angular.json');
  const config = JSON.parse(readFileSync(configPath, 'utf8'));
  const build = config.projects.host.architect.build;
  build.options.security = { allowedHosts: ['127.0.0.1'] };
  build.configurations.production.outputPath = 'dist/zoneless';
  build.configurations.development.outputPath = 'dist/development';
  build.configurations.zone = {
    outputPath: 'dist/zone',
    polyfills: ['zone.js'],
    fileReplacements: [{ replace: 'src/app/app.config.ts', with: 'src/app/app.config.zone.ts' }],
  };
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
}

/** Makes the app and its three builds, unless they are there and up to date. */
export function prepareAngularApp(): AngularAppReport {
  const stamp = inputsStamp();
  if (
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === stamp &&
    isBuilt('zoneless') &&
    isBuilt('zone') &&
    isBuilt('development')
  )
    return { reused: true, steps: [] };
  const steps: AngularAppReport['steps'] = [];
  const timed = (step: string, work: () => void) => {
    const start = performance.now();
    work();
    steps.push({ step, seconds: Math.round((performance.now() - start) / 100) / 10 });
  };
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const ng = createRequire(join(root, 'e2e/package.json')).resolve('@angular/cli/bin/ng.js');
  timed('ng new', () =>
    run(
      process.execPath,
      [
        ng,
        'new',
        'host',
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
  rmSync(join(appDir, 'src/app/app.html'));
  cpSync(template, appDir, { recursive: true });
  writeFileSync(join(appDir, 'src/app/app.html'), '<router-outlet />\n');
  addDependencies(tarballs);
  configureBuilds();
  // Outside any workspace; the store of the workspace's own install makes this mostly links.
  timed('pnpm install', () => run('pnpm', ['install', '--ignore-workspace', '--prefer-offline', '--reporter=silent'], appDir));
  const appNg = join(appDir, 'node_modules/@angular/cli/bin/ng.js');
  timed('ng build (zoneless)', () => run(process.execPath, [appNg, 'build'], appDir));
  timed('ng build (zone.js)', () => run(process.execPath, [appNg, 'build', '--configuration', 'production,zone'], appDir));
  timed('ng build (development)', () => run(process.execPath, [appNg, 'build', '--configuration', 'development'], appDir));
  writeFileSync(stampFile, stamp);
  return { reused: false, steps };
}

/** A running server of one build. */
export interface AngularServer {
  origin: string;
  close(): Promise<void>;
}

/** Starts the Express server of `build` on a free port of 127.0.0.1, minting sessions on `platform`. */
export async function startAngularServer(build: AngularBuild, platform: { origin: string; apiKey: string }): Promise<AngularServer> {
  const child: ChildProcess = spawn(process.execPath, [join(appDir, 'dist', build, 'server/server.mjs')], {
    cwd: appDir,
    env: appEnv({ PORT: '0', PLATFORM_URL: platform.origin, PLATFORM_API_KEY: platform.apiKey, NODE_ENV: 'production' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const origin = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the ${build} server did not start within 20 s:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        done(match[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => fail(new Error(`the ${build} server exited (code ${code}):\n${output}`)));
  });
  return {
    origin,
    close: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill();
      }),
  };
}
