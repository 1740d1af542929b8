/**
 * The ripgrep exit-status contract, in one place. One run ends in exactly one of these ways, and
 * each has exactly one meaning:
 *
 * | how the run ended                                      | failure      | the result says                  |
 * |--------------------------------------------------------|--------------|----------------------------------|
 * | we stopped it: match `maxResults + 1` seen             | none         | `result-limit`                   |
 * | we stopped it: the caller's signal                     | none         | `aborted` (never retried)        |
 * | we stopped it: the time budget                         | `timeout`    | `time-budget`                    |
 * | we stopped it: a record or line passed the byte cap    | `max_buffer` | `io-error`                       |
 * | we stopped it: silent, and blocked on a special file   | `blocked`    | `io-error`, the file in `skipped`|
 * | we stopped it: 1,000 stderr lines nothing explains     | `exit`       | `io-error`                       |
 * | it could not be started                                | `spawn`      | `io-error` (never retried)       |
 * | thread-creation context + EAGAIN evidence on stderr    | `eagain`     | retried once with `--threads 1`  |
 * | exit 0, every stderr line explained (or none)          | none         | complete                         |
 * | exit 0, a stderr line nothing explains                 | `exit`       | `io-error`                       |
 * | exit 1, stderr blank                                   | none         | complete, no matches             |
 * | exit 1, stderr not blank                               | `exit`       | `io-error`: never "no matches"   |
 * | exit 2, every stderr line a path error                 | none         | `skipped` entries, by their code |
 * | exit 2, the rest warnings on a parent's ignore file    | none         | complete (rg 13 exits 2 for them)|
 * | exit 2, first line a refusal of the regex (stderr.ts)  | `exit`       | content, backend 'ripgrep':      |
 * |                                                        |              | FF_INVALID_QUERY (content/rg.ts) |
 * | exit 2, stderr blank or with any other line            | `exit`       | `io-error`                       |
 * | any other status, or killed by a signal we did not send| `exit`       | `io-error`                       |
 *
 * Whatever the status, every path already printed is kept, and every stderr line of the form
 * `<path>: <message> (os error N)` is a `skipped` entry, once the disk bears it out (when ripgrep
 * ran here; src/rg/stderr.ts). A line the disk does not bear out counts as unclassified: a name
 * that forges a line (a newline, `: `, `(os error 2)` in it) makes the answer `io-error`, never
 * complete. A warning about a rule ripgrep could not parse (an ignore file's line that is not a
 * glob) is believed only once the file bears it out, and never when it ends like a path error: an
 * unbelieved one is unclassified too. Success is never inferred from an empty stderr alone (exit 2
 * with nothing on stderr, or with only warnings about ignore files inside the root, is a failure),
 * which is also why `--no-messages` is never passed.
 *
 * After the run, the checks of what it printed (which stderr paths are gaps, which listed paths
 * holding U+FFFD are real) read the caller's signal and the budget too: one cut short adds `aborted`
 * or `time-budget` as the stop (`stoppedAfterRun`), unless the run already stopped for a reason; a
 * failure keeps its `io-error`.
 */
import type { Deadline } from '../limits.js';
import { ReasonLog, type FailureKind, type IncompleteReason, type SkippedEntry } from '../result.js';
import type { StderrReport } from './stderr.js';

/** Why we stopped a run ourselves. */
export type StopCause = 'limit' | 'aborted' | 'timeout' | 'max_buffer' | 'blocked' | 'stderr_flood';

/** How one run ended, as seen by the settlement guard. */
export type RunEnd =
  | { kind: 'exit'; code: number | null; signal: string | null }
  | { kind: 'spawn-error'; code: string }
  | { kind: 'stopped'; cause: StopCause };

export interface Verdict {
  /** Set when the run failed. */
  failureKind?: FailureKind;
  /** The reason the output stops short, when the run was cut: it goes first in `incompleteReasons`. */
  stopReason?: IncompleteReason;
  /** Only a confirmed thread-creation EAGAIN is worth running again. */
  retryable: boolean;
}

const STOPPED: Readonly<Record<StopCause, Verdict>> = {
  limit: { stopReason: 'result-limit', retryable: false },
  aborted: { stopReason: 'aborted', retryable: false },
  timeout: { failureKind: 'timeout', stopReason: 'time-budget', retryable: false },
  max_buffer: { failureKind: 'max_buffer', stopReason: 'io-error', retryable: false },
  blocked: { failureKind: 'blocked', stopReason: 'io-error', retryable: false },
  // Each such line is already an `exit` failure (a status with stderr nothing explains): the same verdict, sooner.
  stderr_flood: { failureKind: 'exit', stopReason: 'io-error', retryable: false },
};

export function judgeRun(end: RunEnd, stderr: StderrReport): Verdict {
  if (end.kind === 'stopped') return STOPPED[end.cause];
  // A process that never started cannot gain from fewer threads, whatever its errno (EAGAIN too).
  if (end.kind === 'spawn-error') return { failureKind: 'spawn', retryable: false };
  const { code } = end;
  if (code !== 0 && stderr.eagain) return { failureKind: 'eagain', retryable: true };
  // ripgrep 13 drops an ignore file whose rules pass its regex size limit, says so, and exits 0
  // having listed what that file ignores: a line nothing explains is no clean answer.
  if (code === 0) return stderr.unclassified > 0 ? { failureKind: 'exit', retryable: false } : { retryable: false };
  if (code === 1) return stderr.nonEmpty ? { failureKind: 'exit', retryable: false } : { retryable: false };
  // A path error, or ripgrep 13's exit 2 for a parent's ignore-file warning, explains exit 2 (and nothing else may be left).
  if (code === 2 && (stderr.nonEmpty || stderr.warnedAbove) && stderr.unclassified === 0) return { retryable: false };
  return { failureKind: 'exit', retryable: false };
}

/**
 * Why the checks made after a run (src/rg/stderr.ts `judgeGaps`, src/rg/undecodable.ts) must stop:
 * the caller's signal (a cancelled MCP call must not wait out thousands of checks), then the budget.
 */
export type PostRunStop = () => 'aborted' | 'time-budget' | undefined;

export function buildPostRunStop(deadline: Deadline, signal: AbortSignal | undefined): PostRunStop {
  return () => (signal?.aborted === true ? 'aborted' : deadline.passed() ? 'time-budget' : undefined);
}

/**
 * The verdict once those checks were cut: their stop, unless the run already stopped. No failure
 * kind: ripgrep ended on its own (`timeout` is for a child we killed).
 */
export function stoppedAfterRun(verdict: Verdict, reason: IncompleteReason): Verdict {
  return verdict.stopReason === undefined ? { ...verdict, stopReason: reason } : verdict;
}

/**
 * The reasons a ripgrep answer is incomplete: the stop first, then the caller's `gaps` (the depth
 * limit), each skipped entry's class in the order printed, then what no path explains (unclassified
 * lines, a failure).
 */
export function collectReasons(
  verdict: Verdict,
  skipped: readonly SkippedEntry[],
  unclassified: number,
  gaps: readonly IncompleteReason[] = [],
): IncompleteReason[] {
  const log = new ReasonLog();
  if (verdict.stopReason !== undefined) log.stop(verdict.stopReason);
  for (const gap of gaps) log.note(gap);
  for (const entry of skipped) log.noteSkipped(entry.code);
  // A failure is an io-error (a no-op where that is the stop), but the budget's own (`time-budget` says it).
  if (unclassified > 0 || (verdict.failureKind !== undefined && verdict.failureKind !== 'timeout')) log.note('io-error');
  return log.list();
}
