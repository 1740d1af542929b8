/**
 * The third way to feed a `Walk` its directories: the sync walk (`stepSync`, read by read on the
 * calling thread), cut into slices so that the event loop turns between them. It makes the sync
 * walk's decisions, so its answer is the other drivers' answer, in the same order.
 *
 * Why: a process that only walks (the `find-file` command) pays for `AsyncDriver`'s hand-offs. Each
 * read handed to libuv's pool wakes a pool thread, whose answer wakes the main thread again; on a
 * two-core machine those threads, V8's compiler and its collector take turns on the cores. A listing
 * of /usr took 418 ms of CPU this way against 586, and 72 against 85-93 MiB of peak RSS
 * (docs/performance.md, Round 33). Warm, inside a long-lived process, the pool's parallel reads win
 * instead, which is why the library's forms keep `AsyncDriver`.
 *
 * What it gives up, and why only a caller with no time budget uses it: a read that hangs (a dead
 * network mount) holds this thread, so no timer, signal or Ctrl-C is heard until it returns, as
 * in find, fd and ripgrep. With a budget the walk's reads wait in the pool, and the budget answers.
 * (Given a budget, this driver would still keep it between reads: the engine reads the clock before
 * each directory and every 128 lstats. It arms no timer, which could not fire during a sync read.)
 */
import { monotonicClock } from '../plan/clock.js';
import { startSync, stepSync, type FlowControl, type SyncPause } from './drivers.js';
import { DriverEnd } from './driver-end.js';
import type { Walk } from './engine.js';

/**
 * The longest the walk runs, in ms of real time (`process.hrtime`: the `performance` global would
 * load perf_hooks into the command's start), before it lets the event loop turn: a caller's
 * abort, a stream's reader and a progress line's timer are heard that soon. Tests set 0 (a turn
 * after every directory and every pause inside a large one).
 */
export const SLICE = { ms: 10 };

/** Runs the walk on this thread in slices; `resume()` restarts it after `FlowControl` paused it. */
export class MainThreadDriver extends DriverEnd {
  private readonly flow: FlowControl | undefined;
  private started = false;
  private scheduled = false;
  private running = false;
  /** Where the last slice ended inside a step: a large directory half judged or half lstat'ed, a long ignore file half parsed. */
  private pause: SyncPause | undefined;

  constructor(walk: Walk, flow?: FlowControl) {
    super(walk);
    this.flow = flow;
    // The first slice runs on the next turn: creating a stream does no I/O (its missing root surfaces from the reading).
    this.schedule();
  }

  resume(): void {
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.finished) return;
    this.scheduled = true;
    setImmediate(this.slice);
  }

  private readonly slice = (): void => {
    this.scheduled = false;
    // A slice never runs inside another (a reader resumed from within one is taken by the loop below).
    if (this.finished || this.running) return;
    this.running = true;
    const until = monotonicClock.now() + SLICE.ms;
    try {
      if (!this.started) {
        this.started = true;
        this.pause = startSync(this.walk, true);
      }
      for (;;) {
        if (this.walk.stopped) return this.finish();
        if (this.flow?.isPaused?.()) return; // the reader's `resume()` schedules the next slice
        const step = this.pause === undefined ? stepSync(this.walk, true) : this.pause.resume();
        this.pause = step === true || step === false ? undefined : step;
        if (step === false) return this.finish();
        if (monotonicClock.now() >= until) return this.schedule();
      }
    } catch (error) {
      this.finish(error);
    } finally {
      this.running = false;
    }
  };
}
