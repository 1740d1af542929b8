/**
 * A set of normalised glob alternatives (src/patterns.ts makes them) compiled into the few
 * functions a walk calls per entry. A brace set can leave thousands of alternatives: their tests
 * are merged, so an entry costs one Set lookup for the literal names and one regex call per
 * thousand alternatives with linear source (an alternation of linear branches stays linear),
 * never a call per alternative; only alternatives matched by simulation are asked one by one.
 */
import { REPLACEMENT_CHAR } from '../fs.js';
import { buildPartialTest, buildPathTest, buildUndecodedPathTest, compilePath, GLOBSTAR, pathSource, type PathSegment } from './path.js';
import type { SegmentGlob } from './segment.js';
import { compiledRegex } from './regex.js';

export type Test = (text: string) => boolean;

export interface CompiledSet {
  /** Does the base name match an alternative that tests base names (`x`, `**\/x`)? */
  name: Test;
  /** Does the root-relative path match an alternative with a `/`? */
  path: Test;
  /** How many alternatives test base names, and how many whole paths. */
  nameCount: number;
  pathCount: number;
  /** Could some path below this directory match a path alternative? */
  partial: Test;
  /** Roughly what one match costs: the pattern characters a name may be stepped through. */
  cost: number;
  /** For a name or path holding U+FFFD: could some reading of its bytes match? */
  couldName: Test;
  couldPath: Test;
}

/** Regex alternatives merged per call: large enough to leave few calls, small enough to compile fast. */
const MERGE = 1000;
const NEVER: Test = () => false;

/**
 * `forFiles`: the set tests file paths (then `a/**` must not match a file named `a`). `escapes`:
 * `\` escapes (posix); on win32 it is a separator.
 */
export function compileSet(globs: readonly string[], caseSensitive: boolean, escapes: boolean, forFiles: boolean): CompiledSet {
  const names: SegmentGlob[] = [];
  const paths: PathSegment[][] = [];
  for (const glob of globs) {
    const anchored = glob.startsWith('/');
    const segments = compilePath(anchored ? glob.slice(1) : glob, escapes, glob, caseSensitive);
    // `x` and `**/x` (one segment after any leading `**`) test the base name at any depth.
    const last = segments[segments.length - 1]!;
    if (!anchored && last !== GLOBSTAR && segments.slice(0, -1).every((s) => s === GLOBSTAR)) names.push(last);
    else paths.push(segments);
  }
  const partials = paths.map((segments) => buildPartialTest(segments, caseSensitive));
  let couldPaths: Test[] | undefined;
  return {
    name: nameTest(names, caseSensitive),
    path: pathTest(paths, caseSensitive, forFiles),
    // Literal names are a lookup; everything else may be stepped through once per name character.
    cost: globs.reduce((sum, glob) => sum + (/[*?[(]/.test(glob) ? glob.length : 1), 0),
    nameCount: names.length,
    pathCount: paths.length,
    partial: partials.length === 0 ? NEVER : partials.length === 1 ? partials[0]! : (rel) => partials.some((test) => test(rel)),
    couldName: (name) => names.some((segment) => segment.couldMatch(name)),
    couldPath: (rel) => (couldPaths ??= paths.map((segments) => buildUndecodedPathTest(segments, forFiles))).some((test) => test(rel)),
  };
}

/** One test for every base-name alternative: literals by lookup, linear sources merged, the rest one by one. */
function nameTest(segments: readonly SegmentGlob[], caseSensitive: boolean): Test {
  const literals = new Set<string>();
  const suffixes: string[] = [];
  const sources: Alternative[] = [];
  const others: Test[] = [];
  for (const segment of segments) {
    // Perf: literals and `*.js` are string checks, no regex (PERF-NOTES: matching is not free). Only
    // when case matters: a folded compare would have to fold exactly as the regex's `i` does.
    const suffix = caseSensitive ? literalSuffix(segment) : undefined;
    if (caseSensitive && segment.literal !== undefined) literals.add(segment.literal);
    else if (suffix !== undefined) suffixes.push(suffix);
    else if (segment.source !== undefined) sources.push({ source: segment.source, alone: () => segment.test });
    else others.push(segment.test);
  }
  const tests: Test[] = [...merged(sources, caseSensitive), ...others];
  if (suffixes.length > 0) tests.unshift(suffixes.length === 1 ? (name) => name.endsWith(suffixes[0]!) : (name) => suffixes.some((s) => name.endsWith(s)));
  if (literals.size > 0) tests.unshift(literals.size === 1 ? ((only) => (name: string) => name === only)([...literals][0]!) : (name) => literals.has(name));
  return anyOf(tests);
}

/**
 * `*` then literal text (`*.js`): the literal, else undefined. Not when it starts with a lone
 * second half of a surrogate pair: `endsWith` would find it inside a pair (`😀`), a code point apart.
 */
function literalSuffix(segment: SegmentGlob): string | undefined {
  const [first, ...rest] = segment.nodes;
  if (first?.kind !== 'star' || rest.some((n) => n.kind !== 'char')) return undefined;
  const suffix = rest.map((n) => String.fromCodePoint((n as { cp: number }).cp)).join('');
  return /^[\uDC00-\uDFFF]/.test(suffix) ? undefined : suffix;
}

/** One test for every path alternative: whole-path regexes merged where each is linear, the rest one by one. */
function pathTest(paths: readonly PathSegment[][], caseSensitive: boolean, forFiles: boolean): Test {
  const sources: Alternative[] = [];
  const others: Test[] = [];
  const gated: PathSegment[][] = [];
  for (const segments of paths) {
    const source = segments.filter((s) => s === GLOBSTAR).length <= 1 ? pathSource(segments, forFiles) : undefined;
    if (source !== undefined) sources.push({ source: source.slice(1, -1), alone: () => buildPathTest(segments, forFiles, caseSensitive) });
    else if (segments[segments.length - 1] !== GLOBSTAR) gated.push(segments);
    else others.push(buildPathTest(segments, forFiles, caseSensitive));
  }
  const tests = [...merged(sources, caseSensitive), ...others];
  if (gated.length > 0) tests.push(lastNameFirst(gated, caseSensitive, forFiles));
  return anyOf(tests);
}

/**
 * Perf: alternatives with two or more `**` are stepped through name by name (one whole-path regex
 * could backtrack in the square of the path's length), and most paths fail on their last name
 * alone. So the alternatives' last segments, merged into one test of the base name, are asked
 * first: `**\/{src,lib}/**\/*.{ts,tsx,h}` over /usr, six steppers per entry, 1,407 -> 623 ms
 * (docs/performance.md, Round 20). Sound: a path matches only if its last name matches the last segment.
 */
function lastNameFirst(paths: readonly PathSegment[][], caseSensitive: boolean, forFiles: boolean): Test {
  const lastName = nameTest(
    paths.map((segments) => segments[segments.length - 1] as SegmentGlob),
    caseSensitive,
  );
  const stepped = anyOf(paths.map((segments) => buildPathTest(segments, forFiles, caseSensitive)));
  return (rel) => lastName(rel.slice(rel.lastIndexOf('/') + 1)) && stepped(rel);
}

/** An alternative's linear regex source, and how it is tested alone (its own regex, or another way). */
interface Alternative {
  source: string;
  alone: () => Test;
}

/**
 * Anchored alternations of the sources, `MERGE` at a time. A chunk V8 cannot compile (its stack,
 * `compiledRegex`) is tested one alternative at a time instead, each the way it is tested alone.
 */
function merged(alternatives: readonly Alternative[], caseSensitive: boolean): Test[] {
  const tests: Test[] = [];
  for (let i = 0; i < alternatives.length; i += MERGE) {
    const chunk = alternatives.slice(i, i + MERGE);
    const re = compiledRegex(chunk.length === 1 ? `^${chunk[0]!.source}$` : `^(?:${chunk.map((a) => a.source).join('|')})$`, caseSensitive ? '' : 'i');
    if (re !== undefined) tests.push((text) => re.test(text));
    else tests.push(...chunk.map((alternative) => alternative.alone()));
  }
  return tests;
}

function anyOf(tests: readonly Test[]): Test {
  if (tests.length === 0) return NEVER;
  if (tests.length === 1) return tests[0]!;
  return (text) => {
    for (let i = 0; i < tests.length; i++) if (tests[i]!(text)) return true;
    return false;
  };
}

/** True when the text holds U+FFFD, a sign its bytes may not have decoded. */
export function mayBeUndecoded(text: string): boolean {
  return text.includes(REPLACEMENT_CHAR);
}
