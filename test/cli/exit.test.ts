/**
 * The command's exit statuses (src/cli/exit.ts) as units: every error code the library can throw
 * is classed as usage (2: the command line was wrong, nothing searched) or fatal (1), read from
 * src/errors.ts itself so that a code added there fails here until it is classed; and the order in
 * which an interrupt, a failed -x run and --strict choose the status of a search that ran. The
 * statuses through the real bin are tested where each arises (test/cli/*.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeForError, exitCodeForResult, findFileErrorCode, isUsageError } from '../../src/cli/exit.js';
import { FindFileError, type FindFileErrorCode } from '../../src/errors.js';

/** What each code means to a script: 2, the input was wrong; 1, the search could not run. */
const CLASS: Record<FindFileErrorCode, 'usage' | 'fatal'> = {
  FF_MISSING_OPTION: 'usage',
  FF_UNKNOWN_OPTION: 'usage',
  FF_INVALID_OPTION: 'usage',
  FF_INVALID_LIMIT: 'usage',
  FF_INVALID_PATTERN: 'usage',
  FF_PATTERN_TOO_LARGE: 'usage',
  FF_PATTERN_OUTSIDE_ROOT: 'usage',
  FF_INVALID_ROOT: 'usage',
  FF_EMPTY_QUERY: 'usage',
  FF_QUERY_TOO_LONG: 'usage',
  FF_INVALID_QUERY: 'usage',
  // The root is missing or not a directory, ripgrep cannot run, a named ignore file cannot be read:
  // the command line may be right, the machine is not as it says.
  ENOENT: 'fatal',
  ENOTDIR: 'fatal',
  FF_RG_NOT_FOUND: 'fatal',
  FF_IGNORE_FILE: 'fatal',
  // openIndex on a machine or fs no watcher serves (the command never opens one; a host falls back).
  FF_WATCH_UNAVAILABLE: 'fatal',
};

/** The codes of the `FindFileErrorCode` union, as written in src/errors.ts. */
function declaredCodes(): string[] {
  const source = readFileSync(new URL('../../src/errors.ts', import.meta.url), 'utf8');
  const union = source.slice(source.indexOf('export type FindFileErrorCode'), source.indexOf(';', source.indexOf('export type FindFileErrorCode')));
  return [...union.matchAll(/\| '([A-Z_]+)'/g)].map((m) => m[1]!);
}

describe('exit status of a search that could not run', () => {
  it('classes every code src/errors.ts declares, and no other (a new code must be classed here)', () => {
    const declared = declaredCodes();
    expect(declared.length).toBeGreaterThan(10);
    expect(declared.sort()).toEqual(Object.keys(CLASS).sort());
  });

  it.each(Object.entries(CLASS))('%s exits %s', (code, kind) => {
    const error = new FindFileError(code as FindFileErrorCode, 'message', 'option');
    expect(exitCodeForError(error)).toBe(kind === 'usage' ? EXIT.USAGE : EXIT.FATAL);
    expect(isUsageError(error)).toBe(kind === 'usage');
  });

  it('fails safe: no code, a code that is not a string, or an unknown code is fatal (1), never "usage" or "ran"', () => {
    for (const thrown of [new Error('boom'), { code: 2 }, { code: 'FF_SOMETHING_NEW' }, null, undefined, 'FF_INVALID_OPTION']) {
      expect(exitCodeForError(thrown), JSON.stringify(thrown) ?? String(thrown)).toBe(EXIT.FATAL);
    }
  });

  it('reads a string code from whatever was thrown, and nothing else', () => {
    expect(findFileErrorCode(Object.assign(new Error('x'), { code: 'EACCES' }))).toBe('EACCES');
    expect(findFileErrorCode({ code: 5 })).toBeUndefined();
    expect(findFileErrorCode(null)).toBeUndefined();
    expect(findFileErrorCode('ENOENT')).toBeUndefined();
  });
});

describe('exit status of a search that ran', () => {
  const status = (complete: boolean, commandFailed: boolean, strict: boolean, interrupted: boolean) => exitCodeForResult({ complete, commandFailed }, { strict, interrupted });

  it('0 whether complete or not: incompleteness is in the output, not the status', () => {
    expect(status(true, false, false, false)).toBe(0);
    expect(status(false, false, false, false)).toBe(0);
    expect(exitCodeForResult({ complete: false }, { strict: false, interrupted: false })).toBe(0);
  });

  it('--strict: 3 for an incomplete result only', () => {
    expect(status(false, false, true, false)).toBe(EXIT.INCOMPLETE);
    expect(status(true, false, true, false)).toBe(EXIT.OK);
  });

  it('a failed -x run is 1 and outranks --strict; an interrupt (130) outranks both', () => {
    expect(status(true, true, false, false)).toBe(EXIT.FATAL);
    expect(status(false, true, true, false)).toBe(EXIT.FATAL);
    expect(status(false, true, true, true)).toBe(EXIT.INTERRUPTED);
    expect(status(true, false, false, true)).toBe(EXIT.INTERRUPTED);
  });

  it('the whole truth table of complete × --strict × interrupted (no -x)', () => {
    const table: [complete: boolean, strict: boolean, interrupted: boolean, status: number][] = [
      [true, false, false, 0],
      [false, false, false, 0],
      [true, true, false, 0],
      [false, true, false, 3],
      [true, false, true, 130],
      [false, false, true, 130],
      [true, true, true, 130],
      [false, true, true, 130],
    ];
    for (const [complete, strict, interrupted, expected] of table) {
      expect(exitCodeForResult({ complete }, { strict, interrupted }), JSON.stringify({ complete, strict, interrupted })).toBe(expected);
    }
  });

  it('the statuses are the documented numbers', () => {
    expect(EXIT).toEqual({ OK: 0, FATAL: 1, USAGE: 2, INCOMPLETE: 3, INTERRUPTED: 130, NONE: 1, COULD_NOT_RUN: 2 });
  });
});
