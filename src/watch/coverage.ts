/**
 * What lets the index reuse a whole answer: every watch the answer's reads went through, each with
 * a count of the changes it reported, and, per query, whether every read the walk made is covered
 * by a watch (so that a change to what it read moves one of those counts).
 *
 * Covered: a listing served from memory or kept after its read (its directory's watch was in
 * place first); a file read (`lstat`, an ignore file, a `realpath`) whose directory is watched,
 * by the tree or by a sentinel: a watch set up here, before the read, on a directory outside the
 * kept tree (the root's parents, where `gitignore` looks for ignore files and `.git`; the
 * directories a link on the way passes through); a `stat` (of a link on the way, of an ignore file
 * or `.git`) by the entries on the way to it (src/watch/path-cover.ts). Not covered: a listing read from the disk and not
 * kept (a refused watch, a failed read), a directory that cannot be watched. An uncovered answer is
 * still exact; it is only not reused.
 *
 * An answer depends only on what its walk read: a change in a directory it never read (pruned by
 * its pattern, another subtree) leaves it reusable.
 */
import type { FsLike } from '../fs.js';
import { identityOf, identitySync, isSelfEvent, type DirectoryWatcher, type WatchHandle } from './watcher.js';

/** A watch an answer read through: `changes` moves on every event it reports; `live` turns false when it is dropped. */
export interface Tracked {
  changes: number;
  live: boolean;
}

/** One query's record: stays `covered` while every read was covered; `deps`: each watch read through, with its `changes` then. */
export interface ReadCoverage {
  covered: boolean;
  readonly deps: Map<Tracked, number>;
}

type Callback<T> = (error: NodeJS.ErrnoException | null, value: T) => void;

/** What the judgment of a file read looks at in its `stat`. */
export interface FileIds {
  nlink?: number;
  dev?: number;
  ino?: number;
}

/**
 * Reads an ignore file for a walk whose answer may be kept. A write is an event in the directory of
 * the path it went through (inotify names that one), so a file with another hard link can change
 * with no event any watch of the answer sees (an adversarial run: `.gitignore` hard-linked from
 * outside the root, edited there, and the index answered from its kept answer as if it had not).
 * So can a file mount, either side of it (`mount --bind /elsewhere/rules root/.ignore`: a write to
 * `rules` is an event in `/elsewhere` only; an adversarial run, the same kept answer), and a file
 * on a file system whose changes raise no event here (`/proc/<pid>/comm`): `isWatchable`, by the
 * mount table (src/watch/mounts.ts). Such a file leaves the answer uncovered: exact, never reused.
 * `known`: what the `stat` the walk made just before the read said (src/walk/ignore-io.ts), else
 * it is `stat`ed here.
 */
export function readIgnoreFile(
  disk: Pick<FsLike, 'readFile' | 'stat'>,
  path: string,
  coverage: ReadCoverage,
  known: FileIds | undefined,
  isWatchable: (ids: FileIds) => boolean,
  callback: Callback<Uint8Array | string>,
): void {
  disk.readFile!(path, (error, data) => {
    if (error || !coverage.covered) return callback(error, data);
    const judge = (ids: FileIds | undefined) => {
      if (ids === undefined || ids.nlink !== 1 || !isWatchable(ids)) coverage.covered = false;
      callback(error, data);
    };
    if (known !== undefined) return judge(known);
    // No `stat`: no way to count its links.
    if (disk.stat === undefined) return judge(undefined);
    disk.stat(path, (statError, stats) => judge(statError ? undefined : (stats as FileIds)));
  });
}

/** A fresh record for one walk. */
export function newCoverage(): ReadCoverage {
  return { covered: true, deps: new Map() };
}

/** Records that the walk read through `tracked` (the first reading of its count stands), or an uncovered read. */
export function depend(coverage: ReadCoverage, tracked: Tracked | undefined): void {
  if (tracked === undefined) coverage.covered = false;
  else if (!coverage.deps.has(tracked)) coverage.deps.set(tracked, tracked.changes);
}

/**
 * Per-entry counts of one watched directory, for reads that depend on a single entry of it, not on
 * its whole listing: a link chain's path passes through `/a/b` by the entry `b` of `/a` alone, so a
 * file touched beside `b` leaves an answer that only stat'ed through `/a` reusable. An event that
 * names an entry moves its count; one that names nothing moves them all; the directory's watch
 * dropped kills them all.
 */
export class EntryCounts {
  private readonly byName = new Map<string, Tracked>();

  of(name: string): Tracked {
    let tracked = this.byName.get(name);
    if (tracked === undefined) this.byName.set(name, (tracked = { changes: 0, live: true }));
    return tracked;
  }

  note(name: string | undefined): void {
    if (name === undefined || name === '') for (const tracked of this.byName.values()) tracked.changes++;
    else {
      const tracked = this.byName.get(name);
      if (tracked !== undefined) tracked.changes++;
    }
  }

  kill(): void {
    for (const tracked of this.byName.values()) tracked.live = false;
  }
}

/** A watch whose events also count per entry (made at the first read through one). */
export interface WatchedDir extends Tracked {
  entries?: EntryCounts;
}

/** An event of `dir`'s watch (`name`: the entry it names, if any): its count moves, and the entry's. */
export function noteEvent(dir: WatchedDir, name: string | undefined): void {
  dir.changes++;
  dir.entries?.note(name);
}

/** `dir`'s watch is dropped: no answer that read through it, or through one of its entries, is reused. */
export function retire(dir: WatchedDir): void {
  dir.live = false;
  dir.entries?.kill();
}

/** The count of `name` in `dir` (a dead one when the directory's watch is already dropped). */
export function entryOf(dir: WatchedDir, name: string): Tracked {
  return dir.live ? (dir.entries ??= new EntryCounts()).of(name) : { changes: 0, live: false };
}

/** A watch on a directory outside the kept tree. */
interface Sentinel extends WatchedDir {
  handle: WatchHandle;
  /** The directory its path named before the watch was set up (src/watch/watcher.ts `identitySync`). */
  identity: string | undefined;
}

/**
 * Watches on directories outside the kept tree: any event there changes their count. Each is keyed
 * by its path but bound to an inode, and its path may pass through links (`current/y`, with
 * `current -> X`): a link on the way retargeted, or a parent renamed away, makes the path name
 * another directory with no event on the old watch. `recheck` finds those before each query.
 */
export class Sentinels {
  private readonly watched = new Map<string, Sentinel>();

  /** `isBlind`: whether a directory's identity (`dev:ino`) is on a file system whose changes raise no event here (src/watch/mounts.ts). */
  constructor(
    private readonly watcher: DirectoryWatcher,
    private readonly isCookie: (name: string) => boolean,
    private readonly isBlind: (identity: string) => boolean = () => false,
  ) {}

  /** The watch on `dir` (native, no trailing separator), set up now if needed; undefined when it cannot be. */
  ensure(dir: string): WatchedDir | undefined {
    const known = this.watched.get(dir);
    if (known !== undefined) return known;
    // Read before the watch: a swap in between makes them differ (a needless new watch), never agree wrongly.
    const sentinel: Sentinel = { handle: { close() {} }, changes: 0, live: true, identity: identitySync(dir) };
    // procfs, NFS, FUSE...: a watch there vouches for nothing (an adversarial run: ignoreFiles
    // `/proc/<pid>/comm`, the process renamed itself, and the kept answer kept the old rule).
    // By the device its path leads to now, links and all; a mount over it later changes its identity (`recheck`).
    if (sentinel.identity !== undefined && this.isBlind(sentinel.identity)) return undefined;
    try {
      sentinel.handle = this.watcher.watch(dir, {
        change: (name) => {
          if (name !== undefined && name !== '' && this.isCookie(name)) return;
          noteEvent(sentinel, name);
          // The directory itself moved or removed: its watch is dead, set up again on the next read.
          if (isSelfEvent(dir, name)) this.forget(dir, sentinel);
        },
        lost: () => this.forget(dir, sentinel),
      });
    } catch {
      return undefined;
    }
    this.watched.set(dir, sentinel);
    return sentinel;
  }

  /** An event no watch gave (a file mounted over `name`), for the sentinel on `dir` if there is one. */
  note(dir: string, name: string): void {
    const sentinel = this.watched.get(dir);
    if (sentinel !== undefined) noteEvent(sentinel, name);
  }

  /**
   * Drops every sentinel whose path names another directory now than the one it watches (one
   * `stat` each): no answer that read through it is reused, and the next read watches what the
   * path names. An adversarial run: `root/l -> B/current/y`, `current` retargeted from `X` to `Z`,
   * then `mkdir Z/y`: the index kept answering from the watch on `X` that `l` was dangling.
   */
  async recheck(): Promise<void> {
    const checks = [...this.watched].map(async ([dir, sentinel]) => {
      const now = await identityOf(dir);
      if (now !== sentinel.identity || now === undefined) this.forget(dir, sentinel);
    });
    await Promise.all(checks);
  }

  private forget(dir: string, sentinel: Sentinel): void {
    retire(sentinel);
    if (this.watched.get(dir) === sentinel) {
      this.watched.delete(dir);
      sentinel.handle.close();
    }
  }

  /** How many directories are watched as sentinels. */
  get size(): number {
    return this.watched.size;
  }

  close(): void {
    for (const sentinel of this.watched.values()) {
      retire(sentinel);
      sentinel.handle.close();
    }
    this.watched.clear();
  }
}

/** The directory of a file path (native, `/`), without a trailing separator; `/` for a file at the top. */
export function dirOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

/** Every directory above `path` and `path` itself, nearest last (`/a/b` → `/`, `/a`, `/a/b`). */
export function selfAndAncestors(path: string): string[] {
  const out = ['/'];
  const parts = path.split('/').filter(Boolean);
  for (let i = 1; i <= parts.length; i++) out.push('/' + parts.slice(0, i).join('/'));
  return out;
}
