/**
 * The index's view of the tree: directory listings kept in memory, each valid only while its own
 * directory's watch has reported nothing since the read. The walker reads the tree through
 * `view` (an `FsLike`), so a query runs the very walk `findFiles` runs, over kept listings.
 *
 * The rules, and why they make a kept listing equal to a fresh `readdir`:
 * - A listing is kept only when the directory's watch was in place before the read began and
 *   reported nothing while the read was in flight (its count of changes did not move).
 * - Any event of a directory's watch drops its listing; an event naming an entry also drops the
 *   kept subtree under that name (a directory renamed out takes its inode-bound watches with it,
 *   one renamed in was never kept). An event naming the directory itself, no name, or a lost
 *   watch drops the directory's whole subtree with its watches.
 * - A directory the watcher refuses (the watch limit, `ENOSPC`; an unreadable directory) and a
 *   read that fails are never kept: they are read afresh at every query, so a gap stays a gap
 *   exactly as in a walk, and a directory that becomes readable is read (and watched) then.
 * - An overflow (events lost that cannot be named) drops everything: a full rescan.
 * - The root's watch is bound to an inode: `rootReplaced` tells when the root's path names
 *   another directory (a parent renamed, a link retargeted), which no event of it says.
 * Only `readdir` is served from memory; `lstat`, `stat`, `readFile` and `realpath` go to the
 * disk, so metadata, links on the way and ignore files are read as a walk reads them.
 */
import { posix } from 'node:path';
import type { DirentLike, FsLike, StatsLike } from '../fs.js';
import { errorCodeOf } from '../result.js';
import { depend, dirOf, entryOf, noteEvent, readIgnoreFile, retire, Sentinels, type EntryCounts, type FileIds, type ReadCoverage, type WatchedDir } from './coverage.js';
import { TRUST_ALL, type MountFacts } from './mounts.js';
import { keepListing, type KeptDirent } from './listing.js';
import { PathCover } from './path-cover.js';
import { identityOf, identitySync, isSelfEvent, type DirectoryWatcher, type WatchHandle, type WatchListener } from './watcher.js';

/**
 * A watched directory, and the listener of its own watch (perf: one object per directory, no
 * closures; the index holds one per directory of the tree, 15,000 for /usr).
 */
class DirState implements WatchListener, WatchedDir {
  handle: WatchHandle = { close() {} };
  /** Events its watch reported (an answer that read through it is reused only while this stands). */
  changes = 0;
  /** False once dropped: answers that read through it are not reused. */
  live = true;
  listing: KeptDirent[] | undefined = undefined;
  /** Root-relative keys (`a/b/`) of the watched directories directly below; made at the first. */
  children: Set<string> | undefined = undefined;
  /** Counts per entry, for link chains passing through (src/watch/coverage.ts); made at the first. */
  entries: EntryCounts | undefined = undefined;

  constructor(
    private readonly snapshot: Snapshot,
    readonly key: string,
    /** Native, no trailing separator. */
    readonly dir: string,
  ) {}

  change(entry: string | undefined): void {
    this.snapshot.onChange(this, entry);
  }

  lost(): void {
    this.snapshot.onLost(this);
  }
}

/** Counters of the index's own work; they never change an answer. */
export interface IndexCounters {
  /** Directories watched now. */
  dirsWatched: number;
  /** Of those, directories whose listing is kept now. */
  listingsKept: number;
  /** Events received from the watcher (the index's own cookies included). */
  events: number;
  /** Subtrees dropped to be read again (an entry renamed or removed, a watch lost, the root replaced). */
  rescans: number;
  /** Times the watcher lost events (overflow): every listing dropped. */
  overflows: number;
  /** Directories outside the kept tree watched because a walk read a file there (the root's parents, for `gitignore`). */
  sentinels: number;
  /** Watches the watcher refused (`ENOSPC`, `EACCES`...): those directories are read at every query. */
  watchesRefused: number;
  /** The error code of the last refused watch, e.g. `ENOSPC` (the per-user watch limit). */
  lastRefusal?: string;
}

type Callback<T> = (error: NodeJS.ErrnoException | null, value: T) => void;

/** The parent key of a root-relative directory key (`a/b/` → `a/`, `a/` → ``). */
function parentKey(key: string): string {
  const cut = key.lastIndexOf('/', key.length - 2);
  return cut < 0 ? '' : key.slice(0, cut + 1);
}

export class Snapshot {
  /** Moves when everything is dropped (a failed sync, an overflow): no answer kept before is reused. */
  epoch = 0;
  private readonly states = new Map<string, DirState>();
  /** The identity of the directory the root's watch is on, read before it was set up (src/watch/watcher.ts). */
  private rootIdentity: string | undefined;
  private readonly sentinels: Sentinels;
  private readonly cover: PathCover;
  /**
   * After `close()`: no watch is set up again. A walk still in flight (a `find()` that `close()`, or
   * the pool's eviction, overtook) would otherwise watch what it reads next, and nobody would close
   * those watches (an adversarial run: 22 inotify watches held for good after a close mid-walk).
   */
  private closed = false;
  private readonly counters: IndexCounters = { dirsWatched: 0, listingsKept: 0, events: 0, rescans: 0, overflows: 0, watchesRefused: 0, sentinels: 0 };

  /**
   * @param rootPrefix the root in native form ending in `/`, as the plan's `Scope.rootPrefix`.
   * @param isCookie names of the index's own cookie files: never listed, never an event that matters.
   * @param mounts what the mount table says (src/watch/mounts.ts): directories on a file system
   *   whose changes no watch here sees (network, FUSE, the kernel's) are never watched, so they and
   *   all below are read at every query; nor do sentinels vouch for such directories, nor watches
   *   for files mounted over others.
   */
  constructor(
    private rootPrefix: string,
    private readonly disk: FsLike,
    private readonly watcher: DirectoryWatcher,
    private readonly isCookie: (name: string) => boolean,
    private readonly mounts: MountFacts = TRUST_ALL,
  ) {
    this.sentinels = new Sentinels(watcher, isCookie, (identity) => mounts.isBlindIdentity(identity));
    this.cover = new PathCover((dir) => this.trackerOf(dir), disk);
  }

  /** The counters now. */
  stats(): IndexCounters {
    let kept = 0;
    for (const state of this.states.values()) if (state.listing !== undefined) kept++;
    return { ...this.counters, dirsWatched: this.states.size, listingsKept: kept, sentinels: this.sentinels.size };
  }

  /** Closes every watch, for good: a walk still in flight reads the disk, unwatched (uncovered). */
  close(): void {
    this.closed = true;
    this.dropAll();
    this.sentinels.close();
  }

  /**
   * The tree as one query's walk reads it: kept listings where valid, the disk for everything
   * else; `coverage.covered` turns false at the first read no watch covers (src/watch/coverage.ts).
   * The sync forms are never called by the index (it walks async): they read the disk, uncovered.
   */
  viewFor(coverage: ReadCoverage): FsLike {
    const disk = this.disk;
    const file = (path: string) => {
      if (coverage.covered) depend(coverage, this.trackerOf(dirOf(path)));
    };
    // A file's contents (an ignore file): a write to it, or its replacement, is an event naming it
    // in its directory; the path to it was covered by the `stat` the walk makes first.
    const entry = (path: string) => {
      if (!coverage.covered) return;
      const dir = this.trackerOf(dirOf(path));
      depend(coverage, dir === undefined ? undefined : entryOf(dir, posix.basename(path)));
    };
    // What the walk's `stat` of each path said: an ignore file's, just before its read, spares readIgnoreFile a second `stat`.
    const statsOf = new Map<string, FileIds | undefined>();
    const counted = (p: string, cb: Callback<StatsLike>): Callback<StatsLike> => (error, stats) => (statsOf.set(p, error ? undefined : (stats as FileIds)), cb(error, stats));
    const watchable = (ids: FileIds) => this.mounts.isWatchableFile(ids);
    const uncovered = () => {
      coverage.covered = false;
    };
    return {
      readdir: (path, options, callback) => this.readdir(path, options, coverage, callback),
      readdirSync: (path, options) => (uncovered(), disk.readdirSync(path, options)),
      // With the walk's options too (`bigint` for a time filter): a view that dropped them failed
      // every candidate of a modifiedAfter query with ERR_INVALID_ARG_TYPE (an adversarial run).
      lstat: ((path: string, ...rest: unknown[]) => (file(path), (disk.lstat as (...args: unknown[]) => void)(path, ...rest))) as FsLike['lstat'],
      lstatSync: ((path: string, ...rest: unknown[]) => (uncovered(), (disk.lstatSync as (...args: unknown[]) => StatsLike)(path, ...rest))) as FsLike['lstatSync'],
      ...(disk.stat && disk.statSync
        ? { stat: (p: string, cb: Callback<StatsLike>) => this.cover.link(p, coverage, () => disk.stat!(p, counted(p, cb))), statSync: (p: string) => (uncovered(), disk.statSync!(p)) }
        : {}),
      ...(disk.readFile && disk.readFileSync
        ? { readFile: (p: string, cb: Callback<Uint8Array | string>) => (entry(p), readIgnoreFile(disk, p, coverage, statsOf.get(p), watchable, cb)), readFileSync: (p: string) => (uncovered(), disk.readFileSync!(p)) }
        : {}),
      ...(disk.realpath && disk.realpathSync
        ? { realpath: (p: string, cb: Callback<string>) => this.cover.realpath(p, coverage, cb), realpathSync: (p: string) => (uncovered(), disk.realpathSync!(p)) }
        : {}),
    } as FsLike;
  }

  /** The watch a change in `dir` (native, no trailing separator) would show in: the tree's, or a sentinel set up now; undefined when none can be. */
  private trackerOf(dir: string): WatchedDir | undefined {
    if (this.closed) return undefined;
    const key = this.keyOf(dir === '/' ? dir : dir + '/');
    return (key === undefined ? undefined : this.states.get(key)) ?? this.sentinels.ensure(dir);
  }

  /** The root-relative key of a directory path the walker reads (`a/b/`; the root is ``), or undefined outside the root. */
  private keyOf(path: string): string | undefined {
    if (!path.startsWith(this.rootPrefix)) return path === this.rootPrefix.slice(0, -1) ? '' : undefined;
    const rel = path.slice(this.rootPrefix.length);
    return rel === '' || rel.endsWith('/') ? rel : rel + '/';
  }

  private readdir(path: string, options: { withFileTypes: true }, coverage: ReadCoverage, callback: Callback<DirentLike[]>): void {
    const key = this.keyOf(path);
    const state = key === undefined ? undefined : this.stateFor(key);
    // Counted from before the read: an event during it changes the count, and the answer is not kept.
    if (state !== undefined && coverage.covered) depend(coverage, state);
    if (state?.listing !== undefined) return callback(null, state.listing);
    const changes = state?.changes;
    this.disk.readdir(path, options, (error, entries) => {
      if (error) {
        coverage.covered = false;
        return callback(error, entries);
      }
      const listing = keepListing(entries, this.isCookie);
      // Kept only when the directory's watch was in place before the read and saw nothing during it.
      if (key !== undefined && state !== undefined && this.states.get(key) === state && state.changes === changes) state.listing = listing;
      else coverage.covered = false;
      callback(null, listing);
    });
  }

  /** The directory's state, its watch set up first when it has none; undefined when it cannot be watched. */
  private stateFor(key: string): DirState | undefined {
    const known = this.states.get(key);
    if (known !== undefined || this.closed) return known;
    // A directory is watched only below a watched parent: a subtree is dropped and kept as a whole.
    const parent = key === '' ? undefined : this.states.get(parentKey(key));
    if (key !== '' && parent === undefined) return undefined;
    const prefix = this.rootPrefix + key;
    const dir = prefix.length > 1 ? prefix.slice(0, -1) : prefix;
    if (this.mounts.isBlind(dir)) return undefined;
    const state = new DirState(this, key, dir);
    // Read before the watch: a swap in between makes them differ (a needless rescan), never agree wrongly.
    const identity = key === '' ? identitySync(state.dir) : undefined;
    try {
      state.handle = this.watcher.watch(state.dir, state);
    } catch (error) {
      this.counters.watchesRefused++;
      this.counters.lastRefusal = errorCodeOf(error);
      return undefined;
    }
    this.states.set(key, state);
    if (key === '') this.rootIdentity = identity;
    if (parent !== undefined) (parent.children ??= new Set()).add(key);
    return state;
  }

  /** An event of a directory's watch (`entry`: the name it gives, if any). */
  onChange(state: DirState, entry: string | undefined): void {
    this.counters.events++;
    const { key } = state;
    if (this.states.get(key) !== state) return; // a watch already dropped
    if (entry !== undefined && entry !== '' && this.isCookie(entry)) return;
    noteEvent(state, entry);
    // The directory itself (removed, renamed, replaced), or an event that names nothing.
    if (isSelfEvent(state.dir, entry)) {
      this.drop(key);
      return;
    }
    state.listing = undefined;
    const child = key + entry + '/';
    if (this.states.has(child)) this.drop(child);
  }

  /** A directory's watch stopped working: its subtree is read again. */
  onLost(state: DirState): void {
    if (this.states.get(state.key) === state) this.drop(state.key);
  }

  /** Forgets a directory and everything watched below it, closing their watches. */
  private drop(key: string): void {
    if (!this.states.has(key)) return;
    this.counters.rescans++;
    const stack = [key];
    while (stack.length > 0) {
      const next = stack.pop()!;
      const state = this.states.get(next);
      if (state === undefined) continue;
      this.states.delete(next);
      retire(state);
      state.handle.close();
      for (const child of state.children ?? []) stack.push(child);
    }
    if (key !== '') this.states.get(parentKey(key))?.children?.delete(key);
  }

  /** The watcher lost events it cannot name: nothing kept can be trusted. */
  overflowed(): void {
    this.counters.overflows++;
    this.dropAll();
  }

  /**
   * Whether the root's path now names another directory than the one its watch is on (a root
   * swapped, a parent renamed, a link retargeted: none of them an event of the root's watch).
   * One `stat`. False when the root is not watched (nothing kept to be wrong about).
   */
  async rootReplaced(): Promise<boolean> {
    if (!this.states.has('')) return false;
    const watched = this.rootIdentity;
    const now = await identityOf(this.rootPrefix);
    // The root dropped or watched anew meanwhile: what is watched now was read after this stat began.
    return this.states.has('') && watched === this.rootIdentity && now !== watched;
  }

  /** Drops the sentinels whose path names another directory now (src/watch/coverage.ts `Sentinels.recheck`). */
  recheckSentinels(): Promise<void> {
    return this.sentinels.recheck();
  }

  /** Every watch closed, sentinels too (they watch by path what a root elsewhere may not read): a fresh start. */
  restart(): void {
    this.dropAll();
    this.sentinels.close();
  }

  /**
   * Files mounted or unmounted at `points` (real paths) say no event, though what a path there
   * names changed (a file mounted over `/elsewhere/rules`, an ignore file outside the root, after
   * an answer that read it was kept: that answer was reused). Taken for an event naming each in
   * its directory's sentinel, where the walk's `stat` of an ignore file depends on it (by its
   * real path: src/watch/path-cover.ts). Inside the tree, the mount table's key starts afresh.
   */
  fileMountsMoved(points: readonly string[]): void {
    for (const point of points) this.sentinels.note(dirOf(point), posix.basename(point));
  }

  /** Another root (`rootPrefix`: native, ending in `/`), with the fresh start (`restart`) that must follow: nothing kept is of it. */
  moveTo(rootPrefix: string): void {
    this.rootPrefix = rootPrefix;
  }

  /** Forgets every listing and watch: the next walk reads (and watches) the tree again. */
  dropAll(): void {
    this.epoch++;
    if (this.states.size > 0) this.counters.rescans++;
    for (const state of this.states.values()) {
      retire(state);
      state.handle.close();
    }
    this.states.clear();
  }
}
