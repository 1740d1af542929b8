/**
 * The stall watch of one ripgrep run (src/rg/run.ts `watchSilence`, src/rg/blocking.ts): asked only
 * after `afterMs` without output, again four times later when it clears the run, and a run it finds
 * stuck is stopped (`blocked`, the child killed, the files named). A runner plays ripgrep.
 *
 * The watch's own suite runs on fake timers, advanced by hand: on real ones "a run that keeps
 * printing is never asked" failed on a loaded machine (a 10 ms tick late past the 60 ms silence).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadline } from '../../src/limits.js';
import { buildStallWatch } from '../../src/rg/blocking.js';
import { buildFindPlan } from '../../src/plan/search-plan.js';
import { needsRg, realRg } from '../helpers/real-rg.js';
import { describeIf, itIf, linux } from '../helpers/skip-why.js';
import { FakeClock } from '../helpers/rg-fake.js';
import type { StallWatch } from '../../src/rg/blocking.js';
import { runRipgrep, type RecordConsumer } from '../../src/rg/run.js';
import type { ProcessListener, ProcessRequest } from '../../src/rg/runner.js';

class Collect implements RecordConsumer {
  readonly records: string[] = [];
  record(text: string): boolean {
    this.records.push(text);
    return true;
  }
}

/** A watch whose answers are given in turn; it records when it was asked, and the pid it was given. */
function scriptedWatch(afterMs: number, answers: (boolean | 'working')[]): StallWatch & { asked: number[]; pids: (number | undefined)[]; stops: number } {
  const start = Date.now();
  const watch = {
    afterMs,
    asked: [] as number[],
    pids: [] as (number | undefined)[],
    stops: 0,
    found: [] as { path: string; code: string }[],
    isBlocked: async (pid?: number) => {
      watch.asked.push(Date.now() - start);
      watch.pids.push(pid);
      const stuck = answers.shift() ?? false;
      if (stuck === true) watch.found.push({ path: 'sub/.gitignore', code: 'FF_SPECIAL_IGNORE_FILE' });
      return stuck;
    },
    stop: () => void watch.stops++,
  };
  return watch;
}

/** A ripgrep that prints `chunks` every `everyMs`, then hangs until killed (or exits 0 when `exits`); `pid`: the one it says it started as. */
function playing(chunks: number, everyMs: number, exits: boolean, pid?: number) {
  const seen = { killed: false };
  const runner = (request: ProcessRequest, listener: ProcessListener) => {
    if (pid !== undefined) listener.started?.(pid);
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < chunks) listener.stdout(new TextEncoder().encode(`f${sent++}\0`));
      else if (exits) {
        clearInterval(timer);
        listener.exit(0, null);
      }
    }, everyMs);
    request.signal.addEventListener('abort', () => {
      seen.killed = true;
      clearInterval(timer);
      listener.exit(null, 'SIGTERM');
    });
  };
  return { runner, seen };
}

function start(runner: (request: ProcessRequest, listener: ProcessListener) => void, watch: StallWatch) {
  return runOnFakeTimers(runRipgrep({
    rg: { path: '/usr/bin/rg', selectionMode: 'system' },
    argv: ['--files', '--threads', '1'],
    cwd: '/',
    env: {},
    runner,
    platform: 'posix',
    signal: undefined,
    deadline: new Deadline(new FakeClock(), Infinity, 0),
    delimiter: 0,
    maxRecordBytes: 1 << 20,
    newConsumer: () => new Collect(),
    watch,
  }));
}

/** The run to its end, with the fake timers advanced well past every wait the tests script (at most ~1 s). */
async function runOnFakeTimers<T>(run: Promise<T>): Promise<T> {
  await vi.advanceTimersByTimeAsync(5_000);
  return run;
}

describe('the stall watch', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('a silent run is asked about after afterMs, again after four times that, and stopped when stuck', async () => {
    const watch = scriptedWatch(40, [false, true]);
    const rg = playing(2, 5, false);
    const outcome = await start(rg.runner, watch);
    expect(watch.asked).toHaveLength(2);
    // The second check waits 4 x 40 ms after the first.
    expect(watch.asked[1]! - watch.asked[0]!).toBeGreaterThanOrEqual(150);
    expect(rg.seen.killed).toBe(true);
    expect(outcome.consumer.records).toEqual(['f0', 'f1']);
    expect(outcome.verdict).toEqual({ failureKind: 'blocked', stopReason: 'io-error', retryable: false });
    expect(outcome.recovery.failureKind).toBe('blocked');
    expect(outcome.blocked).toEqual([{ path: 'sub/.gitignore', code: 'FF_SPECIAL_IGNORE_FILE' }]);
    expect(watch.stops).toBe(1);
  });

  it('a run that keeps printing is never asked about, and ends as it ends', async () => {
    const watch = scriptedWatch(60, [true]);
    const rg = playing(30, 10, true);
    const outcome = await start(rg.runner, watch);
    expect(watch.asked).toEqual([]);
    expect(rg.seen.killed).toBe(false);
    expect(outcome.consumer.records).toHaveLength(30);
    expect(outcome.verdict).toEqual({ retryable: false });
    expect(outcome.blocked).toEqual([]);
  });

  it("a run still working (its CPU time grows) is asked again after the same silence, not four times it; the check gets the child's pid", async () => {
    const watch = scriptedWatch(40, ['working', 'working', true]);
    const rg = playing(1, 5, false, 4242);
    const outcome = await start(rg.runner, watch);
    expect(watch.asked).toHaveLength(3);
    expect(watch.pids).toEqual([4242, 4242, 4242]);
    // Had a 'working' answer grown the wait, the third check would come 160 + 640 ms after the first.
    expect(watch.asked[2]! - watch.asked[0]!).toBeLessThan(600);
    expect(outcome.verdict).toMatchObject({ failureKind: 'blocked' });
  });
});

describeIf(linux('the CPU time of a process is read from /proc'))('the check asks the OS before it walks', () => {
  it("a ripgrep whose CPU time grows is 'working' (no walk); one that uses none is walked, and found stuck only where a special ignore file is", async () => {
    const tree = mkdtempSync(join(tmpdir(), 'ff-stall-cpu-'));
    const busy = spawn(process.execPath, ['-e', 'for (const end = Date.now() + 60000; Date.now() < end; );'], { stdio: 'ignore' });
    const idle = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const plan = buildFindPlan({ root: tree, pattern: '*', gitignore: true });
      const check = () => buildStallWatch(plan, new Deadline(plan.limits.clock, Infinity))!;
      // Its start over: the idle one then uses no CPU at all.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await check().isBlocked(busy.pid)).toBe('working');
      expect(await check().isBlocked(idle.pid)).toBe(false);
      expect(spawnSync('mkfifo', [join(tree, '.gitignore')]).status).toBe(0);
      const watch = check();
      expect(await watch.isBlocked(idle.pid)).toBe(true);
      expect(watch.found).toEqual([{ path: '.gitignore', code: 'FF_SPECIAL_IGNORE_FILE' }]);
    } finally {
      busy.kill();
      idle.kill();
      rmSync(tree, { recursive: true, force: true });
    }
  });

  /** Whether a thread of the process waits in a FIFO's open (the kernel's wchan names it). */
  function waitsOnFifo(pid: number): boolean {
    try {
      return readdirSync(`/proc/${pid}/task`).some((tid) => readFileSync(`/proc/${pid}/task/${tid}/wchan`, 'latin1') === 'wait_for_partner');
    } catch {
      return false;
    }
  }

  /** Waits (a state, polled between turns of the event loop) until a thread of `pid` waits in a FIFO's open. */
  async function untilBlockedOnFifo(pid: number): Promise<void> {
    while (!waitsOnFifo(pid)) await new Promise((resolve) => setImmediate(resolve));
  }

  /** A tree whose `sub/.gitignore` is a FIFO, and a file holding `hi`. */
  function fifoTree(): string {
    const tree = mkdtempSync(join(tmpdir(), 'ff-stall-fifo-'));
    mkdirSync(join(tree, 'sub'));
    writeFileSync(join(tree, 'a.txt'), 'hi\n');
    expect(spawnSync('mkfifo', [join(tree, 'sub', '.gitignore')]).status).toBe(0);
    return tree;
  }

  const checkOf = (tree: string) => {
    const plan = buildFindPlan({ root: tree, pattern: '*', gitignore: true });
    return () => buildStallWatch(plan, new Deadline(plan.limits.clock, Infinity))!;
  };

  itIf(needsRg)('a real ripgrep blocked on a FIFO .gitignore is blocked at every check: its idle walker threads tick (~10 ms of CPU a second), it does not search', async () => {
    const tree = fifoTree();
    const rg = spawn(realRg.path!, ['--threads', '2', '--', 'hi', '.'], { cwd: tree, stdio: 'ignore' });
    try {
      await untilBlockedOnFifo(rg.pid!);
      const check = checkOf(tree);
      // Each check samples its CPU for 100 ms: with "it grew" alone (no wchan check), one in five to
      // ten said 'working'.
      const answers: (boolean | 'working')[] = [];
      for (let i = 0; i < 24; i++) answers.push(await check().isBlocked(rg.pid));
      expect(answers).toEqual(Array.from({ length: 24 }, () => true));
    } finally {
      rg.kill('SIGKILL');
      rmSync(tree, { recursive: true, force: true });
    }
  }, 60_000);

  it('a process waiting in a FIFO\'s open is blocked even while another of its threads burns a core', async () => {
    const tree = fifoTree();
    // A worker spins; the main thread then opens the FIFO (and waits there for a writer).
    const script = `const { Worker } = require('node:worker_threads');
new Worker('for (;;);', { eval: true }).on('online', () => require('node:fs').openSync(${JSON.stringify(join(tree, 'sub', '.gitignore'))}, 'r'));`;
    const blocked = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    try {
      await untilBlockedOnFifo(blocked.pid!);
      const check = checkOf(tree);
      for (let i = 0; i < 3; i++) {
        const watch = check();
        expect(await watch.isBlocked(blocked.pid)).toBe(true);
        expect(watch.found).toEqual([{ path: 'sub/.gitignore', code: 'FF_SPECIAL_IGNORE_FILE' }]);
      }
    } finally {
      blocked.kill('SIGKILL');
      rmSync(tree, { recursive: true, force: true });
    }
  }, 60_000);
});
