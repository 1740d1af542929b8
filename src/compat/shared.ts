/**
 * What both drop-in adapters share (docs/compat.md): the returned array with its verdict, the
 * peers' top-level rule for a slash-less glob, and the refusals. Built on the public API only.
 */
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FindFileError } from '../errors.js';
import { findFiles, findFilesSync } from '../find.js';
import type { FindOptions } from '../options.js';
import type { FindResult } from '../result.js';
import { closeOfGroup, patternNamesDot, splitTop, type DotDialect } from './dot-names.js';
import { compileSegment, type Segment } from './segment-test.js';
import { findClimbing, findClimbingSync } from './rebase.js';

/**
 * The paths, in the peer's form, carrying the search's verdict as a non-enumerable `result`
 * (`complete`, `skipped`, `incompleteReasons`...): what the peer would have thrown or dropped,
 * reachable from the same call without a second walk. `complete: false` means the array may miss
 * paths that exist; `JSON.stringify` and spreading see only the paths.
 */
export type GlobPaths = string[] & {
  /** The find-file verdict of the walk: `complete: false` (with `incompleteReasons`, `skipped`) means the array may miss paths that exist. */
  readonly result: FindResult;
};

/** Attaches the verdict to the answer (paths, or node-glob's entries), non-enumerable so the array still equals the peer's. */
export function withResult<T extends object, V = FindResult>(items: T, result: V): T & { readonly result: V } {
  return Object.defineProperty(items, 'result', { value: result, enumerable: false }) as T & { readonly result: V };
}

/**
 * The peers match a glob against the path from the cwd, so a slash-less `*.js` is top level only,
 * where find-file's own rule matches a base name at any depth. `./` anchors it (a no-op for a
 * pattern holding a `/`).
 */
export function anchor(pattern: string): string {
  return pattern.startsWith('./') || ABSOLUTE.test(pattern) ? pattern : `./${pattern}`;
}

/**
 * A pattern, or a first-level brace alternative, that is absolute: left as written, for find-file to
 * refuse (`./` would make it relative). A leading `\` or `C:` is a root on Windows only: elsewhere
 * `\a` escapes `a`, and left unanchored it matched `d/a` too (an adversarial run).
 */
const ABSOLUTE =
  process.platform === 'win32' ? /^\{*(?:\/|\\|[A-Za-z]:)|^\{[^}]*,\{*(?:\/|\\|[A-Za-z]:)/ : /^\{*\/|^\{[^}]*,\{*\//;

/** The peer's `cwd` (a string, a `file:` URL, or the current directory) as an absolute path. */
export function resolveCwd(cwd: unknown, option = 'cwd'): string {
  if (cwd === undefined) return process.cwd();
  if (cwd instanceof URL) return fileURLToPath(cwd);
  if (typeof cwd === 'string') return resolve(cwd);
  throw new FindFileError('FF_INVALID_OPTION', `${option} must be a string or a file: URL`, option);
}

/**
 * Whether a pattern names a dot segment itself (`.github/**`, `\\.env`, `[.]env`, `@(.a|b)/x`,
 * `{.a,b}/x`), as the peer reads it (dot-names.ts): the peers' `dot: false` hides dot names only
 * where a wildcard would match them, so such a search must enter dot names, and the dot filter
 * (`buildDotRule`) then keeps only those a pattern names.
 */
export function namesDotSegment(pattern: string, dialect: DotDialect, caseSensitive: boolean): boolean {
  return DOT_SEGMENT.test(pattern) || patternNamesDot(pattern, dialect, caseSensitive);
}

/** A `.` opening a segment or a brace alternative (`.a/x`, `{.a/a,a}`), that is not `.` or `..` alone. */
const DOT_SEGMENT = /(?:^|[/{,])\.(?![./,}]|$)/;

/**
 * A list of globs (`patterns`, `ignore`) as the peers take it: a string or an array of strings;
 * `undefined` and `null` are none. Anything else is refused by name (and index) before any I/O,
 * rather than failing inside the adapter (`p.startsWith is not a function`, an adversarial run).
 * `skipFalsy`: tinyglobby skips falsy entries (`[cond && 'x/**']`), node-glob throws on them.
 */
export function readGlobList(value: unknown, option: string, entry: string, skipFalsy: boolean): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value)) {
    throw new FindFileError('FF_INVALID_OPTION', `${entry}: ${option} must be a string or an array of strings, got ${typeName(value)}`, option);
  }
  const list: string[] = [];
  value.forEach((item: unknown, i) => {
    if (typeof item === 'string') list.push(item);
    else if (!skipFalsy || item) {
      throw new FindFileError('FF_INVALID_PATTERN', `${entry}: ${option}[${i}] must be a string, got ${typeName(item)}`, `${option}[${i}]`);
    }
  });
  return list;
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** Refuses an option the adapter does not know or does not carry out, rather than ignore it silently. */
export function checkKeys(options: object, known: readonly string[], entry: string): void {
  for (const key of Object.keys(options)) {
    if ((options as Record<string, unknown>)[key] === undefined) continue;
    if (!known.includes(key)) {
      throw new FindFileError('FF_UNKNOWN_OPTION', `${entry} does not support the option '${key}' (docs/compat.md lists what it does)`, key);
    }
  }
}

/**
 * A boolean option as both peers read it: `undefined` takes the default, any other value its
 * truthiness (node-glob's `!!opts.dot`; tinyglobby fills defaults for `undefined` only, so
 * `onlyFiles: 0` or `null` is false). Comparing with `=== true` read `dot: 1` as false (an
 * adversarial run).
 */
export function readFlag(value: unknown, byDefault: boolean): boolean {
  return value === undefined ? byDefault : Boolean(value);
}

/** Refuses a request to follow links (any truthy value, as the peers read it): find-file never follows one below the root (docs/contract.md). */
export function refuseFollow(value: unknown, option: string, entry: string): void {
  if (readFlag(value, false)) {
    throw new FindFileError('FF_INVALID_OPTION', `${entry}: ${option}: true is not supported: find-file never follows links below the root (docs/compat.md)`, option);
  }
}

/** A non-negative integer option, or undefined. */
export function readDepth(value: unknown, option: string): number | undefined {
  if (value === undefined || value === Infinity) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new FindFileError('FF_INVALID_LIMIT', `${option} must be a non-negative integer`, option);
  }
  return value;
}

/**
 * The search for a call with no pattern to match below cwd (`[]`, node-glob's `.`): it lists cwd
 * only (so a cwd that cannot be read still says so) and takes nothing, complete when cwd was read.
 * `maxDepth: 0` would say `depth-limit`, a gap no one asked about.
 */
export function emptyOptions(root: string): FindOptions {
  return { root, pattern: './-', exclude: ['./*'], maxDepth: 1 };
}

/** A compiled peer call: the search, the shaping of its answer, and (absolute patterns: rebase.ts) the same call from higher up. */
export interface PeerSearch {
  options: FindOptions;
  shape: (result: FindResult) => string[];
  climb?: () => PeerSearch;
}

/** Runs the compiled call (from above a missing start: rebase.ts) and shapes the answer, carrying the verdict. */
export async function runAsync(search: PeerSearch): Promise<GlobPaths> {
  const { ran, found } = await findClimbing(search, findFiles);
  return withResult(ran.shape(found), found);
}

/** `runAsync` without the event loop. */
export function runSync(search: PeerSearch): GlobPaths {
  const { ran, found } = findClimbingSync(search, findFilesSync);
  return withResult(ran.shape(found), found);
}

/**
 * The peers' `dot: false` where a pattern names a dot segment itself, so the walk had to enter dot
 * names: which matches the call keeps (`keeps`), and which directories the walk may leave unread
 * (`prune`), both from one compile of the patterns.
 *
 * `keeps`: a match is kept only if some pattern that can match it places each of its dot segments
 * on a pattern segment that names a dot itself, as picomatch and minimatch read `dot: false` (a `*`
 * or `**` never matches a leading `.`). Asking only where the dots fall, across all patterns, let one
 * pattern's dot segment pass a path another matched: `['**' + '/*.ts', '.github/workflows/*.yml']`
 * kept `.cache/a/b/x.ts`, `['a/.*', '**']` kept `c/.env` (an adversarial run). So each segment
 * must also fit its pattern segment, and a segment names a dot as the peer reads it (`dialect`:
 * `\\.env`, `[.]env`, `@(.a|b)` do): segment-test.ts tests text, escapes, `*`, `?`, sets, braces and
 * `@(...)`/`?(...)` exactly; a repeating or negated group fits any name, the one way a dot name can
 * still leak (docs/compat.md). A pattern with a `/` inside braces is split into its alternatives
 * for node-glob (`splitSlashBraces`); as picomatch reads it, it cannot be: it keeps every match
 * (the deviation in docs/compat.md). `file`: the match is a regular file, which a last `**` never
 * names itself (`x/**` names a directory `x`, never a file): `['.*' + '/**', '**']` kept `.env`.
 *
 * `prune`, the walk's `pruneDirectory`: a directory below a dot segment is read only where some
 * pattern places each of its dot segments on a segment that names a dot and still goes on below
 * it, so that a `.git` no pattern names is left unread, as the peers leave it (it was walked whole
 * and every match in it dropped: `['**' + '/*.ts', '.github/*']` over 10,000 files in `.git` took
 * 19 ms against tinyglobby's 1.2). It keeps every directory `keeps` could keep a match below: a
 * path kept is laid whole, so its directories are laid as prefixes. Undefined where `keeps` keeps
 * everything (braces holding `/` that `splitSlashBraces` leaves whole): every directory is read.
 */
export function buildDotRule(patterns: readonly string[], caseSensitive: boolean, dialect: DotDialect): { keeps: (rel: string, file?: boolean) => boolean; prune: ((dir: string) => boolean) | undefined } {
  const split = splitSlashBraces(patterns, dialect);
  if (split === undefined) return { keeps: () => true, prune: undefined };
  const compiled = laidOut(split, caseSensitive, dialect);
  return {
    // A path with no dot segment was matched by the walk and no dot rule bears on it: kept, never
    // retested (a segment test reading a set otherwise than the walk could only lose it).
    keeps: (rel, file = false) => {
      const segments = rel.split('/');
      return !segments.some((s) => s.startsWith('.')) || compiled.some((pattern) => lay(segments, pattern, file ? 'dots whole' : 'dots'));
    },
    // The walk's directories are root-relative and end in `/`; one without a dot segment is the
    // walk's own business.
    prune: (dir) => {
      if (!dir.startsWith('.') && !dir.includes('/.')) return false;
      const segments = dir.slice(0, -1).split('/');
      return !compiled.some((pattern) => lay(segments, pattern, 'dots below'));
    },
  };
}

/** The walk's `pruneDirectory` of those given (a directory is left unread when the first that answers true does), as a spread into `FindOptions`. */
export function prunes(...tests: (((dir: string) => boolean) | undefined)[]): Pick<FindOptions, 'pruneDirectory'> {
  const present = tests.filter((test) => test !== undefined);
  if (present.length === 0) return {};
  return { pruneDirectory: present.length === 1 ? present[0] : (dir) => present.some((test) => test(dir)) };
}

/**
 * Whether some pattern could match a path below `rel` (`ldir` under `ldir/**` or `*` + `/g.js`): the
 * walk would have entered `rel` had it been a directory. Segments tested as the dot filter tests
 * them (a repeating group fits any name), so it may say yes where the walk would not: it only decides
 * which links the answer names, never a path it returns.
 */
export function buildEnterTest(patterns: readonly string[], caseSensitive: boolean): (rel: string) => boolean {
  // Dots are not asked here, so either reading serves.
  const compiled = laidOut(patterns, caseSensitive, 'minimatch');
  return (rel) => {
    const segments = rel.split('/');
    return compiled.some((pattern) => lay(segments, pattern, 'below'));
  };
}

const holdsSlashInBraces = (pattern: string): boolean => /\{[^}]*\//.test(pattern);

/**
 * The patterns as the dot rule can split them into segments: node-glob (minimatch) expands braces
 * before anything else, so a set holding `/` is its alternatives there (`{.github,src/a}/*` is
 * `.github/*` and `src/a/*`). Undefined where one still holds `/` in braces (picomatch's reading,
 * past the expansion cap): the dot rule keeps every match. Read as one pattern, such a set kept
 * every dot directory read: `['**' + '/*.ts', '{.github,src/a}/*']` read all of `.git`.
 */
function splitSlashBraces(patterns: readonly string[], dialect: DotDialect): readonly string[] | undefined {
  const split = dialect === 'minimatch' ? patterns.flatMap((p) => (holdsSlashInBraces(p) ? (braceAlternatives(p) ?? [p]) : [p])) : patterns;
  return split.some(holdsSlashInBraces) ? undefined : split;
}

/** Each pattern's segments, compiled, without empty and `.` segments. */
function laidOut(patterns: readonly string[], caseSensitive: boolean, dialect: DotDialect): Segment[][] {
  return patterns.map((p) => p.split('/').filter((s) => s !== '' && s !== '.').map((s) => compileSegment(s, caseSensitive, dialect)));
}

/**
 * Whether the path's segments can be laid on the pattern's, each fitting its own; `**` takes any
 * number of other segments. `dots`: the whole pattern, each dot segment on one that names a dot.
 * `below`: a proper prefix of it, dots not asked; `dots below`: the same, dots asked. `whole`: the
 * whole pattern, dots not asked, a last `**` taking at least one segment (find-file's reading, and
 * a file's: `x/**` never names a file `x`); `dots whole`: the same, dots asked.
 * Perf: each (i, j) is tried once.
 */
function lay(path: readonly string[], pattern: readonly Segment[], mode: 'dots' | 'below' | 'dots below' | 'whole' | 'dots whole'): boolean {
  const failed = new Set<number>();
  const below = mode === 'below' || mode === 'dots below';
  const dots = mode === 'dots' || mode === 'dots below' || mode === 'dots whole';
  // As the walk reads it: a last `**` takes one segment or more (`x/**` and `x/**` + `/**` are
  // below `x`, never `x`), so the path cannot end before it.
  const lastTakesOne = (mode === 'whole' || mode === 'dots whole') && pattern.at(-1)?.globstar === true;
  const place = (i: number, j: number): boolean => {
    const key = i * (pattern.length + 1) + j;
    if (failed.has(key)) return false;
    let ok: boolean;
    if (lastTakesOne && j === pattern.length - 1) ok = i < path.length && (!dots || path.slice(i).every((s) => !s.startsWith('.')));
    else if (i === path.length) ok = !lastTakesOne && (below ? j < pattern.length : pattern.slice(j).every((s) => s.globstar));
    else if (j === pattern.length) ok = false;
    else {
      const hidden = dots && path[i]!.startsWith('.');
      const segment = pattern[j]!;
      if (segment.globstar) ok = place(i, j + 1) || (!hidden && place(i + 1, j));
      else ok = segment.accepts(path[i]!, hidden) && place(i + 1, j + 1);
    }
    if (!ok) failed.add(key);
    return ok;
  };
  return place(0, 0);
}

/**
 * Whether a root-relative `/` path is matched whole by one of `patterns` (minimatch's reading),
 * dots not asked, or with `dots` each dot segment on a segment naming a dot (`dot: false` beside a
 * pattern naming one: the same pattern must match the path and place its dots, or `['.*' + '/**', '*']`
 * kept the file `.env`, matched by `*` with dots not asked and placed by `.*` with a last `**` taking
 * nothing). It errs toward yes: a segment the test cannot read exactly fits any name
 * (segment-test.ts), so a caller that drops what it answers no to never drops a path a pattern names.
 */
export function buildMatchTest(patterns: readonly string[], caseSensitive: boolean, dots = false): (rel: string) => boolean {
  // Brace sets expanded first, as the peers do: an alternative may be `.` or hold `/`, which
  // change the segments (`{?,.}/**` is `./**` too). Too many to expand: it names anything.
  const alternatives = patterns.map((p) => braceAlternatives(p));
  if (alternatives.some((a) => a === undefined)) return () => true;
  const laid = laidOut(alternatives.flat() as string[], caseSensitive, 'minimatch');
  return (rel) => {
    const segments = rel.split('/');
    return laid.some((pattern) => lay(segments, pattern, dots ? 'dots whole' : 'whole'));
  };
}

/** The root-relative `/` path of a match, which is native and absolute with `absolute: true`. */
export function buildRelative(root: string, absolute: boolean): (path: string) => string {
  if (!absolute) return (path) => path;
  return (path) => relative(root, path).split(sep).join('/');
}

/** Perf: a brace set past this many alternatives is not expanded here (`selfNames` then keeps the text whole). */
const MAX_BRACE_ALTERNATIVES = 64;

/** The pattern with its brace sets expanded, as node-glob expands them before anything else; undefined past the cap. */
export function braceAlternatives(p: string, depth = 0): string[] | undefined {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') {
      i++;
      continue;
    }
    const close = p[i] === '{' ? closeOfGroup(p, i) : -1;
    const alts = close < 0 ? [] : splitTop(p.slice(i + 1, close), ',');
    if (alts.length < 2) continue;
    const out: string[] = [];
    for (const alt of alts) {
      const more = depth < MAX_BRACE_ALTERNATIVES ? braceAlternatives(p.slice(0, i) + alt + p.slice(close + 1), depth + 1) : undefined;
      if (more === undefined) return undefined;
      out.push(...more);
      if (out.length > MAX_BRACE_ALTERNATIVES) return undefined;
    }
    return out;
  }
  return [p];
}

/**
 * The patterns naming `base` itself, a file or a directory (the peers' `x/**` matches `x` too):
 * each brace alternative without its trailing `/` or `.` segments (`a{/,b}` is `a` and `ab`), and
 * none that names cwd (`{src,.}`: the adapter's own rule for cwd answers there). find-file reads a
 * last `.` segment or `/` as directories only, and refuses such a pattern: `{src,.}/**` threw
 * where node-glob answers (an adversarial run). Past the brace cap, `base` whole.
 */
export function selfNames(base: string, dialect: DotDialect): string[] {
  const alternatives = braceAlternatives(base);
  if (alternatives === undefined) return [base];
  // minimatch's `x/**` names `x` whatever `x` ends in (`?/a/**` + `/.` names `a/a`); picomatch's
  // needs a segment after a `*` (the caller asks before), so its `**` stay.
  const end = dialect === 'minimatch' ? /(?:\/+\.?|\/\*\*)+$/ : /(?:\/+\.?)+$/;
  return alternatives.map((a) => a.replace(end, '')).filter((a) => a !== '' && a !== '.' && a !== '**');
}
