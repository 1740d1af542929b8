/**
 * The exit-status contract as a truth table (as ripgrep pins its own in one regression test): every
 * way a run can end, and what it means.
 */
import { describe, expect, it } from 'vitest';
import { collectReasons, stoppedAfterRun, judgeRun, type RunEnd, type Verdict } from '../../src/rg/exit.js';
import type { StderrReport } from '../../src/rg/stderr.js';

const blank: StderrReport = { skipped: [], unclassified: 0, nonEmpty: false, eagain: false, warnedAbove: false };
const denied: StderrReport = { skipped: [{ path: 'deny', code: 'EACCES' }], unclassified: 0, nonEmpty: true, eagain: false, warnedAbove: false };
const odd: StderrReport = { skipped: [], unclassified: 1, nonEmpty: true, eagain: false, warnedAbove: false };
const deniedAndOdd: StderrReport = { ...denied, unclassified: 1 };
const eagain: StderrReport = { skipped: [], unclassified: 2, nonEmpty: true, eagain: true, warnedAbove: false };

const exit = (code: number | null, signal: string | null = null): RunEnd => ({ kind: 'exit', code, signal });
const ok: Verdict = { retryable: false };
const failed = (failureKind: Verdict['failureKind']): Verdict => ({ failureKind, retryable: false });

const TABLE: [string, RunEnd, StderrReport, Verdict][] = [
  ['exit 0', exit(0), blank, ok],
  ['exit 0 with a path error (kept as skipped)', exit(0), denied, ok],
  ['exit 1, stderr blank: no matches', exit(1), blank, ok],
  ['exit 1 with stderr: a failure, never "no matches"', exit(1), odd, failed('exit')],
  ['exit 1 with a path error: still a failure', exit(1), denied, failed('exit')],
  ['exit 2, every line a path error', exit(2), denied, ok],
  ['exit 2, stderr blank: a failure (success is never inferred from silence)', exit(2), blank, failed('exit')],
  ['exit 2 with an unclassified line', exit(2), odd, failed('exit')],
  ['exit 2 with a path error and an unclassified line', exit(2), deniedAndOdd, failed('exit')],
  ['exit 101 panic with thread-creation EAGAIN', exit(101), eagain, { failureKind: 'eagain', retryable: true }],
  ['exit 2 with thread-creation EAGAIN', exit(2), eagain, { failureKind: 'eagain', retryable: true }],
  ['exit 101 without EAGAIN evidence', exit(101), odd, failed('exit')],
  // Stryker survivors (docs/mutation.md): success wins over a panic's lines; only exit 2 turns path errors into "ran".
  // Lines nothing explains are no clean answer, even after exit 0 (rg 13 warns so when it drops an
  // ignore file past its regex size limit, and lists what that file ignores): a failure, not retried.
  ['exit 0 with thread-creation EAGAIN lines: it ran, nothing to retry, but the lines are unexplained', exit(0), eagain, failed('exit')],
  ['exit 0 with an unclassified line', exit(0), odd, failed('exit')],
  ['exit 3 with only path errors: a failure (only exit 2 means "ran, some paths unreadable")', exit(3), denied, failed('exit')],
  ['exit 101 with only path errors: a failure', exit(101), denied, failed('exit')],
  ['killed by a signal we did not send, after path errors: a failure', exit(null, 'SIGKILL'), denied, failed('exit')],
  ['exit 3', exit(3), blank, failed('exit')],
  ['killed by a signal we did not send', exit(null, 'SIGKILL'), blank, failed('exit')],
  ['spawn error', { kind: 'spawn-error', code: 'ENOENT' }, blank, failed('spawn')],
  ['spawn EAGAIN: not retried (the process never ran)', { kind: 'spawn-error', code: 'EAGAIN' }, eagain, failed('spawn')],
  ['stopped at maxResults + 1', { kind: 'stopped', cause: 'limit' }, blank, { stopReason: 'result-limit', retryable: false }],
  ['stopped by the caller: not a failure, not retried', { kind: 'stopped', cause: 'aborted' }, eagain, { stopReason: 'aborted', retryable: false }],
  ['stopped by the time budget', { kind: 'stopped', cause: 'timeout' }, blank, { failureKind: 'timeout', stopReason: 'time-budget', retryable: false }],
  ['stopped by the byte cap', { kind: 'stopped', cause: 'max_buffer' }, blank, { failureKind: 'max_buffer', stopReason: 'io-error', retryable: false }],
];

describe('judgeRun', () => {
  it.each(TABLE)('%s', (_name, end, stderr, verdict) => {
    expect(judgeRun(end, stderr)).toEqual(verdict);
  });
});

describe('collectReasons', () => {
  it('puts the stop first, then gaps, then skipped classes in order, then unexplained failures', () => {
    const skipped = [
      { path: 'a', code: 'EIO' },
      { path: 'b', code: 'EACCES' },
    ];
    expect(collectReasons({ stopReason: 'result-limit', retryable: false }, skipped, 0, ['depth-limit'])).toEqual([
      'result-limit',
      'depth-limit',
      'io-error',
      'permission-denied',
    ]);
  });

  it('leaves vanished entries out of the reasons (the tree changed, coverage did not)', () => {
    expect(collectReasons(ok, [{ path: 'gone', code: 'ENOENT' }], 0)).toEqual([]);
  });

  it('marks an unclassified line or a failure as io-error, once', () => {
    expect(collectReasons(ok, [], 3)).toEqual(['io-error']);
    expect(collectReasons(failed('exit'), [], 1)).toEqual(['io-error']);
    expect(collectReasons(failed('spawn'), [], 0)).toEqual(['io-error']);
    expect(collectReasons({ failureKind: 'timeout', stopReason: 'time-budget', retryable: false }, [], 0)).toEqual(['time-budget']);
  });
});

describe('stoppedAfterRun (the checks after the run were cut short by the budget or the signal)', () => {
  it('stops with time-budget a run that did not stop, and a failure keeps its io-error', () => {
    expect(collectReasons(stoppedAfterRun(ok, 'time-budget'), [], 0)).toEqual(['time-budget']);
    expect(collectReasons(stoppedAfterRun(ok, 'aborted'), [], 0)).toEqual(['aborted']);
    expect(collectReasons(stoppedAfterRun(failed('exit'), 'time-budget'), [], 0)).toEqual(['time-budget', 'io-error']);
    expect(stoppedAfterRun(failed('exit'), 'aborted').failureKind).toBe('exit');
  });

  it('leaves a run that stopped for a reason of its own as it was', () => {
    for (const cause of ['limit', 'aborted', 'timeout', 'max_buffer', 'blocked', 'stderr_flood'] as const) {
      const verdict = judgeRun({ kind: 'stopped', cause }, blank);
      expect(stoppedAfterRun(verdict, 'time-budget')).toEqual(verdict);
      expect(stoppedAfterRun(verdict, 'aborted')).toEqual(verdict);
    }
  });
});
