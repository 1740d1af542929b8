/**
 * The clock a search reads: real time (`process.hrtime`) unless one is injected. An injected clock
 * is checked, so that a broken one can never disable a time budget.
 */
import { FindFileError } from '../errors.js';
import { describe } from './read.js';

/** A source of time in milliseconds. Only differences are used, so any origin will do. */
export interface Clock {
  /** The time now, in milliseconds; a finite number (the first reading is checked: `FF_INVALID_OPTION`). */
  now(): number;
}

/**
 * Perf: `process.hrtime`, not `performance.now`: the first use of the `performance` global loads
 * perf_hooks (1.5 ms in-process), which a command's start need not pay (docs/performance.md, Round 11).
 */
export const monotonicClock: Clock = {
  now: () => {
    const [seconds, nanoseconds] = process.hrtime();
    return seconds * 1e3 + nanoseconds / 1e6;
  },
};

/** True for the clock used when none is injected: real time, so real timers agree with it. */
export function isDefaultClock(clock: Clock): boolean {
  return clock === monotonicClock;
}

/**
 * An injected clock as the search reads it. Its first reading must be a finite number
 * (`FF_INVALID_OPTION` otherwise); it is taken before any I/O and is the search's first reading,
 * so the clock is read no more often than before. A later reading that is not a finite number must
 * not pass for "no time has passed" (`NaN >= budget` is false, which would disable the budget), so
 * from then on every reading lies a whole budget past the one before (the budget is spent, wherever
 * it was measured from), or stands still when there is no budget.
 */
export function buildCheckedClock(clock: Clock, timeBudgetMs: number): Clock {
  let first: unknown;
  try {
    first = clock.now();
  } catch (error) {
    throw new FindFileError('FF_INVALID_OPTION', `clock.now() threw: ${error instanceof Error ? error.message : String(error)}`, 'clock');
  }
  if (typeof first !== 'number' || !Number.isFinite(first)) {
    throw new FindFileError('FF_INVALID_OPTION', `clock.now() must return a finite number of milliseconds, got ${describe(first)}`, 'clock');
  }
  let pending: number | undefined = first;
  let highest = first;
  let broken = 0;
  return {
    now() {
      if (pending !== undefined) {
        const reading = pending;
        pending = undefined;
        return reading;
      }
      if (broken === 0) {
        const reading: unknown = clock.now();
        if (typeof reading === 'number' && Number.isFinite(reading)) {
          if (reading > highest) highest = reading;
          return reading;
        }
      }
      broken++;
      return Number.isFinite(timeBudgetMs) ? highest + timeBudgetMs * broken : highest;
    },
  };
}

/**
 * The clock option, its shape already checked (`checkClockShape`, with the other options): the
 * real clock, or the injected one behind `buildCheckedClock`. Read last: its first reading is the
 * search's first.
 */
export function readClock(value: Clock | null | undefined, timeBudgetMs: number): Clock {
  return value == null ? monotonicClock : buildCheckedClock(value, timeBudgetMs);
}
