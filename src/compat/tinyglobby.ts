/**
 * `find-file/tinyglobby`: tinyglobby 0.2's `glob` and `globSync`, run by find-file (docs/compat.md),
 * and its three string helpers (`escapePath`, `isDynamicPattern`, `convertPathToPattern`: tinyglobby-paths.ts).
 * The rules taken from tinyglobby (checked against it by test/compat/): patterns are relative to
 * `cwd` and a slash-less one is top level only; `!x` in `patterns` ignores `x`; a pattern not
 * ending in `*` also names everything below it (`expandDirectories`); dot names are hidden unless
 * `dot` or the pattern names them; directories come back with a trailing `/`. The peer's order is
 * its crawl order, not defined; ours is sorted by path. Never following links is kept on purpose:
 * `followSymbolicLinks: true` is refused, and links are neither returned nor entered.
 */
import { lstatSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { FindFileError } from '../errors.js';
import type { FindOptions } from '../options.js';
import type { FindResult } from '../result.js';
import {
  anchor,
  buildDotRule,
  buildRelative,
  checkKeys,
  emptyOptions,
  namesDotSegment,
  prunes,
  readDepth,
  readFlag,
  readGlobList,
  refuseFollow,
  resolveCwd,
  runAsync,
  selfNames,
  braceAlternatives,
  runSync,
  type PeerSearch,
  type GlobPaths,
} from './shared.js';
import { nextClimb, rebase } from './rebase.js';

export type { GlobPaths } from './shared.js';
export {
  /** tinyglobby's `escapePath`: a path with its magic characters escaped, by the running platform's rules. */
  escapePath,
  /** tinyglobby's `isDynamicPattern`: whether a pattern needs matching (picomatch's reading), or `caseSensitiveMatch: false`. */
  isDynamicPattern,
  /** tinyglobby's `convertPathToPattern`: a path as a pattern naming it (on Windows, with `/` separators). */
  convertPathToPattern,
} from './tinyglobby-paths.js';
import { win32EscapesAsSets } from './tinyglobby-paths.js';

/** tinyglobby's options that find-file carries out. Any other is refused (`FF_UNKNOWN_OPTION`). */
export interface GlobOptions {
  /** The directory patterns are relative to. @default process.cwd() */
  cwd?: string | URL;
  /** Globs of paths not to return (nor enter), relative to `cwd`, as tinyglobby reads them. @default [] */
  ignore?: string | readonly string[];
  /** Let wildcards match names starting with `.`. @default false */
  dot?: boolean;
  /** Return files only. @default true */
  onlyFiles?: boolean;
  /** Return directories only (with a trailing `/`). @default false */
  onlyDirectories?: boolean;
  /** Return absolute paths with `/` separators. @default false */
  absolute?: boolean;
  /** How many directory levels below `cwd` to enter: 0 is `cwd`'s own entries only. @default Infinity */
  deep?: number;
  /** Whether patterns match case exactly. @default true */
  caseSensitiveMatch?: boolean;
  /** A pattern not ending in `*` also names everything below it (`src` is `src` and `src/**`). @default true */
  expandDirectories?: boolean;
  /** Only `false` is accepted: find-file never follows links (the peer's default is `true`). @default false here */
  followSymbolicLinks?: boolean;
  /** Stops the walk; the paths found so far are returned, and `result` says `aborted`. */
  signal?: AbortSignal;
  /** tinyglobby's older form: the patterns as an option. */
  patterns?: string | readonly string[];
}

const ENTRY = 'find-file/tinyglobby';
const KNOWN = [
  'cwd',
  'ignore',
  'dot',
  'onlyFiles',
  'onlyDirectories',
  'absolute',
  'deep',
  'caseSensitiveMatch',
  'expandDirectories',
  'followSymbolicLinks',
  'signal',
  'patterns',
  'debug',
] as const;

type Patterns = string | readonly string[];

/**
 * picomatch's brackets: `[id]` matches the set's characters or the text `[id]` itself, when the
 * set holds none of `-*+?.^${}()|[]\` (picomatch `literalBrackets` unset). An adversarial run:
 * `app/[id]/*` found nothing (complete) where tinyglobby returns Next.js's `app/[id]/page.tsx`.
 * Written as find-file's `@([id]|\[id\])`: one more alternative per set, never a product of them.
 * Any other set is copied whole: read from its inside, `[[:digit:]]` once became
 * `[@([:digit:]|\[:digit:\])]`, a set of `@`, `(`, `|`... that matched `@a` and `(x`.
 */
function withLiteralBrackets(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    const close = c === '[' ? closeOfSet(pattern, i) : -1;
    const set = close > i + 1 ? pattern.slice(i + 1, close) : '';
    if (set === '') out += c;
    else if (/[-*+?.^${}()|[\]\\/!]/.test(set)) out += pattern.slice(i, close + 1);
    else out += `@([${set}]|\\[${set}\\])`;
    if (set !== '') i = close;
  }
  return out;
}

const POSIX_CLASS = /\[:[a-z]+:\]/y;

/**
 * The `]` closing the set opened at `open`, past any `[:alpha:]` inside it; -1 when none. (`[.x.]`
 * and `[=x=]` need no care: find-file refuses them whatever their text is cut into.)
 */
function closeOfSet(pattern: string, open: number): number {
  for (let j = open + 1; j < pattern.length; j++) {
    if (pattern[j] === ']') return j;
    POSIX_CLASS.lastIndex = j;
    if (POSIX_CLASS.test(pattern)) j = POSIX_CLASS.lastIndex - 1;
  }
  return -1;
}

/**
 * picomatch expands a set after `$` (`${a,b}` is `$a` and `$b`), where bash and find-file read
 * `${` as no set: the `$` escaped, find-file expands it too. (A `$` already escaped stays.)
 */
function withDollarSets(pattern: string): string {
  return pattern.replace(/(^|[^\\])\$\{/g, '$1\\${');
}

/**
 * picomatch reads a bare `(x|y)` as a group (`id(1).md` is `id1.md`), where find-file reads it as
 * text (docs/compat.md: `app/(auth)/*` finds the folder there, more). In an ignore, text leaves out
 * more than tinyglobby does (`id(1).md` left out the file tinyglobby keeps, found by a generated
 * family): there it is written `@(x|y)`, picomatch's reading. Sets and escapes are copied whole.
 */
function withGroups(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const close = c === '[' ? closeOfSet(pattern, i) : -1;
    if (c === '\\' || close > i) {
      const end = c === '\\' ? i + 1 : close;
      out += pattern.slice(i, end + 1);
      i = end;
    } else out += c === '(' && !/[@!?+*]/.test(pattern[i - 1] ?? '') ? '@(' : c;
  }
  return out;
}

const UNESCAPED_STAR_AT_END = /(?:^|[^\\])\*$/;

/**
 * tinyglobby's `normalizePattern` without the `..` handling (find-file refuses `..`): one trailing
 * `/` off, `/**` added unless the pattern ends in `*` (`src` is `src/**`), then `posix.normalize`:
 * `.` segments and doubled `/` dropped, so `src//` is `src/**`, `*` + `/.` is `*` + `/**` (or `*`
 * without `expandDirectories`), `.` is `**` (find-file reads a last `.` segment as directories
 * only, and refused `src//`, an ignore `.` or `./`: an adversarial run). What is left naming cwd
 * alone is no pattern: cwd is never a match.
 */
function expand(pattern: string, expandDirectories: boolean, isIgnore = false): string[] {
  const text = equalText(pattern, expandDirectories);
  return [...expandGlob(pattern, expandDirectories, isIgnore), ...(text === undefined ? [] : [anchor(text)])];
}

/**
 * picomatch matches a path whose text equals the pattern before reading it as a glob (its
 * `input === glob` shortcut), so `a\*` (tinyglobby's `escapePath('a\\*')`: it leaves a `\` before a
 * magic character as it is) finds the file `a\*` as well as `a*`, where the adapter found `a*`
 * only (complete: an adversarial run). Where the text holds a `\` (an escape to find-file off
 * win32), that text, every character escaped, is one more alternative. The shortcut sees what
 * tinyglobby hands picomatch: nothing where it added `/**` (`d/q\w` finds `d/q\w` only without
 * `expandDirectories`).
 */
function equalText(pattern: string, expandDirectories: boolean): string | undefined {
  if (sep === '\\' || !pattern.includes('\\')) return undefined;
  const p = pattern.endsWith('/') ? pattern.slice(0, -1) : pattern;
  if (expandDirectories && !p.endsWith('*')) return undefined;
  const text = dropDotSegments(p);
  return text === '' ? undefined : text.replace(/[\\*?[\](){}!+@]/g, '\\$&');
}

function expandGlob(pattern: string, expandDirectories: boolean, isIgnore: boolean): string[] {
  pattern = withLiteralBrackets(withDollarSets(isIgnore ? withGroups(pattern) : pattern));
  let p = pattern.endsWith('/') ? pattern.slice(0, -1) : pattern;
  if (expandDirectories && !p.endsWith('*')) p += '/**';
  // A `/` left at the end (`x//`, `x/./`) makes picomatch's ignore match nothing (its paths
  // carry no trailing `/` there); as a pattern it is read as `x` (tinyglobby's `*//` throws).
  if (isIgnore && p.endsWith('/')) return [];
  p = dropDotSegments(p);
  if (p === '') return [];
  // picomatch's `x/**` also matches `x`, unless a `*` stands right before the `/**` (read before
  // any brace set is split: `{*,.}/**` names `a` as its regex does).
  const selfNamed = p.endsWith('/**') && !UNESCAPED_STAR_AT_END.test(withoutGlobstars(p));
  return withoutDeadAlternatives(p).map(anchor).flatMap((a) => (selfNamed && a.endsWith('/**') ? [a, ...selfNames(withoutGlobstars(a), 'picomatch').map(anchor)] : [a]));
}

/**
 * `x` for `x/**` (find-file's `x/**` needs one more segment). Every trailing `/**` goes: each may
 * match no segment, so `x/**` + `/**` names `x` too (stripping one left `x/**` + `/.`: an ignore
 * `x/b/**` + `/**` kept the file `x/b`, an adversarial run). picomatch reads a `*` right before
 * `/**` as one run: `*` + `/**` and `x/b*` + `/**` need a segment below (`*` + `/**` gave the
 * top-level files where tinyglobby returns only what is below).
 */
function withoutGlobstars(p: string): string {
  let base = p;
  while (base.endsWith('/**')) base = base.slice(0, -3);
  return base;
}

/**
 * picomatch expands braces after tinyglobby's normalize, and a brace alternative that then is `.`,
 * starts with `./`, or puts an empty or `.` segment right before a last `**` matches no path
 * (`{.,b}/**`, `{./a,b}`, `x{/,y}/**`, `{a/.,b}/**`: only `b` and `xy`; `{a/./a,b}` and `{a//a,b}`
 * do match), where find-file reads them as `**`, `a`, `x/**`, `a/**`. Those alternatives are left
 * out: as an ignore they left out files tinyglobby returns (found by a generated family).
 */
const DEAD_ALTERNATIVE = /^\.(?:\/|$)|\/\.?\/\*\*$/;

function withoutDeadAlternatives(p: string): string[] {
  const alternatives = p.includes('{') ? braceAlternatives(p) : undefined;
  if (alternatives === undefined || !alternatives.some((a) => DEAD_ALTERNATIVE.test(a))) return [p];
  return alternatives.filter((a) => !DEAD_ALTERNATIVE.test(a));
}

/** `posix.normalize` without resolving `..` (refused by find-file): `.` segments and empty ones dropped, a leading `/` kept. */
function dropDotSegments(p: string): string {
  const segments = p.split('/').filter((s) => s !== '' && s !== '.');
  return (p.startsWith('/') ? '/' : '') + segments.join('/');
}

/**
 * Notes, from each listing the walk makes, which entries are directories and which it gave no kind
 * (`DT_UNKNOWN`: the walk lstat'ed those; so does `isDir`, for a match among them).
 */
function recordKinds(options: FindOptions): { isDir: (rel: string, root: string) => boolean } {
  const dirs = new Set<string>();
  const unknown = new Set<string>();
  options.onDirectory = (dir, entries) => {
    for (const entry of entries) {
      if (entry.isDirectory()) dirs.add(dir + entry.name);
      else if (!entry.isFile() && !entry.isSymbolicLink()) unknown.add(dir + entry.name);
    }
  };
  const lstatIsDir = (path: string) => {
    try {
      return lstatSync(path).isDirectory();
    } catch {
      return false;
    }
  };
  return { isDir: (rel, root) => dirs.has(rel) || (unknown.has(rel) && lstatIsDir(join(root, rel))) };
}

/** tinyglobby's patterns and ignores: `!x` among the patterns ignores `x` (`!(` opens a group), empty ones skipped. */
function readPatterns(raw: readonly string[], opts: GlobOptions): { pattern: string[]; exclude: string[] } {
  const pattern: string[] = [];
  const exclude = readGlobList(opts.ignore, 'ignore', ENTRY, true).filter((p) => p !== '' && !(p.startsWith('!') && p[1] !== '('));
  for (const p of raw) {
    if (p === '') continue;
    if (!p.startsWith('!') || p[1] === '(') pattern.push(p);
    else if (p[1] !== '!' || p[2] === '(') exclude.push(p.slice(1));
  }
  return { pattern, exclude };
}

/** A name written so that tinyglobby's reading takes it literally: `\\` before what picomatch reads as magic (sets on win32: `asRead`). */
function escapeForPicomatch(name: string): string {
  return name.replace(/[\\*?[\](){}!+@|]/g, '\\$&');
}

/** Compiles tinyglobby's call into one find-file search and the shaping of its answer, before any I/O. */
export function compileTinyglobby(input: Patterns | GlobOptions | undefined, maybeOptions?: GlobOptions, up = 0): PeerSearch {
  const isModern = typeof input === 'string' || Array.isArray(input);
  // tinyglobby throws a TypeError on `glob(undefined, { cwd })`; read as the older `glob(options)`
  // form it listed process.cwd(), not cwd (an adversarial run). A number or boolean is no form either.
  if (!isModern && (typeof input !== 'object' || input === null)) {
    throw new FindFileError('FF_INVALID_PATTERN', `${ENTRY}: patterns must be a string or an array of strings (or the options object of the older glob(options) form), got ${input === null ? 'null' : typeof input}`, 'patterns');
  }
  const opts: GlobOptions = (isModern ? maybeOptions : (input as GlobOptions)) ?? {};
  if (isModern && opts.patterns !== undefined) {
    throw new FindFileError('FF_INVALID_OPTION', `${ENTRY}: patterns given both as the first argument and as an option (tinyglobby refuses it too)`, 'patterns');
  }
  checkKeys(opts, KNOWN, ENTRY);
  refuseFollow(opts.followSymbolicLinks, 'followSymbolicLinks', ENTRY);
  const cwd = resolveCwd(opts.cwd);
  const expandDirectories = readFlag(opts.expandDirectories, true);
  const read = readPatterns(readGlobList(isModern ? input : (opts.patterns ?? '**/*'), 'patterns', ENTRY, true), opts);
  // Patterns starting outside cwd (absolute, or with `..`): one search from where they all start.
  const caseSensitive = readFlag(opts.caseSensitiveMatch, true);
  const rebased = rebase(read.pattern, read.exclude, cwd, { climbs: true, entry: ENTRY, escapeName: escapeForPicomatch, up, nocase: !caseSensitive });
  const { root, patterns: pattern, ignores: exclude, moved } = rebased;
  // tinyglobby's deep counts from the folder it crawls, which it picks otherwise: not kept for these.
  if (moved && opts.deep !== undefined) throw new FindFileError('FF_INVALID_OPTION', `${ENTRY}: deep with patterns starting outside cwd is not supported: pass cwd: ${JSON.stringify(root)} and patterns relative to it`, 'deep');
  // A missing start is searched for from its parent (shared.ts `runAsync`), up to the file system's root.
  const climb = moved && dirname(root) !== root ? { climb: () => compileTinyglobby(input, maybeOptions, nextClimb(up)) } : {};
  if (pattern.length === 0) return { options: emptyOptions(root), shape: () => [] };
  const onlyDirectories = readFlag(opts.onlyDirectories, false);
  const onlyFiles = !onlyDirectories && readFlag(opts.onlyFiles, true);
  const dot = readFlag(opts.dot, false);
  const deep = readDepth(opts.deep, 'deep');
  const dotNamed = !dot && pattern.some((p) => namesDotSegment(p, 'picomatch', caseSensitive));
  // On win32 find-file reads `\` as a separator: tinyglobby's escapes are written as sets there.
  const asRead = sep === '\\' ? win32EscapesAsSets : (p: string) => p;
  const findPatterns = pattern.flatMap((p) => expand(p, expandDirectories)).map(asRead);
  if (findPatterns.length === 0) return { options: emptyOptions(root), shape: () => [] };
  const dots = dotNamed ? buildDotRule(findPatterns, caseSensitive, 'picomatch') : undefined;
  const asked = readFlag(opts.absolute, false);
  // Moved: the search answers absolute paths, written relative to cwd unless asked (tinyglobby's `../x`).
  const absolute = asked || moved;
  // A `\\` is a separator on win32 only: elsewhere a character of a name (`a\\b/f.js` came back as `a/b/f.js`).
  const fromCwd = moved && !asked ? (path: string) => (sep === '\\' ? relative(cwd, path).replaceAll('\\', '/') : relative(cwd, path)) : undefined;
  const options: FindOptions = {
    root,
    pattern: findPatterns,
    exclude: exclude.flatMap((p) => expand(p, expandDirectories, true)).map(asRead),
    hidden: dot || dotNamed,
    type: onlyDirectories ? 'directory' : onlyFiles ? 'file' : ['file', 'directory'],
    caseSensitive,
    absolute,
    ...(deep === undefined ? {} : { maxDepth: deep + 1 }),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...prunes(dots?.prune),
  };
  // With files and directories both, the listings say which match is a directory (the `/` it gets).
  // `stats` lstat'ed every match instead, and dropped one it could not (a folder readable but not
  // searchable: its listing names `f.js` and `sub`, tinyglobby returns both; an adversarial run).
  const kinds = onlyFiles || onlyDirectories ? undefined : recordKinds(options);
  const keep = dots?.keeps;
  const rel = buildRelative(root, absolute);
  const toPeer = (path: string, isDir: boolean): string => {
    // tinyglobby's absolute paths use `/`. A `\` is a separator on win32 only: elsewhere it is a
    // character of a name (`back\slash.js`, a cwd `ba\ck`), and turning it into `/` named a path
    // that does not exist (an adversarial run).
    const peer = fromCwd ? fromCwd(path) : absolute && sep === '\\' ? path.replaceAll('\\', '/') : path;
    return isDir ? `${peer}/` : peer;
  };
  const isDir = kinds ? (path: string) => kinds.isDir(rel(path), root) : () => onlyDirectories;
  // tinyglobby names the directory it crawls from, when that is not cwd and a pattern is all of it (`dir/**`).
  const withRoot = moved && !onlyFiles && rebased.rootIgnored !== true && pattern.some((p) => /^\.\/(?:\*\*\/)*\*\*$/.test(p)) ? [toPeer(root, true)] : [];
  // cwd itself is never an answer, as tinyglobby's: from a search above it, it came back as `/`.
  const isCwd = moved ? (path: string) => path === cwd : () => false;
  const shape = (result: FindResult): string[] => {
    const kept = result.matches.filter((path) => (keep === undefined || keep(rel(path), !isDir(path))) && !isCwd(path));
    return [...withRoot, ...kept.map((path) => toPeer(path, isDir(path)))];
  };
  return { options, shape, ...climb };
}

/**
 * tinyglobby's `glob`: the paths matching `patterns` under `cwd`, in tinyglobby's form. The array
 * also carries `result` (non-enumerable): the full find-file verdict of the same walk.
 *
 * @throws {FindFileError} (rejects) Before any I/O: `FF_UNKNOWN_OPTION` for an option not carried out
 * (`fs`, `globstar`...), `FF_INVALID_OPTION` for `followSymbolicLinks: true`, patterns given twice or
 * a bad `cwd` or `ignore`, `FF_INVALID_PATTERN` for patterns (or an entry of them or of `ignore`)
 * that are not strings or for an ignore that starts above the patterns' start and is not `**`-led,
 * `FF_INVALID_LIMIT` for `deep`, `FF_PATTERN_OUTSIDE_ROOT` for an absolute pattern inside a brace
 * set, and `findFiles`'s pattern codes. Absolute and `..` patterns are searched from where they
 * start, and answered relative to cwd (absolute with `absolute`), as tinyglobby does (docs/compat.md). `ENOENT` or `ENOTDIR` when `cwd` does not exist or is
 * not a directory (tinyglobby answers `[]`).
 * @example
 * const paths = await glob(['src/*.ts', '!src/*.test.ts'], { cwd: 'packages/app' });
 * if (!paths.result.complete) console.warn('not all read:', paths.result.skipped);
 */
export function glob(patterns: Patterns | GlobOptions, options?: GlobOptions): Promise<GlobPaths> {
  try {
    return runAsync(compileTinyglobby(patterns, options));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * tinyglobby's `globSync`, as `glob` without the event loop: the same array and `result`.
 * @throws {FindFileError} Where `glob` rejects, with the same codes.
 * @example
 * const paths = globSync('*.json', { cwd: 'packages/app' });
 * if (paths.length === 0 && paths.result.complete) console.log('no JSON file at the top level');
 */
export function globSync(patterns: Patterns | GlobOptions, options?: GlobOptions): GlobPaths {
  return runSync(compileTinyglobby(patterns, options));
}
