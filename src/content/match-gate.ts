/**
 * How long one matching call may hold the thread. A regex call (re2js) or a case-insensitive
 * literal's search runs to its end once started: nothing else runs meanwhile, not the budget's
 * timer, not the caller's signal, not an MCP server's pings. So a matcher asks, before each call,
 * how long it may take (`room`), estimates its cost (query.ts: a worst-case model; for a regex the
 * model refuses, its DFA within half the room, bounded-dfa.ts, and after a match the DFA found, a
 * measurement over the text's start) and does not start one that would not
 * fit: the gate then records why (`refuse`), and the caller learns it once (`take`).
 *
 * - With a time budget, a call may take what is left of it; past that, the search stops
 *   `time-budget` (the hits before kept), as if the clock had run out during the call.
 * - With a signal, a call may take `MAX_STEP_MS`, counted from the start of the step it is part of
 *   (a chunk of a file, a ripgrep event): the signal can only be heard between steps. A step that
 *   would run longer gives up its file, skipped with `EFBIG` (its line is too long for this query
 *   to be matched in one step), and the search goes on.
 * - With neither, nothing could stop the search: every call runs, as in ripgrep.
 */
import type { Deadline } from '../limits.js';

/** The longest a matching step may hold the thread when a signal could stop the search, in ms. */
export const MAX_STEP_MS = 1000;

/** Why a call was not started: the budget would run out, or the step would pass `MAX_STEP_MS`. */
export type Refusal = 'time-budget' | 'too-slow';

export class MatchGate {
  refusal: Refusal | undefined;
  private stepStart = 0;

  constructor(
    private readonly deadline: Deadline | undefined,
    /** True when a signal could stop the search: steps are capped. */
    private readonly capped: boolean,
  ) {}

  /** A step begins (the next chunk, the next event): the cap counts from now. */
  beginStep(): void {
    if (this.capped) this.stepStart = performance.now();
  }

  /** How long, in ms, a call may take from now (Infinity: no limit). */
  room(): number {
    return Math.min(this.budgetLeft(), this.capped ? MAX_STEP_MS - (performance.now() - this.stepStart) : Infinity);
  }

  /** Records that a call estimated at `ms` was not started, and why. */
  refuse(ms: number): void {
    this.refusal ??= ms > this.budgetLeft() ? 'time-budget' : 'too-slow';
  }

  /**
   * Why the last call was not started, for the caller to act on: the budget's stays (the search
   * ends, and every later call is refused too); the step cap's is cleared (its file is skipped, the
   * search goes on with the next one).
   */
  take(): Refusal | undefined {
    const refusal = this.refusal;
    if (refusal === 'too-slow') this.refusal = undefined;
    return refusal;
  }

  /** True once the budget is spent (`Deadline.passed`: no clock is read without one). */
  budgetSpent(): boolean {
    return this.deadline?.passed() === true;
  }

  private budgetLeft(): number {
    return this.deadline === undefined || this.deadline.ms === Infinity ? Infinity : this.deadline.left();
  }
}

/** The gate of a search no call is refused in (the query's own check, a test's matcher). */
export const OPEN_GATE = new MatchGate(undefined, false);
