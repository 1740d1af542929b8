/**
 * The exit statuses of the `find-file` command, in one module (as fd keeps its own in
 * `exit_codes.rs`), with the two functions that choose them. The contract (docs/cli.md):
 *
 * - 0: the search ran, complete or not: incompleteness is in the output, not in the status;
 * - 1: fatal: the root is missing or not a directory, a forced backend is unavailable, anything
 *   unexpected;
 * - 2: usage: the command line, or the options it turns into, are wrong; nothing was searched;
 * - 1 also: a command of `-x`/`-X` could not run, exited non-zero or was killed (fd's rule);
 * - 3: only with `--strict`: the search ran and its result is incomplete;
 * - 130: interrupted (SIGINT), after printing what was found and the summary.
 *
 * With `-q` (nothing printed) the status is the answer, as fd's and grep's: 0 a match exists, 1 no
 * match and absence proven (a complete search that passed nothing it does not read by policy:
 * links, ignored entries, binary files), 3 no match but it may exist (never 1), 2 the search could not run (a usage
 * error, or what is otherwise fatal: never 1).
 *
 * A consumer that closes the pipe early (`find-file ... | head -1`) is not an error: 0, quietly.
 */

export const EXIT = {
  OK: 0,
  FATAL: 1,
  USAGE: 2,
  INCOMPLETE: 3,
  INTERRUPTED: 130,
  /** `-q`: no match, and the search was complete. */
  NONE: 1,
  /** `-q`: the search could not run (grep's 2): a fatal error must not read as "none". */
  COULD_NOT_RUN: 2,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * Library error codes that mean "the input was wrong": found before any I/O, fixed by changing
 * the command line. Every other error (ENOENT/ENOTDIR for the root, a backend that cannot run,
 * codes added later) is fatal: failing safe means status 1, which no script reads as "ran".
 */
const USAGE_ERROR_CODES: ReadonlySet<string> = new Set([
  'FF_MISSING_OPTION',
  'FF_UNKNOWN_OPTION',
  'FF_INVALID_OPTION',
  'FF_INVALID_LIMIT',
  'FF_INVALID_PATTERN',
  'FF_PATTERN_OUTSIDE_ROOT',
  'FF_PATTERN_TOO_LARGE',
  'FF_INVALID_ROOT',
  // --contains TEXT (content search)
  'FF_EMPTY_QUERY',
  'FF_QUERY_TOO_LONG',
  'FF_INVALID_QUERY',
]);

/**
 * The `code` of a thrown value, if it has a string one: a library code (`FF_...`) or a system one
 * (`ENOENT`). Undefined means nothing named the failure (the command then calls it unexpected);
 * `errorCodeOf` in src/result.ts answers `UNKNOWN` instead, for the reasons it feeds.
 */
export function findFileErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True for a library error caused by bad input (exit 2); false for everything else (exit 1). */
export function isUsageError(error: unknown): boolean {
  const code = findFileErrorCode(error);
  return code !== undefined && USAGE_ERROR_CODES.has(code);
}

/** The status for a search that failed before producing a result. */
export function exitCodeForError(error: unknown): ExitCode {
  return isUsageError(error) ? EXIT.USAGE : EXIT.FATAL;
}

/**
 * The status for a search that produced a result. An interrupt wins; then a failed `-x`/`-X` run
 * (1, fd's rule: the work asked for was not all done); then `--strict` on an incomplete result.
 */
export function exitCodeForResult(result: { complete: boolean; commandFailed?: boolean }, flags: { strict: boolean; interrupted: boolean }): ExitCode {
  if (flags.interrupted) return EXIT.INTERRUPTED;
  if (result.commandFailed === true) return EXIT.FATAL;
  if (flags.strict && !result.complete) return EXIT.INCOMPLETE;
  return EXIT.OK;
}

/**
 * `-q`'s status: a match found answers yes whatever else happened (it exists); no match answers no
 * only from a complete search, and "not known" (3) from an incomplete one. An interrupt wins.
 */
export function quietExitCode(result: { found: boolean; complete: boolean }, interrupted: boolean): ExitCode {
  if (interrupted) return EXIT.INTERRUPTED;
  if (result.found) return EXIT.OK;
  return result.complete ? EXIT.NONE : EXIT.INCOMPLETE;
}
