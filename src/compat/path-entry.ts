/**
 * What `find-file/glob` returns for node-glob's `withFileTypes: true`: an object that answers as
 * node-glob's `Path` (path-scurry's `PathBase`) for the members hosts use (docs/compat.md lists
 * them). Only that subset is here; the rest of `Path` (`parent`, `children()`, `readdir()`,
 * `lstat()`, `realpath()`, `resolve()`...) is absent, never faked: a host that calls one fails at
 * once instead of reading an invented answer.
 *
 * The kind comes from the walk's own directory listing (`d_type`), or from the one `lstat` that
 * `stat: true` (or a listing that did not say) makes; never from a `stat`, so a link is a link.
 */
import { lstatSync, type Stats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { basename, dirname, sep } from 'node:path';
import { kindOf } from '../fs.js';
import type { EntryType } from '../options.js';
import { errorCodeOf, reasonForCode, verdictFields, type FindSummary, type SkippedEntry } from '../result.js';

/** The `Stats` fields path-scurry copies onto a `Path` after its `lstat` (`stat: true`). */
const STAT_FIELDS = [
  'atime', 'atimeMs', 'birthtime', 'birthtimeMs', 'blksize', 'blocks', 'ctime', 'ctimeMs', 'dev', 'gid', 'ino', 'mode', 'mtime', 'mtimeMs', 'nlink', 'rdev', 'size', 'uid',
] as const;

type StatFields = { -readonly [K in (typeof STAT_FIELDS)[number]]?: Stats[K] };

/** A returned entry, shaped as node-glob's `Path` for the members listed in docs/compat.md. */
export class PathEntry {
  /** The base name (for the cwd itself: the cwd's own name), as `Path.name`. */
  readonly name: string;
  readonly #full: string;
  readonly #rel: string;
  #kind: EntryType | undefined;

  /**
   * @param full the native absolute path
   * @param rel the cwd-relative path with `/`, `''` for the cwd itself
   * @param kind the kind the walk's listing gave, if it gave one
   */
  constructor(full: string, rel: string, kind: EntryType | undefined) {
    this.#full = full;
    this.#rel = rel;
    this.#kind = kind;
    this.name = basename(full);
  }

  /** The native absolute path. */
  fullpath(): string {
    return this.#full;
  }

  /** The absolute path with `/`; on Windows a drive path is written `//?/C:/...`, as path-scurry writes it. */
  fullpathPosix(): string {
    if (sep === '/') return this.#full;
    const p = this.#full.replaceAll('\\', '/');
    return /^[a-z]:\//i.test(p) ? `//?/${p}` : p;
  }

  /** The path from the cwd with the platform's separator; `''` for the cwd itself. */
  relative(): string {
    return sep === '/' ? this.#rel : this.#rel.replaceAll('/', sep);
  }

  /** The path from the cwd with `/`; `''` for the cwd itself. */
  relativePosix(): string {
    return this.#rel;
  }

  /** The directory holding this entry, as `Dirent.parentPath` (for the filesystem root: itself). */
  get parentPath(): string {
    return dirname(this.#full);
  }

  /** Deprecated alias of `parentPath`, as on `Dirent` and `Path`. */
  get path(): string {
    return this.parentPath;
  }

  /** True when the entry is a regular file, as the walk's listing or the lstat said. */
  isFile(): boolean {
    return this.#kind === 'file';
  }
  /** True when the entry is a directory, as the walk's listing or the lstat said. */
  isDirectory(): boolean {
    return this.#kind === 'directory';
  }
  /** True when the entry is a symbolic link (never followed), as the walk's listing or the lstat said. */
  isSymbolicLink(): boolean {
    return this.#kind === 'symlink';
  }
  /** True when the entry is a named pipe, as the walk's listing or the lstat said. */
  isFIFO(): boolean {
    return this.#kind === 'pipe';
  }
  /** True when the entry is a socket, as the walk's listing or the lstat said. */
  isSocket(): boolean {
    return this.#kind === 'socket';
  }
  /** True when the entry is a block device, as the walk's listing or the lstat said. */
  isBlockDevice(): boolean {
    return this.#kind === 'block-device';
  }
  /** True when the entry is a character device, as the walk's listing or the lstat said. */
  isCharacterDevice(): boolean {
    return this.#kind === 'char-device';
  }
  /** True when neither the listing nor an lstat said what the entry is. */
  isUnknown(): boolean {
    return this.#kind === undefined;
  }

  /** Copies an `lstat` answer on, as path-scurry does: the kind, and every `Stats` field (`mtimeMs`, `size`, `mode`...). */
  applyStat(stats: Stats): this {
    this.#kind = kindOf(stats);
    const target = this as StatFields;
    for (const field of STAT_FIELDS) (target as Record<string, unknown>)[field] = stats[field];
    return this;
  }
}

// The `Stats` fields, present (not undefined) only after `stat: true`, as on path-scurry's `Path`.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface PathEntry extends StatFields {}

/** What lstat'ing the entries left: those node-glob returns, and those it drops in silence (named here). */
export interface Lstated {
  kept: PathEntry[];
  failed: SkippedEntry[];
}

/** node-glob lstats an entry when `stat: true` or when its listing gave no kind; a failed lstat drops it. */
function needsLstat(entry: PathEntry, all: boolean): boolean {
  return all || entry.isUnknown();
}

function failure(entry: PathEntry, error: unknown): SkippedEntry {
  return { path: entry.relativePosix() || '.', code: errorCodeOf(error) };
}

/** lstats the entries node-glob lstats (`needsLstat`), one call each, in order; never a `stat`. */
export function lstatEntriesSync(entries: readonly PathEntry[], all: boolean): Lstated {
  const out: Lstated = { kept: [], failed: [] };
  for (const entry of entries) {
    if (!needsLstat(entry, all)) out.kept.push(entry);
    else {
      try {
        out.kept.push(entry.applyStat(lstatSync(entry.fullpath())));
      } catch (error) {
        out.failed.push(failure(entry, error));
      }
    }
  }
  return out;
}

/** Perf: lstats in flight at once; enough to keep libuv's pool busy, few enough to leave it to others. */
const IN_FLIGHT = 64;

/** `lstatEntriesSync` on the event loop: the same entries kept, in the same order. */
export async function lstatEntries(entries: readonly PathEntry[], all: boolean): Promise<Lstated> {
  const answers: (Stats | { error: unknown } | undefined)[] = new Array(entries.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < entries.length) {
      const i = next++;
      const entry = entries[i]!;
      if (!needsLstat(entry, all)) continue;
      answers[i] = await lstat(entry.fullpath()).catch((error: unknown) => ({ error }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, entries.length) }, worker));
  const out: Lstated = { kept: [], failed: [] };
  entries.forEach((entry, i) => {
    const answer = answers[i];
    if (answer === undefined) out.kept.push(entry);
    else if ('error' in answer) out.failed.push(failure(entry, answer.error));
    else out.kept.push(entry.applyStat(answer));
  });
  return out;
}

/**
 * The walk's verdict with the entries a failed lstat dropped: named in `skipped`, and a gap by the
 * contract's one rule (`reasonForCode`): gone since it was listed (ENOENT) is none; EACCES or EIO
 * is, so an array missing a path that exists never comes with `complete: true`.
 */
export function withLstatFailures<T extends FindSummary>(result: T, failed: readonly SkippedEntry[]): T {
  if (failed.length === 0) return result;
  const reasons = [...result.incompleteReasons];
  for (const { code } of failed) {
    const reason = reasonForCode(code);
    if (reason !== undefined && !reasons.includes(reason)) reasons.push(reason);
  }
  const skipped = [...result.skipped, ...failed];
  const { incompleteReason: _dropped, ...rest } = result;
  return { ...rest, skipped, skippedCount: skipped.length, ...verdictFields(reasons) } as T;
}
