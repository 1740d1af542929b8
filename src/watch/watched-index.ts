/**
 * `openIndex`: a tree walked once and kept current by a watcher, answering `find` with the very
 * `FindResult` a fresh `findFiles` (the walker) would give at that moment. Three parts, as in
 * Watchman: the view of the tree (src/watch/snapshot.ts), the watcher that feeds it
 * (src/watch/watcher.ts), and the query, which syncs with a cookie (src/watch/cookie.ts) and then
 * runs the project's own walker over the view. See docs/index.md.
 */
import { access, constants as nodeConstants } from 'node:fs';
import { FindFileError } from '../errors.js';
import { walkAsync } from '../find.js';
import { defaultFs } from '../fs.js';
import { Deadline, untilStopped } from '../limits.js';
import type { FindOptions } from '../options.js';
import { buildFindPlan, type FindPlan } from '../plan/search-plan.js';
import { readsMetadata } from '../plan/select.js';
import type { FindResult } from '../result.js';
import { AnswerCache, answerKey } from './answers.js';
import { CookieJar, DEFAULT_SYNC_WAIT_MS, type CookieIo } from './cookie.js';
import { newCoverage } from './coverage.js';
import { MountWatch, type MountTableReader } from './mounts.js';
import { Snapshot, type IndexCounters } from './snapshot.js';
import { nodeWatcher, type DirectoryWatcher } from './watcher.js';

/**
 * What shapes the indexed tree, fixed when the index is opened: the options of `findFiles` of the
 * same names. `fs` is accepted only to be refused (`FF_WATCH_UNAVAILABLE`): no watcher sees an
 * injected filesystem.
 */
export type IndexOptions = Pick<FindOptions, 'root' | 'exclude' | 'hidden' | 'gitignore' | 'ignoreGitDirs' | 'ignoreFiles' | 'caseSensitive' | 'fs'>;

/** The names of `IndexOptions`: fixed at `openIndex`, refused in a query. */
export const TREE_OPTIONS = ['root', 'exclude', 'hidden', 'gitignore', 'ignoreGitDirs', 'ignoreFiles', 'caseSensitive', 'fs'] as const;

/** Engine choices a query cannot make: the index answers as the walker. */
export const ENGINE_OPTIONS = ['backend', 'rgPath', 'runner', 'onEvent', 'env', 'workspace', 'platform'] as const;

/**
 * One query of an index: every other option of `findFiles` (`pattern`, `type`, the time and size
 * filters, `maxResults`, `maxDepth`, `sort`, `stats`, `absolute`, `nameRegex`, `timeBudgetMs`,
 * `signal`, `clock`, `concurrency`, `onDirectory`), meaning what it means there.
 */
export type IndexQuery = Omit<FindOptions, (typeof TREE_OPTIONS)[number] | (typeof ENGINE_OPTIONS)[number]>;

/** What an index has done so far; counters only, they never change an answer. */
export interface IndexStats extends IndexCounters {
  /** Queries answered. */
  queries: number;
  /** Queries whose sync did not complete: everything kept was dropped and the tree read from the disk again. */
  syncFailures: number;
  /** Queries answered with a kept answer: the same query, no change since (src/watch/answers.ts). */
  answersReused: number;
  /**
   * Fresh starts: the root's path, or the cookie's directory's, named another directory than the
   * one watched (the root swapped, a parent renamed, a link retargeted; no event says so), or the
   * root as given resolved to another path (a relative root after `process.chdir()`, `lnk/..`
   * with `lnk` retargeted): every watch closed, everything kept dropped, the tree read and watched again.
   */
  restarts: number;
}

/** A watched index of one root. */
export interface FileIndex {
  /**
   * The answer `findFiles({ ...indexOptions, ...query })` (the walker) would give now: same
   * matches, skipped paths, counts and reasons. Every change completed before the call is in it;
   * when the index cannot prove that (its sync with the watcher failed), it drops what it kept
   * and reads the disk, so the answer is still a fresh walk's; when the query's `timeBudgetMs`
   * ends the sync, the answer is `complete: false` with `time-budget` and no matches.
   *
   * @throws {FindFileError} The codes of `findFiles` for a bad query; `FF_INVALID_OPTION` for an
   * option fixed at `openIndex` (`root`, `exclude`...) or an engine choice (`backend`...);
   * `FF_WATCH_UNAVAILABLE` after `close()`; `ENOENT`/`ENOTDIR` when the root is gone.
   * @example
   * const index = await openIndex({ root: 'repo', gitignore: true });
   * const result = await index.find({ pattern: '**\/*.ts', timeBudgetMs: 2000 });
   * index.close();
   */
  find(query: IndexQuery): Promise<FindResult>;
  /** The index's counters (directories watched, listings kept, events, rescans, refused watches). */
  stats(): IndexStats;
  /** Stops every watch and forgets the tree; later `find` calls throw `FF_WATCH_UNAVAILABLE`. Idempotent. */
  close(): void;
}

/** What tests inject: a watcher with faults, cookie file operations that fail. */
export interface IndexDependencies {
  watcher?: DirectoryWatcher;
  cookieIo?: CookieIo;
  /** The longest a sync waits when the query has no budget (tests shorten it). */
  syncWaitMs?: number;
  /** The mount table (/proc/self/mountinfo; tests play it). */
  mountTable?: MountTableReader;
}

/**
 * Walks `root` once and keeps the tree current from filesystem events (Node's `fs.watch`, one
 * watch per directory; Linux only). When no watcher can serve the options, rejects with
 * `FF_WATCH_UNAVAILABLE`: fall back to `findFiles`.
 *
 * @throws {FindFileError} `FF_WATCH_UNAVAILABLE` for an injected `fs` or a platform other than
 * Linux; the codes of `findFiles` for bad options; `ENOENT`/`ENOTDIR` for the root.
 * @example
 * let index;
 * try { index = await openIndex({ root: '.', gitignore: true }); } catch (e) { if (e.code !== 'FF_WATCH_UNAVAILABLE') throw e; }
 * const result = index ? await index.find({ pattern: 'src/**\/*.ts' }) : await findFiles({ root: '.', gitignore: true, pattern: 'src/**\/*.ts' });
 */
export async function openIndex(options: IndexOptions): Promise<FileIndex> {
  return openIndexWith(options, {});
}

/**
 * `openIndex` with its watcher and cookie I/O injected (tests), and a signal that abandons the
 * opening (`IndexPool`: closed, or the tree evicted, while its index is built): the first walk stops,
 * every watch it set is closed, and the promise rejects with the signal's reason.
 */
export async function openIndexWith(options: IndexOptions, deps: IndexDependencies, signal?: AbortSignal): Promise<FileIndex> {
  if (typeof options !== 'object' || options === null) throw new FindFileError('FF_INVALID_OPTION', 'openIndex takes an options object', 'options');
  if (options.fs !== undefined) throw new FindFileError('FF_WATCH_UNAVAILABLE', 'openIndex cannot watch an injected fs: use findFiles with it', 'fs');
  if (deps.watcher === undefined && process.platform !== 'linux') {
    throw new FindFileError('FF_WATCH_UNAVAILABLE', `openIndex watches with inotify's ordering guarantee, Linux only (this is ${process.platform}): use findFiles`);
  }
  const tree = pickTree(options);
  const plan = buildFindPlan({ ...tree, pattern: '**', backend: 'walker' });
  const index = new WatchedIndex(tree, plan, deps);
  try {
    await index.build(plan, signal);
  } catch (error) {
    index.close();
    throw error;
  }
  return index;
}

function pickTree(options: IndexOptions): IndexOptions {
  const tree: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(options)) {
    if (!(TREE_OPTIONS as readonly string[]).includes(name)) {
      throw new FindFileError('FF_UNKNOWN_OPTION', `openIndex takes ${TREE_OPTIONS.join(', ')}; "${name}" belongs to find()`, name);
    }
    tree[name] = value;
  }
  return tree as unknown as IndexOptions;
}

/** What a query's sync and checks may take past its budget or signal before they are taken as hung. */
const SYNC_GRACE_MS = 250;

/**
 * A signal that fires `ms` after `signal` does (undefined for none), and `release` to call once the
 * query is over: its listener leaves the caller's signal (a host may pass one signal to every query:
 * eleven queries warned of a leak) and a timer already set is cleared (it kept the process 250 ms).
 */
function graceAfter(signal: AbortSignal | undefined, ms: number): { signal: AbortSignal | undefined; release(): void } {
  if (signal === undefined) return { signal: undefined, release: () => {} };
  const later = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const fire = () => void (timer = setTimeout(() => later.abort(), ms));
  if (signal.aborted) fire();
  else signal.addEventListener('abort', fire, { once: true });
  return {
    signal: later.signal,
    release: () => {
      signal.removeEventListener('abort', fire);
      clearTimeout(timer);
    },
  };
}

class WatchedIndex implements FileIndex {
  private readonly jar: CookieJar;
  private readonly snapshot: Snapshot;
  private readonly answers = new AnswerCache();
  private closed = false;
  private queries = 0;
  private syncFailures = 0;
  private restarts = 0;
  private readonly syncWaitMs: number;
  private readonly stopOverflow: () => void;
  /** The root, as the walk opens it (native, with its separator): as the last query's plan resolved it. */
  private rootDir: string;
  private readonly mounts: MountWatch;

  constructor(
    private readonly tree: IndexOptions,
    plan: FindPlan,
    deps: IndexDependencies,
  ) {
    const watcher = deps.watcher ?? nodeWatcher();
    this.syncWaitMs = deps.syncWaitMs ?? DEFAULT_SYNC_WAIT_MS;
    const { rootPrefix } = plan.scope;
    this.rootDir = rootPrefix;
    // The cookie's directory vanished or was swapped (the root removed, `.git` deleted, the root's
    // path re-pointed), or an overdue cookie was lost: nothing kept can be trusted.
    this.jar = new CookieJar(() => cookieDir(this.rootDir), watcher, (why) => this.distrust(why), deps.cookieIo);
    // A file mounted anywhere (over an ignore file outside the root) says no event: taken for one.
    this.mounts = new MountWatch(rootPrefix, deps.mountTable, (points) => this.snapshot.fileMountsMoved(points));
    this.snapshot = new Snapshot(rootPrefix, defaultFs, watcher, this.jar.isCookie, this.mounts);
    // Events lost: drop everything now, and end any wait for a cookie whose event may be among them.
    this.stopOverflow = watcher.onOverflow(() => {
      this.snapshot.overflowed();
      this.answers.clear();
      this.jar.interrupt('EOVERFLOW');
    });
  }

  /**
   * The first walk: reads (and watches) every directory the tree options let a walk enter. It has
   * no budget (it is the index's own cost, paid once); `signal` ends it, and then it throws.
   */
  async build(plan: FindPlan, signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    this.jar.prepare();
    // The mounts as the walk finds them: a query that finds others reads the disk (mounts.ts).
    await this.mounts.changed();
    // Its answer is never kept, so nothing is recorded for reuse: no link chain followed hop by hop
    // (/usr has 5,517 links), no watch counted. The listings are kept all the same.
    const coverage = newCoverage();
    coverage.covered = false;
    await walkAsync({ ...plan, scope: { ...plan.scope, fs: this.snapshot.viewFor(coverage) }, limits: { ...plan.limits, signal } });
    // An aborted walk answers `aborted` with a part of the tree: an index of a part is no index.
    signal?.throwIfAborted();
  }

  async find(query: IndexQuery): Promise<FindResult> {
    if (this.closed) throw new FindFileError('FF_WATCH_UNAVAILABLE', 'this index was closed: open another, or use findFiles');
    checkQuery(query);
    const plan = buildFindPlan({ ...query, ...this.tree, backend: 'walker' } as FindOptions);
    // The root as findFiles reads it now (a relative root against today's cwd, `lnk/..` through
    // what `lnk` names now: the plan's one realpath): another text than the one watched is another
    // directory, or at least other paths in the answer. An adversarial run: `lnk` retargeted, or
    // process.chdir(), and the index answered the old directory's kept answer, complete.
    if (plan.scope.rootPrefix !== this.rootDir) this.moveTo(plan.scope.rootPrefix);
    const { clock, timeBudgetMs, signal } = plan.limits;
    const started = clock.now();
    // The sync and the checks after it are file system calls (the cookie's write, open, close and
    // unlink, stats, an access): within the budget and the signal, as the walk is (`untilStopped`).
    // Cut (a hung mount), nothing kept can be proved: the walk answers with no time left
    // (time-budget or aborted), reading nothing.
    // A grace past each: the sync ends its own wait at the budget or the signal, and its cookie's removal just after.
    const deadline = new Deadline(clock, timeBudgetMs + SYNC_GRACE_MS, started);
    const grace = graceAfter(signal, SYNC_GRACE_MS);
    try {
      return await this.answer(query, plan, started, deadline, grace.signal);
    } finally {
      grace.release();
    }
  }

  /** `find` once its plan is made: the sync and the checks (cut by `deadline` or `cut`), then the walk. */
  private async answer(query: IndexQuery, plan: FindPlan, started: number, deadline: Deadline, cut: AbortSignal | undefined): Promise<FindResult> {
    const { clock, timeBudgetMs, signal } = plan.limits;
    const outcome = await untilStopped(this.jar.sync(Math.min(timeBudgetMs, this.syncWaitMs), signal), deadline, cut);
    if (this.closed) throw new FindFileError('FF_WATCH_UNAVAILABLE', 'this index was closed while it answered');
    if (outcome === undefined) return this.unproved(plan);
    let left = Math.max(0, timeBudgetMs - (clock.now() - started));
    if (!outcome.synced && outcome.code !== 'ABORT_ERR') {
      // The budget ended the wait: no time to prove anything, so the walk says time-budget (the
      // cookie is overdue: if it never comes, the next sync drops everything). Else: distrust all,
      // the cookie's watch too (it may be on a directory the cookie's path no longer names).
      if (outcome.code === 'ETIMEDOUT' && timeBudgetMs <= this.syncWaitMs) left = 0;
      else {
        this.syncFailures++;
        this.forgetAll();
        this.jar.relocate();
      }
    }
    const checked = await untilStopped(this.checkRoot(), deadline, cut);
    if (checked === undefined) return this.unproved(plan);
    const [canReach, replaced, , remounted] = checked;
    // No watch sees the root's ancestors. One made unsearchable (chmod 000 on the parent) hides the
    // whole tree from a walk, and the kept listings must not answer for it (an adversarial run:
    // complete, from memory, where a walk said EACCES). A root whose path names another directory
    // now (swapped, a parent renamed, a link retargeted) leaves every watch on the old one (an
    // adversarial run: re-pointed to B and back to A, the index answered A from B's listings,
    // complete). Checked after the sync, so every swap before the call is seen: one access() and
    // one stat() per query; failing, the disk answers.
    // The sentinels too (the directories outside the root a walk read in: a link's target path, the
    // root's parents): one stat each, and one whose path names another directory now is dropped. A
    // file system mounted or unmounted at or below the root, or on a parent, says no event either (mounts.ts).
    if (replaced || remounted) {
      this.restart();
      this.jar.relocate();
    } else if (!canReach) this.forgetAll();
    // An answer that read metadata is never reused: a write through a hard link from outside the
    // root changes a file's size and time with no event on any watched directory (inotify names the
    // directory of the path written). An adversarial run: minSize answered from a kept answer,
    // complete and empty, after the file grew. Its listings still come from memory; the lstats are fresh.
    const reusable = outcome.synced && !readsMetadata(plan.scope.select, plan.query);
    const result = await this.walk(plan, left, reusable ? answerKey(query) : undefined);
    this.queries++;
    result.stats = { ...result.stats, elapsedMs: clock.now() - started };
    return result;
  }

  /**
   * A sync that did not complete (the cookie's event lost, or ended by an overflow; no cookie
   * writable anywhere; the cookie's directory gone): nothing kept can
   * be trusted, so everything is dropped and the next walk reads the disk, watching again as it
   * goes. The answer is then a fresh walk's, never a stale one.
   */
  private forgetAll(): void {
    this.snapshot.dropAll();
    this.answers.clear();
    this.jar.clearOverdue();
  }

  /** A fresh start: every watch of the tree closed (the sentinels' too), everything kept dropped. */
  private restart(): void {
    this.restarts++;
    this.mounts.rebase();
    this.snapshot.restart();
    this.answers.clear();
    this.jar.clearOverdue();
  }

  /** The root as given resolves to another path: a fresh start there (every watch closed first), the cookie's place looked up again. */
  private moveTo(rootPrefix: string): void {
    this.rootDir = rootPrefix;
    this.snapshot.moveTo(rootPrefix);
    this.mounts.moveTo(rootPrefix);
    this.restart();
    this.jar.relocate();
  }

  /** What the cookie jar says: its directory moved (it has looked its place up again), or an overdue cookie was lost. */
  private distrust(why: 'moved' | 'lost'): void {
    if (why === 'moved') return this.restart();
    this.syncFailures++;
    this.forgetAll();
  }

  /**
   * A query whose sync or checks the budget or the signal cut: the walk with no time left says
   * which, and reads nothing (so nothing kept, unproved, is answered). The next query syncs again.
   */
  private unproved(plan: FindPlan): Promise<FindResult> {
    this.queries++;
    return this.walk(plan, 0, undefined);
  }

  /** Whether the root can be reached, whether its path names another directory now (the sentinels rechecked too), and whether the mounts changed. */
  private async checkRoot(): Promise<[boolean, boolean, void, boolean]> {
    await this.jar.settled();
    return Promise.all([reachable(this.rootDir), this.snapshot.rootReplaced(), this.snapshot.recheckSentinels(), this.mounts.changed()]);
  }

  /** The walk over the kept tree, or the same answer kept from an earlier walk that nothing it read has changed since (`key`: reusable). */
  private async walk(plan: FindPlan, timeBudgetMs: number, key: string | undefined): Promise<FindResult> {
    const { epoch } = this.snapshot;
    // No time left: a walk says time-budget at once, and so does the index, kept answer or not.
    const kept = timeBudgetMs > 0 ? this.answers.get(key, epoch) : undefined;
    if (kept !== undefined) return kept;
    const coverage = newCoverage();
    const result = await walkAsync({ ...plan, scope: { ...plan.scope, fs: this.snapshot.viewFor(coverage) }, limits: { ...plan.limits, timeBudgetMs } });
    if (coverage.covered && this.snapshot.epoch === epoch) this.answers.offer(key, epoch, coverage.deps, result);
    return result;
  }

  stats(): IndexStats {
    return { ...this.snapshot.stats(), queries: this.queries, syncFailures: this.syncFailures, answersReused: this.answers.hits, restarts: this.restarts };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopOverflow();
    this.jar.close();
    this.snapshot.close();
    this.answers.clear();
  }
}

/** Inside `.git/` when the root has one (git ignores unknown files there), else the root. */
/** Whether the process can still list and enter the root (every ancestor searchable, the root readable). */
function reachable(dir: string): Promise<boolean> {
  return new Promise((resolve) => access(dir, nodeConstants.R_OK | nodeConstants.X_OK, (error) => resolve(error === null)));
}

function cookieDir(rootPrefix: string): string {
  try {
    if (defaultFs.lstatSync(rootPrefix + '.git').isDirectory()) return rootPrefix + '.git';
  } catch {
    // no .git: the root itself
  }
  return rootPrefix.length > 1 ? rootPrefix.slice(0, -1) : rootPrefix;
}

function checkQuery(query: IndexQuery): void {
  if (typeof query !== 'object' || query === null) throw new FindFileError('FF_INVALID_OPTION', 'find takes a query object', 'query');
  for (const name of [...TREE_OPTIONS, ...ENGINE_OPTIONS]) {
    if ((query as Record<string, unknown>)[name] !== undefined) {
      throw new FindFileError('FF_INVALID_OPTION', `"${name}" is fixed when the index is opened (the index answers as the walker): open another index, or use findFiles`, name);
    }
  }
}
