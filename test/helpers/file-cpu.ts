/**
 * vitest setupFile: where the suite's CPU goes, file by file (scripts/suite-cpu.mjs, `npm run
 * test:cpu`). With FF_SUITE_CPU naming a file, each test file appends one JSON line to it: the CPU
 * its worker spent running it, the CPU of the child processes it started (the command, rg, bash,
 * the conformance SUT), and its wall time. Without FF_SUITE_CPU it registers nothing.
 *
 * Why per file from inside the worker: the suite is CPU-bound on two cores (its CPU is ~1.8 times its
 * wall), so a file's wall time says little about what it costs the run; vitest's own durations are
 * wall times. Linux only: the counts are /proc's, where a child's CPU is added to its parent's when
 * the parent reaps it, and a child still running is read from its own entry.
 */
import { appendFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { readProcStat, type ProcStat } from '../../scripts/proc-stat.mjs';

const LOG = process.env.FF_SUITE_CPU;

/**
 * This process's CPU, and its children's, in seconds: those reaped (the kernel adds them to their
 * parent's count) and every descendant not yet reaped, running or ended (its own and what it
 * reaped), so a child that outlives its file (a server stopped in `afterAll`, killed and reaped
 * later) counts in each file for the CPU it used during it, not all in the file that reaps it.
 */
function cpuSeconds(): { self: number; children: number } {
  const procs = new Map<number, ProcStat>();
  const childrenOf = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readProcStat(`/proc/${name}/stat`);
    if (stat === undefined) continue;
    procs.set(Number(name), stat);
    const siblings = childrenOf.get(stat.ppid);
    if (siblings === undefined) childrenOf.set(stat.ppid, [Number(name)]);
    else siblings.push(Number(name));
  }
  const me = readProcStat()!;
  let unreaped = 0;
  const stack = [...(childrenOf.get(process.pid) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    unreaped += procs.get(pid)!.own + procs.get(pid)!.reaped;
    stack.push(...(childrenOf.get(pid) ?? []));
  }
  return { self: me.own, children: me.reaped + unreaped };
}

if (LOG !== undefined && process.platform === 'linux') {
  let start = cpuSeconds();
  let started = 0;
  beforeAll(() => {
    start = cpuSeconds();
    started = performance.now();
  });
  afterAll(() => {
    // A child that ended during synchronous tests is reaped only when the event loop next polls;
    // until then it is a zombie, whose /proc entry still holds its CPU: counted above all the same.
    const end = cpuSeconds();
    const file = expect.getState().testPath ?? '(unknown)';
    const row = { file, self: end.self - start.self, children: end.children - start.children, wall: (performance.now() - started) / 1000 };
    appendFileSync(LOG, `${JSON.stringify(row)}\n`);
  });
}
