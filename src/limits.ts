/**
 * The limits every engine keeps, written once: the time budget as a `Deadline` (read from the
 * plan's clock, with a real timer when the clock is the real one) and the bounded retry of a call
 * that found the process out of file handles. The walker, content search and ripgrep runs all use
 * these; none keeps a budget or a retry loop of its own.
 */
import { isDefaultClock, monotonicClock, type Clock } from './plan/clock.js';
import { classifyErrorCode, errorCodeOf } from './result.js';

/** The longest delay Node's timers take (about 24.8 days); a longer one warns on stderr and fires after 1 ms. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export interface BudgetTimer {
  clear(): void;
}

/**
 * Calls `onDue` once `ms` milliseconds of real time have passed by the monotonic clock. Node starts
 * a timer from the event loop's cached time, which lags the clock while a tick runs, so a timer can
 * fire early by as long as that tick took: each firing reads the clock again and waits out what is
 * left, and `onDue` never runs before the budget is spent. A delay past `MAX_TIMER_DELAY_MS` is
 * waited out in steps the same way, so a budget of 2^32 ms neither prints `TimeoutOverflowWarning`
 * nor ends the search at once. Infinity (and NaN) arm nothing: no budget.
 */
export function setBudgetTimer(ms: number, onDue: () => void): BudgetTimer {
  let timer: NodeJS.Timeout | undefined;
  if (Number.isFinite(ms)) {
    const due = monotonicClock.now() + ms;
    const wait = (left: number) => {
      timer = setTimeout(check, Math.min(Math.max(0, Math.ceil(left)), MAX_TIMER_DELAY_MS));
    };
    const check = () => {
      const left = due - monotonicClock.now();
      if (left > 0) wait(left);
      else onDue();
    };
    // Even with nothing left, the first check is a timer's: onDue never runs inside the caller's arm().
    wait(ms);
  }
  return { clear: () => clearTimeout(timer) };
}

/**
 * A time budget that started at one reading of the clock. `passed()` is the check every engine
 * makes between reads; `arm()` adds a timer so that a read that hangs cannot hold the answer past
 * the budget, with the real clock only: an injected clock is the caller's to advance, and is read
 * between reads only.
 */
export class Deadline {
  readonly startedAt: number;

  constructor(
    private readonly clock: Clock,
    /** Infinity for none. */
    readonly ms: number,
    startedAt?: number,
  ) {
    this.startedAt = startedAt ?? clock.now();
  }

  elapsed(): number {
    return this.clock.now() - this.startedAt;
  }

  /**
   * Perf: with no budget the clock is not read: the walk asks before every directory and every 256
   * entries, and `process.hrtime` (an array each call) was 4.6 ms of a listing of /usr's 15,675
   * directories in a profile (docs/performance.md, Round 12).
   */
  passed(): boolean {
    return this.ms !== Infinity && this.elapsed() >= this.ms;
  }

  /** What is left of the budget (never negative): a fallback engine's budget. */
  left(): number {
    return Math.max(0, this.ms - this.elapsed());
  }

  /** A timer for the time left, or undefined with an injected clock or no budget. */
  arm(onDue: () => void): BudgetTimer | undefined {
    if (!isDefaultClock(this.clock) || !Number.isFinite(this.ms)) return undefined;
    return setBudgetTimer(this.ms - this.elapsed(), onDue);
  }
}

/**
 * `work`'s answer, or `undefined` once the budget has passed or the signal fired, whichever comes
 * first: for a filesystem call made outside a walk's own checks (ripgrep's root and ignore files,
 * checked before its run), which a hung mount held for as long as it hung (20 s for a 300 ms
 * budget). The call itself goes on, unheard. An injected clock arms no timer: only the signal then.
 */
export function untilStopped<T>(work: Promise<T>, deadline: Deadline, signal: AbortSignal | undefined): Promise<T | undefined> {
  if (signal?.aborted === true || deadline.passed()) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const settle = (done: () => void) => {
      timer?.clear();
      signal?.removeEventListener('abort', onAbort);
      done();
    };
    const onAbort = () => settle(() => resolve(undefined));
    const timer = deadline.arm(onAbort);
    signal?.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

/** Pauses before retrying a call that ran out of file handles, in milliseconds. */
export const RETRY_DELAYS_MS: readonly number[] = [10, 40, 160, 640];

/**
 * The retry rule for directory reads and file opens: EMFILE/ENFILE (out of file handles) is tried
 * again after a growing pause, `RETRY_DELAYS_MS.length` times; then, like any other error, it is
 * the caller's to record. Returns the pause before the next attempt, or undefined for "give up".
 */
export function retryDelay(error: unknown, attempt: number): number | undefined {
  if (attempt >= RETRY_DELAYS_MS.length || classifyErrorCode(errorCodeOf(error)) !== 'retryable') return undefined;
  return RETRY_DELAYS_MS[attempt];
}
