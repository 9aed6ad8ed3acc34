/*
 * A shell command run with its CPU time measured, for the stage runner (scripts/test.mjs) and
 * the stage timer (scripts/testTimes.mjs): bash runs the command, then its `times` builtin writes
 * the CPU time of the command's processes (those it waited for) to a file read at the end.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

/**
 * Starts `command` in `bash -c`, with `options` for `spawn` (cwd, env, detached...; output piped).
 * `cpu()`, once the child has closed, is the user + system seconds of its processes (NaN if unknown).
 */
export function spawnTimed(command, timesFile, options) {
  const script = 'eval "$1"; code=$?; times > "$2"; exit $code';
  const child = spawn('bash', ['-c', script, 'bash', command, timesFile], { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  return { child, cpu: () => cpuOf(timesFile) };
}

/** The children's user + system seconds that bash's `times` wrote (its second line: `1m2.5s 0m3.1s`). */
function cpuOf(file) {
  try {
    const line = readFileSync(file, 'utf8').split('\n')[1] ?? '';
    rmSync(file);
    return [...line.matchAll(/(\d+)m([\d.]+)s/g)].reduce((sum, [, m, s]) => sum + Number(m) * 60 + Number(s), 0);
  } catch {
    return NaN;
  }
}
