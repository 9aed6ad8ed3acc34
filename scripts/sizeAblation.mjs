// What each part of the controller costs (min+gzip, production), measured by removal: each row
// builds `embedDashboard` from a copy of packages/core/src with that part taken out (a few text
// edits, listed here), bundled, minified and gzipped as scripts/size.mjs does. Run after edits to
// the controller to keep docs/size-budget.md honest: `node scripts/sizeAblation.mjs`.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { rollup } from 'rollup';
import esbuild from 'rollup-plugin-esbuild';
import terser from '@rollup/plugin-terser';
import { devFlag } from './rollup.mjs';

const root = resolve(import.meta.dirname, '..');
const source = join(root, 'packages/core/src');

/** Each part: the edits (file, text, replacement) that take it out. */
const parts = {
  'update() and the option tables (planUpdate)': [['embed.ts', '    update,\n    on:', '    update: () => {},\n    on:']],
  'keep-alive: parking, stow, adoption (parking.ts)': [
    ['embed.ts', 'const adopted = adopt(surface, options as AnyOptions);', 'const adopted = undefined;'],
    ['embed.ts', 'keepers.set(handle, { park, stow });', ''],
  ],
  'the session Response read (status, Retry-After) and the rate-limit gate': [
    ['sessionSource.ts', "Object.prototype.toString.call(result) == '[object Response]'", 'false'],
    ['sessionSource.ts', 'await through(route, () =>', 'await ((f: () => unknown) => f())(() =>'],
  ],
  'checks in every build (ids, timeouts, retry)': [['url.ts', '  checkAlways(surface, o);\n', '']],
  'lazy loading (IntersectionObserver)': [
    ['lazyStart.ts', "if (seen || !lazy || typeof IntersectionObserver == 'undefined') return start();", 'return start();'],
  ],
  'retries (backoff, offline and hidden-tab waits)': [
    ['retryPolicy.ts', "if (!renewable || typeof session != 'function' || attempt >= max) return false;", 'return false;'],
  ],
  'CSP detection': [['loadAttempt.ts', '        watchPolicy(origin);\n', '']],
  'validation of incoming messages (envelope and payload)': [
    [
      'protocol.ts',
      "if (!isPlainObject(data)) return { ok: false, reason: 'not an object' };",
      'return { ok: true, known: true, message: data } as ParseResult;',
    ],
  ],
  'validation of actions': [['protocol.ts', "problem ||= isPlainObject(copy) ? check!(copy) : 'payload must be an object';", '']],
  'the ready timeout': [['loadAttempt.ts', 'const ms = clampTimeout(options().readyTimeout ?? READY_TIMEOUT);', 'const ms = 0;']],
  'the session call timeout': [
    ['sessionSource.ts', 'const ms = clampTimeout(options().sessionTimeout ?? SESSION_TIMEOUT);', 'const ms = 0;'],
  ],
  'replay of the kept state after ready': [
    ['hostState.ts', 'const out: ActionMessage[] = [];', 'const out: ActionMessage[] = []; return out.concat(pending.splice(0));'],
  ],
  'debug logging': [['handlers.ts', 'const { debug } = options();', "const debug = false as AnyOptions['debug'];"]],
};

async function measure(edits = []) {
  const dir = mkdtempSync(join(tmpdir(), 'ablation-'));
  cpSync(source, join(dir, 'src'), { recursive: true });
  for (const [file, text, replacement] of edits) {
    const path = join(dir, 'src', file);
    const code = readFileSync(path, 'utf8');
    if (!code.includes(text)) throw new Error(`${file} no longer contains: ${text}`);
    writeFileSync(path, code.replace(text, replacement));
  }
  writeFileSync(join(dir, 'entry.ts'), `export { embedDashboard } from './src/index';`);
  const bundle = await rollup({
    input: join(dir, 'entry.ts'),
    plugins: [
      devFlag('false'),
      esbuild({ target: 'es2022', tsconfig: join(root, 'tsconfig.base.json') }),
      terser({ compress: { passes: 2 }, format: { comments: false } }),
    ],
    onwarn: () => {},
  });
  const { output } = await bundle.generate({ format: 'es' });
  rmSync(dir, { recursive: true, force: true });
  return gzipSync(output[0].code, { level: 9 }).length;
}

const whole = await measure();
console.log(`embedDashboard, production, min+gzip: ${whole} B\n\npart removed                                             saves`);
for (const [name, edits] of Object.entries(parts))
  console.log(`${name.padEnd(56)} ${String(whole - (await measure(edits))).padStart(5)} B`);
