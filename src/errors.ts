/**
 * The errors a search can reject with. Per-path read errors are never thrown: they are values in
 * the result (`skipped`). What is thrown is bad input, found before any I/O, and a root that
 * cannot be searched at all. Every error has a stable `code` (see docs/errors.md).
 */

export type FindFileErrorCode =
  /** A required option (`root`, `pattern`) is absent. */
  | 'FF_MISSING_OPTION'
  /** An option name the API does not know (typo protection, e.g. `maxresult`). */
  | 'FF_UNKNOWN_OPTION'
  /** An option has the wrong type or an unknown value (e.g. `backend: 'fast'`). */
  | 'FF_INVALID_OPTION'
  /** `maxResults`, `maxDepth` or `timeBudgetMs` is not a non-negative integer. */
  | 'FF_INVALID_LIMIT'
  /** A pattern is empty, blank, holds a NUL byte or is a negation (`!x`: use `exclude`). */
  | 'FF_INVALID_PATTERN'
  /** A pattern (or a pattern list) expands to more brace alternatives than the limit, or is longer than the limit. */
  | 'FF_PATTERN_TOO_LARGE'
  /** A pattern is absolute or holds a `..` segment (whether it climbs out of the root or, as `src/../x`, stays inside). */
  | 'FF_PATTERN_OUTSIDE_ROOT'
  /** The root is empty or holds a NUL byte. */
  | 'FF_INVALID_ROOT'
  /** The root does not exist. */
  | 'ENOENT'
  /** The root is not a directory. */
  | 'ENOTDIR'
  /** `backend: 'ripgrep'` was asked for, and no ripgrep executable could be resolved (docs/ripgrep.md). */
  | 'FF_RG_NOT_FOUND'
  /** An ignore file named in `ignoreFiles` could not be read (it does not exist, is not a regular file, or access is denied). */
  | 'FF_IGNORE_FILE'
  /** Content search: the query is the empty string (it would match every line). */
  | 'FF_EMPTY_QUERY'
  /** Content search: the query is longer than 64 KiB of UTF-8 (docs/content-search.md). */
  | 'FF_QUERY_TOO_LONG'
  /** Content search: the query is not a string, holds a NUL character, or (regex mode) is not a valid regex. */
  | 'FF_INVALID_QUERY'
  /** `openIndex`: no watcher can serve these options (an injected `fs`, a platform other than Linux), or the index was closed: use `findFiles`. */
  | 'FF_WATCH_UNAVAILABLE';

/**
 * What `findFiles`, `searchContent`, their sync and stream forms and the adapters reject with (or
 * throw): bad input, found before any I/O, or a root that cannot be searched at all. Never a
 * per-path read error: those are in the result's `skipped`. Branch on `code`, not on the message.
 */
export class FindFileError extends Error {
  /** Always `FindFileError`. */
  override name = 'FindFileError';
  /** Stable, for programs to branch on (docs/errors.md); the message is for people and may change. */
  readonly code: FindFileErrorCode;
  /** The option at fault, where there is one. */
  readonly option: string | undefined;

  constructor(code: FindFileErrorCode, message: string, option?: string) {
    super(message);
    this.code = code;
    this.option = option;
  }
}

/** The error for a file named in `ignoreFiles` that cannot be read: it was asked for by name, so the search cannot answer without it. */
export function ignoreFileError(file: string): FindFileError {
  return new FindFileError('FF_IGNORE_FILE', `ignore file ${file} cannot be read (it does not exist, is not a regular file, or access is denied)`, 'ignoreFiles');
}

/** The error for a root that cannot be searched at all: it does not exist, or is not a directory. */
export function rootError(root: string, code: 'ENOENT' | 'ENOTDIR'): FindFileError {
  const what = code === 'ENOENT' ? 'does not exist' : 'is not a directory';
  return new FindFileError(code, `root ${root} ${what} (${code})`, 'root');
}
