#!/usr/bin/env node
/*
 * What `@platform-embed/angular` weighs in a fresh Angular app, as a user would measure it: the
 * browser bundle of an `ng new --ssr` app built for production, once without our component and
 * once with it, and the difference, gzipped (level 9).
 *
 * The app is made as e2e/support/angularApp.ts makes its own: the Angular CLI of the workspace
 * (e2e/package.json) scaffolds it, our packages are installed from their `pnpm pack` tarballs
 * (core and angular) with the scaffold's dependencies from the registry. Then it is built
 * (`ng build --stats-json`: the production configuration, zoneless, SSR and hydration) once per
 * variant of its root component, the scaffold's own (`app.ts`, and `app.html` with its
 * placeholder page):
 *
 * - `scaffold`: as `ng new` wrote it;
 * - `dashboard`: one `<platform-embed-dashboard>` added above the page, with `baseUrl`,
 *   `publicId` and `session` (the README's minimal use);
 * - `templates`: the same dashboard with a loading and an error template and one output bound;
 * - `core`: no component, but what the binding imports from `@platform-embed/core` (read from its
 *   build), kept alive: the core's share of the weight, which every binding pays.
 *
 * Printed: for each variant, the initial browser JavaScript (main, and the chunks it imports)
 * raw and gzipped, and what it adds to `scaffold`; the Angular binding's own share (`dashboard`
 * minus `core`: the binding and the framework code it pulls in); then, from the builds' esbuild
 * stats, which modules grew, grouped by package (`@angular/core` grows when the binding uses
 * more of it).
 *
 * The app lives in the OS's temporary folder (set TMPDIR to choose it), outside the repository
 * so that nothing resolves through the workspace. The packages must be built first:
 *
 *   pnpm --filter @platform-embed/core --filter @platform-embed/angular build
 *   node scripts/angularWeight.mjs           # scaffolds, installs and builds (a few minutes)
 *   node scripts/angularWeight.mjs --reuse   # keeps the scaffold; reinstalls our tarballs, builds
 *   node scripts/angularWeight.mjs --reuse --only=dashboard   # builds only that variant again
 *   node scripts/angularWeight.mjs --json    # the figures as JSON, after the table
 *   node scripts/angularWeight.mjs --record  # also writes them to docs/angular-weight.json,
 *                                            # which `node scripts/size.mjs` prints
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = resolve(import.meta.dirname, '..');
const workDir = join(tmpdir(), 'platform-embed-angular-weight');
const appDir = join(workDir, 'host');
const packed = ['core', 'angular'];
const reuse = process.argv.includes('--reuse') && existsSync(join(appDir, 'node_modules'));

/** The environment of the app's tools: without pnpm's NODE_PATH, which would resolve through the workspace. */
function appEnv() {
  const { NODE_PATH: _nodePath, ...inherited } = process.env;
  return { ...inherited, NG_CLI_ANALYTICS: 'false', NG_FORCE_TTY: 'false' };
}

function run(command, args, cwd) {
  try {
    return execFileSync(command, args, { cwd, env: appEnv(), stdio: 'pipe', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`, { cause: error });
  }
}

const step = (text) => process.stderr.write(`${text}\n`);

/** Packs our packages into the work folder; returns each one's tarball name. */
function pack() {
  const tarballs = {};
  for (const name of packed) {
    const dist = join(root, 'packages', name, 'dist');
    if (!existsSync(dist)) throw new Error(`packages/${name} is not built: pnpm --filter @platform-embed/${name} build`);
    const before = new Set(readdirSync(workDir));
    run('pnpm', ['pack', '--pack-destination', workDir], join(root, 'packages', name));
    tarballs[name] = readdirSync(workDir).find((file) => file.endsWith('.tgz') && !before.has(file));
  }
  return tarballs;
}

function scaffold() {
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const ng = createRequire(join(root, 'e2e/package.json')).resolve('@angular/cli/bin/ng.js');
  step('ng new --ssr ...');
  const flags = ['--ssr', '--style=css', '--skip-git', '--skip-install', '--skip-tests', '--defaults', '--package-manager=pnpm'];
  run(process.execPath, [ng, 'new', 'host', ...flags, '--ai-config=none'], workDir);
  const tarballs = pack();
  const manifestPath = join(appDir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.dependencies['@platform-embed/angular'] = `file:../${tarballs.angular}`;
  manifest.dependencies['@platform-embed/core'] = `file:../${tarballs.core}`;
  // The packed angular package depends on `@platform-embed/core@^0.1.0`: the tarball, not the registry.
  manifest.pnpm = { overrides: { '@platform-embed/core': `file:../${tarballs.core}` } };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  // No persistent build cache: each build links the installed packages anew.
  const configPath = join(appDir, 'angular.json');
  const config = JSON.parse(readFileSync(configPath, 'utf8'));
  config.cli = { ...config.cli, cache: { enabled: false } };
  writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
  mkdirSync(join(workDir, 'scaffold'));
  for (const file of ['app.ts', 'app.html']) cpSync(join(appDir, 'src/app', file), join(workDir, 'scaffold', file));
  step('pnpm install ...');
  run('pnpm', ['install', '--ignore-workspace', '--prefer-offline', '--reporter=silent'], appDir);
}

/** Replaces the installed packages' files with freshly packed ones (the scaffold and its install kept). */
function reinstall() {
  for (const file of readdirSync(workDir)) if (file.endsWith('.tgz')) rmSync(join(workDir, file));
  const tarballs = pack();
  for (const name of packed) {
    const installed = join(appDir, 'node_modules/.pnpm');
    const dir = readdirSync(installed).find((entry) => entry.startsWith(`@platform-embed+${name}@file`));
    const target = join(installed, dir, 'node_modules/@platform-embed', name);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    run('tar', ['-xzf', join(workDir, tarballs[name]), '-C', target, '--strip-components=1'], workDir);
  }
}

/** The names the built binding imports from the core (the `core` variant keeps the same ones alive). */
function coreImports() {
  const fesm = readFileSync(join(root, 'packages/angular/dist/fesm2022/platform-embed-angular.mjs'), 'utf8');
  const match = /import \{([^}]*)\} from '@platform-embed\/core'/.exec(fesm);
  return match[1].split(',').map((name) => name.trim().split(/\s+as\s+/)[0]);
}

const SESSION = "() => fetch('/api/embed-session', { method: 'POST' })";
const DASHBOARD = 'baseUrl="https://acme.platform.example" publicId="sales-overview" [session]="session" style="height: 600px"';
/** What each variant adds to the scaffold's root component: imports, markup above its page, class members. */
const VARIANTS = {
  scaffold: {},
  dashboard: {
    from: { '@platform-embed/angular': ['PlatformDashboard'] },
    imports: ['PlatformDashboard'],
    markup: `<platform-embed-dashboard ${DASHBOARD} />`,
    members: [`protected readonly session = ${SESSION};`],
  },
  templates: {
    from: { '@platform-embed/angular': ['PlatformDashboard', 'PlatformEmbedLoading', 'PlatformEmbedError'] },
    imports: ['PlatformDashboard', 'PlatformEmbedLoading', 'PlatformEmbedError'],
    markup:
      `<platform-embed-dashboard ${DASHBOARD} (drilldown)="drilled.set($event.member)">` +
      '<ng-template platformEmbedLoading><p>Loading the dashboard…</p></ng-template>' +
      '<ng-template platformEmbedError let-error let-retry="retry"><p>{{ error.message }}</p><button (click)="retry()">Try again</button></ng-template>' +
      '</platform-embed-dashboard><p>{{ drilled() }}</p>',
    members: [`protected readonly session = ${SESSION};`, "protected readonly drilled = signal('');"],
  },
  core: {
    from: { '@platform-embed/core': coreImports() },
    members: [`constructor() {\n    (globalThis as Record<string, unknown>)['platformEmbedCore'] = [${coreImports().join(', ')}];\n  }`],
  },
};

/** The scaffold's root component, as `ng new` wrote it (kept aside at the first run). */
const original = (file) => readFileSync(join(workDir, 'scaffold', file), 'utf8');

/** Writes the root component of a variant: the scaffold's, with what the variant adds. */
function writeApp({ from = {}, imports = [], markup = '', members = [] }) {
  let source = original('app.ts');
  const lines = Object.entries(from).map(([pkg, names]) => `import { ${names.join(', ')} } from '${pkg}';\n`);
  source = lines.join('') + source;
  source = source.replace(/imports: \[RouterOutlet\]/, `imports: [RouterOutlet${imports.map((name) => `, ${name}`).join('')}]`);
  source = source.replace(/(export class App \{\n)/, `$1${members.map((member) => `  ${member}\n`).join('')}`);
  if (members.length && !source.includes(members[0])) throw new Error("the scaffold's app.ts has changed: no `export class App {`");
  if (imports.length && !source.includes(`, ${imports.at(-1)}]`))
    throw new Error("the scaffold's app.ts has changed: no `imports: [RouterOutlet]`");
  writeFileSync(join(appDir, 'src/app/app.ts'), source);
  writeFileSync(join(appDir, 'src/app/app.html'), markup + original('app.html'));
}

/** Builds the app; returns its initial browser JavaScript and the bytes of each module in it (esbuild's stats). */
function build() {
  rmSync(join(appDir, 'dist'), { recursive: true, force: true });
  run(process.execPath, [join(appDir, 'node_modules/@angular/cli/bin/ng.js'), 'build', '--stats-json'], appDir);
  const out = join(appDir, 'dist/host');
  const stats = JSON.parse(readFileSync(join(out, 'stats.json'), 'utf8'));
  // The initial files: main and what it imports statically (lazy chunks are not initial).
  const initial = new Set();
  const visit = (file) => {
    if (initial.has(file)) return;
    initial.add(file);
    for (const { path, kind } of stats.outputs[file]?.imports ?? []) if (kind === 'import-statement') visit(path);
  };
  // (The stats name the browser's files by their name in browser/, and the server's .mjs files.)
  visit(Object.keys(stats.outputs).find((file) => /^main-[^/]+\.js$/.test(file)));
  const files = [...initial];
  const code = files.map((file) => readFileSync(join(out, 'browser', file)));
  const modules = {};
  for (const file of files)
    for (const [input, { bytesInOutput }] of Object.entries(stats.outputs[file].inputs))
      modules[input] = (modules[input] ?? 0) + bytesInOutput;
  const mainCode = code[0];
  return {
    files,
    raw: code.reduce((sum, c) => sum + c.length, 0),
    gzip: code.reduce((sum, c) => sum + gzipSync(c, { level: 9 }).length, 0),
    mainRaw: mainCode.length,
    mainGzip: gzipSync(mainCode, { level: 9 }).length,
    modules,
  };
}

/** `node_modules/.pnpm/@angular+core@21…/node_modules/@angular/core/fesm2022/x.mjs` → `@angular/core`; the app's own files → `app`. */
function packageOf(input) {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(input);
  return match ? match[1] : 'app';
}
const shortName = (input) => input.replace(/^.*node_modules\//, '');

if (reuse) {
  step('reusing the app; packing and installing our packages again ...');
  reinstall();
} else scaffold();

// `--only=dashboard` builds only the variants named (with --reuse, to try a change quickly); the
// others' figures are the last run's (each build's are kept in the work folder).
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
if (only && process.argv.includes('--record')) throw new Error('--record measures every variant anew: leave out --only');
const results = {};
mkdirSync(join(workDir, 'builds'), { recursive: true });
for (const [name, variant] of Object.entries(VARIANTS)) {
  const saved = join(workDir, 'builds', `${name}.json`);
  if (only && !only.includes(name) && existsSync(saved)) {
    step(`${name}: the last run's build`);
    results[name] = JSON.parse(readFileSync(saved, 'utf8'));
    continue;
  }
  step(`ng build (${name}) ...`);
  writeApp(variant);
  results[name] = build();
  writeFileSync(saved, JSON.stringify(results[name]));
}
writeApp(VARIANTS.scaffold);

// (KB of 1,000 B, as the README's sizes.)
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const signed = (bytes) => `${bytes >= 0 ? '+' : ''}${bytes} B`;
const base = results.scaffold;
console.log('Fresh Angular app (ng new --ssr, production, zoneless), its initial browser JavaScript:');
console.log('variant     files         raw       gzip    added raw            added gzip  main.js gzip added');
for (const [name, r] of Object.entries(results))
  console.log(
    [
      name.padEnd(10),
      String(r.files.length).padStart(5),
      `${r.raw} B`.padStart(10),
      `${r.gzip} B`.padStart(9),
      signed(r.raw - base.raw).padStart(11),
      `${signed(r.gzip - base.gzip)} (${kb(r.gzip - base.gzip)})`.padStart(20),
      signed(r.mainGzip - base.mainGzip).padStart(20),
    ].join('  '),
  );

if (results.dashboard && results.core) {
  const share = results.dashboard.gzip - results.core.gzip;
  console.log(
    `\nThe Angular binding's share (dashboard - core: the binding and the framework code it pulls in): ${signed(share)} (${kb(share)})`,
  );
  console.log(`The core's share (core - scaffold): ${signed(results.core.gzip - base.gzip)} (${kb(results.core.gzip - base.gzip)})`);
}

for (const name of ['dashboard', 'templates']) {
  const grown = {};
  const r = results[name];
  if (!r) continue;
  for (const input of new Set([...Object.keys(r.modules), ...Object.keys(base.modules)])) {
    const delta = (r.modules[input] ?? 0) - (base.modules[input] ?? 0);
    // (A module renamed by a byte or two, as minified names shift, is not growth.)
    if (Math.abs(delta) > 8) (grown[packageOf(input)] ??= []).push([shortName(input), delta]);
  }
  console.log(`\nWhat grew with \`${name}\` (minified bytes in the initial files, esbuild's stats), by package:`);
  const total = (list) => list.reduce((sum, [, delta]) => sum + delta, 0);
  for (const [pkg, list] of Object.entries(grown).sort((a, b) => total(b[1]) - total(a[1]))) {
    console.log(`  ${pkg.padEnd(28)} ${signed(total(list)).padStart(9)}`);
    for (const [file, delta] of list.sort((a, b) => b[1] - a[1]).slice(0, 8))
      console.log(`    ${file.padEnd(70)} ${signed(delta).padStart(9)}`);
  }
}

const angularVersion = JSON.parse(readFileSync(join(appDir, 'node_modules/@angular/core/package.json'), 'utf8')).version;
/** What `--record` writes and scripts/size.mjs prints: gzip bytes each variant adds to the scaffold's initial JavaScript. */
const record = {
  note: 'Written by `node scripts/angularWeight.mjs --record`: do not edit.',
  measured: new Date().toISOString().slice(0, 10),
  angular: angularVersion,
  scaffoldGzip: base.gzip,
  addedGzip: Object.fromEntries(Object.entries(results).map(([name, r]) => [name, r.gzip - base.gzip])),
};
if (process.argv.includes('--record')) {
  writeFileSync(join(root, 'docs/angular-weight.json'), `${JSON.stringify(record, null, 2)}\n`);
  step('wrote docs/angular-weight.json');
}

if (process.argv.includes('--json'))
  console.log(
    JSON.stringify(
      Object.fromEntries(Object.entries(results).map(([name, { modules: _modules, ...figures }]) => [name, figures])),
      null,
      2,
    ),
  );
