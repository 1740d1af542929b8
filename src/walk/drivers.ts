/**
 * The two ways to feed a `Walk` its directories: a plain synchronous loop, and an async pipeline
 * that keeps up to `concurrency` reads in flight (the libuv pool stays busy) while handing the
 * results to the engine strictly in queue order, so the async walk decides exactly what the sync
 * walk decides.
 *
 * Both retry a read that failed with EMFILE/ENFILE (out of file handles) a bounded number of
 * times with a growing pause, then record it as skipped like any other error.
 */
import type * as nodeFs from 'node:fs';
import type { DirentLike, FsLike, StatsLike } from '../fs.js';
import { retryDelay, setBudgetTimer, type BudgetTimer } from '../limits.js';
import type { Walk } from './engine.js';
import { PAUSED, type DirTask, type UnknownEntries } from './task.js';
import { DriverEnd } from './driver-end.js';
import { answerAsync, answerInSlices, answerSync } from './ignore-io.js';

const WITH_TYPES = { withFileTypes: true } as const;

/**
 * The clock is read before every 128th lstat of a listing's untyped names or metadata candidates
 * (Perf: a reading is an array, `Deadline.passed`); a stopped walk is asked before each. Unasked,
 * 400k lstats of one directory ran 2-3 s past a 1.2 s budget (sync) or froze the event loop for 4-7 s (async).
 */
const STAT_CHECK_EVERY = 128;
const isStatCheck = (i: number) => i % STAT_CHECK_EVERY === STAT_CHECK_EVERY - 1;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function readdirSyncRetrying(fs: FsLike, path: string): DirentLike[] {
  for (let attempt = 0; ; attempt++) {
    try {
      return listOrThrow(fs.readdirSync(path, WITH_TYPES));
    } catch (error) {
      const pause = retryDelay(error, attempt);
      if (pause === undefined) throw error;
      sleepSync(pause);
    }
  }
}

/** An injected fs whose readdir answers no list (`null`): the directory is a gap with a code, never a TypeError thrown. */
const notAList = (): NodeJS.ErrnoException => Object.assign(new Error('readdir answered no list of entries'), { code: 'UNKNOWN' });
const listOrThrow = (entries: DirentLike[]): DirentLike[] => {
  if (Array.isArray(entries)) return entries;
  throw notAList();
};

/**
 * lstat with `bigint` when a time filter asks for exact times, on node's own fs only: an injected
 * fs may not take the option (its answer then compares as a float, as before).
 */
function exactTimes(scope: Walk['plan']['scope']): boolean {
  return scope.select.exactTimes && !scope.fsInjected;
}

/** Runs the whole walk synchronously. Throws only what the engine throws (a root that is missing). */
export function runSync(walk: Walk): void {
  startSync(walk);
  while (stepSync(walk));
}

/**
 * The sync walk's first step: the root's parents' ignore files. An aborted signal or a spent budget
 * does no I/O at all, these included. `pausable` (as `stepSync`'s): a long one is parsed a slice at
 * a time, a `SyncPause` between slices.
 */
export function startSync(walk: Walk, pausable = false): SyncPause | undefined {
  const parents = walk.parentIgnoreReads();
  if (parents === undefined || walk.shouldStop()) return undefined;
  if (!pausable) return void walk.acceptParentIgnore(answerSync(walk.plan.scope.fs, parents));
  const read = answerInSlices(walk.plan.scope.fs, parents, () => walk.shouldStop(), (level): true => (walk.acceptParentIgnore(level), true));
  return read === true ? undefined : read;
}

/**
 * Lists and judges the next queued directory (its matches reach the walk's sink before this
 * returns); false once the walk is over. One directory at a time: content search's one-thread
 * path (src/content/one-thread.ts) searches each directory's files before it lists the next.
 * `pausable`: a large directory may be left half judged or half lstat'ed (`SyncPause`), so that the
 * caller can let the event loop run (a timer's abort) before it calls `resume`.
 */
export function stepSync(walk: Walk): boolean;
export function stepSync(walk: Walk, pausable: boolean): boolean | SyncPause;
export function stepSync(walk: Walk, pausable = false): boolean | SyncPause {
  const { fs } = walk.plan.scope;
  const task = walk.nextTask();
  if (task === undefined || walk.shouldStop()) return false;
  const path = walk.pathOf(task);
  let entries: DirentLike[];
  try {
    entries = readdirSyncRetrying(fs, path);
  } catch (error) {
    walk.acceptError(task, error);
    return true;
  }
  const ignoreReads = walk.ignoreReadsFor(task, entries);
  const judge = () => statSyncAfter(walk, task, path, walk.acceptEntries(task, entries, pausable), pausable);
  if (ignoreReads === undefined) return judge();
  // Pausable: a long ignore file is parsed a slice at a time, the caller let go between slices.
  if (pausable) return answerInSlices(fs, ignoreReads, () => walk.shouldStop(), (texts) => (walk.acceptIgnoreTexts(task, texts), judge()));
  walk.acceptIgnoreTexts(task, answerSync(fs, ignoreReads));
  return judge();
}

/** A directory judged or lstat'ed in part: `resume` goes on (and may pause again). */
export type SyncPause = { resume(): boolean | SyncPause };

/** Types the entries the judging left untyped, from the `from`th; a pause when it paused, and (`pausable`) every 128 lstats. */
function statSyncAfter(walk: Walk, task: DirTask, path: string, unknown: UnknownEntries | typeof PAUSED, pausable: boolean, from = 0): boolean | SyncPause {
  if (unknown === PAUSED) return { resume: () => statSyncAfter(walk, task, path, walk.resumeEntries(), true) };
  if (unknown === undefined) return true;
  const { fs } = walk.plan.scope;
  const exact = exactTimes(walk.plan.scope);
  for (let i = from; i < unknown.length; i++) {
    // The names left are not judged: the walk's reason (time-budget, aborted, result-limit) says so.
    if (walk.stopped || (isStatCheck(i) && walk.shouldStop())) break;
    if (pausable && i > from && isStatCheck(i)) return { resume: () => statSyncAfter(walk, task, path, unknown, true, i) };
    const name = unknown[i]!;
    try {
      const target = path + name;
      const stats = walk.followsLink(name) ? fs.statSync!(target) : exact ? (fs as typeof nodeFs).lstatSync(target, { bigint: true }) : fs.lstatSync(target);
      walk.acceptStat(task, name, stats, undefined);
    } catch (error) {
      walk.acceptStat(task, name, undefined, error);
    }
  }
  return true;
}

interface PendingRead {
  task: DirTask;
  path: string;
  done: boolean;
  entries: DirentLike[] | undefined;
  error: unknown;
  attempt: number;
  /** `gitignore: true`: the directory's ignore files have been read (or it has none). */
  ignoreRead: boolean;
}

/** Lets a consumer steer the async walk. */
export interface FlowControl {
  /** The streaming API holds the walk while its reader catches up. */
  isPaused?(): boolean;
  /** Called when the walk has nothing to do until a read finishes: free main-thread time. */
  onIdle?(): void;
}

/** Runs the walk with reads in flight; `resume()` restarts it after `FlowControl` paused it. */
export class AsyncDriver extends DriverEnd {
  private readonly flow: FlowControl | undefined;
  private readonly window: PendingRead[] = [];
  private pumping = false;
  private pumpAgain = false;
  private waitingForIo = false;
  private peeksInFlight = 0;
  private peekAllowance = 1;
  private timer: BudgetTimer | undefined;

  constructor(walk: Walk, flow?: FlowControl) {
    super(walk);
    this.flow = flow;
    // A read that hangs must not hold the answer past the budget (with the real clock: src/limits.ts).
    this.timer = walk.deadline.arm(this.onBudgetDue);
    const parents = walk.parentIgnoreReads();
    if (parents === undefined || walk.shouldStop()) this.pump();
    else this.waitFor(answerAsync(walk.plan.scope.fs, parents, () => walk.shouldStop()).then((level) => walk.acceptParentIgnore(level)));
  }

  /** Holds the walk (no entry is judged) until `io` is done, then goes on. */
  private waitFor(io: Promise<void>): void {
    this.waitingForIo = true;
    io.then(
      () => {
        this.waitingForIo = false;
        this.pump();
      },
      (error: unknown) => this.finish(error),
    );
  }

  resume(): void {
    this.pump();
  }

  /** The timer can fire a hair before the clock agrees the budget is spent: then look again soon. */
  private readonly onBudgetDue = (): void => {
    if (this.finished) return;
    if (this.walk.shouldStop()) this.finish();
    else this.timer = setBudgetTimer(5, this.onBudgetDue);
  };

  protected override onFinish(): void {
    this.timer?.clear();
  }

  /** Issues reads and feeds finished ones to the engine in order. Re-entrant calls are folded into the running one. */
  private pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.step();
      } while (this.pumpAgain && !this.finished);
    } catch (error) {
      this.finish(error);
    } finally {
      this.pumping = false;
    }
  }

  private step(): void {
    const walk = this.walk;
    while (!this.finished) {
      if (walk.stopped) return this.finish();
      if (this.waitingForIo || this.flow?.isPaused?.()) return;
      this.issueReads();
      if (walk.stopped) return this.finish();
      const head = this.window[0];
      if (head === undefined) return this.finish(); // nothing queued, nothing in flight
      if (!head.done) return this.flow?.onIdle?.(); // its callback will pump again
      if (head.entries !== undefined && !head.ignoreRead) {
        // The directory's own ignore files are read before any of its entries is judged.
        const reads = walk.ignoreReadsFor(head.task, head.entries);
        head.ignoreRead = true;
        if (reads !== undefined) return this.waitFor(answerAsync(walk.plan.scope.fs, reads, () => walk.shouldStop()).then((texts) => walk.acceptIgnoreTexts(head.task, texts)));
      }
      this.window.shift();
      if (head.entries === undefined) {
        walk.acceptError(head.task, head.error);
        this.judged(head, undefined);
      } else {
        const unknown = walk.acceptEntries(head.task, head.entries, true);
        if (unknown === PAUSED) return this.judgeLater(head);
        this.judged(head, unknown);
      }
    }
  }

  /** A listing judged to its end: the names it left untyped are lstat'ed; a peek makes room for the next. */
  private judged(head: PendingRead, unknown: UnknownEntries): void {
    if (unknown !== undefined) this.statUnknown(head, unknown);
    if (head.task.peek) this.peekDone();
  }

  /**
   * The engine paused inside a large listing: the event loop runs (a timer's abort, a server's ping,
   * a stream's reader), then the judging goes on. Nothing else is judged meanwhile: the sync walk's answer.
   */
  private judgeLater(head: PendingRead): void {
    this.waitingForIo = true;
    setImmediate(() => {
      if (this.finished) return;
      try {
        const unknown = this.walk.resumeEntries();
        if (unknown === PAUSED) return this.judgeLater(head);
        this.waitingForIo = false;
        this.judged(head, unknown);
      } catch (error) {
        return this.finish(error);
      }
      this.pump();
    });
  }

  /**
   * Perf: the first peek at the depth limit that finds something ends all peeking, so peeks are not
   * issued 64 at a time: one at first, twice as many after each peek that found nothing.
   */
  private peekDone(): void {
    this.peeksInFlight--;
    if (!this.walk.depthLimitSeen) this.peekAllowance = Math.min(this.peekAllowance * 2, this.walk.plan.walk.concurrency);
  }

  private issueReads(): void {
    const walk = this.walk;
    // The window holds reads in flight and reads done but not yet taken: bounding it (not just the
    // reads in flight) bounds the listings held in memory while a stream's reader is slow.
    while (this.window.length < walk.plan.walk.concurrency && walk.hasQueued) {
      if (walk.nextIsPeek && this.peeksInFlight >= this.peekAllowance) return;
      const task = walk.nextTask();
      if (task === undefined || walk.shouldStop()) return;
      if (task.peek) this.peeksInFlight++;
      const read: PendingRead = { task, path: walk.pathOf(task), done: false, entries: undefined, error: undefined, attempt: 0, ignoreRead: false };
      this.window.push(read);
      this.startRead(read);
    }
  }

  private startRead(read: PendingRead): void {
    // A second answer to one call (an fs that calls back twice) is not news: the first counts. Per
    // call, not per read: a call that answered EMFILE and then again while its retry waits must not
    // answer for the retry.
    let answered = false;
    const callback = (error: NodeJS.ErrnoException | null, entries: DirentLike[]) => {
      if (answered || this.finished) return;
      answered = true;
      const pause = error ? retryDelay(error, read.attempt) : undefined;
      if (pause !== undefined) {
        read.attempt++;
        setTimeout(() => {
          if (!this.finished) this.startRead(read);
        }, pause);
        return;
      }
      read.done = true;
      if (error) read.error = error;
      else if (Array.isArray(entries)) read.entries = entries;
      else read.error = notAList();
      this.pump();
    };
    try {
      this.walk.plan.scope.fs.readdir(read.path, WITH_TYPES, callback);
    } catch (error) {
      callback(error as NodeJS.ErrnoException, []);
    }
  }

  /**
   * Types the entries the judging left untyped with at most `concurrency` lstats in flight (as reads
   * are bounded), handing each answer to the engine in order as soon as those before it are in: all
   * of a 400k listing's lstats issued at once held the event loop for seconds and the libuv pool
   * after the answer. Issues no more once the walk is stopped (the budget asked as `isStatCheck`
   * says; an abort or the budget timer stop it between answers): the names left are not judged.
   */
  private statUnknown(read: PendingRead, names: string[]): void {
    this.waitingForIo = true;
    const walk = this.walk;
    const answers: ({ stats: StatsLike | undefined; error: unknown } | undefined)[] = new Array(names.length);
    let issued = 0;
    let taken = 0;
    let over = false;
    // An fs that answers inside the call would nest each lstat in the last: such answers are folded into the running loop.
    let running = false;
    let again = false;
    const answer = (i: number, stats: StatsLike | undefined, error: unknown) => {
      if (over) return; // the walk stopped with it in flight: not news
      answers[i] = { stats, error };
      if (running) again = true;
      else advance();
    };
    const advance = () => {
      running = true;
      try {
        do {
          again = false;
          for (; taken < issued && answers[taken] !== undefined; taken++) {
            const { stats, error } = answers[taken]!;
            answers[taken] = undefined; // taken: its stats may go
            walk.acceptStat(read.task, names[taken]!, stats, error);
          }
          while (issued < names.length && issued - taken < walk.plan.walk.concurrency && !this.finished && !walk.stopped && !(isStatCheck(issued) && walk.shouldStop())) {
            this.startStat(read.path, names[issued]!, issued++, answer);
          }
        } while (again);
      } catch (error) {
        over = true;
        return this.finish(error);
      } finally {
        running = false;
      }
      if (over || (taken < names.length && !this.finished && !walk.stopped)) return;
      over = true;
      this.waitingForIo = false;
      this.pump();
    };
    advance();
  }

  /** One lstat (a `stat` for a link followed); its first answer counts: a second would be another name's. */
  private startStat(path: string, name: string, i: number, onAnswer: (i: number, stats: StatsLike | undefined, error: unknown) => void): void {
    let answered = false;
    const callback = (error: NodeJS.ErrnoException | null, stats: StatsLike) => {
      if (answered || this.finished) return;
      answered = true;
      if (error) onAnswer(i, undefined, error);
      else onAnswer(i, stats, undefined);
    };
    const { fs } = this.walk.plan.scope;
    try {
      if (this.walk.followsLink(name)) fs.stat!(path + name, callback);
      else if (exactTimes(this.walk.plan.scope)) (fs as typeof nodeFs).lstat(path + name, { bigint: true }, callback);
      else fs.lstat(path + name, callback);
    } catch (error) {
      callback(error as NodeJS.ErrnoException, undefined as unknown as StatsLike);
    }
  }
}
