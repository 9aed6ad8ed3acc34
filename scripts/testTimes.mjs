#!/usr/bin/env node
/*
 * How long `pnpm test` takes and how much it prints, per stage and in total, so that anyone can
 * measure it again (issue 26: under 12 minutes on 2 cores, under 150 lines on a pass).
 *
 *   node scripts/testTimes.mjs                 # each stage of `pnpm test` on its own, one after the other
 *   node scripts/testTimes.mjs build unit      # only these stages
 *   node scripts/testTimes.mjs --whole         # `pnpm test` itself, once
 *
 * Each command's output (stdout and stderr together) is kept in test-results/times/<stage>.log;
 * the table gives its exit code, wall time, the CPU time of its processes (user + system, of the
 * processes waited for: a server left to the system is not counted), its line count, and the
 * machine's 1-minute load average when it started and ended (the machine may be shared: a load
 * above its cores slows every stage).
 * The stages are read from package.json's `test` script (`a && b && ...`), or from the stage
 * runner it calls (`node scripts/test.mjs --list`).
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnTimed } from './timedCommand.mjs';

const root = resolve(import.meta.dirname, '..');
const logs = join(root, 'test-results/times');
const args = process.argv.slice(2);
const whole = args.includes('--whole');
const only = args.filter((arg) => !arg.startsWith('--'));

/** The stages of `pnpm test`: `{ name, command }`, commands for `sh -c` in the repository's root. */
function stages() {
  const script = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.test;
  // (`pnpm test` is preflight and the stage runner: its stages are the runner's.)
  if (!script.includes('scripts/test.mjs'))
    return script.split('&&').map((part) => {
      const command = part.trim();
      const name = command.replace(/^pnpm (run )?/, '').replace(/^node scripts\/(\w+)\.mjs.*/, '$1');
      return { name, command };
    });
  return JSON.parse(execFileSync(process.execPath, [join(root, 'scripts/test.mjs'), '--list'], { cwd: root, encoding: 'utf8' }));
}

/** Runs `command`, its output to `log`; its exit code, seconds and line count. */
function measure(name, command) {
  const log = join(logs, `${name.replace(/[^\w.-]+/g, '_')}.log`);
  const times = `${log}.times`;
  const out = createWriteStream(log);
  const load = loadavg()[0];
  const start = performance.now();
  let lines = 0;
  let last = '';
  return new Promise((done) => {
    const { child, cpu } = spawnTimed(command, times, { cwd: root });
    const take = (chunk) => {
      out.write(chunk);
      const text = last + chunk.toString('utf8');
      const parts = text.split('\n');
      last = parts.pop();
      lines += parts.length;
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => {
      if (last) lines++;
      out.end();
      done({ name, code, seconds: (performance.now() - start) / 1000, cpu: cpu(), lines, load: [load, loadavg()[0]], log });
    });
  });
}

const rows = [];
const print = (row) =>
  console.log(
    `${row.name.padEnd(18)} ${String(row.code).padStart(3)} ${row.seconds.toFixed(0).padStart(6)} s ${row.cpu.toFixed(0).padStart(6)} s ${String(row.lines).padStart(6)} lines   load ${row.load[0].toFixed(1)} → ${row.load[1].toFixed(1)}`,
  );

mkdirSync(logs, { recursive: true });
console.log(`${availableParallelism()} cores; logs in ${logs}`);
console.log(`${'stage'.padEnd(18)}  rc     wall      CPU   output        load (1 min)`);
const todo = whole ? [{ name: 'pnpm test', command: 'pnpm test' }] : stages().filter((s) => !only.length || only.includes(s.name));
if (!todo.length) {
  console.error(
    `no stage named ${only.join(', ')}; the stages: ${stages()
      .map((s) => s.name)
      .join(', ')}`,
  );
  process.exit(1);
}
for (const { name, command } of todo) {
  const row = await measure(name, command);
  rows.push(row);
  print(row);
}
if (rows.length > 1)
  print({
    name: 'total',
    code: rows.some((row) => row.code !== 0) ? 1 : 0,
    seconds: rows.reduce((sum, row) => sum + row.seconds, 0),
    cpu: rows.reduce((sum, row) => sum + row.cpu, 0),
    lines: rows.reduce((sum, row) => sum + row.lines, 0),
    load: [rows[0].load[0], rows.at(-1).load[1]],
  });
process.exitCode = rows.some((row) => row.code !== 0) ? 1 : 0;
