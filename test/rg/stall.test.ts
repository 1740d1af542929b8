/**
 * The stall watch of one ripgrep run (src/rg/run.ts `watchSilence`, src/rg/blocking.ts): asked only
 * after `afterMs` without output, again four times later when it clears the run, and a run it finds
 * stuck is stopped (`blocked`, the child killed, the files named). A runner plays ripgrep.
 */
import { describe, expect, it } from 'vitest';
import { Deadline } from '../../src/limits.js';
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

/** A watch whose answers are given in turn; it records when it was asked. */
function scriptedWatch(afterMs: number, answers: boolean[]): StallWatch & { asked: number[]; stops: number } {
  const start = Date.now();
  const watch = {
    afterMs,
    asked: [] as number[],
    stops: 0,
    found: [] as { path: string; code: string }[],
    isBlocked: async () => {
      watch.asked.push(Date.now() - start);
      const stuck = answers.shift() ?? false;
      if (stuck) watch.found.push({ path: 'sub/.gitignore', code: 'FF_SPECIAL_IGNORE_FILE' });
      return stuck;
    },
    stop: () => void watch.stops++,
  };
  return watch;
}

/** A ripgrep that prints `chunks` every `everyMs`, then hangs until killed (or exits 0 when `exits`). */
function playing(chunks: number, everyMs: number, exits: boolean) {
  const seen = { killed: false };
  const runner = (request: ProcessRequest, listener: ProcessListener) => {
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
  return runRipgrep({
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
  });
}

describe('the stall watch', () => {
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
});
