/**
 * Runs ripgrep once, or twice when it could not create its threads. Knows nothing about what the
 * output means: a consumer takes each stdout record (a path for `--files --null`, a JSON event for
 * `--json`) and says when it has enough. What this module guarantees for every use:
 *
 * - One settlement per run. The runner may report a failure twice (Node's spawn error and close
 *   events both fire): the first report settles the run, the rest are ignored. The retry decision is
 *   taken once that single settlement is in, so one failure can never start two retries.
 * - The child is killed when we stop it: the consumer has enough, the caller aborted, the time
 *   budget ran out, a record or stderr line outgrew the byte cap, or stderr held more lines nothing
 *   explains than `MAX_UNEXPLAINED_LINES` (a failure already: no answer is worth waiting for).
 * - At most one retry, with `--threads 1` in place of the thread count, only for a confirmed
 *   thread-creation EAGAIN, never after an abort or a spawn failure. A retry starts from a fresh
 *   consumer, so a retry that succeeds answers cleanly. Nothing is remembered for the next search.
 * - What stderr says about paths is believed only once held to the disk (src/rg/stderr.ts), when
 *   the run is the real ripgrep started here (`spawnRunner`): an injected runner's output need not
 *   describe this disk. A run we stopped for the caller's signal or the budget does no more I/O.
 * - A run silent for a while is asked about once its `watch` says so (src/rg/blocking.ts): ripgrep
 *   blocked opening a FIFO called `.gitignore` never ends on its own, so it is stopped (`blocked`).
 */
import type { BudgetTimer, Deadline } from '../limits.js';
import type { Platform } from '../patterns.js';
import { errorCodeOf, type RecoveryInfo, type SkippedEntry } from '../result.js';
import { ignoreFilesOf, threadsOf, withThreads } from './argv.js';
import { judgeRun, type RunEnd, type Verdict } from './exit.js';
import { RecordSplitter } from './records.js';
import type { ResolvedRipgrep } from './resolve.js';
import { spawnRunner, type ProcessListener, type ProcessRunner } from './runner.js';
import type { StallWatch } from './blocking.js';
import { StderrReader, type StderrReport } from './stderr.js';

/** Takes stdout records; returns false when it wants no more (the child is then killed). */
export interface RecordConsumer {
  /** False: stop the run (the limits, or with `stopCause` the budget). */
  record(text: string): boolean;
  stopCause?: 'timeout' | undefined;
}

export interface RunRequest<C extends RecordConsumer> {
  rg: ResolvedRipgrep;
  /** Holds `--threads N`. */
  argv: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
  runner: ProcessRunner;
  platform: Platform;
  signal: AbortSignal | undefined;
  /** The search's time budget, from its start (a retry does not get a fresh one). */
  deadline: Deadline;
  /** 0 (NUL) for `--null`, 10 (newline) for `--json`. */
  delimiter: number;
  /** Cap on one unfinished stdout record or stderr line, in bytes. */
  maxRecordBytes: number;
  /** A fresh consumer for each run. */
  newConsumer(): C;
  /** Asked whether a silent run is stuck (ignore files read in the tree); undefined: never. */
  watch?: StallWatch | undefined;
  /**
   * Asked after each stdout chunk: a promise while the reader has enough waiting (a stream's), until
   * it has taken them. Meanwhile stdout is not read (the runner's `stdout`), so ripgrep waits on its
   * pipe, and its silence is ours: the stall watch does not count it. Undefined: read as it comes.
   */
  waitForReader?: (() => Promise<void> | undefined) | undefined;
}

export interface RunOutcome<C> {
  /** The last run's consumer: what ripgrep printed that time. */
  consumer: C;
  stderr: StderrReport;
  verdict: Verdict;
  recovery: RecoveryInfo;
  /** The files a stuck run was waiting on (`blocked`), as `skipped` entries. */
  blocked: SkippedEntry[];
}

export async function runRipgrep<C extends RecordConsumer>(request: RunRequest<C>): Promise<RunOutcome<C>> {
  const first = await runOnce(request, request.argv);
  const recovery: RecoveryInfo = { selectionMode: request.rg.selectionMode, retryTriggered: false };
  const threads = threadsOf(request.argv);
  const canRetry = first.verdict.retryable && !request.signal?.aborted && threads !== undefined && threads > 1;
  const blocked = () => request.watch?.found ?? [];
  if (!canRetry) return { ...first, recovery: withFailure(recovery, first.verdict), blocked: blocked() };
  recovery.retryTriggered = true;
  const second = await runOnce(request, withThreads(request.argv, 1));
  recovery.retrySucceeded = second.verdict.failureKind === undefined && second.verdict.stopReason !== 'aborted';
  return { ...second, recovery: withFailure(recovery, second.verdict), blocked: blocked() };
}

function withFailure(recovery: RecoveryInfo, verdict: Verdict): RecoveryInfo {
  return verdict.failureKind === undefined ? recovery : { ...recovery, failureKind: verdict.failureKind };
}

interface Attempt<C> {
  consumer: C;
  stderr: StderrReport;
  verdict: Verdict;
}

const NEWLINE = 10;

/**
 * Stderr lines nothing explains (no path error, no ignore-file warning) after which the run is
 * stopped. One such line already makes the run a failure (src/rg/exit.ts), so waiting for more only
 * costs time: over /proc rg 13 prints millions of `Permission denied (os error 13)` with no path and
 * never ends. A thousand leaves room for the thread-creation lines an EAGAIN retry is judged by.
 */
export const MAX_UNEXPLAINED_LINES = 1_000;

function runOnce<C extends RecordConsumer>(request: RunRequest<C>, argv: readonly string[]): Promise<Attempt<C>> {
  const { deadline, signal } = request;
  const overBudget = () => deadline.passed();
  return new Promise((resolve) => {
    const consumer = request.newConsumer();
    const stderr = new StderrReader(request.platform, ignoreFilesOf(argv));
    const out = new RecordSplitter(request.delimiter, request.maxRecordBytes);
    const err = new RecordSplitter(NEWLINE, request.maxRecordBytes);
    const child = new AbortController();
    let settled = false;
    let timer: BudgetTimer | undefined;
    const quiet = watchSilence(request.watch, () => settled, () => settle({ kind: 'stopped', cause: 'blocked' }));
    const hold = holdForReader(quiet, () => settled);
    const onAbort = () => settle({ kind: 'stopped', cause: 'aborted' });
    const takeLine = (line: string) => {
      stderr.line(line);
      if (stderr.unexplained >= MAX_UNEXPLAINED_LINES) settle({ kind: 'stopped', cause: 'stderr_flood' });
      return !settled;
    };

    // The single settlement guard: every way a run can end comes through here, once.
    function settle(end: RunEnd): void {
      if (settled) return;
      settled = true;
      hold.end();
      timer?.clear();
      quiet.stop();
      signal?.removeEventListener('abort', onAbort);
      if (end.kind === 'stopped') child.abort();
      else {
        const last = err.rest(); // a last stderr line without a newline is still a line
        if (last !== undefined) stderr.line(last);
      }
      resolve(judgeAttempt(request, stderr, consumer, end));
    }

    if (signal?.aborted) return settle({ kind: 'stopped', cause: 'aborted' });
    if (overBudget()) return settle({ kind: 'stopped', cause: 'timeout' });
    signal?.addEventListener('abort', onAbort, { once: true });
    // With the real clock, a timer; an injected clock is read at each chunk instead.
    timer = deadline.arm(() => settle({ kind: 'stopped', cause: 'timeout' }));
    quiet.start();

    const listener: ProcessListener = {
      stdout(chunk) {
        if (settled) return;
        quiet.heard();
        if (overBudget()) return settle({ kind: 'stopped', cause: 'timeout' });
        const pushed = out.push(chunk, (record) => consumer.record(record));
        if (pushed === 'stopped') return settle({ kind: 'stopped', cause: consumer.stopCause ?? 'limit' });
        if (pushed === 'overflow') return settle({ kind: 'stopped', cause: 'max_buffer' });
        const reader = request.waitForReader?.();
        return reader === undefined ? undefined : hold.wait(reader);
      },
      stderr(chunk) {
        if (settled) return;
        quiet.heard();
        if (overBudget()) return settle({ kind: 'stopped', cause: 'timeout' });
        if (err.push(chunk, takeLine) === 'overflow') settle({ kind: 'stopped', cause: 'max_buffer' });
      },
      exit(code, exitSignal) {
        settle({ kind: 'exit', code, signal: exitSignal });
      },
      error(error) {
        settle({ kind: 'spawn-error', code: errorCodeOf(error) });
      },
      started: (pid) => quiet.started(pid),
    };
    try {
      request.runner({ executable: request.rg.path, argv, cwd: request.cwd, env: request.env, signal: child.signal }, listener);
    } catch (error) {
      listener.error(error);
    }
  });
}

/** How a run ended, judged: stderr's path lines held to the disk only for the real ripgrep, and not after a stop for the caller. */
async function judgeAttempt<C extends RecordConsumer>(request: RunRequest<C>, stderr: StderrReader, consumer: C, end: RunEnd): Promise<Attempt<C>> {
  const stoppedForCaller = end.kind === 'stopped' && (end.cause === 'aborted' || end.cause === 'timeout');
  const report =
    request.runner === spawnRunner && !stoppedForCaller
      ? await stderr.checkedReport(request.cwd, () => request.signal?.aborted === true || request.deadline.passed())
      : stderr.report();
  return { consumer, stderr: report, verdict: judgeRun(end, report) };
}

/**
 * While a stream's reader has enough, the run's stdout waits (the runner reads no more of it until
 * `wait`'s promise settles), and the silence is ours: the stall watch pauses. `end` (the run is over)
 * lets stdout flow again: a runner is never left waiting on a reader that has gone (Node resumes a
 * child's stdout when it exits; an injected runner need not).
 */
function holdForReader(quiet: ReturnType<typeof watchSilence>, isSettled: () => boolean) {
  let holding: (() => void) | undefined;
  return {
    wait: (reader: Promise<void>): Promise<void> => {
      quiet.hold();
      return new Promise((resolve) => {
        holding = resolve;
        void reader.then(() => {
          holding = undefined;
          if (!isSettled()) quiet.release();
          resolve();
        });
      });
    },
    end: () => holding?.(),
  };
}

/**
 * Calls `onStuck` when the watch, asked after `afterMs` without a chunk, says the run is stuck; a
 * check that clears it waits four times as long for the next (1, 5, 21 s... of a long silent
 * search: a check is a listing walk). One check at a time, none after the end, and none while we
 * `hold` the output ourselves (the reader is slow: the silence is ours, not ripgrep's).
 */
function watchSilence(watch: StallWatch | undefined, isSettled: () => boolean, onStuck: () => void) {
  let timer: NodeJS.Timeout | undefined;
  let wait = watch?.afterMs ?? 0;
  let pid: number | undefined;
  let held = false;
  let checking = false;
  const arm = () => {
    if (watch !== undefined && !held && !checking) timer = setTimeout(check, wait);
  };
  const check = async () => {
    timer = undefined; // output during the check does not start another
    checking = true;
    let stuck: boolean | 'working' = false;
    try {
      stuck = await watch!.isBlocked(pid);
    } catch {
      // A check that fails proves nothing: the run goes on.
    }
    checking = false;
    if (isSettled() || held) return;
    if (stuck === true) return onStuck();
    // Still working (its CPU time grew): asked again as soon; only a listing walk makes the wait grow.
    if (stuck === false) wait *= 4;
    arm();
  };
  return {
    started: (id: number) => {
      pid = id;
    },
    start: arm,
    // Perf: refresh() re-arms the same timer, no allocation per chunk.
    heard: () => timer?.refresh(),
    hold: () => {
      held = true;
      clearTimeout(timer);
      timer = undefined;
    },
    release: () => {
      held = false;
      arm();
    },
    stop: () => {
      clearTimeout(timer);
      watch?.stop();
    },
  };
}
