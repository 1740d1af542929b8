/**
 * One ignore file's rules, read the way ripgrep 13 reads them (its `ignore` crate: `Gitignore` over
 * `globset`), not the way git does, so that the walker and `rg --files` leave out the same paths.
 * Where the two differ (test/ignore/ pins each case against the real rg):
 *
 * - every trailing whitespace character is dropped (a tab too), unless the line ends in `\ `;
 * - `[[:alpha:]]` is no POSIX class: a set `[[:alph]` then a literal `]`;
 * - `{a,b}` are alternatives, an empty one dropped (`a{b,}` ignores `ab`, not `a`; `x{,}y` is `xy`);
 * - a lone `!` re-includes everything (its glob is `**`);
 * - a line that is not a valid glob (`c[`, `[z-a]`, a dangling `\`) is skipped, the rest apply;
 * - a UTF-8 BOM is part of the first pattern;
 * - a line that is not valid UTF-8 ends the file: the rules before it apply, none after it (ripgrep
 *   reads line by line and stops at the first decoding error, silently);
 * - `**` that is not a whole path segment is `*`, and so is a run of three or more stars, a whole segment or not;
 * - `**` does not match a newline in a name (`*` and `?` do): ripgrep's set of rules is one regex
 *   set, built without `dot_matches_new_line`. (globset answers some rules without a regex, by the
 *   name or its extension, and those do span a newline, or miss a name ending in `.`: not followed.)
 *
 * A rule matches the path relative to the file's directory (a directory without its trailing
 * `/`); the last rule that matches decides (an `!` rule re-includes). A rule ending in `/`
 * matches directories only. Parent directories are not asked: the walker never enters an ignored
 * one, and the search root itself is never judged (as ripgrep).
 */

import { compiledRegex } from '../glob/regex.js';
import { escapeClassChar, escapeRegex } from '../regex-escape.js';
import { loadRe2 } from '../re2.js';

export interface IgnoreRule {
  /** True when the rule's glob matches the path (relative to the file's directory). */
  test: (path: string) => boolean;
  whitelist: boolean;
  onlyDirectory: boolean;
  /** What one test costs per character of the path, roughly (the regex's length): the walk's clock checks count it. */
  cost: number;
  /** A rule tested on the base name (`nameRule`), on V8: its regex source, merged with its file's others (`testIgnoreRules`). */
  nameSource?: string;
}

/**
 * Which rules V8's backtracking regex may run: at most one piece that crosses `/` (`**`, the `**\/`
 * an unanchored rule starts with) and at most two stars inside names. Its worst case is then
 * (slashes × name length²), 1.4 ms a test on a 4,000-character path built to hurt it (two `**`: 15-23
 * ms), and it is several times faster than RE2 on every path a tree holds: `*.min.*` (a `**\/` and
 * two stars) stays on V8. Every other rule runs on RE2, in linear time: V8 took minutes for
 * `*?*?*?*?*?*?*?*?*b` over a 50-character name, and an ignore file is text from the tree, not from
 * the user, so a search must not hang on one.
 */
const MAX_CROSSING_PIECES = 1;
/** The longest path a rule tests on V8 (its worst case there: ~0.05 ms); a longer one goes to RE2. */
const V8_PATH_CHARS = 512;
const MAX_NAME_STARS = 2;

/** Unicode White_Space, which Rust's `trim_end` drops (JavaScript's also drops U+FEFF). */
// Stryker disable next-line Regex: its `\v` -> `\V` mutant is a SyntaxError under the u flag at load, which fails every test file that imports the module (issue 28's "No tests were found")
const TRAILING_WHITESPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/u;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * An ignore file's text as ripgrep reads it: up to (not including) its first line that is not
 * valid UTF-8. A string (an fs that decodes itself) is taken as it is.
 */
export function decodeIgnoreFile(contents: Uint8Array | string): string {
  if (typeof contents === 'string') return contents;
  try {
    return strictUtf8.decode(contents);
  } catch {
    // Perf: only a file that fails whole is read again line by line.
    const lines: string[] = [];
    for (let start = 0; start <= contents.length; ) {
      const end = contents.indexOf(0x0a, start);
      const stop = end === -1 ? contents.length : end;
      try {
        lines.push(strictUtf8.decode(contents.subarray(start, stop)));
      } catch {
        break;
      }
      start = stop + 1;
    }
    return lines.join('\n');
  }
}

/** The rules of one ignore file, in order; lines that are not valid globs are left out. */
/**
 * The longest rule line compiled (20 KiB). A line of `*a` 200,000 times (400 KB) compiled for 11 s,
 * past every budget, before the walk's next check. At this length a rule compiles in up to about
 * 2 s here (`?` 20,000 times 1.8 s, `*a` 5,000 times 0.4 s), and the reader asks the budget before
 * each long line; it stays above the rules of 20,010 characters whose answers are pinned against
 * rg's (test/ignore/rule-shapes.test.ts). ripgrep 13 compiles rules up to its 10 MB regex limit
 * (`*a` 50,000 times applies, 75,000 times not) and past it drops the whole file with a warning;
 * here only the line is dropped, and the search names the file in `skipped`
 * (`IGNORE_RULE_TOO_LARGE`) so the answer is never silently another one.
 */
export const MAX_IGNORE_RULE_LENGTH = 20_480;

/** True when a line of an ignore file is a rule too long to compile (`MAX_IGNORE_RULE_LENGTH`). */
export function isRuleTooLarge(line: string): boolean {
  return line.length > MAX_IGNORE_RULE_LENGTH && !line.startsWith('#');
}

/** True when some line of the file is a rule too long to compile: the file is then named in `skipped`. */
export function hasTooLargeRule(text: string): boolean {
  return text.length > MAX_IGNORE_RULE_LENGTH && text.split('\n').some(isRuleTooLarge);
}

/** One line's rule; undefined for a comment, a blank line or a line that is not a valid glob (rule-reader.ts reads a file's lines). */
export function parseLine(raw: string): IgnoreRule | undefined {
  if (raw.startsWith('#')) return undefined;
  let line = raw.endsWith('\\ ') ? raw : raw.replace(TRAILING_WHITESPACE, '');
  if (line === '') return undefined;
  let whitelist = false;
  let absolute = false;
  // `\!` and `\#` need no case of their own: the glob's escape reads them as `!` and `#`.
  if (line.startsWith('!')) {
    whitelist = true;
    line = line.slice(1);
  }
  if (line.startsWith('/')) {
    absolute = true;
    line = line.slice(1);
  }
  let onlyDirectory = false;
  if (line.endsWith('/')) {
    onlyDirectory = true;
    line = line.slice(0, -1);
  }
  let glob = line;
  // Without a slash a rule matches at any depth (`**` alone already does); with one it is anchored
  // at the file's directory.
  if (!absolute && !line.includes('/') && line !== '**') glob = `**/${glob}`;
  // As the ignore crate: `dir/**` is `dir/**/*`, what is inside and never `dir`; the last segment is
  // then `*`, which spans a newline in a name where `**` does not.
  if (glob.endsWith('/**')) glob += '/*';
  const translated = translateGlob(glob);
  if (translated === undefined) return undefined;
  const v8CanRun = translated.crossing <= MAX_CROSSING_PIECES && translated.stars <= MAX_NAME_STARS;
  const whole = compileRule(translated.source, v8CanRun);
  const name = line !== '' && glob === `**/${line}` ? nameRule(line, whole) : undefined;
  const rule: IgnoreRule = { test: name?.test ?? whole, whitelist, onlyDirectory, cost: translated.source.length };
  if (name?.source !== undefined) rule.nameSource = name.source;
  return rule;
}

/**
 * Perf: a rule with no `/` (`*.log`, most rules) is `**\/` then a name glob that cannot match `/`,
 * so only the base name can match it: that is tested alone, without the prefix's backtracking over
 * every `/` of the path (20 such rules over /usr: ~60% of the walk's time was theirs). Not when a
 * `**` or a set that matches `/` is in it (a negated one, or a range over it such as `[.-0]`: in
 * globset a set matches the separator, an adversarial run), nor for a path holding a newline (`**`
 * does not span one, so `whole` can fail where the name matches).
 */
function nameRule(nameGlob: string, whole: (path: string) => boolean): { test: (path: string) => boolean; source: string | undefined } | undefined {
  if (nameGlob.includes('**') || setMatchesSlash(nameGlob)) return undefined;
  const tail = translateGlob(nameGlob);
  if (tail === undefined) return undefined;
  const onV8 = tail.stars <= MAX_NAME_STARS;
  const ofName = compileRule(tail.source, onV8);
  return { test: (path) => (path.includes('\n') ? whole(path) : ofName(path.slice(path.lastIndexOf('/') + 1))), source: onV8 ? tail.source : undefined };
}

/** True when a `[...]` set of the glob matches `/` (a set that does not parse is no set: the rule is refused elsewhere). */
function setMatchesSlash(glob: string): boolean {
  const chars = [...glob];
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] === '\\') i++;
    else if (chars[i] === '[') {
      const set = translateSet(chars, i);
      if (set === undefined) continue;
      if (new RegExp(set.source, 'u').test('/')) return true;
      i = set.end;
    }
  }
  return false;
}

/**
 * A rule's matcher: V8's regex when it cannot backtrack far and V8 compiles it, RE2 otherwise, the
 * same answers. (`compiledRegex`, the glob engine's: V8's compiler overflows its stack on a source
 * of thousands of pieces, and a rule of 20,000 `?` made every search in its tree fail.)
 */
function compileRule(source: string, v8CanRun: boolean): (path: string) => boolean {
  const anchored = `^${source}$`;
  const regex = v8CanRun ? compiledRegex(anchored, 'u') : undefined;
  // No fallback if RE2 refused: the source holds escaped characters and the constructs above only,
  // which both engines read alike (`setChar`); test/ignore/rule-shapes.test.ts holds them to rg.
  if (regex === undefined) {
    // Compiled now, while the file is read and the budget asked: RE2 takes ~0.4 ms a rule.
    const re2 = loadRe2().compile(anchored);
    return (path) => re2.matches(path);
  }
  // V8's worst case grows with the path: past V8_PATH_CHARS, RE2, compiled when first needed (a rule
  // of one `**` and two stars took 1 ms a test on a 3,700-character path, RE2 0.1: an adversarial
  // run with the root deep in a repository).
  let re2: { matches(text: string): boolean } | undefined;
  return (path) => (path.length <= V8_PATH_CHARS ? regex.test(path) : (re2 ??= loadRe2().compile(anchored)).matches(path));
}

/** `ignore`, `whitelist` (an `!` rule matched last) or undefined (no rule matched). */
export function testIgnoreRules(rules: readonly IgnoreRule[], path: string, isDirectory: boolean): 'ignore' | 'whitelist' | undefined {
  // Perf: most paths match no rule; the rules tested on the base name are asked once, together.
  const anyName = namesFilterOf(rules);
  const namesMayMatch = anyName === undefined || anyName.test(path.slice(path.lastIndexOf('/') + 1));
  for (let i = rules.length - 1; i >= 0; i--) {
    const rule = rules[i]!;
    if (rule.onlyDirectory && !isDirectory) continue;
    if (!namesMayMatch && rule.nameSource !== undefined) continue;
    if (rule.test(path)) return rule.whitelist ? 'whitelist' : 'ignore';
  }
  return undefined;
}

/**
 * One regex of a file's base-name rules (those with a `nameSource`), made at its first use: a base
 * name it does not match matches none of them, nor does the whole path (a rule's whole-path form
 * can only match where its name form does). Null when there are fewer than two such rules or V8
 * cannot compile the alternation.
 */
const namesFilters = new WeakMap<readonly IgnoreRule[], RegExp | null>();

function namesFilterOf(rules: readonly IgnoreRule[]): RegExp | undefined {
  let filter = namesFilters.get(rules);
  if (filter === undefined) {
    const sources = rules.flatMap((rule) => (rule.nameSource === undefined ? [] : [rule.nameSource]));
    filter = sources.length < 2 ? null : (compiledRegex(`^(?:${sources.join('|')})$`, 'u') ?? null);
    namesFilters.set(rules, filter);
  }
  return filter ?? undefined;
}

/**
 * What `**` spans: anything but a newline, as `.` in Rust's regex and RE2. Not V8's `.`, which under
 * the `u` flag also stops at `\r`, U+2028 and U+2029: a rule on V8 then did not reach below a
 * directory named `h\rk`, and an `!` rule lost a file rg lists, complete (an adversarial run).
 */
const ANY = '[^\\n]*';

/**
 * globset's syntax with a literal separator, as regex source: `*` and `?` never match `/`; `**` as
 * a whole segment matches any number of segments; `[...]` (`[!...]`, `[^...]`) sets with ranges;
 * `{a,b}` alternatives (not nested; an empty one dropped, as globset drops it; a `}` with no `{` open is dropped); `\` escapes the next character
 * outside a set, and is itself inside one. Undefined for a glob globset
 * refuses. `crossing` and `stars`: how many pieces of the source can match any length, across `/`
 * and within a name (`MAX_CROSSING_PIECES`).
 */
function translateGlob(glob: string): { source: string; crossing: number; stars: number } | undefined {
  const chars = [...glob];
  // A lone `!` leaves `**/`: ripgrep 13 reads it as everything (`**` needs no case: it is `.*` below).
  if (glob === '**/') return { source: ANY, crossing: 1, stars: 0 };
  let out = '';
  let crossing = 0;
  let stars = 0;
  let inBraces = false;
  // Inside `{...}`: the alternatives so far, and the one being read (regex source).
  let alternatives: string[] = [];
  let alt = '';
  const emit = (source: string, anyLength?: 'crossing' | 'star') => {
    if (anyLength === 'crossing') crossing++;
    else if (anyLength === 'star') stars++;
    if (inBraces) alt += source;
    else out += source;
  };
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\') {
      if (i + 1 >= chars.length) return undefined; // a dangling escape
      emit(escapeRegex(chars[++i]!));
    } else if (c === '*') {
      let end = i;
      while (chars[end + 1] === '*') end++;
      const atSegmentStart = i === 0 || chars[i - 1] === '/';
      const atSegmentEnd = end + 1 === chars.length || chars[end + 1] === '/';
      // Exactly two: globset reads `**` then a third `*` as two stars within a segment.
      if (end === i + 1 && atSegmentStart && atSegmentEnd && !inBraces) {
        if (end + 1 === chars.length) emit(ANY, 'crossing');
        else {
          emit(`(?:${ANY}/)?`, 'crossing');
          end++; // the `/` after `**` is part of it
        }
      } else if (end === i + 1 && inBraces) {
        // First in its alternative: nothing read of it yet (every piece read adds to it).
        const globstar = globstarInBraces(alt === '', chars[i - 1], chars[end + 1]);
        emit(globstar.source, 'crossing');
        if (globstar.takesSlash) end++;
      } else {
        emit('[^/]*', 'star');
      }
      i = end;
    } else if (c === '?') {
      emit('[^/]');
    } else if (c === '[') {
      const set = translateSet(chars, i);
      if (set === undefined) return undefined;
      emit(set.source);
      i = set.end;
    } else if (c === '{') {
      if (inBraces) return undefined; // globset does not nest alternatives
      inBraces = true;
      alternatives = [];
      alt = '';
    } else if (c === '}') {
      // globset closes a group even when none is open: an empty one, which matches nothing, so `x}` is `x`.
      if (inBraces) {
        // globset drops an empty alternative (`a{b,}` is `ab` only, never `a`); all empty, the group is nothing (`x{,}y` is `xy`).
        const parts = [...alternatives, alt].filter((part) => part !== '');
        inBraces = false;
        if (parts.length > 0) emit(`(?:${parts.join('|')})`);
      }
    } else if (c === ',' && inBraces) {
      alternatives.push(alt);
      alt = '';
    } else {
      emit(escapeRegex(c));
    }
  }
  return inBraces ? undefined : { source: out, crossing, stars };
}

/**
 * `**` inside `{...}` as ripgrep 13 (globset) reads it, by its neighbours: first in its alternative
 * and followed by `/`, any leading directories (`{**\/q,c}` ignores `q` and `d/q`); after a `/`
 * and followed by `/`, any directories between (`{a/**\/b,c}` ignores `a/b` and `a/x/b`); after a
 * `/` and last in its alternative, anything below (`{a/**,c}`); anywhere else two `*`, within one
 * segment (`{x,**}/b`). The regex already holds the `/` before it. test/ignore/fixtures.ts pins each
 * against the real rg.
 */
function globstarInBraces(first: boolean, before: string | undefined, after: string | undefined): { source: string; takesSlash: boolean } {
  if (first) return after === '/' ? { source: `(?:/?|${ANY}/)`, takesSlash: true } : { source: '[^/]*', takesSlash: false };
  if (before !== '/') return { source: '[^/]*', takesSlash: false };
  if (after === ',' || after === '}') return { source: ANY, takesSlash: false };
  if (after === '/') return { source: `(?:${ANY}/)?`, takesSlash: true };
  return { source: '[^/]*', takesSlash: false };
}

/**
 * A set's character as regex source: `[` escaped too, for RE2 reads `[[:digit:]` as a POSIX class
 * where globset (and V8) read the characters `[`, `:`, `d`... (`*[[:digit:]]*b*` ignored `ab`;
 * `[[:foo:]]` made RE2 throw and the search fail).
 */
function setChar(c: string): string {
  return c === '[' ? '\\[' : escapeClassChar(c);
}

/** A `[...]` set starting at `chars[start]`: its regex and the index of its `]`. */
function translateSet(chars: readonly string[], start: number): { source: string; end: number } | undefined {
  let i = start + 1;
  let negated = false;
  if (chars[i] === '!' || chars[i] === '^') {
    negated = true;
    i++;
  }
  let body = '';
  let first = true;
  for (; i < chars.length; i++) {
    const c = chars[i]!;
    // A negated set matches the separator too, as ripgrep 13's (globset's) does: `a[!x]b` ignores
    // `a/b` (git's does not); test/ignore/fixtures.ts pins it against the real rg.
    if (c === ']' && !first) return { source: negated ? `[^${body}]` : `[${body}]`, end: i };
    first = false;
    // Inside a set `\` is itself, as in globset: `[\]]` is the set of `\` then `]`, and `[a-\c]` an invalid range.
    if (chars[i + 1] === '-' && i + 2 < chars.length && chars[i + 2] !== ']') {
      const to = chars[i + 2]!;
      if (to.codePointAt(0)! < c.codePointAt(0)!) return undefined; // an invalid range
      body += `${setChar(c)}-${setChar(to)}`;
      i += 2;
    } else {
      body += setChar(c);
    }
  }
  return undefined; // no closing `]`
}
