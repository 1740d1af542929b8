/**
 * `find-file/glob`: node-glob 11+'s `glob` and `globSync` (string paths), run by find-file
 * (docs/compat.md). The rules taken from node-glob (checked against it by test/compat/): patterns
 * are relative to `cwd` and a slash-less one is top level only; files, directories and links are
 * returned (links listed, never followed) unless `nodir`; `x/**` names `x` too, and `**` names
 * `cwd` itself (`.`); a pattern ending in `/` names directories only, returned without the `/`;
 * relative paths use the platform's separator. Aborting rejects with the signal's reason, as
 * node-glob does. The peer's order is not defined; ours is sorted by path. Refused: `follow: true`
 * (find-file never follows links), `withFileTypes` and `stat` (they need node-glob's Path objects),
 * and any other option node-glob has and this adapter does not carry out.
 */
import { sep } from 'node:path';
import { FindFileError } from '../errors.js';
import type { FindOptions } from '../options.js';
import type { FindResult } from '../result.js';
import { anchor, buildDotFilter, buildRelative, checkKeys, emptyOptions, namesDotSegment, readDepth, refuseFollow, resolveCwd, runAsync, runSync, type GlobPaths } from './shared.js';

export type { GlobPaths } from './shared.js';

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
}

const ENTRY = 'find-file/glob';
const KNOWN = ['cwd', 'ignore', 'dot', 'nodir', 'absolute', 'nocase', 'maxDepth', 'signal', 'follow', 'withFileTypes', 'stat'] as const;

function toList(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return [...(value as readonly string[])];
  throw new FindFileError('FF_INVALID_OPTION', `${ENTRY}: ignore must be a string or an array of strings (an Ignore object is not supported)`, 'ignore');
}

/** `./` and trailing `/` taken off: what is left names the path from `cwd`, `''` being `cwd` itself. */
function bare(pattern: string): string {
  let p = pattern.replace(/\/{2,}/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  while (p.endsWith('/')) p = p.slice(0, -1);
  return p === '.' ? '' : p;
}

/**
 * A pattern that is one brace set (`{a/**,**}`) is its alternatives, each a pattern of its own,
 * so that the rules on a whole pattern (`**` names cwd, `x/**` names `x`) apply to each, as
 * node-glob expands braces before anything else.
 */
function splitWholeBraces(pattern: string): string[] {
  return /^\{[^{}\\]*,[^{}\\]*\}$/.test(pattern) ? pattern.slice(1, -1).split(',') : [pattern];
}

/** Whether node-glob returns `cwd` itself (`.`) for this pattern: it is empty, `.`, or only `**` segments. */
function namesCwd(pattern: string): boolean {
  const p = bare(pattern);
  return p === '' || p.split('/').every((segment) => segment === '**');
}

/**
 * node-glob's `x/**` also names `x` (find-file's needs one more segment). Written `x/.`, which
 * find-file reads as `x`, so that a brace alternative of `x` ending in `/` (`a{/,b}/**`) stays valid.
 */
function expand(pattern: string): string[] {
  const p = bare(pattern);
  if (p === '' || namesCwd(p)) return p === '' ? [] : [anchor(p)];
  if (!p.endsWith('/**')) return [anchor(p)];
  let base = p;
  while (base.endsWith('/**')) base = base.slice(0, -3);
  return [anchor(p), anchor(`${base}/.`)];
}

function refuseUnsupported(opts: GlobOptions & { withFileTypes?: unknown; stat?: unknown }): void {
  checkKeys(opts, KNOWN, ENTRY);
  refuseFollow(opts.follow, 'follow', ENTRY);
  for (const key of ['withFileTypes', 'stat'] as const) {
    if (opts[key] === true) {
      throw new FindFileError('FF_INVALID_OPTION', `${ENTRY}: ${key}: true is not supported (it returns node-glob's Path objects); use the array's 'result' (docs/compat.md)`, key);
    }
  }
}

interface Compiled {
  options: FindOptions;
  shape: (result: FindResult) => string[];
}

/** Compiles node-glob's call into one find-file search and the shaping of its answer, before any I/O. */
export function compileGlob(patterns: string | readonly string[], opts: GlobOptions = {}): Compiled {
  refuseUnsupported(opts);
  const root = resolveCwd(opts.cwd);
  // node-glob: an empty pattern matches nothing.
  const list = (typeof patterns === 'string' ? [patterns] : [...patterns]).flatMap(splitWholeBraces).filter((p) => p !== '');
  const dirOnly = list.filter((p) => p.endsWith('/'));
  if (dirOnly.length > 0 && dirOnly.length < list.length) {
    throw new FindFileError('FF_INVALID_PATTERN', `${ENTRY}: a pattern list mixing directory-only patterns (ending in '/') with others is not supported: make two calls`, 'pattern');
  }
  const nodir = opts.nodir === true;
  // node-glob: a directory-only pattern under nodir names nothing.
  if (dirOnly.length > 0 && nodir) return { options: emptyOptions(root), shape: () => [] };
  const withCwd = !nodir && list.some(namesCwd);
  const pattern = list.flatMap(expand);
  const depth = readDepth(opts.maxDepth, 'maxDepth');
  const nocase = opts.nocase ?? (process.platform === 'darwin' || process.platform === 'win32');
  const dotNamed = opts.dot !== true && list.some(namesDotSegment);
  const absolute = opts.absolute === true;
  const options: FindOptions = {
    root,
    pattern,
    exclude: toList(opts.ignore).flatMap(expand),
    hidden: opts.dot === true || dotNamed,
    type: dirOnly.length > 0 ? 'directory' : nodir ? ['file', 'symlink'] : ['file', 'directory', 'symlink'],
    caseSensitive: !nocase,
    absolute,
    ...(depth === undefined ? {} : { maxDepth: depth }),
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  const keep = dotNamed ? buildDotFilter(pattern) : undefined;
  const rel = buildRelative(root, absolute);
  const toPeer = absolute || sep === '/' ? (p: string) => p : (p: string) => p.replaceAll('/', sep);
  const shape = (result: FindResult): string[] => {
    const found = keep ? result.matches.filter((m) => keep(rel(m))) : result.matches;
    const paths = found.map(toPeer);
    return withCwd ? [absolute ? root : '.', ...paths] : paths;
  };
  return { options: pattern.length > 0 ? options : emptyOptions(root), shape };
}

/** node-glob rejects an aborted walk with the signal's reason: the caller asked to stop, so no partial array is passed off as an answer. */
function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}

/**
 * node-glob's `glob` (string paths): the paths matching `patterns` under `cwd`, in node-glob's
 * form. The array also carries `result` (non-enumerable): the full find-file verdict of the walk.
 *
 * @throws {FindFileError} (rejects) Before any I/O: `FF_UNKNOWN_OPTION` for an option not carried out,
 * `FF_INVALID_OPTION` for `follow: true`, `withFileTypes`, `stat`, a bad `cwd` or an `ignore`
 * object, `FF_INVALID_LIMIT` for `maxDepth`, `FF_INVALID_PATTERN` for directory-only patterns mixed
 * with others, `FF_PATTERN_OUTSIDE_ROOT` for `..` or an absolute pattern, and `findFiles`'s pattern
 * codes. `ENOENT` or `ENOTDIR` when `cwd` does not exist or is not a directory (node-glob answers
 * `[]`). An aborted `signal` rejects with the signal's reason, as node-glob does.
 * @example
 * const paths = await glob(['lib/*.js', 'bin/*.mjs'], { cwd: 'packages/app', ignore: 'lib/*.min.js' });
 * if (!paths.result.complete) console.warn('not all read:', paths.result.incompleteReasons);
 */
export async function glob(patterns: string | readonly string[], options: GlobOptions = {}): Promise<GlobPaths> {
  const { options: find, shape } = compileGlob(patterns, options);
  throwIfAborted(options.signal);
  const paths = await runAsync(find, shape);
  throwIfAborted(options.signal);
  return paths;
}

/**
 * node-glob's `globSync`, as `glob` without the event loop: the same array and `result`.
 * @throws {FindFileError} Where `glob` rejects, with the same codes; an aborted `signal` throws its reason.
 * @example
 * const paths = globSync('*.md', { cwd: 'packages/app', nodir: true });
 * if (paths.length === 0 && paths.result.complete) console.log('no Markdown file at the top level');
 */
export function globSync(patterns: string | readonly string[], options: GlobOptions = {}): GlobPaths {
  const { options: find, shape } = compileGlob(patterns, options);
  throwIfAborted(options.signal);
  return runSync(find, shape);
}
