/**
 * `find-file/glob`: node-glob 11+'s `glob` and `globSync` (string paths), run by find-file
 * (docs/compat.md). The rules taken from node-glob (checked against it by test/compat/): patterns
 * are relative to `cwd` and a slash-less one is top level only; every kind of entry is returned
 * (links listed, never followed; FIFOs and sockets listed, never opened), directories unless `nodir`; `x/**` names `x` too, and `**` names
 * `cwd` itself (`.`); a pattern ending in `/` names directories only, returned without the `/`;
 * relative paths use the platform's separator. Aborting rejects with the signal's reason, as
 * node-glob does. The peer's order is not defined; ours is sorted by path. `withFileTypes: true`
 * returns `PathEntry` objects (node-glob's `Path`, the members hosts use); `stat: true` lstats each
 * returned entry, as node-glob does, and drops one whose lstat fails, as node-glob does, naming it
 * in `result.skipped`. Refused: `follow: true` (find-file never follows links), `absolute` with
 * `withFileTypes` (as node-glob), and any other option node-glob has and this adapter does not
 * carry out.
 */
import { join, sep } from 'node:path';
import { FindFileError } from '../errors.js';
import { findFiles, findFilesSync } from '../find.js';
import type { EntryType, FindOptions } from '../options.js';
import type { FindResult } from '../result.js';
import { kindOf, type DirentLike } from '../fs.js';
import { PathEntry, lstatEntries, lstatEntriesSync, withLstatFailures, type Lstated } from './path-entry.js';
import { nameLinksEntered, nameLinksEnteredAsync, type LinkNotes } from './links.js';
import {
  anchor,
  braceAlternatives,
  buildDotFilter,
  buildEnterTest,
  buildRelative,
  checkKeys,
  emptyOptions,
  namesDotSegment,
  readDepth,
  readFlag,
  readGlobList,
  refuseFollow,
  resolveCwd,
  selfNames,
  withResult,
  type GlobPaths,
} from './shared.js';

export type { GlobPaths } from './shared.js';
export { PathEntry } from './path-entry.js';

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
  /** Globs of paths not to return; `x/**` leaves out `x` and everything below it. Always matched as with `dot: true`. @default [] */
  ignore?: string | readonly string[];
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
}

const ENTRY = 'find-file/glob';

/**
 * node-glob returns every entry its listing names, FIFOs, sockets and devices too, and `nodir`
 * drops directories only. Asking for files, directories and links left `pipe.js` out of `**` + `/*.js`
 * with `complete: true` (an adversarial run). (tinyglobby drops them: its adapter asks for files.)
 */
const NOT_DIRECTORIES: EntryType[] = ['file', 'symlink', 'pipe', 'socket', 'block-device', 'char-device'];
const KNOWN = ['cwd', 'ignore', 'dot', 'nodir', 'absolute', 'nocase', 'maxDepth', 'signal', 'follow', 'withFileTypes', 'stat'] as const;

/** node-glob's `ignore`: any falsy value is none there (`opts.ignore || ...`); an `Ignore` object is not carried out. */
function readIgnore(value: unknown): string[] {
  if (!value) return [];
  if (typeof value === 'object' && !Array.isArray(value)) {
    throw new FindFileError('FF_INVALID_OPTION', `${ENTRY}: ignore must be a string or an array of strings (an Ignore object is not supported)`, 'ignore');
  }
  return readGlobList(value, 'ignore', ENTRY, false);
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

interface Compiled {
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
}

/** Notes each listed link, and with `kinds` the kind of each listed entry that is not a regular file (`undefined`: the listing did not say). */
function recordEntries(links: Set<string>, kinds: Map<string, EntryType | undefined> | undefined, dir: string, entries: readonly DirentLike[]): void {
  for (const entry of entries) {
    if (entry.isFile()) continue;
    if (entry.isSymbolicLink()) links.add(dir + entry.name);
    kinds?.set(dir + entry.name, kindOf(entry));
  }
}

/** Compiles node-glob's call into one find-file search and the shaping of its answer, before any I/O. */
export function compileGlob(patterns: string | readonly string[], opts: GlobOptions = {}): Compiled {
  refuseUnsupported(opts);
  const root = resolveCwd(opts.cwd);
  // node-glob: an empty pattern matches nothing.
  // node-glob throws a TypeError on a pattern that is not a string (or an array of them).
  if (typeof patterns !== 'string' && !Array.isArray(patterns)) {
    throw new FindFileError('FF_INVALID_PATTERN', `${ENTRY}: pattern must be a string or an array of strings, got ${patterns === null ? 'null' : typeof patterns}`, 'pattern');
  }
  const list = readGlobList(patterns, 'pattern', ENTRY, false).flatMap(splitWholeBraces).filter((p) => p !== '');
  const dirOnly = list.filter(isDirOnly);
  if (dirOnly.length > 0 && dirOnly.length < list.length) {
    throw new FindFileError('FF_INVALID_PATTERN', `${ENTRY}: a pattern list mixing directory-only patterns (ending in '/') with others is not supported: make two calls`, 'pattern');
  }
  const nodir = readFlag(opts.nodir, false);
  const withFileTypes = readFlag(opts.withFileTypes, false);
  const statAll = readFlag(opts.stat, false);
  const absolute = readFlag(opts.absolute, false);
  const dot = readFlag(opts.dot, false);
  const answer = { statAll, asEntries: withFileTypes || statAll, form: withFileTypes ? (e: PathEntry) => e : absolute ? (e: PathEntry) => e.fullpath() : (e: PathEntry) => e.relative() || '.' };
  // node-glob: a directory-only pattern under nodir names nothing.
  if (dirOnly.length > 0 && nodir) return { options: emptyOptions(root), shape: () => [], entries: () => [], linkNotes: { links: new Set(), entered: () => false, rel: (p) => p, root }, ...answer };
  // node-glob's `*/` (any dir-only pattern but `**/`) returns every link by its own path, without
  // asking where it leads (`lfile.js`, a dangling `dang`); `**/` returns none.
  // node-glob expands braces first: `{src,.}/**` names cwd as `./**` does.
  const withCwd = !nodir && list.some((p) => (braceAlternatives(p) ?? [p]).some(namesCwd));
  const pattern = list.flatMap((p) => expand(p, nodir));
  const depth = readDepth(opts.maxDepth, 'maxDepth');
  const nocase = readFlag(opts.nocase, process.platform === 'darwin' || process.platform === 'win32');
  const dotNamed = !dot && list.some((p) => namesDotSegment(p, 'minimatch', !nocase));
  // withFileTypes without stat: the kinds come from the walk's own listings, not from an lstat per
  // match. Perf: only entries that are not regular files are kept (a match missing here is a file).
  const kinds = withFileTypes && !statAll ? new Map<string, EntryType | undefined>() : undefined;
  const links = new Set<string>();
  const options: FindOptions = {
    root,
    pattern,
    exclude: readIgnore(opts.ignore).flatMap((p) => readIgnoreEntry(p, nodir)),
    hidden: dot || dotNamed,
    type: dirOnly.length > 0 ? (dirOnly.every(namesCwd) ? 'directory' : ['directory', 'symlink']) : nodir ? NOT_DIRECTORIES : 'any',
    caseSensitive: !nocase,
    absolute,
    ...(depth === undefined ? {} : { maxDepth: depth }),
    ...(opts.signal ? { signal: opts.signal } : {}),
    onDirectory: (dir: string, entries: readonly DirentLike[]) => recordEntries(links, kinds, dir, entries),
  };
  const keep = dotNamed ? buildDotFilter(pattern, !nocase, 'minimatch') : undefined;
  const rel = buildRelative(root, absolute);
  const linkNotes: LinkNotes = { links, entered: buildEnterTest(pattern, !nocase), rel, root };
  const found = (result: FindResult): string[] => (keep ? result.matches.filter((m) => keep(rel(m))) : result.matches);
  const toPeer = absolute || sep === '/' ? (p: string) => p : (p: string) => p.replaceAll('/', sep);
  const shape = (result: FindResult): string[] => {
    const paths = found(result).map(toPeer);
    return withCwd ? [absolute ? root : '.', ...paths] : paths;
  };
  // The cwd was read (else the search rejects): a directory. Any other match: its listing's kind.
  const entries = (result: FindResult): PathEntry[] => {
    const rels = absolute ? found(result).map(rel) : found(result);
    const kindOf = (r: string): EntryType | undefined => (kinds === undefined ? undefined : kinds.has(r) ? kinds.get(r) : 'file');
    const list = rels.map((r) => new PathEntry(join(root, r), r, kindOf(r)));
    return withCwd ? [new PathEntry(root, '', 'directory'), ...list] : list;
  };
  return { options: pattern.length > 0 ? options : emptyOptions(root), shape, entries, linkNotes, ...answer };
}

/**
 * node-glob's `escape` (minimatch's): a path written so that `glob` matches it literally (gemini-cli
 * escapes a pattern that names an existing file, as `src/[id]/page.tsx`). The magic characters
 * `?*()[]` (and `{}` with `magicalBraces`) are escaped with `\\`, or, with `windowsPathsNoEscape`,
 * wrapped in a class (`[*]`). That form is the default on win32, where find-file reads `\\` in a
 * pattern as a separator, never an escape (node-glob's default there is `\\`: docs/compat.md).
 */
export function escape(s: string, { windowsPathsNoEscape = process.platform === 'win32', magicalBraces = false }: { windowsPathsNoEscape?: boolean; magicalBraces?: boolean } = {}): string {
  const magic = magicalBraces ? /[?*()[\]{}]/g : /[?*()[\]]/g;
  return windowsPathsNoEscape ? s.replace(magic, '[$&]') : s.replace(magicalBraces ? /[?*()[\]\\{}]/g : /[?*()[\]\\]/g, '\\$&');
}

/**
 * The stats made after the walk (where a returned link leads, `stat: true`), raced against the
 * signal: one that hung held an aborted call for as long as it hung (20 s; an adversary's find).
 * Aborted, it rejects with the signal's reason, as node-glob does; the stat itself goes on, unheard.
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => (signal.removeEventListener('abort', onAbort), signal.aborted ? onAbort() : resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error)),
    );
  });
}

/** node-glob rejects an aborted walk with the signal's reason: the caller asked to stop, so no partial array is passed off as an answer. */
function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}

/** The answer from entries: lstat'ed where node-glob lstats, those it drops named in the verdict. */
function fromEntries(compiled: Compiled, result: FindResult, { kept, failed }: Lstated): GlobPaths | GlobEntries {
  return withResult(kept.map(compiled.form), withLstatFailures(result, failed)) as GlobPaths | GlobEntries;
}

/**
 * node-glob's `glob`: the paths matching `patterns` under `cwd`, in node-glob's form (strings, or
 * `PathEntry` objects with `withFileTypes: true`). The array also carries `result`
 * (non-enumerable): the full find-file verdict of the walk.
 *
 * @throws {FindFileError} (rejects) Before any I/O: `FF_UNKNOWN_OPTION` for an option not carried out,
 * `FF_INVALID_OPTION` for `follow: true`, `absolute` with `withFileTypes`, a bad `cwd` or an `ignore`
 * object, `FF_INVALID_LIMIT` for `maxDepth`, `FF_INVALID_PATTERN` for directory-only patterns mixed
 * with others or a pattern (or `ignore` entry) that is not a string, `FF_PATTERN_OUTSIDE_ROOT` for `..` or an absolute pattern, and `findFiles`'s pattern
 * codes. `ENOENT` or `ENOTDIR` when `cwd` does not exist or is not a directory (node-glob answers
 * `[]`). An aborted `signal` rejects with the signal's reason, as node-glob does.
 * @example
 * const paths = await glob(['lib/*.js', 'bin/*.mjs'], { cwd: 'packages/app', ignore: 'lib/*.min.js' });
 * if (!paths.result.complete) console.warn('not all read:', paths.result.incompleteReasons);
 */
export async function glob(patterns: string | readonly string[], options: GlobOptionsWithFileTypesTrue): Promise<GlobEntries>;
export async function glob(patterns: string | readonly string[], options?: GlobOptionsWithFileTypesFalse): Promise<GlobPaths>;
export async function glob(patterns: string | readonly string[], options?: GlobOptions): Promise<GlobPaths | GlobEntries>;
export async function glob(patterns: string | readonly string[], options: GlobOptions = {}): Promise<GlobPaths | GlobEntries> {
  const compiled = compileGlob(patterns, options);
  throwIfAborted(options.signal);
  const result = await untilAborted(nameLinksEnteredAsync(await findFiles(compiled.options), compiled.linkNotes), options.signal);
  if (!compiled.asEntries) return withResult(compiled.shape(result), result);
  const lstated = await untilAborted(lstatEntries(compiled.entries(result), compiled.statAll), options.signal);
  return fromEntries(compiled, result, lstated);
}

/**
 * node-glob's `globSync`, as `glob` without the event loop: the same array and `result`.
 * @throws {FindFileError} Where `glob` rejects, with the same codes; an aborted `signal` throws its reason.
 * @example
 * const paths = globSync('*.md', { cwd: 'packages/app', nodir: true });
 * if (paths.length === 0 && paths.result.complete) console.log('no Markdown file at the top level');
 */
export function globSync(patterns: string | readonly string[], options: GlobOptionsWithFileTypesTrue): GlobEntries;
export function globSync(patterns: string | readonly string[], options?: GlobOptionsWithFileTypesFalse): GlobPaths;
export function globSync(patterns: string | readonly string[], options?: GlobOptions): GlobPaths | GlobEntries;
export function globSync(patterns: string | readonly string[], options: GlobOptions = {}): GlobPaths | GlobEntries {
  const compiled = compileGlob(patterns, options);
  throwIfAborted(options.signal);
  const result = nameLinksEntered(findFilesSync(compiled.options), compiled.linkNotes);
  if (!compiled.asEntries) return withResult(compiled.shape(result), result);
  return fromEntries(compiled, result, lstatEntriesSync(compiled.entries(result), compiled.statAll));
}
