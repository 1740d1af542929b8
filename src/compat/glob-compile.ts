/**
 * How `find-file/glob` reads node-glob's call (docs/compat.md): its options checked and its patterns
 * turned into one find-file search before any I/O, and the shaping of the answer into node-glob's
 * form (paths or `PathEntry` objects, `cwd` itself where node-glob names it, dot names as it hides
 * them). glob.ts runs the search in each of node-glob's forms (promise, sync, iterator, stream).
 */
import { dirname, join, sep } from 'node:path';
import { FindFileError } from '../errors.js';
import type { EntryType, FindOptions } from '../options.js';
import type { FindResult } from '../result.js';
import { kindOf, type DirentLike } from '../fs.js';
import { buildIgnoreHooks, readIgnoreObject, type IgnoreLike } from './ignore-object.js';
import { PathEntry } from './path-entry.js';
import type { LinkNotes } from './links.js';
import { buildPathForm, readNoEscape, rewriteIgnore, rewritePatterns } from './glob-paths.js';
import { nextClimb, rebase, type Rebased } from './rebase.js';
import {
  anchor,
  braceAlternatives,
  buildDotRule,
  buildEnterTest,
  buildMatchTest,
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
  selfNames,
} from './shared.js';

/** node-glob's name for the options whose answer is `PathEntry` objects (`GlobEntries`). */
export type GlobOptionsWithFileTypesTrue = GlobOptions & {
  /** Entries, not strings. */
  withFileTypes: true;
};
/** node-glob's name for the options whose answer is strings (`GlobPaths`). */
export type GlobOptionsWithFileTypesFalse = GlobOptions & {
  /** Strings, not entries. @default false */
  withFileTypes?: false;
};

/** `withFileTypes: true`: the entries, carrying the verdict as `GlobPaths` do (a non-enumerable `result`). */
export type GlobEntries = PathEntry[] & {
  /** The find-file verdict of the same walk (docs/contract.md), with any entry whose lstat failed named in `skipped`. */
  readonly result: FindResult;
};

/** node-glob's options that find-file carries out. Any other is refused (`FF_UNKNOWN_OPTION`). */
export interface GlobOptions {
  /** The directory patterns are relative to. @default process.cwd() */
  cwd?: string | URL;
  /**
   * Globs of paths not to return; `x/**` leaves out `x` and everything below it. Always matched as
   * with `dot: true`. Or node-glob's `IgnoreLike` object: `ignored(entry)` drops a match,
   * `childrenIgnored(entry)` leaves a directory's entries unread (the host's policy, not a gap). @default []
   */
  ignore?: string | readonly string[] | IgnoreLike;
  /** Let wildcards match names starting with `.`. @default false */
  dot?: boolean;
  /** Do not return directories. @default false */
  nodir?: boolean;
  /** Return absolute paths. @default false */
  absolute?: boolean;
  /** Match case-insensitively. @default true on darwin and win32, false elsewhere */
  nocase?: boolean;
  /** How deep to look: 0 is `cwd` itself only, 1 its entries. @default unlimited */
  maxDepth?: number;
  /** Aborting rejects with the signal's reason, as node-glob does. */
  signal?: AbortSignal;
  /** Only `false` is accepted: find-file never follows links. @default false */
  follow?: boolean;
  /**
   * Return `PathEntry` objects (node-glob's `Path`: `name`, `fullpath()`, `relative()`,
   * `isFile()`...; docs/compat.md lists the members) instead of strings. Their kind comes from the
   * walk's listing, with no extra call. Not with `absolute` (node-glob throws too). @default false
   */
  withFileTypes?: boolean;
  /**
   * lstat each returned entry (never the rest of the tree): with `withFileTypes`, the entries carry
   * `mtimeMs`, `mtime`, `size`, `mode`... as node-glob's do. An entry whose lstat fails is left out,
   * as node-glob does, and named in `result.skipped` (a gap unless it is gone). @default false
   */
  stat?: boolean;
  /** Read every `\\` in patterns and ignores as `/`, never as an escape (find-file's reading on win32, where `false` is refused). @default false */
  windowsPathsNoEscape?: boolean;
  /** node-glob's old spelling: `false` is `windowsPathsNoEscape: true`. @default true */
  allowWindowsEscape?: boolean;
  /** A pattern holding no `/` matches at any depth (`*.js` as `**` + `/*.js`). @default false */
  matchBase?: boolean;
  /** Return paths with `/` on Windows too (an absolute drive path as `//?/C:/...`, as node-glob). No-op elsewhere. @default false */
  posix?: boolean;
  /** Put `./` (`.\\` on Windows) before each relative path but `.` itself. @default false */
  dotRelative?: boolean;
  /** Put the separator after each returned directory (`src/`, `./`); a link to one is not one. Not with `withFileTypes`, where entries say it. @default false */
  mark?: boolean;
}

const ENTRY = 'find-file/glob';

/**
 * node-glob returns every entry its listing names, FIFOs, sockets and devices too, and `nodir`
 * drops directories only. Asking for files, directories and links left `pipe.js` out of `**` + `/*.js`
 * with `complete: true` (an adversarial run). (tinyglobby drops them: its adapter asks for files.)
 */
const NOT_DIRECTORIES: EntryType[] = ['file', 'symlink', 'pipe', 'socket', 'block-device', 'char-device'];
const KNOWN = [
  'cwd', 'ignore', 'dot', 'nodir', 'absolute', 'nocase', 'maxDepth', 'signal', 'follow', 'withFileTypes', 'stat',
  'windowsPathsNoEscape', 'allowWindowsEscape', 'matchBase', 'posix', 'dotRelative', 'mark',
] as const;

/** node-glob's `ignore`: any falsy value is none there (`opts.ignore || ...`); globs, or an `IgnoreLike` object (ignore-object.ts). */
function readIgnore(value: unknown): { globs: string[]; object?: IgnoreLike } {
  if (!value) return { globs: [] };
  if (typeof value === 'object' && !Array.isArray(value)) return { globs: [], object: readIgnoreObject(value, ENTRY) };
  if (typeof value !== 'string' && !Array.isArray(value)) {
    throw new FindFileError('FF_INVALID_OPTION', `${ENTRY}: ignore must be a string, an array of strings or an object with ignored/childrenIgnored, got ${typeof value}`, 'ignore');
  }
  return { globs: readGlobList(value, 'ignore', ENTRY, false) };
}

/** `./` and a trailing `/` or `/.` taken off: what is left names the path from `cwd`, `''` being `cwd` itself. */
function bare(pattern: string): string {
  let p = pattern.replace(/\/{2,}/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  p = p.replace(/(?:\/\.?)+$/, '');
  return p === '.' ? '' : p;
}

/**
 * A pattern naming directories only: it ends in `/`, or in `/.` (`x/.` exists only when `x` is a
 * directory: node-glob's `**` + `/.` gives `.`, `src`, `src/lib`, where reading it as `**` gave
 * the files too, an adversarial run).
 */
function isDirOnly(pattern: string): boolean {
  return /\/\.?\/*$/.test(pattern.replace(/\/{2,}/g, '/'));
}

/**
 * A pattern that is one brace set (`{a/**,**}`) is its alternatives, each a pattern of its own,
 * so that the rules on a whole pattern (`**` names cwd, `x/**` names `x`) apply to each, as
 * node-glob expands braces before anything else.
 */
function splitWholeBraces(pattern: string): string[] {
  return /^\{[^{}\\]*,[^{}\\]*\}$/.test(pattern) ? pattern.slice(1, -1).split(',') : [pattern];
}

/** Whether node-glob returns `cwd` itself (`.`) for this pattern: it is empty, `.`, or only `**` and `.` segments (`**` + `/./**`). */
function namesCwd(pattern: string): boolean {
  const p = bare(pattern);
  return p === '' || p.split('/').every((segment) => segment === '**' || segment === '.');
}

/**
 * A directory-only pattern that returns no link: `**` + `/` alone. node-glob's `./**` + `/` (and an
 * absolute `/dir/**` + `/`, searched as `./**` + `/` from `dir`) returns every link too, as `*` + `/` does.
 */
function namesCwdOnly(pattern: string): boolean {
  return namesCwd(pattern) && !pattern.startsWith('./');
}

/**
 * node-glob's `x/**` also names `x` (find-file's needs one more segment): `x` is added, each brace
 * alternative on its own (`selfNames`: `a{/,b}/**` names `a` and `ab`; `{src,.}/**` names `src`, and cwd by `namesCwd`).
 */
function expand(pattern: string, nodir = false): string[] {
  const p = bare(pattern);
  if (p === '' || namesCwd(p)) return p === '' ? [] : [anchor(p)];
  if (!p.endsWith('/**')) return [anchor(p)];
  let base = p;
  while (base.endsWith('/**')) base = base.slice(0, -3);
  // Under nodir node-glob names a file `x` for `x/**` only where `x` ends in a literal segment
  // (`index.js/**`), never a wildcard: `*/**` with nodir gave the top-level `a.js` (an adversarial run). It expands
  // braces first, so each literal alternative of a set counts: `{lib,index.js}/**` names `index.js`
  // (taking the whole set as a wildcard found nothing there, complete).
  if (!nodir) return [anchor(p), ...selfNames(base, 'minimatch').map(anchor)];
  return [anchor(p), ...selfNames(base, 'minimatch').filter(namesFileUnderNodir).map(anchor)];
}

/**
 * Under nodir, node-glob names a file `x` for `x/**` when the last segment of `x` is literal (a
 * one-character set counts: minimatch reads `[c]` as `c`) and no `**` stands right before it:
 * `*` + `/c.js/**` names the file `b/c.js`, `**` + `/c/**` and `b/*` + `/**` name no file. (Asking
 * the whole of `x` for magic missed `b/*` + `/c.js`, found by a generated family.)
 */
function namesFileUnderNodir(alternative: string): boolean {
  const segments = alternative.split('/');
  return !MAGIC.test(segments.at(-1)!.replace(/\[([^\]\\])\]/g, '$1')) && segments.at(-2) !== '**';
}

const MAGIC = /[*?[\]{}()!+@]/;

/**
 * node-glob's `x/**` names `x` itself when it is not a regular file (a directory, a link, where it
 * leads aside), and a file only by `namesFileUnderNodir`'s rule: `*` + `/**` names `src` and `ldir`,
 * not `a.js` (a generated family over node-glob 14 found the file returned). The walk cannot ask
 * for a kind per pattern, so where some `x` ends in a wildcard, a regular file is kept only if a
 * pattern that names files names it (its dots too, `dotNamed`): undefined when none does, and `nodir`
 * expands so already. The test errs toward keeping (buildMatchTest), never toward losing a path.
 */
function buildFileTest(list: readonly string[], pattern: readonly string[], nodir: boolean, caseSensitive: boolean, dotNamed: boolean): ((rel: string) => boolean) | undefined {
  if (nodir) return undefined;
  const namingFiles = list.flatMap((p) => expand(p, true));
  return namingFiles.length === pattern.length ? undefined : buildMatchTest(namingFiles, caseSensitive, dotNamed);
}

/**
 * One node-glob ignore as find-file excludes. One ending in a `.` segment (`x/.`) names
 * directories only, which `nodir` never returns: there it is none (node-glob still returns what is
 * below them; as an exclude it dropped every file, `ignore: '**' + '/.'`, an adversarial run).
 * Without `nodir` it is a directory-only exclude, which also leaves out what is below (the
 * deviation in docs/compat.md). A trailing `/` is no such mark in an ignore: node-glob's `*` + `/`
 * and `*` + `/.//` leave out the file `top.js` too, as `*` does.
 */
function readIgnoreEntry(p: string, nodir: boolean): string[] {
  if (!/\/\.$/.test(p.replace(/\/{2,}/g, '/'))) return expand(p);
  const dir = bare(p);
  return nodir || dir === '' ? [] : [anchor(`${dir}/`)];
}

function refuseUnsupported(opts: GlobOptions): void {
  checkKeys(opts, KNOWN, ENTRY);
  refuseFollow(opts.follow, 'follow', ENTRY);
  // node-glob: 'cannot set absolute and withFileTypes:true', even for absolute: false.
  if (readFlag(opts.withFileTypes, false) && opts.absolute !== undefined) {
    throw new FindFileError('FF_INVALID_OPTION', `${ENTRY}: absolute cannot be set with withFileTypes: true (as in node-glob): use the entries' fullpath()`, 'absolute');
  }
}

/** node-glob's call, compiled: the search to run and how each of its matches becomes the peer's item. */
export interface Compiled {
  options: FindOptions;
  /** The answer as node-glob's strings, when no entry needs an lstat. */
  shape: (result: FindResult) => string[];
  /** The answer as entries (`withFileTypes` or `stat`), before any lstat: each with the kind its listing gave, if any. */
  entries: (result: FindResult) => PathEntry[];
  /** How the peer returns an entry: itself (`withFileTypes`), or its path (`stat` alone). */
  form: (entry: PathEntry) => PathEntry | string;
  /** `stat: true`: lstat every returned entry; else only those whose listing gave no kind. */
  statAll: boolean;
  /** Whether the answer is built from entries (`withFileTypes` or `stat`). */
  asEntries: boolean;
  /** What the walk listed of links, to name those returned that a pattern goes below (links.ts). */
  linkNotes: LinkNotes;
  /** Whether node-glob names `cwd` itself first (`**`, `.`): it is never a match of the walk. */
  cwdFirst: boolean;
  /** `cwd` itself as node-glob's path (`.`, or the root with `absolute`) and as an entry. */
  cwdPath: string;
  cwdEntry: () => PathEntry;
  /** Whether a match of the walk is returned: the dot filter, where the patterns name dot segments. */
  keeps: (match: string) => boolean;
  /** A kept match as node-glob's path, and as an entry (with the kind its listing gave, if any). */
  pathOf: (match: string) => string;
  entryOf: (match: string) => PathEntry;
  /** Absolute patterns whose common start is missing: the same call searched from its parent (rebase.ts). */
  climb?: () => Compiled;
}

/** Notes each listed link, and with `kinds` the kind of each listed entry that is not a regular file (`undefined`: the listing did not say). */
function recordEntries(links: Set<string>, kinds: Map<string, EntryType | undefined> | undefined, dir: string, entries: readonly DirentLike[]): void {
  for (const entry of entries) {
    if (entry.isFile()) continue;
    if (entry.isSymbolicLink()) links.add(dir + entry.name);
    kinds?.set(dir + entry.name, kindOf(entry));
  }
}

/** A call node-glob answers with nothing (a directory-only pattern under `nodir`): a search of nothing, every match refused. */
function answersNothing(root: string, answer: Pick<Compiled, 'statAll' | 'asEntries' | 'form'>): Compiled {
  const cwdEntry = () => new PathEntry(root, '', 'directory');
  const none = { shape: () => [], entries: () => [], keeps: () => false, pathOf: (m: string) => m, entryOf: (m: string) => new PathEntry(join(root, m), m, undefined) };
  return { options: emptyOptions(root), linkNotes: { links: new Set(), entered: () => false, rel: (p) => p, root }, cwdFirst: false, cwdPath: '.', cwdEntry, ...none, ...answer };
}

/** Compiles node-glob's call into one find-file search and the shaping of its answer, before any I/O. */
export function compileGlob(patterns: string | readonly string[], opts: GlobOptions = {}, up = 0): Compiled {
  refuseUnsupported(opts);
  const cwd = resolveCwd(opts.cwd);
  // node-glob: an empty pattern matches nothing.
  // node-glob throws a TypeError on a pattern that is not a string (or an array of them).
  if (typeof patterns !== 'string' && !Array.isArray(patterns)) {
    throw new FindFileError('FF_INVALID_PATTERN', `${ENTRY}: pattern must be a string or an array of strings, got ${patterns === null ? 'null' : typeof patterns}`, 'pattern');
  }
  const noEscape = readNoEscape(opts, ENTRY);
  const list = rewritePatterns(readGlobList(patterns, 'pattern', ENTRY, false), opts, noEscape).flatMap(splitWholeBraces).filter((p) => p !== '');
  const ignore = readIgnore(opts.ignore);
  const ignores = ignore.globs.map((p) => rewriteIgnore(p, noEscape));
  const nocase = readFlag(opts.nocase, process.platform === 'darwin' || process.platform === 'win32');
  const rebased = rebase(list, ignores, cwd, { climbs: false, entry: ENTRY, escapeName: escapeForGlob, up, nocase });
  if (!rebased.someAbsolute) return compileAt(cwd, list, rebased.ignores, opts, readFlag(opts.absolute, false), rebased.rootIgnored, ignore.object);
  refuseAbsolutePatterns(rebased, opts);
  // Its entries' `relative()` is from cwd, which a search of the patterns' start does not walk.
  if (ignore.object !== undefined) throw new FindFileError('FF_INVALID_OPTION', `${ENTRY}: an ignore object with absolute patterns is not supported: pass cwd and patterns relative to it`, 'ignore');
  const compiled = compileAt(rebased.root, rebased.patterns, rebased.ignores, opts, true, rebased.rootIgnored);
  // A missing start is searched for from its parent (glob-run.ts `climbed`), up to the file system's root.
  return dirname(rebased.root) === rebased.root ? compiled : { ...compiled, climb: () => compileGlob(patterns, opts, nextClimb(up)) };
}

/**
 * node-glob answers an absolute pattern with absolute paths, and a relative one relative to cwd:
 * one search cannot say which pattern found a path, so a list mixing them is refused, and so are
 * the options that ask for paths relative to cwd (`absolute: false`, `withFileTypes`' `relative()`).
 */
function refuseAbsolutePatterns(rebased: Rebased, opts: GlobOptions): void {
  if (!rebased.allAbsolute) {
    throw new FindFileError('FF_INVALID_PATTERN', `${ENTRY}: a pattern list mixing absolute and relative patterns is not supported: make two calls`, 'pattern');
  }
  // maxDepth counts from cwd in node-glob: from an unrelated cwd it has no meaning one search could keep.
  for (const option of ['absolute', 'withFileTypes', 'maxDepth'] as const) {
    if (opts[option] !== undefined && (option === 'withFileTypes' ? readFlag(opts[option], false) : true)) {
      throw new FindFileError('FF_INVALID_OPTION', `${ENTRY}: ${option} with absolute patterns is not supported: pass cwd: ${JSON.stringify(rebased.root)} and patterns relative to it`, option);
    }
  }
}

/** A name written so that this adapter reads it literally: escaped with `\\`, or as a set on win32 (where `\\` is a separator). */
function escapeForGlob(name: string): string {
  if (sep === '/') return name.replace(/[\\*?[\](){}!+@,|]/g, '\\$&');
  return name.replace(/[*?[\](){}!+@,|]/g, (c) => (c === '!' ? '@(!)' : `[${c}]`));
}

/** The search of `root` for node-glob's call (`list`, `ignores` relative to it) and the shaping of its answer. */
function compileAt(root: string, list: string[], ignores: string[], opts: GlobOptions, absolute: boolean, rootIgnored = false, ignoreObject?: IgnoreLike): Compiled {
  const dirOnly = list.filter(isDirOnly);
  if (dirOnly.length > 0 && dirOnly.length < list.length) {
    throw new FindFileError('FF_INVALID_PATTERN', `${ENTRY}: a pattern list mixing directory-only patterns (ending in '/') with others is not supported: make two calls`, 'pattern');
  }
  const nodir = readFlag(opts.nodir, false);
  const withFileTypes = readFlag(opts.withFileTypes, false);
  const statAll = readFlag(opts.stat, false);
  const dot = readFlag(opts.dot, false);
  const paths = buildPathForm(opts, root, absolute);
  const answer = { statAll, asEntries: withFileTypes || statAll || paths.needsKind, form: withFileTypes ? (e: PathEntry) => e : paths.ofEntry };
  // node-glob: a directory-only pattern under nodir names nothing.
  if (dirOnly.length > 0 && nodir) return answersNothing(root, answer);
  const hooks = ignoreObject === undefined ? undefined : buildIgnoreHooks(ignoreObject, root);
  // node-glob: `childrenIgnored(cwd)` leaves nothing to return, `cwd` itself included.
  if (hooks?.cwdPruned === true) return answersNothing(root, answer);
  // node-glob's `*/` (any dir-only pattern but `**/`) returns every link by its own path, without
  // asking where it leads (`lfile.js`, a dangling `dang`); `**/` returns none.
  // node-glob expands braces first: `{src,.}/**` names cwd as `./**` does.
  const withCwd = !rootIgnored && !nodir && list.some((p) => (braceAlternatives(p) ?? [p]).some(namesCwd)) && hooks?.cwdIgnored() !== true;
  const pattern = list.flatMap((p) => expand(p, nodir));
  const depth = readDepth(opts.maxDepth, 'maxDepth');
  const nocase = readFlag(opts.nocase, process.platform === 'darwin' || process.platform === 'win32');
  const dotNamed = !dot && list.some((p) => namesDotSegment(p, 'minimatch', !nocase));
  const dots = dotNamed ? buildDotRule(pattern, !nocase, 'minimatch') : undefined;
  // withFileTypes without stat: the kinds come from the walk's own listings, not from an lstat per
  // match. Perf: only entries that are not regular files are kept (a match missing here is a file).
  const namesFile = buildFileTest(list, pattern, nodir, !nocase, dotNamed);
  // The hooks are handed entries that say their kind, as node-glob's `Path`s do.
  const ignoredBy = hooks?.ignores;
  const prunedOut = dirOnly.length > 0 ? hooks?.childrenIgnoredAt : undefined;
  const kinds = ((withFileTypes || paths.needsKind) && !statAll) || namesFile || hooks || dotNamed ? new Map<string, EntryType | undefined>() : undefined;
  const links = new Set<string>();
  const options: FindOptions = {
    root,
    pattern,
    exclude: ignores.flatMap((p) => readIgnoreEntry(p, nodir)),
    hidden: dot || dotNamed,
    type: dirOnly.length > 0 ? (dirOnly.every(namesCwdOnly) ? 'directory' : ['directory', 'symlink']) : nodir ? NOT_DIRECTORIES : 'any',
    caseSensitive: !nocase,
    absolute,
    ...(depth === undefined ? {} : { maxDepth: depth }),
    ...(opts.signal ? { signal: opts.signal } : {}),
    onDirectory: (dir: string, entries: readonly DirentLike[]) => recordEntries(links, kinds, dir, entries),
    ...prunes(dots?.prune, hooks?.pruneDirectory),
  };
  const keep = dots?.keeps;
  const rel = buildRelative(root, absolute);
  const linkNotes: LinkNotes = { links, entered: buildEnterTest(pattern, !nocase), rel, root };
  const isFile = (r: string) => kinds !== undefined && !kinds.has(r);
  const keepsFile = namesFile === undefined ? undefined : (r: string) => !isFile(r) || namesFile(r);
  // The cwd was read (else the search rejects): a directory. Any other match: its listing's kind.
  const kindAt = (r: string): EntryType | undefined => (kinds === undefined ? undefined : kinds.has(r) ? kinds.get(r) : 'file');
  const entryAt = (r: string): PathEntry => new PathEntry(join(root, r), r, kindAt(r));
  const entryOf = (match: string): PathEntry => entryAt(rel(match)); // `rel` is the identity without `absolute`
  // Perf: one `rel` a match (with `absolute`, a path.relative and a split), where each test took its own.
  const tests = keep !== undefined || keepsFile !== undefined || ignoredBy !== undefined || prunedOut !== undefined;
  const keepsAt = (r: string) => (keep?.(r, isFile(r)) ?? true) && (keepsFile?.(r) ?? true) && ignoredBy?.(entryAt(r)) !== true && prunedOut?.(r, kindAt(r)) !== true;
  const keeps = tests ? (match: string) => keepsAt(rel(match)) : () => true;
  const cwdPath = paths.cwd;
  const cwdEntry = () => new PathEntry(root, '', 'directory');
  const shape = (result: FindResult): string[] => {
    const found = result.matches.filter(keeps).map(paths.ofMatch);
    return withCwd ? [cwdPath, ...found] : found;
  };
  const entries = (result: FindResult): PathEntry[] => {
    const list = result.matches.filter(keeps).map(entryOf);
    return withCwd ? [cwdEntry(), ...list] : list;
  };
  const items = { shape, entries, linkNotes, cwdFirst: withCwd, cwdPath, cwdEntry, keeps, pathOf: paths.ofMatch, entryOf };
  return { options: pattern.length > 0 ? options : emptyOptions(root), ...items, ...answer };
}
