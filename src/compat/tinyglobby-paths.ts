/**
 * tinyglobby 0.2's three string helpers, written for find-file and checked against tinyglobby
 * 0.2.17 on both platforms by a generated oracle test (test/compat/tinyglobby-paths.test.ts).
 * No I/O, no matcher: each answers from the text alone, with tinyglobby's rules:
 *
 * - `escapePath` puts a `\` before each character picomatch would read as magic. POSIX: `()[]{}`,
 *   `*?|`, a `!` first, `!+@` right before `(`, and a `\` not already escaping one of
 *   `()[]{}!*+?@|` (there `\` is a name character). win32: `()[]{}`, a `!` first and `!+@` before
 *   `(` only: `*?|` cannot be in a Windows name, and `\` is the separator.
 * - On both, a character right after a `\` is left alone: tinyglobby reads that `\` as its escape,
 *   looking one character back only (so POSIX `a\\b` gives `a\\\b`, the second `\` kept as it was).
 * - `convertPathToPattern` is `escapePath` on POSIX; on win32 it escapes, then turns every `\`
 *   that is not an escape of `()[]{}!+@` into `/` (`C:\a\*` is `C:/a/*`).
 * - `isDynamicPattern` is true with `caseSensitiveMatch: false` (tinyglobby then always walks);
 *   otherwise it answers as picomatch's `scan` (`isGlob || negated`), platform-blind: see there.
 *
 * tinyglobby picks the POSIX or the win32 variant once, from `process.platform` at import time;
 * so does `helpersFor` here. Both variants are exported so that each can be tested on any OS.
 */

/** Group, set and brace characters: magic on both platforms. */
const BRACKETS = '()[]{}';
/** Extglob leaders: magic only right before `(` (`@(a|b)`); `me@host` and `a+b` are plain names. */
const EXTGLOB_LEADERS = '!+@';
/** POSIX only: wildcards and the alternation bar, none of which a Windows name can hold. */
const POSIX_WILDCARDS = '*?|';
/** On POSIX a `\` before one of these is taken as already escaping it, so it is kept. */
const ESCAPABLE = '()[]{}!*+?@|';

type ShouldEscape = (c: string, next: string | undefined, isFirst: boolean) => boolean;

/** Both platforms: brackets, a leading `!` (negation) and an extglob leader opening a group. */
const isMagicOnWin32: ShouldEscape = (c, next, isFirst) =>
  BRACKETS.includes(c) || (c === '!' && isFirst) || (EXTGLOB_LEADERS.includes(c) && next === '(');

const isMagicOnPosix: ShouldEscape = (c, next, isFirst) =>
  isMagicOnWin32(c, next, isFirst) ||
  POSIX_WILDCARDS.includes(c) ||
  // A lone `\` (or one at the end) is part of the name; escaping it keeps it one.
  (c === '\\' && (next === undefined || !ESCAPABLE.includes(next)));

/**
 * Each character is decided on the original text (what precedes and follows it there), never on
 * what was already written out: that is tinyglobby's one-pass replace, and why `\\(` keeps its `(`.
 */
function escapeWith(path: string, shouldEscape: ShouldEscape): string {
  // tinyglobby throws on a non-string (it calls `path.replace`); the loop would answer '' instead.
  if (typeof path !== 'string') throw new TypeError(`escapePath: the path must be a string, got ${typeof path}`);
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    out += path[i - 1] !== '\\' && shouldEscape(c, path[i + 1], i === 0) ? `\\${c}` : c;
  }
  return out;
}

/** tinyglobby's POSIX `escapePath`: `a(b)*.js` is `a\(b\)\*.js`. */
export function escapePosixPath(path: string): string {
  return escapeWith(path, isMagicOnPosix);
}

/** tinyglobby's win32 `escapePath`: `C:\a(b)\*.js` is `C:\a\(b\)\*.js` (the `\` and `*` stay). */
export function escapeWin32Path(path: string): string {
  return escapeWith(path, isMagicOnWin32);
}

/** tinyglobby's POSIX `convertPathToPattern`: the same as `escapePosixPath` (`/` is already the separator). */
export function convertPosixPathToPattern(path: string): string {
  return escapePosixPath(path);
}

/**
 * tinyglobby's win32 `convertPathToPattern`: escaped first, then each `\` that does not escape one
 * of `()[]{}!+@` becomes `/`. That takes the separators, and also a `\` the path had before `*`,
 * `?` or `|` (not in the set: those cannot be in a Windows name, so that `\` was a separator).
 */
export function convertWin32PathToPattern(path: string): string {
  const escaped = escapeWin32Path(path);
  let out = '';
  for (let i = 0; i < escaped.length; i++) {
    const c = escaped[i]!;
    const next = escaped[i + 1];
    out += c === '\\' && (next === undefined || !(BRACKETS + EXTGLOB_LEADERS).includes(next)) ? '/' : c;
  }
  return out;
}

/** The two platform-dependent helpers of one platform. */
export interface PathHelpers {
  /** That platform's `escapePath`. */
  escapePath: (path: string) => string;
  /** That platform's `convertPathToPattern`. */
  convertPathToPattern: (path: string) => string;
}

const WIN32: PathHelpers = { escapePath: escapeWin32Path, convertPathToPattern: convertWin32PathToPattern };
const POSIX: PathHelpers = { escapePath: escapePosixPath, convertPathToPattern: convertPosixPathToPattern };

/** The variant tinyglobby takes on `platform`: win32's on Windows, POSIX's on every other OS. */
export function helpersFor(platform: NodeJS.Platform): PathHelpers {
  return platform === 'win32' ? WIN32 : POSIX;
}

const running = helpersFor(process.platform);

/**
 * tinyglobby's `escapePath`: `path` with its magic characters escaped, so that as a pattern it
 * names that path only. On POSIX `escapePosixPath`, on Windows `escapeWin32Path`.
 * @example escapePath('app/(auth)/[id].tsx') // 'app/\\(auth\\)/\\[id\\].tsx'
 */
export const escapePath: (path: string) => string = running.escapePath;

/**
 * tinyglobby's `convertPathToPattern`: a path of this OS as a pattern naming it. On POSIX the same
 * as `escapePath`; on Windows also its `\` separators turned into `/` (`C:\src\a(b)` is `C:/src/a\(b\)`).
 * @example convertPathToPattern(process.cwd()) + '/**' + '/*.js'
 */
export const convertPathToPattern: (path: string) => string = running.convertPathToPattern;

/**
 * picomatch's `scan(pattern)` as far as `isGlob || negated`, on any platform. It reads left to
 * right and stops at the first thing that decides: an unescaped `*`, `?` or `(`, or one of `!+@`
 * before `(`, is a glob; `[` is one when an unescaped `]` follows; `{` is one when `,` or `..`
 * follows before its matching `}` (a `.` there takes the next character with it, unread as an
 * escape: `{.\,}` is a glob, `{a\,}` is not), and after a `{` or `\{` nothing more counts. A `!` at the
 * start (or after earlier `!`s and `./`s) negates. Its two inner scans stop at a NUL character,
 * the main one does not: kept, so that no string answers differently from tinyglobby.
 */
function scansAsGlob(pattern: string): boolean {
  let negated = false;
  let start = 0; // where a `!` still negates: past leading `!`s and `./`s
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const next = pattern[i + 1];
    if (c === '\\') {
      if (next === '{') return negated; // an escaped brace ends the scan: its inner part never counts
      i++;
    } else if (c === '{') return braceIsGlob(pattern, i + 1) || negated;
    else if (c === '/') {
      if (i === start + 1 && pattern[start] === '.') start = i + 1;
    } else if (c === '*' || c === '?' || c === '(' || (EXTGLOB_LEADERS.includes(c) && next === '(')) return true;
    else if (c === '[') return setCloses(pattern, i + 1) || negated;
    else if (c === '!' && i === start) {
      negated = true;
      start = i + 1;
    }
  }
  return negated;
}

/** From inside a `{`: whether a `,` or `..` comes before the `}` that closes it. */
function braceIsGlob(pattern: string, from: number): boolean {
  let depth = 1;
  for (let i = from; i < pattern.length; i++) {
    let c = pattern[i];
    if (c === '\0') return false;
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else {
      // picomatch reads the character after a `.` at once: a second `.` is a range, a `,` or `}`
      // still counts, and a `\` or `{` there is taken as plain.
      if (c === '.') c = pattern[++i];
      if (c === '.' || c === ',') return true;
      if (c === '}' && --depth === 0) return false;
    }
  }
  return false;
}

/** From inside a `[`: whether an unescaped `]` follows (`[]` closes at once, as picomatch reads it). */
function setCloses(pattern: string, from: number): boolean {
  for (let i = from; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\0') return false;
    if (c === '\\') i++;
    else if (c === ']') return true;
  }
  return false;
}

/**
 * tinyglobby's `isDynamicPattern`: whether `pattern` needs matching rather than naming one path.
 * Always true with `caseSensitiveMatch: false`. Otherwise as picomatch reads it: `*`, `?`, a
 * closed `[...]`, a `{` holding `,` or `..`, any `(`, or a leading `!`; a `\` escapes the next
 * character. Like tinyglobby it is true for a lone `(` or `{a,` and false for `{a}`.
 * @example isDynamicPattern('src/index.ts') // false
 * @example isDynamicPattern('src/*.ts') // true
 */
export function isDynamicPattern(pattern: string, options?: { caseSensitiveMatch?: boolean }): boolean {
  return options?.caseSensitiveMatch === false || scansAsGlob(pattern);
}

/** The characters tinyglobby's `\` escapes (picomatch reads `\` so on every platform: `posix: true`). */
const ESCAPED_BY_BACKSLASH = '()[]{}!*+?@|';

/**
 * A pattern's tinyglobby escapes as find-file reads them on win32, where `\` is a separator and
 * never an escape: `\(` becomes `[(]`, `\[` `[[]`, `\]` `[]]`, `\!` `@(!)` (a set cannot hold a
 * lone `!`). Without it the adapter read `escapePath('dir (2)')`, `dir \(2\)`, as `dir /(2/)` and
 * found nothing there (the Windows set, test/windows/compat.win.mjs). A `\` before anything else
 * stays a separator (`src\a.js`), as find-file reads it on Windows. Inside a set nothing changes.
 */
export function win32EscapesAsSets(pattern: string): string {
  if (!pattern.includes('\\')) return pattern;
  let out = '';
  let inSet = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const next = pattern[i + 1];
    if (inSet) inSet = c !== ']';
    else if (c === '[') inSet = true;
    if (inSet || c !== '\\' || next === undefined || !ESCAPED_BY_BACKSLASH.includes(next)) {
      out += c;
      continue;
    }
    out += next === '!' ? '@(!)' : `[${next}]`;
    i++;
  }
  return out;
}
