/**
 * Glob patterns: checked and normalised once, then compiled into the two small functions the walk
 * calls. The dialect itself (what `*`, `**`, `[...]`, `!(...)` mean) and how it is matched is src/glob/.
 *
 * Rules (docs/contract.md): globs over the root-relative path with `/` separators (`\/` too);
 * braces expand first, once (src/glob/braces.ts, as bash expands them before globbing); each
 * alternative is then normalised on its own: a leading `./` and inner `.` segments (`\.` too) dropped, a last `.` segment
 * read as a trailing `/` (directories only: `x/.` exists only when `x` does as a directory), `//` read as `/`, `..`
 * and absolute alternatives refused. An alternative without `/` matches the base name at any depth
 * (as `rg --glob` and `.gitignore` do). A pattern whose literal text names a path also matches that
 * path (`app/[id]/page.tsx` finds the folder `[id]`, as agent hosts do); an exclude does not (it
 * would leave out more). Case: `caseSensitive`,
 * by default insensitive on win32 only; on win32 `\` is a separator, elsewhere an escape.
 */
import { FindFileError } from './errors.js';
import { expandBraces, fullBraceBudget, MAX_BRACE_ALTERNATIVES, type BraceBudget } from './glob/braces.js';
import { splitSegments } from './glob/parse.js';
import { buildPathTest, compilePath } from './glob/path.js';
import { compileSet } from './glob/set.js';

/** Path flavour: `win32` has drive letters, `\\` separators and case-insensitive matching by default; `posix` has neither. */
export type Platform = 'posix' | 'win32';

/**
 * The longest pattern accepted: a match costs up to (name length × pattern length), so this bounds
 * one match (longer than any path a system allows, 4,096 bytes on Linux, with room for extglobs).
 */
export const MAX_PATTERN_LENGTH = 10_000;

/**
 * What compiling the pattern and exclude alternatives together may cost, in `compileCost` units
 * (about a microsecond each on a 2-core machine in 2026). The alternative count and each pattern's length are bounded on
 * their own, but not their product: `{a,b}`×13 + `*(a|b)`×1400 made 8,192 alternatives of 8,400
 * characters, and compiling them ran out of heap before the first directory was read.
 */
export const MAX_COMPILE_COST = 500_000;

/**
 * Roughly what compiling one normalised alternative costs: a unit per character, more for what
 * becomes a regex or a stepper of its own. Weighed from the time per piece over 100 alternatives
 * of one shape (docs/contract.md, Bounded): a segment `a/` 9.5 us, a `**` 28 us with its segment,
 * a class `[a-z]` 30 us, a group `*(a|b)` 17 us and each `|` in it, a plain character 1.5 us (it
 * is escaped into the regex source one by one). Any one pattern within `MAX_PATTERN_LENGTH` costs
 * less than the limit (10,000 `[` is 320,000).
 */
export function compileCost(glob: string): number {
  let cost = 2 * glob.length;
  for (let i = 0; i < glob.length; i++) {
    const c = glob.charCodeAt(i);
    if (c === 0x2f /* / */) cost += 10;
    else if (c === 0x5b /* [ */) cost += 30;
    else if (c === 0x28 /* ( */) cost += 20;
    else if (c === 0x7c /* | */) cost += 5;
    else if (c === 0x2a /* * */ && glob.charCodeAt(i - 1) === 0x2a) cost += 30;
  }
  return cost;
}

/**
 * Refuses, before any I/O, pattern and exclude lists whose alternatives together cost more than
 * `MAX_COMPILE_COST` to compile. Excludes count twice: they are compiled for files and for directories.
 */
export function checkCompileCost(patterns: readonly string[], excludes: readonly string[]): void {
  const patternCost = patterns.reduce((sum, glob) => sum + compileCost(glob), 0);
  const excludeCost = excludes.reduce((sum, glob) => sum + 2 * compileCost(glob), 0);
  const cost = patternCost + excludeCost;
  if (cost <= MAX_COMPILE_COST) return;
  // The error names the option that holds most of the cost.
  const option = excludeCost > patternCost ? 'exclude' : 'pattern';
  throw new FindFileError(
    'FF_PATTERN_TOO_LARGE',
    `the patterns${excludes.length > 0 ? ' and excludes' : ''} expand to ${patterns.length + excludes.length} alternatives that together cost ${cost.toLocaleString('en-US')} units to compile, over the limit of ${MAX_COMPILE_COST.toLocaleString('en-US')}: use fewer brace alternatives or extglob groups, or fewer and shorter patterns (a glob such as "*.{ts,js}" instead of a list of names)`,
    option,
  );
}

/** What the walk asks of the pattern set. */
export interface PathMatcher {
  /** Does the file with this root-relative path and base name match? (`rel` is unused when `nameOnly`.) */
  matches(rel: string, name: string): boolean;
  /** True when only base names are tested: callers need not build the path. */
  nameOnly: boolean;
  /**
   * For a name holding U+FFFD (bytes that did not decode, or a real U+FFFD): could some reading of
   * its bytes match, where `matches` says no? Then the walk must learn whether the name was real.
   */
  couldMatchUndecoded(rel: string, name: string): boolean;
  /**
   * Could any path below this root-relative directory match? Used to prune the walk. A directory
   * holding U+FFFD in its path is judged by every reading of its bytes (see src/glob/nfa.ts).
   */
  couldMatchInside(relDir: string): boolean;
  /** False when `couldMatchInside` is always true (some pattern matches base names at any depth). */
  prunes: boolean;
  /** What one match may cost, roughly in pattern characters stepped per name character (sets the walk's clock checks). */
  cost: number;
}

/**
 * What `couldMatchUndecoded` costs against a match, per unit of `cost` × path length: it steps
 * every reading of each U+FFFD (one to three unknown bytes, a glibc run of four to six), through
 * the NFA, never a compiled regex. Measured: a match 0.1-25 ns a unit, the check 90-555
 * (`?`×251 `x` over 245 U+FFFD: 35 ms a name, the worst seen). Counted at 256 units a unit, a walk
 * reads its clock every ~2 ms of such checks at worst (src/walk/engine.ts).
 */
export const UNDECODED_COST_FACTOR = 256;

/** What the walk asks of the exclude set. */
export interface Excluder {
  isExcluded(rel: string, name: string, isDir: boolean): boolean;
  /** False when there is nothing to exclude: the walk skips the call. */
  active: boolean;
  /** As `PathMatcher.cost`. */
  cost: number;
}

/** How globs are read: the path flavour and whether case matters. */
export interface GlobFlavor {
  platform: Platform;
  caseSensitive: boolean;
}

/**
 * Checks one pattern and brings it to its normalised alternatives (braces expanded, `/`-separated,
 * root-relative), plus, with `literal` (a pattern, never an exclude), its literal reading when that
 * names something the glob does not. Throws `FindFileError` with a message that names the pattern
 * and the rule it broke.
 */
export function normalizePattern(raw: unknown, flavor: GlobFlavor, option: string, budget: BraceBudget = fullBraceBudget(), literal = true): string[] {
  if (typeof raw !== 'string') {
    throw new FindFileError('FF_INVALID_PATTERN', `${option} must be a string or an array of strings, got ${typeName(raw)}`, option);
  }
  if (raw === '') throw new FindFileError('FF_INVALID_PATTERN', `${option} is empty: give a glob such as "*.ts" or "src/**/*.ts"`, option);
  // Refused too (docs/contract.md), but not "empty": a name of white space exists, and is written escaped.
  if (raw.trim() === '') throw new FindFileError('FF_INVALID_PATTERN', `${option} ${JSON.stringify(raw)} is only white space: give a glob such as "*.ts", or escape it to find such a name (${flavor.platform === 'win32' ? '"[ ]"' : '"\\ "'})`, option);
  if (raw.length > MAX_PATTERN_LENGTH) {
    throw new FindFileError('FF_PATTERN_TOO_LARGE', `${option} is ${raw.length.toLocaleString('en-US')} characters long, over the limit of ${MAX_PATTERN_LENGTH.toLocaleString('en-US')}`, option);
  }
  if (raw.includes('\0')) throw new FindFileError('FF_INVALID_PATTERN', `${option} ${JSON.stringify(raw)} holds a NUL byte`, option);
  const p = flavor.platform === 'win32' ? raw.replace(/\\/g, '/') : raw;
  // `!(a)` is an extglob; any other leading `!` would be a negation, which belongs in exclude.
  if (p.startsWith('!') && !p.startsWith('!(')) {
    throw new FindFileError('FF_INVALID_PATTERN', `${option} ${JSON.stringify(raw)} is a negation: list what to leave out in "exclude" instead`, option);
  }
  const alternatives = new Set<string>();
  const expansion = expandBraces(p, flavor.platform !== 'win32', option, raw, budget);
  for (const expanded of expansion) {
    alternatives.add(normalizeAlternative(expanded, raw, flavor.platform, option));
  }
  // The literal reading finds more for a pattern; for an exclude it would leave out more, hiding
  // a path the host's glob keeps (tinyglobby's ignore '[a-c].md' kept the file `[a-c].md`, the
  // adapter left it out, complete: an adversarial run). An exclude is read as a glob only. Nor is
  // a brace set read literally: it expands first, as in bash (`a{1,2}[x].txt` is `a1[x].txt` and
  // `a2[x].txt`, never the file named `a{1,2}[x].txt`).
  const braceSet = expansion.length !== 1 || expansion[0] !== p;
  const text = literal && !braceSet ? literalReading(p, raw, flavor, option) : undefined;
  if (text !== undefined) alternatives.add(text);
  return [...alternatives];
}

/** A segment spelled with escaped dots only (`\.`, `.\.`, `\.\.`): bash reads it as `.` or `..`. */
const ESCAPED_DOTS = /^(?:\\?\.){1,2}$/;

/** One brace alternative, brought to the root-relative form every backend uses. */
function normalizeAlternative(alternative: string, raw: string, platform: Platform, option: string): string {
  if (alternative.startsWith('/') || (platform === 'win32' && /^[a-zA-Z]:/.test(alternative))) {
    throw new FindFileError('FF_PATTERN_OUTSIDE_ROOT', `${option} ${JSON.stringify(raw)} is absolute: patterns are relative to the root`, option);
  }
  const escapes = platform !== 'win32';
  // Split where bash splits (an escaped `/` too; not inside a group: src/glob/parse.ts), each part
  // read as bash names it: `\.` is the segment `.`, `\.\.` is `..`.
  const parts = splitSegments(alternative, escapes).map((s) => (escapes && ESCAPED_DOTS.test(s) ? s.replace(/\\/g, '') : s));
  // A trailing `/` (an empty last part) makes the alternative directory-only.
  const trailingSlash = parts.length > 1 && parts.at(-1) === '';
  if (trailingSlash) parts.pop();
  const segments = parts.filter((s) => s !== '' && s !== '.');
  // `x/.` exists only when `x` is a directory (bash's `*/.` gives `src/.`, never `a.js/.`): a last
  // `.` segment makes the alternative directory-only, as a trailing `/` does. Dropped with the
  // inner ones, it read as `x` and matched files (an adversarial run).
  const dirOnly = trailingSlash || parts.filter((s) => s !== '').at(-1) === '.';
  if (segments.includes('..')) throw dotDotError(segments, alternative === raw, raw, option);
  if (segments.length === 0) throw new FindFileError('FF_INVALID_PATTERN', `${option} ${JSON.stringify(raw)} names the root itself, not files under it`, option);
  // `./x` is the root's `x` (as in bash), not `x` at any depth: a one-segment glob that was written
  // with a `/` before its name stays anchored, marked by a leading `/` (never absolute here).
  const anchored = segments.length === 1 && parts.length > 1;
  return (anchored ? '/' : '') + segments.join('/') + (dirOnly ? '/' : '');
}

/**
 * The refusal of a `..` segment, in its true words: `../x` climbs out of the root, `src/../x` does
 * not, and is refused all the same (docs/contract.md): paths are matched as read down from the
 * root, which never hold `..`, and `src/..` is not the root when `src` is a link. Where it stays
 * inside, the message gives the path without it (for a pattern as typed, not a brace alternative).
 */
function dotDotError(segments: string[], asTyped: boolean, raw: string, option: string): FindFileError {
  const kept: string[] = [];
  for (const segment of segments) {
    if (segment !== '..') kept.push(segment);
    else if (kept.pop() === undefined) {
      return new FindFileError('FF_PATTERN_OUTSIDE_ROOT', `${option} ${JSON.stringify(raw)} climbs out of the root with "..": search from a higher root instead`, option);
    }
  }
  const instead = asTyped && kept.length > 0 ? ` (write ${JSON.stringify(kept.join('/'))})` : '';
  const why = 'paths are matched as read down from the root, and never hold ".."';
  return new FindFileError('FF_PATTERN_OUTSIDE_ROOT', `${option} ${JSON.stringify(raw)} holds "..", which a pattern may not, even inside the root: ${why}${instead}`, option);
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
    selfMatch = buildPathTest(compilePath(body, false, raw, flavor.caseSensitive), !text.endsWith('/'), flavor.caseSensitive)(body);
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

/** Normalises `pattern` or `exclude` (never read literally: see `normalizePattern`): one string or a non-empty array of strings, into alternatives. */
export function normalizePatternList(raw: unknown, flavor: GlobFlavor, option: string, allowEmpty: boolean): string[] {
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0 && !allowEmpty) throw new FindFileError('FF_INVALID_PATTERN', `${option} is an empty list: give at least one glob`, option);
  const alternatives = new Set<string>();
  // The limits hold for the list as a whole: each pattern may use what the ones before left.
  const budget = fullBraceBudget();
  list.forEach((p, i) => {
    budget.alternatives = MAX_BRACE_ALTERNATIVES - alternatives.size;
    const name = list.length > 1 || Array.isArray(raw) ? `${option}[${i}]` : option;
    for (const a of normalizePattern(p, flavor, name, budget, option !== 'exclude')) alternatives.add(a);
  });
  return [...alternatives];
}

/** Compiles the `pattern` alternatives once, before the walk. */
export function buildMatcher(globs: readonly string[], flavor: GlobFlavor): PathMatcher {
  const set = compileSet(globs, flavor.caseSensitive, flavor.platform !== 'win32', true);
  const prunes = set.nameCount === 0;
  let matches: PathMatcher['matches'];
  // Perf: pick the plainest function for the common shapes, so the hot loop makes one call.
  if (set.pathCount === 0) matches = (_rel, name) => set.name(name);
  else if (set.nameCount === 0) matches = set.path;
  else matches = (rel, name) => set.name(name) || set.path(rel);
  return {
    matches,
    couldMatchUndecoded: (rel, name) => set.couldName(name) || set.couldPath(rel),
    couldMatchInside: prunes ? set.partial : () => true,
    prunes,
    nameOnly: set.pathCount === 0,
    cost: set.cost,
  };
}

/**
 * Compiles the `exclude` alternatives once. A slash-less glob leaves out every entry of that name
 * at any depth; one ending in `/` applies to directories only; a directory is left out (not
 * entered) when the glob matches it or everything below it (`dist/**`).
 */
export function buildExcluder(globs: readonly string[], flavor: GlobFlavor): Excluder {
  if (globs.length === 0) return { isExcluded: () => false, active: false, cost: 0 };
  const escapes = flavor.platform !== 'win32';
  const files = compileSet(globs.filter((p) => !p.endsWith('/')), flavor.caseSensitive, escapes, true);
  const dirs = compileSet(globs.map((p) => (p.endsWith('/') ? p.slice(0, -1) : p)), flavor.caseSensitive, escapes, false);
  return {
    active: true,
    cost: files.cost + dirs.cost,
    isExcluded(rel, name, isDir) {
      const set = isDir ? dirs : files;
      return set.name(name) || set.path(rel);
    },
  };
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}
