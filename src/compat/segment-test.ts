/**
 * The dot filter's test of one name against one pattern segment (shared.ts `buildDotRule`): does
 * the name fit, and, if it starts with `.`, does the part of the segment that matches it name the
 * dot itself. Braces and the `@(...)` / `?(...)` groups are expanded into alternatives, each of
 * text, escapes, `*`, `?` and sets, tested in linear time; each alternative answers for its own
 * dot, so `@(*|.e)` keeps `.e` and not `.x`, and `['*', '**' + '/@(.cfg)']` no `.other` (both
 * peers). A segment with a group that repeats or negates (`+(...)`, `*(...)`, `!(...)`), a brace
 * range (`{1..3}`), a POSIX class, or too many alternatives is taken as fitting any name, its dots
 * decided for the whole segment: the one way a dot name can still leak (docs/compat.md). Only dot
 * paths are tested here (shared.ts keeps the rest), so a reading this test lacks never loses a path.
 */
import { closeOfGroup, segmentIsPlain, segmentNamesDot, setClose, splitTop, type DotDialect } from './dot-names.js';

export interface Segment {
  globstar: boolean;
  /** Whether `name` fits the segment, a leading `.` of it named by the segment (`hidden`: the name starts with `.` and that is asked). */
  accepts: (name: string, hidden: boolean) => boolean;
}

/** Perf: alternatives past this many are not tested one by one (the segment fits any name). */
const MAX_ALTERNATIVES = 64;

export function compileSegment(segment: string, caseSensitive: boolean, dialect: DotDialect): Segment {
  if (segment === '**') return { globstar: true, accepts: () => true };
  const plain = dialect === 'minimatch' && segmentIsPlain(segment, caseSensitive);
  const alternatives = expandGroups(segment, 0);
  const tests = alternatives?.map((alt) => ({ namesDot: segmentNamesDot(alt, dialect, caseSensitive, plain), fits: tokenTest(alt, caseSensitive) }));
  if (tests === undefined || tests.some((t) => t.fits === undefined)) {
    const namesDot = segmentNamesDot(segment, dialect, caseSensitive);
    return { globstar: false, accepts: (_, hidden) => !hidden || namesDot };
  }
  return { globstar: false, accepts: (name, hidden) => tests.some((t) => (!hidden || t.namesDot) && t.fits!(name)) };
}

/** The segment with its braces and `@(...)`/`?(...)` groups expanded; undefined when it cannot be (a repeating or negated group, too many alternatives). */
function expandGroups(s: string, depth: number): string[] | undefined {
  if (depth > MAX_ALTERNATIVES) return undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      const close = setClose(s, i);
      if (close > 0) i = close;
      continue;
    }
    const group = '@?*+!'.includes(c) && s[i + 1] === '(';
    if (!group && c !== '{') continue;
    if (group && c !== '@' && c !== '?') return undefined;
    const open = group ? i + 1 : i;
    const close = closeOfGroup(s, open);
    if (close < 0) continue;
    const alts = splitTop(s.slice(open + 1, close), group ? '|' : ',');
    if (!group && alts.length < 2) continue;
    if (c === '?') alts.push('');
    const out: string[] = [];
    for (const alt of alts) {
      const rest = expandGroups(s.slice(0, i) + alt + s.slice(close + 1), depth + 1);
      if (rest === undefined) return undefined;
      out.push(...rest);
      if (out.length > MAX_ALTERNATIVES) return undefined;
    }
    return out;
  }
  return [s];
}

type Token = { star: true } | { star: false; test: (c: string) => boolean };

/** A linear test of text, escapes, `*`, `?` and sets; undefined for what it does not read (a POSIX class, a brace or group left). */
function tokenTest(alt: string, caseSensitive: boolean): ((name: string) => boolean) | undefined {
  const fold = (c: string): string => (caseSensitive ? c : foldChar(c));
  const chars = [...alt];
  const tokens: Token[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const close = c === '[' ? setClose(chars, i) : -1;
    // A brace or group left unexpanded (`{1..3}`, `{a}`, `(x|y)`) is read by the walk in ways this
    // test does not copy: the segment fits any name rather than lose one.
    if ('{}()|'.includes(c)) return undefined;
    if (c === '*') tokens.push({ star: true });
    else if (c === '?') tokens.push({ star: false, test: () => true });
    else if (close > 0) {
      const test = setTest(chars.slice(i + 1, close), caseSensitive);
      if (test === undefined) return undefined;
      tokens.push({ star: false, test });
      i = close;
    } else {
      const want = fold(c === '\\' && i + 1 < chars.length ? chars[++i]! : c);
      tokens.push({ star: false, test: (x) => fold(x) === want });
    }
  }
  return (text) => matchTokens(tokens, [...text]);
}

/**
 * `*` and the one-character tokens over a name, in (name × pattern) steps at worst: a regex of `.*`
 * pieces backtracked without bound (`*a` × 12 then `b` over a 200-character name held the
 * adapter past a minute, a review of this filter). The last `*` is the only one ever moved back.
 */
function matchTokens(pattern: readonly Token[], name: readonly string[]): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const t = pattern[p];
    if (t?.star) {
      star = p++;
      resume = n;
    } else if (t !== undefined && t.test(name[n]!)) {
      p++;
      n++;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else return false;
  }
  while (pattern[p]?.star) p++;
  return p === pattern.length;
}

/** A set's test (`!`/`^` negation, ranges, escapes); undefined when it holds a POSIX class or another `[`. */
function setTest(body: readonly string[], caseSensitive: boolean): ((c: string) => boolean) | undefined {
  const negated = body[0] === '!' || body[0] === '^';
  const chars = negated ? body.slice(1) : body;
  if (chars.includes('[')) return undefined;
  const ranges: [string, string][] = [];
  for (let i = 0; i < chars.length; i++) {
    const low = chars[i] === '\\' && i + 1 < chars.length ? chars[++i]! : chars[i]!;
    if (chars[i + 1] === '-' && i + 2 < chars.length) {
      const high = chars[i + 2] === '\\' && i + 3 < chars.length ? chars[(i += 3)]! : chars[(i += 2)]!;
      ranges.push([low, high]);
    } else ranges.push([low, low]);
  }
  const within = (c: string): boolean => ranges.some(([low, high]) => c >= low && c <= high);
  const inSet = caseSensitive ? within : (c: string) => within(c) || within(c.toLowerCase()) || within(c.toUpperCase());
  return (c) => inSet(c) !== negated;
}

/** A character folded as a regex's `i` flag folds it: to upper case, unless that changes its length (`ß`). */
function foldChar(c: string): string {
  const upper = c.toUpperCase();
  return upper.length === c.length ? upper : c;
}
