#!/usr/bin/env node
/*
 * Examples that cannot rot: every `ts`, `tsx` and `vue` fenced code block of the READMEs
 * (README.md and packages/*\/README.md) and of the documentation site's pages (docs/**\/*.md,
 * but the guides, docs/guide/, whose blocks are the files of fresh scaffolds that their own tests
 * build and run, and the generated API reference, docs/api/), or of the files given as
 * arguments, is extracted and type-checked with the strict settings of tsconfig.base.json, Vue
 * blocks with `strictTemplates`:
 *
 * - with the newest vue-tsc (the root's), every block, React's types for tsx, Vue 3.5's for vue;
 * - with the oldest vue-tsc we support (compat/vue3.3: vue-tsc 2.0.24 and Vue 3.3.13), the vue blocks;
 * - the Angular blocks (ts blocks importing `@angular/...`) instead with Angular's compiler, ngc
 *   (packages/angular's @angular/compiler-cli), with strict templates: their templates are
 *   type-checked (inputs, outputs, `$event`), as `ng build` checks them.
 *
 * Conventions, for a README author:
 * - A block is a module. Names a reader supplies (`dashboard`, `user`, `track`, `app`, ...) are
 *   declared in scripts/readme-check/prelude.d.ts; a package's export is never, so an example
 *   that forgets an import fails.
 * - `<!-- readme-check: prelude=NAME -->` on the line before a block puts
 *   scripts/readme-check/NAME.ts before a ts/tsx block, or uses scripts/readme-check/NAME.vue
 *   (a `<script setup>`) as the script of a Vue template fragment (a vue block with no
 *   `<script>` or `<template>` of its own, which needs one).
 * - `<!-- readme-check: skip (why) -->` on the line before a block skips it: for a block that is
 *   deliberately partial. Skipped blocks are listed in the output.
 * - A prelude whose first line is `// readme-check: types=node,deno` puts its blocks in a program
 *   of their own, with exactly those type packages (`compilerOptions.types`), looked up in the
 *   root's node_modules/@types and in compat/runtimes, which installs the runtimes' types: a
 *   Deno, Bun or Cloudflare Worker example is checked against its runtime's real API, and no
 *   other block sees those globals.
 *
 * The blocks import the packages by their public names, resolved (with `paths`) to the built
 * declaration files, packages/<name>/dist/index.d.mts: the types a user gets from npm, with the
 * module augmentations as rollup-plugin-dts bundles them, and unaffected by work in progress in
 * a package's sources. `pnpm test` builds first; a warning says when a dist is older than its src.
 *
 * Each run also checks a canary block with a known error in a script and in a template (and an
 * Angular canary with two errors in its template), and fails if an error is not reported: vue-tsc 2.0.0-2.0.22 run with TypeScript 5.9 exit 0
 * without reporting anything, and a check that can report nothing proves nothing.
 *
 * Usage: node scripts/checkReadme.mjs [--preludes DIR] [README.md ...]   (exit code 1 on any error)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const preludes = join(root, 'scripts/readme-check');
const LANGS = { ts: 'ts', typescript: 'ts', tsx: 'tsx', vue: 'vue' };
const PACKAGES = readdirSync(join(root, 'packages')).filter((p) => existsSync(join(root, 'packages', p, 'package.json')));

const rel = (path) => relative(root, path).split('\\').join('/');
const lineCount = (text) => text.split('\n').length;

/** Fenced code blocks of a Markdown file, with the `readme-check` directive of the line before. */
export function extractBlocks(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    let end = i + 1;
    while (end < lines.length && !lines[end].trimStart().startsWith(fence)) end++;
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === '') before--;
    const directive = before >= 0 ? /<!--\s*readme-check:\s*(.*?)\s*-->/.exec(lines[before])?.[1] : undefined;
    const body = lines.slice(i + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l));
    blocks.push({ file, line: i + 1, lang: info.toLowerCase(), body: body.join('\n'), directive });
    i = end;
  }
  return blocks;
}

function parseDirective(block) {
  const text = block.directive ?? '';
  if (/^skip\b/.test(text)) return { skip: true };
  const prelude = /\bprelude=([\w-]+)/.exec(text)?.[1];
  if (text && !prelude)
    throw new Error(`${rel(block.file)}:${block.line}: unknown readme-check directive "${text}" (skip, or prelude=NAME)`);
  return { prelude };
}

/** The file to check for a block, and `offset`: README line = generated line + offset. */
function generate(block, name, preludeDir) {
  const ext = LANGS[block.lang];
  const { prelude } = parseDirective(block);
  if (ext === 'vue') {
    if (/^\s*<(script|template)\b/m.test(block.body)) {
      if (prelude)
        throw new Error(
          `${rel(block.file)}:${block.line}: prelude=${prelude} is for a Vue template fragment, and this block is a whole component`,
        );
      return { name: `${name}.vue`, text: `${block.body}\n`, offset: block.line };
    }
    if (!prelude)
      throw new Error(
        `${rel(block.file)}:${block.line}: a Vue template fragment needs <!-- readme-check: prelude=NAME --> (scripts/readme-check/NAME.vue, its <script setup>) or skip`,
      );
    const file = join(preludeDir, `${prelude}.vue`);
    const head = `${readFileSync(file, 'utf8').trimEnd()}\n\n<template>\n`;
    const headLines = lineCount(head) - 1;
    return { name: `${name}.vue`, text: `${head}${block.body}\n</template>\n`, offset: block.line - headLines, prelude: file, headLines };
  }
  const file = prelude && join(preludeDir, `${prelude}.ts`);
  const head = file ? `${readFileSync(file, 'utf8').trimEnd()}\n` : '';
  const headLines = head ? lineCount(head) - 1 : 0;
  // `export {}` makes every block a module, so blocks never see each other's top-level names.
  return { name: `${name}.${ext}`, text: `${head}${block.body}\nexport {};\n`, offset: block.line - headLines, prelude: file, headLines };
}

const CANARY_ANGULAR = `import { Component } from '@angular/core';
import { PlatformChat } from '@platform-embed/angular';

@Component({
  selector: 'app-canary',
  imports: [PlatformChat],
  template: \`<platform-embed-chat baseUrl="https://acme.platform.example" [publicId]="'a'" (drilldown)="take($event.nope)" />\`,
})
export class Canary {
  take(_: unknown) {}
}
`;
// Two errors: the chat has no publicId input; the drilldown payload has no \`nope\`.
const CANARY_ANGULAR_ERRORS = 2;

/** An Angular block: a ts block importing Angular, checked by ngc (strict templates) rather than vue-tsc. */
const isAngular = (block) => LANGS[block.lang] === 'ts' && /from '@angular\//.test(block.body);

/** Where a package's types are for the blocks: its dist's index.d.mts, or the published manifest's (an APF package published from dist/). */
function packageTypes(name) {
  const dir = join(root, 'packages', name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (!pkg.publishConfig?.directory) return join(dir, 'dist/index.d.mts');
  const publishDir = join(dir, pkg.publishConfig.directory);
  const manifest = existsSync(join(publishDir, 'package.json')) ? JSON.parse(readFileSync(join(publishDir, 'package.json'), 'utf8')) : {};
  return join(publishDir, manifest.exports?.['.']?.types ?? 'index.d.ts');
}

/** The secondary entry points of a package published from a folder of its own (`@platform-embed/angular/router`): name → types, from its published manifest. */
function publishedSubpathTypes(name) {
  const dir = join(root, 'packages', name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const manifestPath = pkg.publishConfig?.directory && join(dir, pkg.publishConfig.directory, 'package.json');
  if (!manifestPath || !existsSync(manifestPath)) return [];
  const { exports = {} } = JSON.parse(readFileSync(manifestPath, 'utf8'));
  return Object.entries(exports)
    .filter(([subpath, target]) => subpath.startsWith('./') && target?.types)
    .map(([subpath, target]) => [`@platform-embed/${name}/${subpath.slice(2)}`, [join(dirname(manifestPath), target.types)]]);
}

/** Runs ngc over the Angular blocks (generated name → origin) in a folder next to packages/angular's node_modules (its Angular). */
function runAngular(files) {
  const angularDir = join(root, 'packages/angular');
  const require = createRequire(join(angularDir, 'package.json'));
  const compilerCli = dirname(require.resolve('@angular/compiler-cli/package.json'));
  const version = JSON.parse(readFileSync(join(compilerCli, 'package.json'), 'utf8')).version;
  const cache = join(angularDir, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'readme-check-'));
  try {
    writeFileSync(join(dir, 'canary.angular.ts'), CANARY_ANGULAR);
    const all = { 'canary.angular.ts': 'canary', ...files };
    for (const [name, origin] of Object.entries(files)) writeFileSync(join(dir, name), origin.text);
    const paths = Object.fromEntries(
      PACKAGES.flatMap((p) => [
        [`@platform-embed/${p}`, [packageTypes(p)]],
        [`@platform-embed/${p}/*`, [join(root, 'packages', p, 'dist/*.d.mts')]],
        ...publishedSubpathTypes(p),
      ]),
    );
    const tsconfig = {
      extends: join(root, 'tsconfig.base.json'),
      compilerOptions: { noEmit: true, experimentalDecorators: true, useDefineForClassFields: false, paths },
      files: [join(preludes, 'prelude.d.ts'), ...Object.keys(all).map((f) => join(dir, f))],
      angularCompilerOptions: { strictTemplates: true, strictInjectionParameters: true, strictInputAccessModifiers: true },
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    const result = spawnSync(process.execPath, [join(compilerCli, 'bundles/src/bin/ngc.js'), '-p', join(dir, 'tsconfig.json')], {
      cwd: dir,
      encoding: 'utf8',
    });
    // ngc writes `path:line:col - error CODE: message`, with color codes when it thinks it is in a terminal.
    const output = `${result.stdout}${result.stderr}`.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
    const errors = [];
    let canaries = 0;
    for (const raw of output.split('\n')) {
      const m = /^(.*?)[:(](\d+)[:,](\d+)\)?:? - error (\S+): (.*)$/.exec(raw.trim());
      if (!m) continue;
      const [, path, line, col, code, message] = m;
      const origin = all[relative(dir, resolve(dir, path))];
      if (origin === 'canary') {
        canaries++;
        continue;
      }
      const where = origin
        ? `${rel(origin.block.file)}:${Number(line) + origin.offset}:${col}`
        : `${rel(resolve(dir, path))}:${line}:${col}`;
      errors.push(`${where} - error ${code}: ${message} [ngc ${version}]`);
    }
    if (canaries < CANARY_ANGULAR_ERRORS)
      errors.push(
        `ngc ${version} reported ${canaries} of the ${CANARY_ANGULAR_ERRORS} errors of the Angular canary: it checks nothing here (exit code ${result.status})\n${output.trim()}`,
      );
    else if (result.status !== 0 && errors.length === 0 && canaries === 0)
      errors.push(`ngc ${version} failed (exit code ${result.status})\n${output.trim()}`);
    return { errors, version };
  } finally {
    if (!process.env.README_CHECK_KEEP) rmSync(dir, { recursive: true, force: true });
  }
}

/** Where the `types=` of a prelude are looked up: the root's, and the runtimes' (compat/runtimes). */
const RUNTIME_TYPE_ROOTS = [
  join(root, 'node_modules/@types'),
  join(root, 'compat/runtimes/node_modules/@types'),
  join(root, 'compat/runtimes/node_modules'),
];

/** The type packages a block's prelude asks for (`// readme-check: types=node,deno` on its first line), or `''`. */
function typesOf(block, preludeDir) {
  const { prelude, skip } = parseDirective(block);
  if (skip || !prelude || LANGS[block.lang] === 'vue') return '';
  const file = join(preludeDir, `${prelude}.ts`);
  if (!existsSync(file)) return '';
  return /^\/\/ readme-check: types=([\w@/.,-]+)/.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
}

const CANARY_TS = "const canary: number = 'not a number';\nexport {};\n";
const CANARY_VUE = '<script setup lang="ts">\nconst canary = 42;\n</script>\n\n<template>\n  {{ canary.toUpperCase() }}\n</template>\n';

function vueTsc(from) {
  const require = createRequire(join(from, 'package.json'));
  const pkg = require.resolve('vue-tsc/package.json');
  return { bin: join(dirname(pkg), 'bin/vue-tsc.js'), version: JSON.parse(readFileSync(pkg, 'utf8')).version };
}

function vueVersion(from) {
  const require = createRequire(join(from, 'package.json'));
  return JSON.parse(readFileSync(require.resolve('vue/package.json'), 'utf8')).version;
}

/** Runs one vue-tsc over `files` (generated name → origin) in `dir`; returns the error lines, mapped to the READMEs. */
function run({ dir, label, from, vue, files, types }) {
  const { bin, version } = vueTsc(from);
  const paths = Object.fromEntries(
    PACKAGES.flatMap((p) => [
      [`@platform-embed/${p}`, [join(root, 'packages', p, 'dist/index.d.mts')]],
      // Second entry points (`@platform-embed/core/testing`, `@platform-embed/mock/playwright`).
      [`@platform-embed/${p}/*`, [join(root, 'packages', p, 'dist/*.d.mts')]],
    ]),
  );
  if (vue) paths.vue = [vue];
  const tsconfig = {
    extends: join(root, 'tsconfig.base.json'),
    compilerOptions: { noEmit: true, paths, ...(types ? { types, typeRoots: RUNTIME_TYPE_ROOTS } : {}) },
    files: [join(preludes, 'prelude.d.ts'), ...Object.keys(files).map((f) => join(dir, f))],
    vueCompilerOptions: { strictTemplates: true, ...(vue ? { target: 3.3 } : {}) },
  };
  const config = join(dir, `tsconfig.${label}.json`);
  writeFileSync(config, JSON.stringify(tsconfig, null, 2));
  const result = spawnSync(process.execPath, [bin, '-p', config, '--noEmit', '--pretty', 'false'], { cwd: root, encoding: 'utf8' });
  const output = `${result.stdout}${result.stderr}`;
  const errors = [];
  let canaries = 0;
  for (const raw of output.split('\n')) {
    const m = /^(.*?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/.exec(raw);
    if (!m) {
      if (raw.startsWith(' ') && errors.length) errors[errors.length - 1] += `\n${raw}`;
      continue;
    }
    const [, path, line, col, , code, message] = m;
    const origin = files[relative(dir, resolve(root, path))];
    if (origin === 'canary') {
      canaries++;
      continue;
    }
    const where = !origin
      ? `${rel(resolve(root, path))}:${line}:${col}`
      : Number(line) <= origin.headLines
        ? `${rel(origin.prelude)}:${line}:${col} (the prelude of ${rel(origin.block.file)}:${origin.block.line})`
        : `${rel(origin.block.file)}:${Number(line) + origin.offset}:${col}`;
    errors.push(`${where} - error ${code}: ${message} [vue-tsc ${version}]`);
  }
  const expected = Object.values(files).filter((o) => o === 'canary').length;
  if (canaries < expected)
    errors.push(
      `vue-tsc ${version} (${rel(bin)}) did not report the errors of the canary blocks: it checks nothing here (exit code ${result.status})\n${output.trim()}`,
    );
  else if (result.status !== 0 && errors.length === 0 && canaries === 0)
    errors.push(`vue-tsc ${version} failed (exit code ${result.status})\n${output.trim()}`);
  return { errors, version };
}

function staleDist() {
  const newest = (dir) =>
    readdirSync(dir, { withFileTypes: true }).reduce((max, e) => {
      const path = join(dir, e.name);
      return Math.max(max, e.isDirectory() ? newest(path) : statSync(path).mtimeMs);
    }, 0);
  return PACKAGES.filter((p) => {
    const dts = packageTypes(p);
    return !existsSync(dts) || statSync(dts).mtimeMs < newest(join(root, 'packages', p, 'src'));
  });
}

/** Checks the blocks of `readmes`; `preludeDir` holds the named preludes (scripts/readme-check). */
export function checkReadmes(readmes, { preludeDir = preludes } = {}) {
  const blocks = readmes.flatMap((f) => extractBlocks(resolve(f))).filter((b) => b.lang in LANGS);
  const skipped = blocks.filter((b) => parseDirective(b).skip);
  const checked = blocks.filter((b) => !parseDirective(b).skip);
  const cache = join(root, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  // Next to node_modules, so the blocks resolve react, vue and @types/node as the workspace does.
  const dir = mkdtempSync(join(cache, 'readme-check-'));
  try {
    const all = { 'canary.ts': 'canary', 'canary.vue': 'canary' };
    const vue = { 'canary.vue': 'canary' };
    writeFileSync(join(dir, 'canary.ts'), CANARY_TS);
    writeFileSync(join(dir, 'canary.vue'), CANARY_VUE);
    const angularFiles = {};
    // Blocks whose prelude names type packages, by that list: each list is a program of its own.
    const byTypes = new Map();
    for (const block of checked) {
      const generated = generate(block, `${rel(block.file).replace(/[^\w.-]+/g, '_')}.L${block.line}`, preludeDir);
      if (isAngular(block)) {
        angularFiles[generated.name] = { block, ...generated };
        continue;
      }
      writeFileSync(join(dir, generated.name), generated.text);
      const types = typesOf(block, preludeDir);
      if (types) {
        if (!byTypes.has(types)) byTypes.set(types, { 'canary.ts': 'canary' });
        byTypes.get(types)[generated.name] = { block, ...generated };
        continue;
      }
      all[generated.name] = { block, ...generated };
      if (generated.name.endsWith('.vue')) vue[generated.name] = all[generated.name];
    }
    const newest = run({ dir, label: 'newest', from: root, files: all });
    const runtimes = [...byTypes].map(([types, files], index) => ({
      types,
      count: Object.keys(files).length - 1,
      ...run({ dir, label: `types-${index}`, from: root, files, types: types.split(',') }),
    }));
    const oldestFrom = join(root, 'compat/vue3.3');
    const oldestVue = dirname(createRequire(join(oldestFrom, 'package.json')).resolve('vue/package.json'));
    const oldest = run({ dir, label: 'oldest', from: oldestFrom, vue: oldestVue, files: vue });
    const angular = runAngular(angularFiles);
    const errors = [...newest.errors, ...oldest.errors, ...runtimes.flatMap((program) => program.errors), ...angular.errors];
    const count = (lang) => checked.filter((b) => LANGS[b.lang] === lang && !isAngular(b)).length;
    const summary =
      `readme-check: ${checked.length} blocks checked (${count('ts')} ts, ${count('tsx')} tsx, ${count('vue')} vue; vue-tsc ${newest.version}, ` +
      `and vue-tsc ${oldest.version} with Vue ${vueVersion(oldestFrom)} for the vue blocks` +
      runtimes.map((program) => `, ${program.count} with the types ${program.types} in a program of their own`).join('') +
      `; ${Object.keys(angularFiles).length} Angular with ngc ${angular.version}` +
      `), ${skipped.length} skipped` +
      (skipped.length ? `: ${skipped.map((b) => `${rel(b.file)}:${b.line}`).join(', ')}` : '') +
      (errors.length ? `; ${errors.length} error${errors.length > 1 ? 's' : ''}` : '');
    return { errors, summary, stale: staleDist() };
  } finally {
    if (!process.env.README_CHECK_KEEP) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The Markdown files checked by default: the READMEs, and the site's pages but the guides (their
 * scaffold tests build them) and the generated API reference.
 */
export function defaultFiles() {
  const pages = readdirSync(join(root, 'docs'), { recursive: true })
    .map((path) => `docs/${String(path).split('\\').join('/')}`)
    .filter((path) => path.endsWith('.md') && !/^docs\/(guide|api|\.vitepress)\//.test(path))
    .sort();
  return [
    join(root, 'README.md'),
    ...PACKAGES.map((p) => join(root, 'packages', p, 'README.md')).filter((f) => existsSync(f)),
    ...pages.map((path) => join(root, path)),
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--preludes');
  const preludeDir = at >= 0 ? resolve(args.splice(at, 2)[1]) : preludes;
  const readmes = args.length ? args : defaultFiles();
  try {
    const { errors, summary, stale } = checkReadmes(readmes, { preludeDir });
    if (stale.length)
      console.warn(`readme-check: warning: the dist of ${stale.join(', ')} is older than its src; run \`pnpm build\` first`);
    for (const error of errors) console.error(error);
    console.log(summary);
    process.exitCode = errors.length ? 1 : 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
