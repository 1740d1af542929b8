/**
 * vitest setupFile: where the suite's CPU goes, file by file (scripts/suite-cpu.mjs, `npm run
 * test:cpu`). With FF_SUITE_CPU naming a file, each test file appends one JSON line to it: the CPU
 * its worker spent running it, the CPU of the child processes it started (the command, rg, bash,
 * the conformance SUT), and its wall time. Without FF_SUITE_CPU it registers nothing.
 *
 * Why per file from inside the worker: the suite is CPU-bound on two cores (its CPU is ~1.9 times its
 * wall), so a file's wall time says little about what it costs the run; vitest's own durations are
 * wall times. Linux only: the counts are /proc/self/stat's, where a child's CPU is added to its
 * parent's when the parent reaps it (so a child reaped after its file ended counts in the next one).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

const LOG = process.env.FF_SUITE_CPU;

/** This process's CPU and its reaped children's, in seconds (/proc/self/stat counts clock ticks: 100 a second on Linux). */
function cpuSeconds(): { self: number; children: number } {
  // The fields after the command name, which may hold spaces and parentheses: it ends at the last ") ".
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  // utime, stime, cutime, cstime are fields 14-17 of proc(5), 11-14 after the name and state.
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number) as [number, number, number, number];
  return { self: (utime + stime) / 100, children: (cutime + cstime) / 100 };
}

if (LOG !== undefined && process.platform === 'linux') {
  let start = cpuSeconds();
  let started = 0;
  beforeAll(() => {
    start = cpuSeconds();
    started = performance.now();
  });
  afterAll(async () => {
    // A child that ended during a run of synchronous tests is reaped only when the event loop next
    // polls (libuv reads SIGCHLD there): the conformance SUTs' 29 s counted in no file until this wait.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const end = cpuSeconds();
    const file = expect.getState().testPath ?? '(unknown)';
    const row = { file, self: end.self - start.self, children: end.children - start.children, wall: (performance.now() - started) / 1000 };
    appendFileSync(LOG, `${JSON.stringify(row)}\n`);
  });
}
