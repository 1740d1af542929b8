/**
 * Glob patterns: checked and normalised once, then compiled into the two small functions the walk
 * calls. The dialect itself (what `*`, `**`, `[...]`, `!(...)` mean) is src/glob.ts.
 *
 * Rules (docs/contract.md): globs over the root-relative path with `/` separators; braces expand
 * first, once (minimatch's `braceExpand`, as bash expands them before globbing); each alternative is
 * then normalised on its own: a leading `./` and inner `.` segments dropped, `//` read as `/`, `..`
 * and absolute alternatives refused. An alternative without `/` matches the base name at any depth
 * (as `rg --glob` and `.gitignore` do). A pattern whose literal text names a path also matches that
 * path (`app/[id]/page.tsx` finds the folder `[id]`, as agent hosts do). Case: `caseSensitive`,
 * by default insensitive on win32 only; on win32 `\` is a separator, elsewhere an escape.
 */
import { braceExpand } from 'minimatch';
import { FindFileError } from './errors.js';
import { buildPartialTest, compilePath, compileSegment, pathSource, GLOBSTAR, type PathSegment, type SegmentGlob } from './glob.js';

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

/** How globs are read: the path flavour and whether case matters. */
export interface GlobFlavor {
  platform: Platform;
  caseSensitive: boolean;
}

/**
 * Checks one pattern and brings it to its normalised alternatives (braces expanded, `/`-separated,
 * root-relative), plus its literal reading when that names something the glob does not. Throws
 * `FindFileError` with a message that names the pattern and the rule it broke.
 */
export function normalizePattern(raw: unknown, flavor: GlobFlavor, option: string): string[] {
  if (typeof raw !== 'string') {
    throw new FindFileError('FF_INVALID_PATTERN', `${option} must be a string or an array of strings, got ${typeName(raw)}`, option);
  }
  if (raw.trim() === '') throw new FindFileError('FF_INVALID_PATTERN', `${option} is empty: give a glob such as "*.ts" or "src/**/*.ts"`, option);
  if (raw.includes('\0')) throw new FindFileError('FF_INVALID_PATTERN', `${option} ${JSON.stringify(raw)} holds a NUL byte`, option);
  const p = flavor.platform === 'win32' ? raw.replace(/\\/g, '/') : raw;
  // `!(a)` is an extglob; any other leading `!` would be a negation, which belongs in exclude.
  if (p.startsWith('!') && !p.startsWith('!(')) {
    throw new FindFileError('FF_INVALID_PATTERN', `${option} ${JSON.stringify(raw)} is a negation: list what to leave out in "exclude" instead`, option);
  }
  const alternatives: string[] = [];
  for (const expanded of expandBraces(p, flavor.platform)) {
    const alternative = normalizeAlternative(expanded, raw, flavor.platform, option);
    if (!alternatives.includes(alternative)) alternatives.push(alternative);
  }
  const literal = literalReading(p, raw, flavor, option);
  if (literal !== undefined && !alternatives.includes(literal)) alternatives.push(literal);
  return alternatives;
}

/**
 * Brace expansion by minimatch's `braceExpand`, with two of its habits kept out: it does not
 * expand a set holding a newline (`{a<LF>b,c}`: its regex's `.` stops there), and it turns an
 * escaped backslash `\\\\` into a bare `\\`, which would then escape the next character. Both are
 * swapped for characters the pattern does not hold, and swapped back in every alternative.
 */
function expandBraces(p: string, platform: Platform): string[] {
  const free = [...freeCharacters(p, 2)];
  const [newline, backslashes] = free as [string, string];
  let protectedText = p.replace(/\n/g, newline);
  if (platform !== 'win32') protectedText = protectedText.replace(/\\\\/g, backslashes);
  return braceExpand(protectedText).map((a) => a.split(newline).join('\n').split(backslashes).join('\\\\'));
}

/** `count` private-use characters that do not occur in `text`. */
function freeCharacters(text: string, count: number): string[] {
  const found: string[] = [];
  for (let code = 0xe000; found.length < count; code++) {
    const ch = String.fromCharCode(code);
    if (!text.includes(ch)) found.push(ch);
  }
  return found;
}

/** One brace alternative, brought to the root-relative form every backend uses. */
function normalizeAlternative(alternative: string, raw: string, platform: Platform, option: string): string {
  if (alternative.startsWith('/') || (platform === 'win32' && /^[a-zA-Z]:/.test(alternative))) {
    throw new FindFileError('FF_PATTERN_OUTSIDE_ROOT', `${option} ${JSON.stringify(raw)} is absolute: patterns are relative to the root`, option);
  }
  const dirOnly = alternative.endsWith('/');
  const body = dirOnly ? alternative.slice(0, -1) : alternative;
  const segments = body.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) {
    throw new FindFileError('FF_PATTERN_OUTSIDE_ROOT', `${option} ${JSON.stringify(raw)} climbs out of the root with "..": search from a higher root instead`, option);
  }
  if (segments.length === 0) throw new FindFileError('FF_INVALID_PATTERN', `${option} ${JSON.stringify(raw)} names the root itself, not files under it`, option);
  // `./x` is the root's `x` (as in bash), not `x` at any depth: a one-segment glob that was written
  // with a `/` before its name stays anchored, marked by a leading `/` (never absolute here).
  const anchored = segments.length === 1 && body.includes('/');
  return (anchored ? '/' : '') + segments.join('/') + (dirOnly ? '/' : '');
}

/** A normalised alternative anchored at the root by its mark (see `normalizeAlternative`): `./x`. */
export function isAnchored(glob: string): boolean {
  return glob.startsWith('/');
}

/** A normalised alternative without its anchor mark. */
export function unanchored(glob: string): string {
  return isAnchored(glob) ? glob.slice(1) : glob;
}

/**
 * The pattern read as a plain path, escaped into a glob, when the glob does not already match that
 * text (`app/[id]/page.tsx`: the class `[id]` does not match the folder `[id]`). Undefined otherwise.
 */
function literalReading(p: string, raw: string, flavor: GlobFlavor, option: string): string | undefined {
  // A backslash escape says the glob is meant as a glob, and a `*` or `?` that its text is no path
  // anyone means (a file named `*` exists, but no one types it as a pattern to find it).
  if ((flavor.platform !== 'win32' && p.includes('\\')) || /[*?]/.test(p)) return undefined;
  let text: string;
  let selfMatch: boolean;
  try {
    text = normalizeAlternative(p, raw, flavor.platform, option);
    const body = unanchored(text.endsWith('/') ? text.slice(0, -1) : text);
    const segments = compilePath(body, false, raw);
    const re = new RegExp(pathSource(segments, !text.endsWith('/')), regexFlags(flavor, segments));
    selfMatch = re.test(body);
  } catch {
    // No path under the root (`..`, absolute), or a glob the alternatives will refuse on their own.
    return undefined;
  }
  if (selfMatch) return undefined;
  const forFiles = !text.endsWith('/');
  const anchor = isAnchored(text) ? '/' : '';
  const body = unanchored(forFiles ? text : text.slice(0, -1));
  return anchor + exactGlob(body, flavor.platform, false)! + (forFiles ? '' : '/');
}

/**
 * A glob that matches exactly `text` (a name or a `/` path): what a glob reads as syntax escaped,
 * with a backslash on POSIX and, on win32 (where `\` is a separator), as a one-character class
 * (`[[]`, `[(]`: a `(` escaped also ends any extglob). `braces`: the glob is yet to be
 * brace-expanded, so a `{` must not start an expansion either; on win32 a brace expression
 * cannot be escaped, and a text that holds one has no exact glob (undefined).
 */
export function exactGlob(text: string, platform: Platform, braces: boolean): string | undefined {
  if (platform === 'win32') return braces && /\{.*(,|\.\.).*\}/s.test(text) ? undefined : text.replace(/[*?[(]/g, '[$&]');
  return text.replace(braces ? /[\\*?[({]/g : /[\\*?[(]/g, '\\$&');
}

/** Normalises `pattern` or `exclude`: one string or a non-empty array of strings, into alternatives. */
export function normalizePatternList(raw: unknown, flavor: GlobFlavor, option: string, allowEmpty: boolean): string[] {
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0 && !allowEmpty) throw new FindFileError('FF_INVALID_PATTERN', `${option} is an empty list: give at least one glob`, option);
  const alternatives: string[] = [];
  list.forEach((p, i) => {
    for (const a of normalizePattern(p, flavor, list.length > 1 || Array.isArray(raw) ? `${option}[${i}]` : option)) {
      if (!alternatives.includes(a)) alternatives.push(a);
    }
  });
  return alternatives;
}

type NameTest = (name: string) => boolean;
type PathTest = (rel: string) => boolean;

/** The cheapest test that matches one slash-less segment against a base name. */
function compileNameTest(glob: string, segment: SegmentGlob, flavor: GlobFlavor, escapes: boolean): NameTest {
  // Perf: literals and `*.js` are string checks, no regex (PERF-NOTES: matching is not free). Only
  // when case matters: a folded compare would have to fold exactly as the regex's `i` does.
  if (flavor.caseSensitive) {
    const literal = segment.literal;
    if (literal !== undefined) return (name) => name === literal;
    if (glob.startsWith('*') && glob[1] !== '(') {
      const suffix = compileSegment(glob.slice(1), escapes, glob).literal;
      if (suffix !== undefined) return (name) => name.endsWith(suffix);
    }
  }
  const re = new RegExp(`^${segment.source}$`, regexFlags(flavor, [segment]));
  return (name) => re.test(name);
}

interface CompiledSet {
  nameTests: NameTest[];
  pathTests: PathTest[];
  partialTests: PathTest[];
}

/** `forFiles`: the set tests file paths (then `a/**` must not match a file named `a`). */
function compileSet(globs: readonly string[], flavor: GlobFlavor, forFiles: boolean): CompiledSet {
  const escapes = flavor.platform !== 'win32';
  const set: CompiledSet = { nameTests: [], pathTests: [], partialTests: [] };
  for (const glob of globs) {
    const anchored = isAnchored(glob);
    const segments: PathSegment[] = compilePath(unanchored(glob), escapes, glob);
    // `x` and `**/x` (one segment after any leading `**`) test the base name at any depth.
    const last = segments[segments.length - 1];
    if (!anchored && last !== GLOBSTAR && segments.slice(0, -1).every((s) => s === GLOBSTAR)) {
      set.nameTests.push(compileNameTest(glob.slice(glob.lastIndexOf('/') + 1), last, flavor, escapes));
      continue;
    }
    // Perf: one compiled regex per path, never a split per call (15% of a rooted-glob walk).
    const reFlags = regexFlags(flavor, segments);
    const re = new RegExp(pathSource(segments, forFiles), reFlags);
    set.pathTests.push((rel) => re.test(rel));
    set.partialTests.push(buildPartialTest(segments, reFlags));
  }
  return set;
}

/** `i` when case does not matter; `u` when a segment holds a POSIX class (Unicode properties). */
function regexFlags(flavor: GlobFlavor, segments: readonly PathSegment[]): string {
  return (flavor.caseSensitive ? '' : 'i') + (segments.some((s) => s !== GLOBSTAR && s.unicode) ? 'u' : '');
}

function anyName(tests: NameTest[], name: string): boolean {
  for (let i = 0; i < tests.length; i++) if (tests[i]!(name)) return true;
  return false;
}

function anyPath(tests: PathTest[], rel: string): boolean {
  for (let i = 0; i < tests.length; i++) if (tests[i]!(rel)) return true;
  return false;
}

/** Compiles the `pattern` alternatives once, before the walk. */
export function buildMatcher(globs: readonly string[], flavor: GlobFlavor): PathMatcher {
  const { nameTests, pathTests, partialTests } = compileSet(globs, flavor, true);
  const prunes = nameTests.length === 0;
  const couldMatchInside = prunes ? (relDir: string) => anyPath(partialTests, relDir) : () => true;
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
 * Compiles the `exclude` alternatives once. A slash-less glob leaves out every entry of that name
 * at any depth; one ending in `/` applies to directories only; a directory is left out (not
 * entered) when the glob matches it or everything below it (`dist/**`).
 */
export function buildExcluder(globs: readonly string[], flavor: GlobFlavor): Excluder {
  if (globs.length === 0) return { isExcluded: () => false, active: false };
  const files = compileSet(globs.filter((p) => !p.endsWith('/')), flavor, true);
  const dirs = compileSet(globs.map((p) => (p.endsWith('/') ? p.slice(0, -1) : p)), flavor, false);
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
