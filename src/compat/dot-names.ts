/**
 * Whether a pattern segment names a leading dot itself, so that `dot: false` still lets it match a
 * dot name, as each peer reads it (both hide dot names from wildcards only). An adversarial run:
 * only a plain leading `.` was seen, so `\.github/*`, `[.]env`, `@(.github|.gitlab)/**` and
 * `?(a).e` found nothing with `complete: true`, where node-glob and tinyglobby return the dot paths.
 *
 * Both peers: the name's first character comes from a literal `.` (or `\.`) the segment can start
 * with: at its start, at the start of an extglob or brace alternative, or after a group that may
 * match nothing (`?(a).e`, `*(a).e`). They differ on a set:
 * - minimatch (node-glob) reads a segment with no magic as its text: `[.]env` (a one-character set)
 *   is `.env`; in a segment with magic (`[.]*`, `@([.]e)`) a set never matches a leading dot.
 * - picomatch (tinyglobby) lets a set holding `.` match it (`[.a]e`, `[.]*`). Its negated sets
 *   (`[^a]e`), POSIX classes and `@(*)` reach dot names too: wildcards, not copied (docs/compat.md).
 */

/** Which peer's reading: node-glob's (minimatch) or tinyglobby's (picomatch). */
export type DotDialect = 'minimatch' | 'picomatch';

/**
 * Whether the segment (no `/`) can match a name starting with `.` under `dot: false`. `plain`:
 * minimatch reads the segment as text (by default: it has no magic; an alternative expanded from a
 * segment is asked with its whole segment's answer).
 */
export function segmentNamesDot(segment: string, dialect: DotDialect, caseSensitive: boolean, plain = dialect === 'minimatch' && segmentIsPlain(segment, caseSensitive)): boolean {
  return startsWithDot(segment, 0, dialect, plain, { left: BUDGET });
}

/** Whether some segment of the pattern names a leading dot (the walk must then list dot names). */
export function patternNamesDot(pattern: string, dialect: DotDialect, caseSensitive: boolean): boolean {
  return pattern.split('/').some((segment) => segmentNamesDot(segment, dialect, caseSensitive));
}

/**
 * minimatch's "no magic": nothing but text, escapes and one-character sets (braces are expanded
 * before; taken as text here). Under `nocase` a set is magic (`[.]env` finds no `.env` then).
 */
export function segmentIsPlain(segment: string, caseSensitive: boolean): boolean {
  const text = segment.replace(/\\[^]/g, 'x').replace(caseSensitive ? /\[(?:\\[^]|[^\]\\!^])\]/g : /$^/, 'x');
  return !/[*?[]|[@!+]\(/.test(text);
}

/**
 * Perf: the steps one segment may take. Groups that may be empty branch (`?(|)` twenty times is
 * 3^20 readings); past the budget the segment is taken as naming a dot: the walk lists dot names
 * and the filter keeps what that segment matches, more, never less.
 */
const BUDGET = 2000;

/** Whether the text from `i` can begin with an explicit `.` (`plain`: minimatch, a segment with no magic). */
function startsWithDot(s: string, i: number, dialect: DotDialect, plain: boolean, budget: { left: number }): boolean {
  if (--budget.left < 0) return true;
  if (i >= s.length) return false;
  const c = s[i]!;
  if (c === '.') return true;
  if (c === '\\') return s[i + 1] === '.';
  if (c === '[') {
    const close = setClose(s, i);
    if (close < 0) return false;
    return setNamesDot(s.slice(i + 1, close), dialect, plain);
  }
  if ('@?*+!'.includes(c) && s[i + 1] === '(') {
    const close = closeOfGroup(s, i + 1);
    if (close < 0) return false;
    if (c !== '!' && splitTop(s.slice(i + 2, close), '|').some((alt) => startsWithDot(alt + s.slice(close + 1), 0, dialect, plain, budget))) return true;
    // A group that may match nothing lets what follows start the name.
    return (c === '?' || c === '*') && startsWithDot(s, close + 1, dialect, plain, budget);
  }
  if (c === '{') {
    const close = closeOfGroup(s, i);
    if (close < 0) return false;
    return splitTop(s.slice(i + 1, close), ',').some((alt) => startsWithDot(alt + s.slice(close + 1), 0, dialect, plain, budget));
  }
  return false;
}

function setNamesDot(set: string, dialect: DotDialect, plain: boolean): boolean {
  if (dialect === 'minimatch') return plain && (set === '.' || set === '\\.');
  return !set.startsWith('!') && !set.startsWith('^') && set.replace(/\[:[a-z]+:\]/g, '').includes('.');
}

/** The `]` closing a set opened at `open` (a `]` right after `[`, `[!` or `[^` is a member, `[:alpha:]` is passed); -1 when none. */
export function setClose(s: string | readonly string[], open: number): number {
  let j = open + 1;
  if (s[j] === '!' || s[j] === '^') j++;
  if (s[j] === ']') j++;
  for (; j < s.length; j++) {
    if (s[j] === '\\') j++;
    else if (s[j] === '[' && s[j + 1] === ':') {
      let end = j + 2;
      while (end < s.length && !(s[end] === ':' && s[end + 1] === ']')) end++;
      if (end < s.length) j = end + 1;
    } else if (s[j] === ']') return j;
  }
  return -1;
}

/**
 * Walks `s` from `from` past escapes and sets, telling `visit` each other character with the depth
 * of groups and braces after it; stops at the first character `visit` says yes to (its index), -1 at the end.
 */
function scanOutsideSets(s: string, from: number, visit: (c: string, at: number, depth: number) => boolean): number {
  let depth = 0;
  for (let j = from; j < s.length; j++) {
    const c = s[j]!;
    if (c === '\\') j++;
    else if (c === '[') {
      const close = setClose(s, j);
      if (close > 0) j = close;
    } else {
      if (c === '(' || c === '{') depth++;
      else if (c === ')' || c === '}') depth--;
      if (visit(c, j, depth)) return j;
    }
  }
  return -1;
}

/** The `)` or `}` closing the group opened at `open`, past escapes, sets and nested groups; -1 when none. */
export function closeOfGroup(s: string, open: number): number {
  return scanOutsideSets(s, open, (c, _at, depth) => (c === ')' || c === '}') && depth === 0);
}

/** The text split at `sep` outside any set, group or brace. */
export function splitTop(s: string, sep: string): string[] {
  const parts: string[] = [];
  let start = 0;
  scanOutsideSets(s, 0, (c, at, depth) => {
    if (c === sep && depth === 0) {
      parts.push(s.slice(start, at));
      start = at + 1;
    }
    return false;
  });
  parts.push(s.slice(start));
  return parts;
}
