/**
 * The public options of a file search, as a caller writes them. They are checked and compiled once,
 * before any I/O, by src/plan/ (the only code that reads them); every search then runs from the plan.
 */
import type { DirentLike } from './fs.js';
import type { Clock } from './plan/clock.js';
import type { EntryTypeOption, SortOption } from './plan/select.js';
import type { Platform } from './patterns.js';
import type { RecoveryEvent } from './result.js';
import type { Env } from './rg/resolve.js';
import type { ProcessRunner } from './rg/runner.js';

export type { Platform } from './patterns.js';
export type { Clock } from './plan/clock.js';
export type { EntryType, EntryTypeOption, SortOption } from './plan/select.js';

/** `walker`: the embedded walk. `ripgrep`: `rg --files` (docs/ripgrep.md). `auto`: ripgrep where it answers as fully, else the walker. */
export type BackendOption = 'walker' | 'ripgrep' | 'auto';

export const BACKEND_OPTIONS: readonly BackendOption[] = ['walker', 'ripgrep', 'auto'];

/** The options of `findFiles`, `findFilesSync` and `findFilesStream`. Unknown names are refused (`FF_UNKNOWN_OPTION`). */
export interface FindOptions {
  /** The directory to search. Relative roots resolve against the current directory. Opened even if it is a link. */
  root: string;
  /** Globs over the root-relative path (`/` separators); a glob without `/` matches base names at any depth. */
  pattern: string | string[];
  /** Globs of entries not to enter or return. Counted in `excludedCount`. @default [] */
  exclude?: string[];
  /** Include entries whose name starts with `.`. @default true */
  hidden?: boolean;
  /**
   * Apply ignore files as `rg --files --hidden` does by default: `.gitignore` (inside a git
   * repository), `.git/info/exclude`, `.ignore` and `.rgignore`, in every directory and in the
   * root's parents (docs/contract.md, "Ignore files"). Ignored entries are left out and counted in
   * `ignoredCount`: policy, never a coverage gap. Off by default: coverage first. @default false
   */
  gitignore?: boolean;
  /**
   * Leave out every directory named `.git` (a repository's internals), as fd does even with hidden
   * files shown, counted in `ignoredCount` with what ignore files leave out: policy, never a gap.
   * `gitignore` alone keeps them, as `rg --files --hidden` does. @default false
   */
  ignoreGitDirs?: boolean;
  /**
   * More ignore files, in gitignore syntax (`.qwenignore`, `.geminiignore`): paths, relative to the
   * root or absolute. Their rules apply relative to the root, below every other ignore file, with
   * or without `gitignore` (as ripgrep's `--ignore-file`). One that cannot be read rejects the
   * search (`FF_IGNORE_FILE`): it was asked for by name. @default []
   */
  ignoreFiles?: string[];
  /**
   * The kinds of entry to return: `file` (regular files), `directory`, `symlink` (listed, never
   * followed), the special files `pipe` (FIFO), `socket`, `block-device`, `char-device` (fd's
   * names; listed, never opened), `any` (every kind), or a list. Directories match by their
   * root-relative path, as files do, and are still entered. @default 'file'
   */
  type?: EntryTypeOption | EntryTypeOption[];
  /**
   * Only entries modified after this instant (exclusive): a `Date` or milliseconds since the epoch.
   * Absolute on purpose: "the last 2 hours" is `Date.now() - 2 * 3600e3`, the caller's wall clock
   * (the injected `clock` is monotonic, for budgets). One `lstat` per entry that matches the
   * pattern, none for the others. @default none
   */
  modifiedAfter?: Date | number;
  /** Only entries modified before this instant (exclusive), as `modifiedAfter`. @default none */
  modifiedBefore?: Date | number;
  /** Only regular files of at least this many bytes (a size bound leaves out directories and links, as fd). @default none */
  minSize?: number;
  /** Only regular files of at most this many bytes, as `minSize`. @default none */
  maxSize?: number;
  /**
   * `path`: sorted by path (UTF-16 code units). `mtime`: newest first, ties by path; with
   * `maxResults`, the N newest of the whole tree (the walk goes on to the end; more than N is
   * still `result-limit`). `mtime` costs one `lstat` per match. `findFiles` and `findFilesSync`
   * only (a stream yields in discovery order). @default 'path'
   */
  sort?: SortOption;
  /**
   * Also return `entries`: `{ path, type, size, mtimeMs }` for each match, in the order of
   * `matches`, from the one `lstat` per match the walk makes. `findFiles` and `findFilesSync` only.
   * @default false
   */
  stats?: boolean;
  /**
   * fd's way of naming files: regexes (RE2 syntax, as ripgrep's; linear time) that must each find a
   * match somewhere in the base name, beside `pattern` (give `pattern: '*'` to match on the name
   * alone). Several are all required. Case follows `caseSensitive`. A name filter only narrows the
   * matches: `complete` means what it always means. `findFiles` and `findFilesSync` only.
   * @default none
   */
  nameRegex?: string | string[];
  /** Return at most this many matches; the walk stops when it sees one more. @default unlimited */
  maxResults?: number;
  /** Stop once this many milliseconds (by `clock`) have passed. @default unlimited */
  timeBudgetMs?: number;
  /** How deep to look: 1 examines only the root's direct children. @default unlimited */
  maxDepth?: number;
  /** A `node:fs`-shaped object; a memfs volume works. @default node:fs */
  fs?: unknown;
  /** Where `timeBudgetMs` and `elapsedMs` are read; tests inject a fake. @default a monotonic clock (`process.hrtime`) */
  clock?: Clock;
  /** Stops the walk; the partial result is returned, marked `aborted`. */
  signal?: AbortSignal;
  /** Path flavour: separators, drive letters, `\\` as a separator in patterns on win32. @default the running platform */
  platform?: Platform;
  /** Whether patterns and excludes match case exactly. @default false on win32, true elsewhere */
  caseSensitive?: boolean;
  /** Return native absolute paths instead of root-relative ones. @default false */
  absolute?: boolean;
  /** Which engine runs the search (`findFiles` only: the sync and stream forms run the walker). @default 'walker' */
  backend?: BackendOption;
  /** Absolute path to the ripgrep executable. @default `FIND_FILE_RG`, then `rg` on the PATH */
  rgPath?: string;
  /** Starts ripgrep; tests inject a fake. @default child_process.spawn, no shell */
  runner?: ProcessRunner;
  /** Receives a recovery event when ripgrep was retried or failed; never the pattern, paths or output. */
  onEvent?: (event: RecoveryEvent) => void;
  /**
   * Watches the walk without changing it: called with each directory the walker lists (its
   * root-relative path, `''` for the root, else ending in `/`) and its entries, before any is
   * judged. Never called for ripgrep's answer; called in queue order, also when `auto` falls back.
   * The CLI's progress line and the agent's similar names use it. A throw here is the caller's bug
   * and ends the search with that error.
   */
  onDirectory?: (dir: string, entries: readonly DirentLike[]) => void;
  /**
   * Leaves a directory's entries unread when it answers truthy: called with each directory below the
   * root that the walk would read (root-relative, ending in `/`), before the read; never for the
   * root. The directory itself is still an entry like any other (matched or not): only what is
   * below it is left out, by the caller's policy, counted in `excludedCount`, never a coverage gap.
   * node-glob's `childrenIgnored` (`find-file/glob` carries an `ignore` object through it). The
   * walker only: `backend` `'ripgrep'` or `'auto'` is refused (`FF_INVALID_OPTION`). A throw here is
   * the caller's bug and ends the search with that error. The budget and the signal are asked after
   * each call (a slow callback overruns them by one call at most).
   */
  pruneDirectory?: (dir: string) => unknown;
  /**
   * The project the search belongs to (an agent's workspace), absolute. ripgrep is never run from a
   * PATH folder inside it, as it is never run from inside the root or the cwd (docs/ripgrep.md).
   * @default none
   */
  workspace?: string;
  /** Where `FIND_FILE_RG` and `PATH` are read, and what ripgrep's (minimal) environment is taken from. @default process.env */
  env?: Env;
  /**
   * Directory reads in flight (or read and waiting to be taken) at once in the async walk. Tuning
   * only: it never changes the answer. 256 kept the libuv pool busy here; 64 was 1.2x slower
   * (bench/suites/concurrency.mjs). @default 256
   */
  concurrency?: number;
}
