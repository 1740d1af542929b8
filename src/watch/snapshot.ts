/**
 * The index's view of the tree: directory listings kept in memory, each valid only while its own
 * directory's watch has reported nothing since the read. The walker reads the tree through
 * `view` (an `FsLike`), so a query runs the very walk `findFiles` runs, over kept listings.
 *
 * The rules, and why they make a kept listing equal to a fresh `readdir`:
 * - A listing is kept only when the directory's watch was in place before the read began and
 *   reported nothing while the read was in flight (the generation did not move).
 * - Any event of a directory's watch drops its listing; an event naming an entry also drops the
 *   kept subtree under that name (a directory renamed out takes its inode-bound watches with it,
 *   one renamed in was never kept). An event naming the directory itself, no name, or a lost
 *   watch drops the directory's whole subtree with its watches.
 * - A directory the watcher refuses (the watch limit, `ENOSPC`; an unreadable directory) and a
 *   read that fails are never kept: they are read afresh at every query, so a gap stays a gap
 *   exactly as in a walk, and a directory that becomes readable is read (and watched) then.
 * - An overflow (events lost that cannot be named) drops everything: a full rescan.
 * Only `readdir` is served from memory; `lstat`, `stat`, `readFile` and `realpath` go to the
 * disk, so metadata, links on the way and ignore files are read as a walk reads them.
 */
import type { DirentLike, FsLike } from '../fs.js';
import { errorCodeOf } from '../result.js';
import { keepListing, type KeptDirent } from './listing.js';
import type { DirectoryWatcher, WatchHandle } from './watcher.js';

/** One directory the index watches. */
interface DirState {
  handle: WatchHandle;
  listing: KeptDirent[] | undefined;
  /** Moves on every event: a read that began before it moved is not kept. */
  generation: number;
  /** Root-relative keys (`a/b/`) of the watched directories directly below. */
  children: Set<string>;
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
  /** The tree as the walker reads it: kept listings where valid, the disk for everything else. */
  readonly view: FsLike;
  private readonly states = new Map<string, DirState>();
  private readonly counters: IndexCounters = { dirsWatched: 0, listingsKept: 0, events: 0, rescans: 0, overflows: 0, watchesRefused: 0 };

  /**
   * @param rootPrefix the root in native form ending in `/`, as the plan's `Scope.rootPrefix`.
   * @param isCookie names of the index's own cookie files: never listed, never an event that matters.
   */
  constructor(
    private readonly rootPrefix: string,
    private readonly disk: FsLike,
    private readonly watcher: DirectoryWatcher,
    private readonly isCookie: (name: string) => boolean,
  ) {
    watcher.onOverflow(() => {
      this.counters.overflows++;
      this.dropAll();
    });
    this.view = this.buildView();
  }

  /** The counters now. */
  stats(): IndexCounters {
    let kept = 0;
    for (const state of this.states.values()) if (state.listing !== undefined) kept++;
    return { ...this.counters, dirsWatched: this.states.size, listingsKept: kept };
  }

  /** Closes every watch. */
  close(): void {
    this.dropAll();
  }

  private buildView(): FsLike {
    const disk = this.disk;
    return {
      readdir: (path, options, callback) => this.readdir(path, options, callback),
      readdirSync: (path, options) => this.readdirSync(path, options),
      lstat: (path, callback) => disk.lstat(path, callback),
      lstatSync: (path) => disk.lstatSync(path),
      ...(disk.stat && disk.statSync ? { stat: disk.stat.bind(disk), statSync: disk.statSync.bind(disk) } : {}),
      ...(disk.readFile && disk.readFileSync ? { readFile: disk.readFile.bind(disk), readFileSync: disk.readFileSync.bind(disk) } : {}),
      ...(disk.realpath && disk.realpathSync ? { realpath: disk.realpath.bind(disk), realpathSync: disk.realpathSync.bind(disk) } : {}),
    } as FsLike;
  }

  /** The root-relative key of a directory path the walker reads (`a/b/`; the root is ``), or undefined outside the root. */
  private keyOf(path: string): string | undefined {
    if (!path.startsWith(this.rootPrefix)) return path === this.rootPrefix.slice(0, -1) ? '' : undefined;
    const rel = path.slice(this.rootPrefix.length);
    return rel === '' || rel.endsWith('/') ? rel : rel + '/';
  }

  private readdir(path: string, options: { withFileTypes: true }, callback: Callback<DirentLike[]>): void {
    const key = this.keyOf(path);
    const state = key === undefined ? undefined : this.stateFor(key);
    if (state?.listing !== undefined) return callback(null, state.listing);
    const generation = state?.generation;
    this.disk.readdir(path, options, (error, entries) => {
      if (error) return callback(error, entries);
      callback(null, this.keep(key, state, generation, entries));
    });
  }

  private readdirSync(path: string, options: { withFileTypes: true }): DirentLike[] {
    const key = this.keyOf(path);
    const state = key === undefined ? undefined : this.stateFor(key);
    if (state?.listing !== undefined) return state.listing;
    const generation = state?.generation;
    return this.keep(key, state, generation, this.disk.readdirSync(path, options));
  }

  /** The listing without cookies, kept when the directory's watch saw nothing while it was read. */
  private keep(key: string | undefined, state: DirState | undefined, generation: number | undefined, entries: DirentLike[]): KeptDirent[] {
    const listing = keepListing(entries, this.isCookie);
    if (key !== undefined && state !== undefined && this.states.get(key) === state && state.generation === generation) state.listing = listing;
    return listing;
  }

  /** The directory's state, its watch set up first when it has none; undefined when it cannot be watched. */
  private stateFor(key: string): DirState | undefined {
    const known = this.states.get(key);
    if (known !== undefined) return known;
    // A directory is watched only below a watched parent: a subtree is dropped and kept as a whole.
    const parent = key === '' ? undefined : this.states.get(parentKey(key));
    if (key !== '' && parent === undefined) return undefined;
    const state: DirState = { handle: { close() {} }, listing: undefined, generation: 0, children: new Set() };
    const dir = key === '' ? this.rootPrefix : this.rootPrefix + key;
    const name = key === '' ? undefined : key.slice(parentKey(key).length, -1);
    try {
      state.handle = this.watcher.watch(dir.length > 1 ? dir.slice(0, -1) : dir, {
        change: (entry) => this.onChange(key, state, name, entry),
        lost: () => this.states.get(key) === state && this.drop(key),
      });
    } catch (error) {
      this.counters.watchesRefused++;
      this.counters.lastRefusal = errorCodeOf(error);
      return undefined;
    }
    this.states.set(key, state);
    parent?.children.add(key);
    return state;
  }

  private onChange(key: string, state: DirState, ownName: string | undefined, entry: string | undefined): void {
    this.counters.events++;
    if (this.states.get(key) !== state) return; // a watch already dropped
    if (entry !== undefined && entry !== '' && this.isCookie(entry)) return;
    // The directory itself (removed, renamed, replaced), or an event that names nothing.
    if (entry === undefined || entry === '' || (ownName !== undefined && entry === ownName) || (key === '' && entry === this.rootName())) {
      this.drop(key);
      return;
    }
    state.listing = undefined;
    state.generation++;
    const child = key + entry + '/';
    if (this.states.has(child)) this.drop(child);
  }

  private rootName(): string {
    const trimmed = this.rootPrefix.slice(0, -1);
    return trimmed.slice(trimmed.lastIndexOf('/') + 1);
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
      state.handle.close();
      for (const child of state.children) stack.push(child);
    }
    if (key !== '') this.states.get(parentKey(key))?.children.delete(key);
  }

  /** Forgets every listing and watch: the next walk reads (and watches) the tree again. */
  dropAll(): void {
    if (this.states.size > 0) this.counters.rescans++;
    for (const state of this.states.values()) state.handle.close();
    this.states.clear();
  }
}
