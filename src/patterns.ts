/**
 * Glob patterns: checked once, then compiled into the two small functions the walk calls.
 *
 * Rules (docs/contract.md): minimatch globs over the root-relative path with `/` separators; a
 * pattern without `/` matches the base name at any depth (as `rg --glob` and `.gitignore` do);
 * hidden names match `*` (hidden entries are filtered by the walk, not here); on win32 `\` is a
 * separator and matching ignores case. A pattern may not be absolute nor climb out with `..`.
 */
import { Minimatch, braceExpand, type MinimatchOptions } from 'minimatch';
import { FindFileError } from './errors.js';

export type Platform = 'posix' | 'win32';

/** What the walk asks of the pattern set. */
export interface PathMatcher {
  /** Does the file with this root-relative path and base name match? (`rel` is unused when `nameOnly`.) */
  matches(rel: string, name: string): boolean;
  /** True when only base names are tested: callers need not build the path. */
  nameOnly: boolean;
  /** Could any path below this root-relative directory match? Used to prune the walk. */
  couldMatchInside(relDir: string): boolean;
  /** False when `couldMatchInside` is always true (some pattern matches base names at any depth). */
  prunes: boolean;
}

/** What the walk asks of the exclude set. */
export interface Excluder {
  isExcluded(rel: string, name: string, isDir: boolean): boolean;
  /** False when there is nothing to exclude: the walk skips the call. */
  active: boolean;
}

const MAGIC = /[*?[\]{}()!+@\\]/;

function minimatchOptions(platform: Platform): MinimatchOptions {
  return {
    dot: true,
    nocomment: true,
    nonegate: true,
    nocase: platform === 'win32',
    windowsPathsNoEscape: platform === 'win32',
    platform: platform === 'win32' ? 'win32' : 'linux',
  };
}

/**
 * Checks one pattern and brings it to the `/`-separated, root-relative form. Throws
 * `FindFileError` with a message that names the pattern and the rule it broke.
 */
export function normalizePattern(raw: unknown, platform: Platform, option: string): string {
  if (typeof raw !== 'string') {
    throw new FindFileError('FF_INVALID_PATTERN', `${option} must be a string or an array of strings, got ${typeName(raw)}`, option);
  }
  if (raw.trim() === '') throw new FindFileError('FF_INVALID_PATTERN', `${option} is empty: give a glob such as "*.ts" or "src/**/*.ts"`, option);
  if (raw.includes('\0')) throw new FindFileError('FF_INVALID_PATTERN', `${option} ${JSON.stringify(raw)} holds a NUL byte`, option);
  let p = platform === 'win32' ? raw.replace(/\\/g, '/') : raw;
  if (p.startsWith('!')) {
    throw new FindFileError('FF_INVALID_PATTERN', `${option} ${JSON.stringify(raw)} is a negation: list what to leave out in "exclude" instead`, option);
  }
  if (p.startsWith('/') || (platform === 'win32' && /^[a-zA-Z]:/.test(p))) {
    throw new FindFileError('FF_PATTERN_OUTSIDE_ROOT', `${option} ${JSON.stringify(raw)} is absolute: patterns are relative to the root`, option);
  }
  while (p.startsWith('./')) p = p.slice(2);
  for (const alternative of braceExpand(p)) {
    if (alternative.split('/').includes('..')) {
      throw new FindFileError('FF_PATTERN_OUTSIDE_ROOT', `${option} ${JSON.stringify(raw)} climbs out of the root with "..": search from a higher root instead`, option);
    }
    if (alternative.startsWith('/')) {
      throw new FindFileError('FF_PATTERN_OUTSIDE_ROOT', `${option} ${JSON.stringify(raw)} expands to an absolute pattern`, option);
    }
  }
  if (p === '' || p === '.') throw new FindFileError('FF_INVALID_PATTERN', `${option} ${JSON.stringify(raw)} names the root itself, not files under it`, option);
  return p;
}

/** Normalises `pattern` or `exclude`: one string or a non-empty array of strings. */
export function normalizePatternList(raw: unknown, platform: Platform, option: string, allowEmpty: boolean): string[] {
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0 && !allowEmpty) throw new FindFileError('FF_INVALID_PATTERN', `${option} is an empty list: give at least one glob`, option);
  return list.map((p, i) => normalizePattern(p, platform, list.length > 1 || Array.isArray(raw) ? `${option}[${i}]` : option));
}

type NameTest = (name: string) => boolean;
type PathTest = (rel: string) => boolean;

/** The cheapest test that matches a slash-less pattern against a base name. */
function compileNameTest(pattern: string, options: MinimatchOptions): NameTest {
  const nocase = options.nocase === true;
  const fold = (s: string) => (nocase ? s.toLowerCase() : s);
  if (!MAGIC.test(pattern)) {
    const literal = fold(pattern);
    return nocase ? (name) => name.toLowerCase() === literal : (name) => name === literal;
  }
  // Perf: `*.js` and friends are a suffix check, no regex (PERF-NOTES: matching is not free).
  if (pattern.startsWith('*') && !MAGIC.test(pattern.slice(1))) {
    const suffix = fold(pattern.slice(1));
    return nocase ? (name) => name.toLowerCase().endsWith(suffix) : (name) => name.endsWith(suffix);
  }
  const re = new Minimatch(pattern, options).makeRe();
  if (re === false) return () => false;
  return (name) => re.test(name);
}

/** Strips leading `**\/` segments: `**\/x` matches what `x` matches at any depth. */
function stripGlobstarPrefix(pattern: string): string {
  let p = pattern;
  while (p.startsWith('**/')) p = p.slice(3);
  return p;
}

interface CompiledSet {
  nameTests: NameTest[];
  pathTests: PathTest[];
  pathPatterns: Minimatch[];
}

/** `forFiles`: the set tests file paths (then `a/**` must not match a file named `a`). */
function compileSet(patterns: string[], platform: Platform, forFiles: boolean): CompiledSet {
  const options = minimatchOptions(platform);
  const set: CompiledSet = { nameTests: [], pathTests: [], pathPatterns: [] };
  for (const pattern of patterns) {
    for (const alternative of braceExpand(pattern)) {
      const stripped = stripGlobstarPrefix(alternative);
      if (stripped !== '' && !stripped.includes('/')) {
        set.nameTests.push(compileNameTest(stripped, options));
        continue;
      }
      const mm = new Minimatch(alternative, { ...options, nobrace: true });
      set.pathPatterns.push(mm);
      // Perf: one compiled regex per path, not mm.match (which splits the path every call: 15% of
      // a rooted-glob walk). But minimatch's regex for `a/**` also matches `a` itself, which
      // mm.match and `rg --glob` do not for a file; for files `a/**` means `a/**/*`, so compile
      // that. (For a directory, matching `a` itself is what exclude wants: `dist/**` skips dist.)
      const source = forFiles && alternative.endsWith('/**') ? `${alternative}/*` : alternative;
      const re = new Minimatch(source, { ...options, nobrace: true }).makeRe();
      if (re !== false) set.pathTests.push((rel) => re.test(rel));
    }
  }
  return set;
}

function anyName(tests: NameTest[], name: string): boolean {
  for (let i = 0; i < tests.length; i++) if (tests[i]!(name)) return true;
  return false;
}

function anyPath(tests: PathTest[], rel: string): boolean {
  for (let i = 0; i < tests.length; i++) if (tests[i]!(rel)) return true;
  return false;
}

/** Compiles the `pattern` option once, before the walk. */
export function buildMatcher(patterns: string[], platform: Platform): PathMatcher {
  const { nameTests, pathTests, pathPatterns } = compileSet(patterns, platform, true);
  const prunes = nameTests.length === 0;
  const couldMatchInside = prunes
    ? (relDir: string) => pathPatterns.some((mm) => mm.match(relDir, true))
    : () => true;
  let matches: PathMatcher['matches'];
  // Perf: pick the plainest function for the common shapes, so the hot loop makes one call.
  if (pathTests.length === 0 && nameTests.length === 1) {
    const test = nameTests[0]!;
    matches = (_rel, name) => test(name);
  } else if (nameTests.length === 0 && pathTests.length === 1) {
    matches = pathTests[0]!;
  } else {
    matches = (rel, name) => anyName(nameTests, name) || anyPath(pathTests, rel);
  }
  return { matches, couldMatchInside, prunes, nameOnly: pathTests.length === 0 };
}

/**
 * Compiles `exclude` once. A slash-less glob leaves out every entry of that name at any depth; one
 * ending in `/` applies to directories only; a directory is left out (not entered) when the glob
 * matches it or everything below it (`dist/**`).
 */
export function buildExcluder(patterns: string[], platform: Platform): Excluder {
  const files = compileSet(patterns.filter((p) => !p.endsWith('/')), platform, true);
  const dirs = compileSet(patterns.map((p) => (p.endsWith('/') ? p.slice(0, -1) : p)), platform, false);
  if (patterns.length === 0) return { isExcluded: () => false, active: false };
  return {
    active: true,
    isExcluded(rel, name, isDir) {
      if (!isDir) return anyName(files.nameTests, name) || anyPath(files.pathTests, rel);
      return anyName(dirs.nameTests, name) || anyPath(dirs.pathTests, rel);
    },
  };
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}
