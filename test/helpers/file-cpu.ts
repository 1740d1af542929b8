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
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

const LOG = process.env.FF_SUITE_CPU;

/** A process's own CPU and its reaped children's, in clock ticks (100 a second on Linux), and its parent; undefined once it is gone. */
function readStat(path: string): { ppid: number; own: number; reaped: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(path, 'utf8');
  } catch {
    return undefined; // ended between the listing and the read
  }
  // The fields after the command name, which may hold spaces and parentheses: it ends at the last ") ".
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ').map(Number);
  // proc(5): ppid is field 4, utime, stime, cutime, cstime 14-17 (1 and 10-13 after the name and state).
  return { ppid: fields[1]!, own: fields[11]! + fields[12]!, reaped: fields[13]! + fields[14]! };
}

/**
 * This process's CPU, and its children's in seconds: those reaped (the kernel adds them to their
 * parent's count) and every descendant still running (its own and what it reaped), so a child that
 * outlives its file (a server stopped in `afterAll`, killed and reaped later) counts in each file for
 * the CPU it used during it, not all in the file that reaps it.
 */
function cpuSeconds(): { self: number; children: number } {
  const procs = new Map<number, { ppid: number; own: number; reaped: number }>();
  const childrenOf = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(`/proc/${name}/stat`);
    if (stat === undefined) continue;
    procs.set(Number(name), stat);
    childrenOf.set(stat.ppid, [...(childrenOf.get(stat.ppid) ?? []), Number(name)]);
  }
  const me = readStat('/proc/self/stat')!;
  let running = 0;
  const stack = [...(childrenOf.get(process.pid) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    running += procs.get(pid)!.own + procs.get(pid)!.reaped;
    stack.push(...(childrenOf.get(pid) ?? []));
  }
  return { self: me.own / 100, children: (me.reaped + running) / 100 };
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
