#!/usr/bin/env node
/*
 * `pnpm test`, after scripts/preflight.mjs: every stage of the tests, two at a time on two cores
 * (as many as the machine has), the real-browser tests started as early as they can be, as they
 * take the longest. Each stage is a script of package.json, which runs alone just as well
 * (`pnpm unit`, `pnpm e2e`, ...).
 *
 * Quiet on a pass: one line per stage (what it checked, its wall and CPU seconds); each stage's
 * whole output goes to test-results/logs/<stage>.log. On a failure, the failing stage's whole
 * output is printed, with the path of its log, the stages still running are stopped and no other
 * starts (as `a && b && ...` would), and the exit code is 1.
 *
 *   node scripts/test.mjs                 # every stage
 *   node scripts/test.mjs unit lint       # only these (their `needs` are taken as done)
 *   node scripts/test.mjs --keep-going    # a failure stops nothing: every stage runs
 *   node scripts/test.mjs --list          # the stages as JSON ({ name, command }), for scripts/testTimes.mjs
 *
 * Node built-ins only.
 */
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { spawnTimed } from './timedCommand.mjs';

const root = resolve(import.meta.dirname, '..');
const logs = join(root, 'test-results/logs');

/** The last number of `pattern`'s first group in `log`, or undefined. */
const last = (log, pattern) => {
  const all = [...log.matchAll(new RegExp(pattern, 'gm'))];
  return all.length ? Number(all.at(-1)[1].replaceAll(',', '')) : undefined;
};
const n = (count, what) => (count === undefined ? undefined : `${count.toLocaleString('en')} ${what}`);
const list = (...parts) => parts.filter(Boolean).join(', ');

/**
 * The stages: `needs` are the stages that must pass first; `says` tells from a passing stage's
 * output what it checked (a few words). Ordered by priority: a stage that can start, starts in
 * this order; the longest chain (build, examples, e2e) first.
 */
export const STAGES = [
  { name: 'build', command: 'pnpm build', needs: [], says: (log) => n(last(log, /^Scope: (\d+) of/.source), 'packages') },
  {
    name: 'build:examples',
    command: 'pnpm build:examples',
    needs: ['build'],
    says: (log) => n(last(log, /^Scope: (\d+) of/.source), 'demo hosts'),
  },
  {
    name: 'e2e',
    command: 'pnpm --filter @platform-embed/e2e test',
    needs: ['build:examples'],
    says: (log) =>
      list(
        n(last(log, /^\s+(\d+) passed/.source), 'tests in Chromium'),
        n(last(log, /^\s+(\d+) skipped/.source), 'skipped'),
        n(last(log, /^\s+(\d+) flaky/.source), 'flaky'),
      ),
  },
  { name: 'lint', command: 'pnpm lint', needs: [], says: () => 'eslint, prettier' },
  {
    name: 'typecheck',
    command: 'pnpm typecheck',
    needs: ['build'],
    says: () => 'tsc (with the type tests, *.test-d.ts), React 18 types, vue-tsc, svelte-check, ngc',
  },
  {
    name: 'check:readme',
    command: 'pnpm check:readme',
    needs: ['build'],
    says: (log) => n(last(log, /(\d+) blocks checked/.source), 'code blocks of the READMEs and the site'),
  },
  {
    name: 'unit',
    command: 'pnpm unit',
    needs: ['build'],
    says: (log) => {
      const vitest = last(log, /^\s+Tests\s+(\d+) passed/.source);
      const jest = last(log, /^Tests:\s+(\d+) passed/.source);
      return list(
        vitest !== undefined && jest !== undefined
          ? `${(vitest + jest).toLocaleString('en')} tests (Vitest ${vitest}, Jest ${jest})`
          : undefined,
        n(last(log, /^\s+Tests\s+.*?(\d+) skipped/.source), 'skipped'),
      );
    },
  },
  {
    name: 'test:runtimes',
    command: 'pnpm test:runtimes',
    needs: ['build'],
    says: (log) => {
      const runs = [...log.matchAll(/^✓ (.+?): (\d+) checks passed/gm)];
      const skipped = [...log.matchAll(/^- (.+?): skipped/gm)].length;
      const checks = runs.reduce((sum, run) => sum + Number(run[2]), 0);
      return list(`${checks} checks on ${runs.length} runtimes`, skipped ? `${skipped} skipped` : undefined);
    },
  },
  {
    name: 'test:frameworks',
    command: 'pnpm test:frameworks',
    needs: ['build'],
    says: (log) => list(n(last(log, /(\d+) checks passed/.source), 'checks'), n(last(log, /(\d+) skipped$/.source), 'skipped')),
  },
  {
    name: 'check:packages',
    command: 'pnpm check:packages',
    needs: ['build'],
    says: (log) => n([...log.matchAll(/^ok /gm)].length, 'package checks'),
  },
  { name: 'check:figures', command: 'pnpm check:figures', needs: ['build'], says: () => 'the sizes and figures match' },
  { name: 'docs:build', command: 'pnpm docs:build', needs: ['build'], says: () => 'the API reference and the site, no warning' },
  {
    name: 'check:docs',
    command: 'pnpm check:docs',
    needs: ['docs:build'],
    says: (log) => list(n(last(log, /(\d+) pages opened/.source), 'pages'), n(last(log, /(\d+) internal links/.source), 'links')),
  },
];

const seconds = (ms) => `${Math.round(ms / 1000)} s`;
const minutes = (ms) => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};

/**
 * Runs a stage's command in a process group of its own (so that stopping it stops its children),
 * its output to its log; resolves with `{ code, ms, cpu, log, text }`.
 */
function run(stage, running) {
  const log = join(logs, `${stage.name.replace(/[^\w.-]+/g, '_')}.log`);
  const times = `${log}.times`;
  const out = createWriteStream(log);
  const started = performance.now();
  let text = '';
  return new Promise((done) => {
    const { child, cpu } = spawnTimed(stage.command, times, {
      cwd: root,
      detached: true,
      // The logs are files: no colors.
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    });
    running.set(stage.name, child);
    const take = (chunk) => {
      out.write(chunk);
      text += chunk.toString('utf8');
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code, signal) => {
      running.delete(stage.name);
      out.end(() => done({ code: code ?? signal, ms: performance.now() - started, cpu: cpu(), log, text }));
    });
  });
}

async function main() {
  const args = process.argv.slice(2);
  if (args.includes('--list')) {
    console.log(JSON.stringify(STAGES.map(({ name, command }) => ({ name, command }))));
    return;
  }
  const keepGoing = args.includes('--keep-going');
  const only = args.filter((arg) => !arg.startsWith('--'));
  const unknown = only.filter((name) => !STAGES.some((stage) => stage.name === name));
  if (unknown.length) {
    console.error(`test: no stage named ${unknown.join(', ')}; the stages: ${STAGES.map((s) => s.name).join(', ')}`);
    process.exit(2);
  }
  const todo = STAGES.filter((stage) => !only.length || only.includes(stage.name));
  const slots = Math.max(2, availableParallelism());
  rmSync(logs, { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  const where = relative(process.cwd(), logs) || '.';
  console.log(`${todo.length} stages, up to ${slots} at a time; each stage's output in ${where}/`);

  const passed = new Set(STAGES.filter((stage) => !todo.includes(stage)).map((stage) => stage.name));
  const waiting = [...todo];
  const running = new Map();
  const failed = [];
  const stopped = [];
  const started = performance.now();
  const width = Math.max(...todo.map((stage) => stage.name.length));

  // Ctrl-C: stop the stages' process groups too.
  const stopAll = () => {
    for (const [name, child] of running) {
      stopped.push(name);
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  };
  process.on('SIGINT', () => {
    stopAll();
    process.exit(130);
  });
  process.on('SIGTERM', () => {
    stopAll();
    process.exit(143);
  });

  await new Promise((finished) => {
    const next = () => {
      if (failed.length && !keepGoing) {
        if (!running.size) finished();
        return;
      }
      for (const stage of [...waiting]) {
        if (running.size >= slots) break;
        if (!stage.needs.every((need) => passed.has(need))) continue;
        waiting.splice(waiting.indexOf(stage), 1);
        run(stage, running).then((result) => {
          if (stopped.includes(stage.name)) {
            console.log(`- ${stage.name.padEnd(width)}  stopped after ${seconds(result.ms)}`);
          } else if (result.code === 0) {
            passed.add(stage.name);
            const cpu = Number.isNaN(result.cpu) ? '' : `, CPU ${seconds(result.cpu * 1000)}`;
            console.log(`✓ ${stage.name.padEnd(width)}  ${seconds(result.ms).padStart(5)}${cpu}  ${stage.says(result.text) ?? ''}`);
          } else {
            failed.push(stage.name);
            console.log(`✗ ${stage.name.padEnd(width)}  failed (exit code ${result.code}) after ${seconds(result.ms)}; its output:\n`);
            process.stdout.write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
            console.log(`\n✗ ${stage.name}: the output above is in ${relative(process.cwd(), result.log)}`);
            if (!keepGoing) stopAll();
          }
          next();
        });
      }
      // Nothing running and nothing that can start: done (what waits needs a stage that failed).
      if (!running.size) finished();
    };
    next();
  });

  const blocked = waiting.map((stage) => stage.name);
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  if (failed.length) {
    const notRun = [...stopped, ...blocked];
    console.log(
      `\n✗ pnpm test failed in ${minutes(performance.now() - started)}: ${failed.join(', ')}${notRun.length ? `; not finished: ${notRun.join(', ')}` : ''}`,
    );
    process.exitCode = 1;
  } else console.log(`\n✓ ${todo.length} stages passed in ${minutes(performance.now() - started)} (load average ${load})`);
}

await main();
