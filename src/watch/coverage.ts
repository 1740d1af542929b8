/**
 * What lets the index reuse a whole answer: a version that moves on every change it could have
 * seen, and, per query, whether every read the walk made is covered by a watch (so that a change
 * to what it read would have moved the version).
 *
 * Covered: a listing served from memory or kept after its read (its directory's watch was in
 * place first); a file read (`lstat`, an ignore file, a `realpath`) whose directory is watched,
 * by the tree or by a sentinel: a watch set up here, before the read, on a directory outside the
 * kept tree (the root's parents, where `gitignore` looks for ignore files and `.git`). Not
 * covered: a listing read from the disk and not kept (a refused watch, a failed read), a `stat`
 * (it follows a link anywhere), a directory that cannot be watched. An uncovered answer is still
 * exact; it is only not reused.
 */
import { isSelfEvent, type DirectoryWatcher, type WatchHandle } from './watcher.js';

/** One query's record: stays true while every read was covered. */
export interface ReadCoverage {
  covered: boolean;
}

/** Watches on directories outside the kept tree: any event there moves the version. */
export class Sentinels {
  private readonly handles = new Map<string, WatchHandle>();

  constructor(
    private readonly watcher: DirectoryWatcher,
    private readonly moved: () => void,
    private readonly isCookie: (name: string) => boolean,
  ) {}

  /** True when `dir` (native, no trailing separator) is watched now, a watch set up if needed. */
  ensure(dir: string): boolean {
    if (this.handles.has(dir)) return true;
    let handle: WatchHandle | undefined;
    const forget = () => {
      if (handle !== undefined && this.handles.get(dir) === handle) {
        this.handles.delete(dir);
        handle.close();
      }
      this.moved();
    };
    try {
      handle = this.watcher.watch(dir, {
        change: (name) => {
          if (name !== undefined && name !== '' && this.isCookie(name)) return;
          // The directory itself moved or removed: its watch is dead, set up again on the next read.
          if (isSelfEvent(dir, name)) forget();
          else this.moved();
        },
        lost: forget,
      });
    } catch {
      return false;
    }
    this.handles.set(dir, handle);
    return true;
  }

  /** How many directories are watched as sentinels. */
  get size(): number {
    return this.handles.size;
  }

  close(): void {
    for (const handle of this.handles.values()) handle.close();
    this.handles.clear();
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
