/**
 * node-glob's options that only change how a pattern is written or how a path is returned, read
 * once per call (glob-compile.ts): `windowsPathsNoEscape` and `matchBase` rewrite each pattern as
 * node-glob's `Glob` constructor does before anything else reads it; `posix`, `dotRelative` and
 * `mark` shape each returned string as node-glob's walker writes it.
 */
import { sep } from 'node:path';
import { FindFileError } from '../errors.js';
import type { GlobOptions } from './glob-compile.js';
import type { PathEntry } from './path-entry.js';
import { readFlag } from './shared.js';

/** The options read here (documented on `GlobOptions`). */
export type PathFormOptions = Pick<GlobOptions, 'windowsPathsNoEscape' | 'allowWindowsEscape' | 'matchBase' | 'posix' | 'dotRelative' | 'mark'>;

/**
 * Whether `\` in patterns and ignores is a separator: `windowsPathsNoEscape`, or its old spelling
 * `allowWindowsEscape: false`. On win32 find-file reads `\` so in every pattern, so asking for it
 * to be an escape there is refused rather than quietly read otherwise.
 */
export function readNoEscape(opts: PathFormOptions, entry: string): boolean {
  const noEscape = readFlag(opts.windowsPathsNoEscape, false) || opts.allowWindowsEscape === false;
  if (process.platform === 'win32' && (opts.windowsPathsNoEscape === false || opts.allowWindowsEscape === true)) {
    const option = opts.windowsPathsNoEscape === false ? 'windowsPathsNoEscape' : 'allowWindowsEscape';
    throw new FindFileError('FF_INVALID_OPTION', `${entry}: on Windows find-file reads \\ in a pattern as a separator, never an escape: leave ${option} out, and escape with [*] (escape() does)`, option);
  }
  return noEscape;
}

/**
 * The patterns as node-glob's `Glob` constructor rewrites them: every `\` turned into `/` under
 * `windowsPathsNoEscape` (off win32; there find-file already reads it so), then, under `matchBase`,
 * a pattern holding no `/` matched at any depth (`*.js` read as `./**` + `/*.js`).
 */
export function rewritePatterns(patterns: string[], opts: PathFormOptions, noEscape: boolean): string[] {
  const slashed = noEscape && process.platform !== 'win32' ? patterns.map((p) => p.replaceAll('\\', '/')) : patterns;
  return readFlag(opts.matchBase, false) ? slashed.map((p) => (p.includes('/') ? p : `./**/${p}`)) : slashed;
}

/** An ignore as node-glob's `Ignore` reads it: its minimatch turns `\` into `/` under `windowsPathsNoEscape` too. */
export function rewriteIgnore(ignore: string, noEscape: boolean): string {
  return noEscape && process.platform !== 'win32' ? ignore.replaceAll('\\', '/') : ignore;
}

/** How node-glob writes each returned string, built once per call. */
export interface PathForm {
  /** Whether a returned string needs the entry's kind (`mark`): the answer is then built from entries. */
  needsKind: boolean;
  /** A match (find-file's form: `/`-relative, or native absolute) as node-glob's string, when no kind is needed. */
  ofMatch: (match: string) => string;
  /** `cwd` itself as node-glob's string. */
  cwd: string;
  /** An entry as node-glob's string, `mark`'s separator after a directory. */
  ofEntry: (entry: PathEntry) => string;
}

/** node-glob's drive paths under `posix` on win32: `C:\a` is `//?/C:/a` (path-scurry's `fullpathPosix`). */
function posixAbsolute(native: string): string {
  const p = native.replaceAll('\\', '/');
  return /^[a-z]:\//i.test(p) ? `//?/${p}` : p;
}

/**
 * node-glob's walker: an absolute path native, or with `/` under `posix`; a relative one with the
 * platform's separator (`/` under `posix`), `./` before it under `dotRelative` (never before `.`
 * itself); under `mark` a directory's (by lstat: a link to one is not) gets the separator after it.
 */
export function buildPathForm(opts: PathFormOptions, root: string, absolute: boolean): PathForm {
  const posix = readFlag(opts.posix, false) || sep === '/';
  const dotRelative = readFlag(opts.dotRelative, false) && !absolute;
  const mark = readFlag(opts.mark, false);
  const sepOut = posix ? '/' : sep;
  const dotted = (rel: string) => (dotRelative ? `.${sepOut}${rel}` : rel);
  const ofMatch = absolute ? (posix && sep !== '/' ? posixAbsolute : (m: string) => m) : posix ? dotted : (m: string) => dotted(m.replaceAll('/', sep));
  const plain = (entry: PathEntry): string => {
    if (absolute) return posix ? entry.fullpathPosix() : entry.fullpath();
    const rel = posix ? entry.relativePosix() : entry.relative();
    return rel === '' ? '.' : dotted(rel);
  };
  const ofEntry = mark ? (entry: PathEntry) => withMark(plain(entry), entry.isDirectory(), sepOut) : plain;
  const cwd = absolute ? (posix && sep !== '/' ? posixAbsolute(root) : root) : '.';
  return { needsKind: mark, ofMatch, cwd: mark ? withMark(cwd, true, sepOut) : cwd, ofEntry };
}

/** A directory's path with the separator after it (a root such as `/` or `C:\` has one already). */
function withMark(path: string, isDirectory: boolean, sepOut: string): string {
  return isDirectory && !path.endsWith(sepOut) ? path + sepOut : path;
}
