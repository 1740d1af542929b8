/**
 * Patterns that start outside `cwd`, as the peers take them: an absolute one
 * (`glob(path.join(dir, '**' + '/*.js'))`, tinyglobby's `convertPathToPattern(root) + '/**'`) and,
 * for tinyglobby, one climbing with `..`. find-file searches below one root and never returns a
 * path outside it, so such a call is one search from the deepest directory holding every
 * pattern's literal start (its leading segments with no magic), each pattern rewritten relative to
 * it. The adapters then write the answer as the peer does (absolute, or relative to `cwd`).
 *
 * Ignores are read against that root, also beside relative patterns when they start outside
 * `cwd`: one starting with `**` anywhere, the names the root's path holds taken off (node-glob
 * applies it to absolute patterns' paths too); any other by its own literal start, made relative
 * to the root when inside it, read the same way when it starts above the root and goes on with
 * `**`, dropped when it cannot meet the root's tree, and refused when only part of it could (a
 * start above the root followed by a path): never guessed. One that covers the root itself leaves
 * it out (`rootIgnored`), as the peers do.
 */
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { FindFileError } from '../errors.js';
import type { FindOptions } from '../options.js';
import type { FindResult } from '../result.js';

/** One search for a call whose patterns start outside `cwd`. */
export interface Rebased {
  /** The directory searched: `cwd` when no pattern starts outside it. */
  root: string;
  /** The patterns, relative to `root`. */
  patterns: string[];
  /** The ignores, relative to `root` (or position-free: `**`...). */
  ignores: string[];
  /** Whether `root` is not `cwd` (the answer must be rewritten for the peer). */
  moved: boolean;
  /** Every pattern was absolute. */
  allAbsolute: boolean;
  /** Some pattern was absolute. */
  someAbsolute: boolean;
  /** An ignore leaves out `root` itself (`/p/**` over the root `/p`): the peers then do not return it. */
  rootIgnored?: boolean;
}

const WIN32 = process.platform === 'win32';
/** A magic character in a segment (either peer's): such a segment ends the literal start. */
const MAGIC = /[*?[\]{}()!+@|\\]/;
const ABSOLUTE = WIN32 ? /^(?:[A-Za-z]:[\\/]|[\\/]{2})/ : /^\//;

export interface RebaseOptions {
  /** Whether `..` starts outside too (tinyglobby's reading; node-glob's adapter refuses it). */
  climbs: boolean;
  /** The adapter's name, for the errors (`find-file/glob`). */
  entry: string;
  /** A name written so the adapter reads it literally. */
  escapeName: (name: string) => string;
  /**
   * Search from this many levels above the patterns' common start: where the start does not
   * exist (the search of it fails with ENOENT or ENOTDIR), the adapters search from above it
   * (`nextClimb`), whose listing proves it absent, rather than fail (the peers answer `[]`) or stat
   * before the search (a stat outside the walk has no budget). @default 0
   */
  up?: number;
  /** Names compare without case (node-glob's `nocase`, tinyglobby's `caseSensitiveMatch: false`). @default false */
  nocase?: boolean;
}

/** A pattern's literal start, as a native path (resolved against `cwd`), and the rest of it. */
function splitStart(pattern: string, cwd: string): { start: string; rest: string; absolute: boolean } {
  const absolute = ABSOLUTE.test(pattern);
  const segments = (WIN32 ? pattern.replaceAll('\\', '/') : pattern).split('/');
  let n = 0;
  while (n < segments.length - 1 && !MAGIC.test(segments[n]!) && segments[n] !== '**') n++;
  // The rest names something: `../real/` and `/abs/dir/` name `real` and `dir` from their parent
  // (as the start, the folder would be the search's root, which is never a match: `[]`, complete).
  while (n > 0 && segments.slice(n).every((s) => s === '')) n--;
  // A pattern with no magic at all names one path: its parent is the start, its last name the rest.
  const lead = segments.slice(0, n).join('/');
  const start = absolute ? resolve(lead === '' ? '/' : WIN32 && /^[A-Za-z]:$/.test(lead) ? `${lead}/` : lead) : resolve(cwd, lead);
  return { start, rest: segments.slice(n).join('/'), absolute };
}

/** Whether a pattern starts outside `cwd`: absolute, or climbing with `..` (tinyglobby's). */
export function startsOutside(pattern: string, climbs: boolean): boolean {
  if (ABSOLUTE.test(pattern)) return true;
  return climbs && /^(?:\.\/)*\.\.(?:[\\/]|$)/.test(WIN32 ? pattern.replaceAll('\\', '/') : pattern);
}

/** The deepest directory holding both (on win32 a path on another drive has none). */
function commonAncestor(a: string, b: string, entry: string): string {
  let dir = a;
  while (relative(dir, b).startsWith('..') || isAbsolute(relative(dir, b))) {
    const up = resolve(dir, '..');
    if (up === dir) throw new FindFileError('FF_INVALID_PATTERN', `${entry}: patterns on different drives (${a}, ${b}): make one call per drive`, 'pattern');
    dir = up;
  }
  return dir;
}

/** `dir` below `root` as pattern text: its names escaped (`escapeName`), `/` between them, '' for the root. */
function prefixOf(root: string, dir: string, escapeName: (name: string) => string): string {
  const rel = relative(root, dir);
  return rel === '' ? '' : `${rel.split(sep).map(escapeName).join('/')}/`;
}

/**
 * The call as one search (`RebaseOptions`). Throws `FF_INVALID_PATTERN` for an ignore only part
 * of which could be read from the root, or patterns on different drives.
 */
export function rebase(patterns: readonly string[], ignores: readonly string[], cwd: string, options: RebaseOptions): Rebased {
  const outside = patterns.filter((p) => startsOutside(p, options.climbs));
  if (outside.length === 0) {
    // Only ignores start outside (`ignore: path.join(root, 'node_modules/**')`, `../x/**`): read
    // against cwd, which is searched as it is; the others are cwd's already.
    const own = ignores.flatMap((i) => (startsOutside(i, true) ? rebaseIgnore(i, cwd, cwd, options) : [i]));
    const rootIgnored = ignores.some((i) => startsOutside(i, true) && coversRoot(i, cwd, cwd, options));
    return { root: cwd, patterns: [...patterns], ignores: own, moved: false, allAbsolute: false, someAbsolute: false, rootIgnored };
  }
  const split = patterns.map((p) => (startsOutside(p, options.climbs) ? splitStart(p, cwd) : { start: cwd, rest: p, absolute: false }));
  let root = split.map((s) => s.start).reduce((a, b) => commonAncestor(a, b, options.entry));
  for (let i = 0; i < (options.up ?? 0) && dirname(root) !== root; i++) root = dirname(root);
  // Anchored with `./`, as a pattern written from the root is: node-glob reads `./**` + `/` so.
  const rebasedPatterns = split.map((s) => `./${prefixOf(root, s.start, options.escapeName)}${s.rest}`);
  const rebasedIgnores = ignores.flatMap((i) => rebaseIgnore(i, root, cwd, options));
  const absolute = split.filter((s) => s.absolute).length;
  const rootIgnored = ignores.some((i) => coversRoot(i, root, cwd, options));
  return { root, patterns: rebasedPatterns, ignores: rebasedIgnores, moved: root !== cwd, allAbsolute: absolute === split.length, someAbsolute: absolute > 0, rootIgnored };
}

/** A path as compared: folded under `nocase` (an ignore's start written in another case still meets the root). */
function fold(path: string, options: RebaseOptions): string {
  return options.nocase === true ? path.toLowerCase() : path;
}

/** Whether `dir` is `base` or below it. */
function within(base: string, dir: string): boolean {
  const rel = relative(base, dir);
  return !rel.startsWith('..') && !isAbsolute(rel);
}

/** The names of `root` below `start` (folded as compared). */
function namesBetween(start: string, root: string, options: RebaseOptions): string[] {
  return relative(fold(start, options), fold(root, options)).split(sep).filter((s) => s !== '');
}

/** A path's names (folded as compared). */
function namesOf(path: string, options: RebaseOptions): string[] {
  return fold(path, options).split(sep).filter((s) => s !== '');
}

/**
 * Whether an ignore leaves out the searched folder itself, which the peers return for `dir/**`
 * (node-glob's `x/**` ignore leaves out `x`): its start is the folder or above it and the rest is
 * only `**`, or names the folder exactly (`/p/sub` over a search of `/p/sub`), or is `**`-led and
 * takes the folder's own names (`/**` + `/sub/**`, `**` + `/sub/**`).
 */
function coversRoot(ignore: string, root: string, cwd: string, options: RebaseOptions): boolean {
  const bare = ignore.replace(/^(?:\.\/)+/, '');
  if (bare.startsWith('**')) return bare.split('/').some((s) => s !== '**') && globstarIgnore(bare, namesOf(root, options), options).includes('**');
  const { start, rest } = splitStart(bare, cwd);
  if (!within(fold(start, options), fold(root, options))) return false;
  const between = namesBetween(start, root, options);
  if (rest.split('/').every((s) => s === '**')) return true;
  if (fold(rest.replace(/\/+$/, ''), options) === between.join('/')) return true;
  return rest.startsWith('**') && globstarIgnore(rest, between, options).includes('**');
}

function rebaseIgnore(ignore: string, root: string, cwd: string, options: RebaseOptions): string[] {
  const bare = ignore.replace(/^(?:\.\/)+/, '');
  if (bare.startsWith('**')) return globstarIgnore(bare, namesOf(root, options), options);
  const { start, rest } = splitStart(bare, cwd);
  // Under nocase the names compare folded: `SRC/LIB/**` meets the root `src` (then written folded).
  if (within(fold(root, options), fold(start, options))) return [prefixOf(fold(root, options), fold(start, options), options.escapeName) + rest];
  // The root is below the ignore's start: only a `**` can take the names between them (those it
  // holds taken off, as a `**`-led ignore's); one naming the root itself leaves out only the root (`coversRoot`).
  if (within(fold(start, options), fold(root, options))) {
    const between = namesBetween(start, root, options);
    if (fold(rest.replace(/\/+$/, ''), options) === between.join('/')) return [];
    if (rest.startsWith('**')) return globstarIgnore(rest, between, options);
    throw new FindFileError('FF_INVALID_PATTERN', `${options.entry}: ignore ${JSON.stringify(ignore)} starts above the searched directory ${root} and names a path below it: write it from ${join(root)} or start it with **`, 'ignore');
  }
  return []; // its start and the root's tree do not meet: it can leave nothing out there
}

/**
 * How far up the next search after a missing start goes: 1, 2, 4... levels, so a deep missing path
 * (`/x/x/.../x/*`, thousands of names) costs a few searches, not one per name. Overshooting the
 * deepest folder that exists costs only a few listings on the way down, read as the pattern's
 * literal names (a link among them is named, never followed).
 */
export function nextClimb(up: number): number {
  return up === 0 ? 1 : up * 2;
}

/**
 * The search of absolute patterns' common start failed because the start is missing (`ENOENT`,
 * `ENOTDIR`): the same call one directory up (`RebaseOptions.up`), whose listing proves it absent;
 * the peers answer `[]` there. Undefined for a call that was not rebased, or any other error.
 */
export function climbed<T extends { climb?: () => T }>(compiled: T, error: unknown): T | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return (code === 'ENOENT' || code === 'ENOTDIR') && compiled.climb !== undefined ? compiled.climb() : undefined;
}

/** A compiled call the adapters run: its search, and (rebased) the same call from higher up. */
interface Climbing<T> {
  options: FindOptions;
  climb?: () => T;
}

/** Runs a compiled call's search, climbing (`climbed`) above a missing start until one runs: the call that ran, and its result. */
export async function findClimbing<T extends Climbing<T>>(compiled: T, find: (options: FindOptions) => Promise<FindResult>): Promise<{ ran: T; found: FindResult }> {
  try {
    return { ran: compiled, found: await find(compiled.options) };
  } catch (error) {
    const up = climbed(compiled, error);
    if (up === undefined) throw error;
    return findClimbing(up, find);
  }
}

/** `findClimbing` without the event loop. */
export function findClimbingSync<T extends Climbing<T>>(compiled: T, find: (options: FindOptions) => FindResult): { ran: T; found: FindResult } {
  try {
    return { ran: compiled, found: find(compiled.options) };
  } catch (error) {
    const up = climbed(compiled, error);
    if (up === undefined) throw error;
    return findClimbingSync(up, find);
  }
}

/**
 * An ignore starting with `**` is read against the whole path, the root's own names included
 * (`names`: the root's from the file system's root, or from an ignore's own start above it):
 * `**` + `/lib/**` with the root `/p/lib` leaves out everything, and with the root `/p/x/lib` a
 * pattern below `x/lib` too. For literal names between the `**` (the common shape) the names the
 * root already holds are taken off; other shapes apply below the root only.
 */
function globstarIgnore(ignore: string, names: readonly string[], options: RebaseOptions): string[] {
  const segments = ignore.split('/');
  const inner = segments.slice(1, segments.at(-1) === '**' ? -1 : undefined).map((s) => fold(s, options));
  if (inner.length === 0 || inner.some((s) => s === '**' || MAGIC.test(s))) return [ignore];
  const tail = segments.at(-1) === '**' ? '/**' : '';
  const out = [ignore];
  for (let end = 1; end <= names.length; end++) {
    // The ignore's first i names are the root's last i (ending at `end`): the rest is left below the root.
    for (let i = 1; i <= Math.min(inner.length, end); i++) {
      if (!inner.slice(0, i).every((name, k) => name === names[end - i + k])) continue;
      if (i === inner.length) {
        if (tail !== '') return ['**']; // the root is inside what it leaves out
      } else if (end === names.length) out.push(inner.slice(i).join('/') + tail);
    }
  }
  return out;
}
