/**
 * The glob dialect, compiled by us: one path segment at a time into regex source, then whole paths
 * into one regex. minimatch only expands braces (src/patterns.ts); everything else is here, because
 * its regex builder drops a second `**` and its `.` misses newlines, and a matcher that misses a file
 * turns "not found" into a lie. The meaning is bash's, with `globstar extglob dotglob` on
 * (docs/contract.md has the table, and test/conformance checks it against bash and minimatch):
 *
 * - `*` any run of characters but `/`; `?` one character (a code point, not a UTF-16 unit);
 *   `[...]` one character of a set, `[!...]`/`[^...]` one not in it, ranges by code point, POSIX
 *   classes (`[:alpha:]`, ASCII only); `\x` the character x (posix only: on win32 `\` is a separator).
 * - A `**` segment: zero or more whole segments (`a/**` for a file needs one at least: a file named
 *   `a` is not below `a`). `**` inside a segment is `*`.
 * - `@(a|b)`, `?(..)`, `*(..)`, `+(..)`: one, zero or one, any, one or more of the alternatives.
 *   `!(a|b)`: anything but them, and only where bash's meaning fits a regex exactly: as the last
 *   thing in a segment and not inside another group. Elsewhere the pattern is refused.
 * - Everything else is literal, including an unclosed `[` or `(`.
 *
 * Nothing here ever matches `/` inside a segment, and the regexes use no `.`, so names holding a
 * newline match like any other.
 */
import { FindFileError } from './errors.js';
import { escapeClassChar, escapeRegex } from './regex-escape.js';

/** One compiled segment: regex source (no anchors, never matches `/`), and its text when literal. */
export interface SegmentGlob {
  source: string;
  /** The segment's characters when it has no magic (escapes resolved): a string compare does. */
  literal: string | undefined;
  /** It holds a POSIX class, whose Unicode form needs the regex's `u` flag. */
  unicode: boolean;
}

/** A `**` segment. */
export const GLOBSTAR = Symbol('globstar');

export type PathSegment = SegmentGlob | typeof GLOBSTAR;

/** One code point other than `/`: a surrogate pair, or one unit that is not the first half of one. */
const ONE_CHAR = '(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|[^/\\uD800-\\uDBFF])';
const ANY_RUN = '[^/]*';

/**
 * POSIX classes as bash reads them in a UTF-8 locale (glibc's C.UTF-8: letters and digits of every
 * script, not ASCII only): Unicode properties, so a regex holding one gets the `u` flag. Every
 * other piece of source here is written to mean the same with and without that flag.
 */
const POSIX_CLASSES: Record<string, string> = {
  alnum: '\\p{L}\\p{Nd}',
  alpha: '\\p{L}',
  ascii: '\\x00-\\x7F',
  blank: ' \\t',
  cntrl: '\\p{Cc}',
  digit: '0-9',
  graph: '\\p{L}\\p{M}\\p{N}\\p{P}\\p{S}',
  lower: '\\p{Ll}',
  print: ' \\p{L}\\p{M}\\p{N}\\p{P}\\p{S}',
  punct: '\\p{P}\\p{S}',
  space: '\\s',
  upper: '\\p{Lu}',
  word: '\\p{L}\\p{Nd}_',
  xdigit: '0-9A-Fa-f',
};

const EXTGLOB_KINDS = '?*+@!';

interface Parser {
  glob: string;
  i: number;
  escapes: boolean;
  raw: string;
  unicode: boolean;
}

/**
 * Compiles one segment (no `/` in it). `raw` names the whole pattern in errors. Throws
 * `FindFileError` for what the dialect refuses.
 */
export function compileSegment(glob: string, escapes: boolean, raw: string): SegmentGlob {
  const parser: Parser = { glob, i: 0, escapes, raw, unicode: false };
  const { source, literal } = parseSequence(parser, 0);
  return { source, literal, unicode: parser.unicode };
}

/**
 * Parses until the end of the segment (depth 0) or an unnested `|`/`)` (inside a group). Returns
 * the source and, when nothing magic was met, the literal text.
 */
function parseSequence(p: Parser, depth: number): { source: string; literal: string | undefined } {
  let source = '';
  let literal: string | undefined = '';
  const addLiteral = (ch: string) => {
    source += escapeRegex(ch);
    if (literal !== undefined) literal += ch;
  };
  const addMagic = (src: string) => {
    source += src;
    literal = undefined;
  };
  while (p.i < p.glob.length) {
    const ch = p.glob[p.i]!;
    if (depth > 0 && (ch === '|' || ch === ')')) break;
    if (ch === '\\' && p.escapes) {
      const next = nextCodePoint(p.glob, p.i + 1);
      if (next === '') {
        addLiteral('\\');
        p.i++;
      } else {
        addLiteral(next);
        p.i += 1 + next.length;
      }
      continue;
    }
    if (EXTGLOB_KINDS.includes(ch) && p.glob[p.i + 1] === '(') {
      const group = parseExtglob(p, depth);
      if (group !== undefined) {
        addMagic(group);
        continue;
      }
    }
    if (ch === '*') {
      // Runs of `*` are one `*`; a later `*(` starts an extglob (an unclosed one is a `*` and a `(`).
      p.i++;
      while (p.glob[p.i] === '*' && p.glob[p.i + 1] !== '(') p.i++;
      addMagic(ANY_RUN);
      continue;
    }
    if (ch === '?') {
      addMagic(ONE_CHAR);
      p.i++;
      continue;
    }
    if (ch === '[') {
      const cls = parseClass(p);
      if (cls !== undefined) {
        addMagic(cls);
        continue;
      }
    }
    const cp = nextCodePoint(p.glob, p.i);
    addLiteral(cp);
    p.i += cp.length;
  }
  return { source, literal };
}

/**
 * `K(a|b)` at `p.i` (K one of `?*+@!`). Returns the regex, or undefined (and `p.i` unchanged) when
 * the group is not closed in this segment: then `K` and `(` are literal, as in bash.
 */
function parseExtglob(p: Parser, depth: number): string | undefined {
  const start = p.i;
  const kind = p.glob[p.i]!;
  p.i += 2;
  const alternatives: string[] = [];
  for (;;) {
    const { source } = parseSequence(p, depth + 1);
    alternatives.push(source);
    if (p.i >= p.glob.length) {
      p.i = start;
      return undefined;
    }
    const stop = p.glob[p.i]!;
    p.i++;
    if (stop === ')') break;
  }
  const body = `(?:${alternatives.join('|')})`;
  switch (kind) {
    case '@':
      return body;
    case '?':
      return `${body}?`;
    case '*':
      return `${body}*`;
    case '+':
      return `${body}+`;
    default: {
      // bash: `!(L)R` matches when some split leaves a head not in L and a tail in R. With R empty
      // that is "the rest of the segment is not in L", which a lookahead says exactly. Any other
      // place has no exact regex, and an approximation could hide a file: refuse it.
      if (depth > 0 || p.i < p.glob.length) {
        throw new FindFileError(
          'FF_INVALID_PATTERN',
          `pattern ${JSON.stringify(p.raw)}: "!(...)" is supported only at the end of a path segment and outside other groups (as in "!(*.js)" or "*.!(js)"): use exclude to leave files out`,
          'pattern',
        );
      }
      return `(?!${body}(?:/|$))${ANY_RUN}`;
    }
  }
}

/**
 * `[...]` at `p.i`. Returns the regex for one code point, or undefined (and `p.i` unchanged) when
 * the bracket is not closed: then `[` is literal, as in bash.
 */
function parseClass(p: Parser): string | undefined {
  let i = p.i + 1;
  const negated = p.glob[i] === '!' || p.glob[i] === '^';
  if (negated) i++;
  let members = '';
  const astral: string[] = [];
  let first = true;
  let closed = false;
  while (i < p.glob.length) {
    let ch = p.glob[i]!;
    if (ch === ']' && !first) {
      closed = true;
      i++;
      break;
    }
    first = false;
    if (ch === '[' && p.glob[i + 1] === ':') {
      const end = p.glob.indexOf(':]', i + 2);
      const name = end < 0 ? undefined : p.glob.slice(i + 2, end);
      if (name !== undefined && POSIX_CLASSES[name] !== undefined) {
        members += POSIX_CLASSES[name];
        p.unicode = true;
        i = end + 2;
        continue;
      }
    }
    if (ch === '\\' && p.escapes && i + 1 < p.glob.length) {
      i++;
      ch = p.glob[i]!;
    }
    const cp = nextCodePoint(p.glob, i);
    i += cp.length;
    // A range: `a-z`, unless the `-` is last (then it is literal).
    if (p.glob[i] === '-' && i + 1 < p.glob.length && p.glob[i + 1] !== ']') {
      let j = i + 1;
      if (p.glob[j] === '\\' && p.escapes && j + 1 < p.glob.length) j++;
      const high = nextCodePoint(p.glob, j);
      i = j + high.length;
      const lo = cp.codePointAt(0)!;
      const hi = high.codePointAt(0)!;
      if (lo > hi) continue; // bash: a reversed range matches nothing
      if (hi > 0xffff) {
        throw new FindFileError('FF_INVALID_PATTERN', `pattern ${JSON.stringify(p.raw)}: a range in [...] may not end beyond U+FFFF`, 'pattern');
      }
      members += `${escapeClassChar(cp)}-${escapeClassChar(high)}`;
      continue;
    }
    if (cp.length === 2) astral.push(cp);
    else members += escapeClassChar(cp);
  }
  if (!closed) return undefined;
  p.i = i;
  // `/` never matches: segments hold none, and a class may not reach across one.
  const set = members === '' ? '' : `[${members}]`;
  const options = [...astral.map(escapeRegex), ...(set === '' ? [] : [set])];
  if (negated) {
    const notIn = options.length === 0 ? '' : `(?!${options.join('|')})`;
    return `${notIn}${ONE_CHAR}`;
  }
  if (options.length === 0) return '(?!)'; // only reversed ranges: nothing matches
  const positive = options.length === 1 ? options[0]! : `(?:${options.join('|')})`;
  return `(?!/)${positive}`;
}

function nextCodePoint(text: string, i: number): string {
  if (i >= text.length) return '';
  const code = text.charCodeAt(i);
  if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
    const low = text.charCodeAt(i + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return text.slice(i, i + 2);
  }
  return text[i]!;
}

/** Splits one brace-free, normalised glob into compiled segments (consecutive `**` merged). */
export function compilePath(glob: string, escapes: boolean, raw: string): PathSegment[] {
  const segments: PathSegment[] = [];
  for (const text of glob.split('/')) {
    if (text === '**') {
      if (segments[segments.length - 1] !== GLOBSTAR) segments.push(GLOBSTAR);
    } else {
      segments.push(compileSegment(text, escapes, raw));
    }
  }
  return segments;
}

/**
 * The whole-path regex source. `forFiles`: a trailing `**` needs at least one more segment (a file
 * `a` is not under `a/**`); for directories (exclude) it may be none, so `dist/**` leaves out `dist`.
 */
export function pathSource(segments: readonly PathSegment[], forFiles: boolean): string {
  let out = '';
  const last = segments.length - 1;
  segments.forEach((segment, i) => {
    if (segment === GLOBSTAR) {
      if (i === last) out += i === 0 ? '[^/]+(?:/[^/]+)*' : forFiles ? '(?:/[^/]+)+' : '(?:/[^/]+)*';
      else out += '(?:[^/]+/)*';
      return;
    }
    out += segment.source;
    if (i < last && !(i + 1 === last && segments[last] === GLOBSTAR)) out += '/';
  });
  return `^${out}$`;
}

/**
 * Could some path below the directory `relDir` match? Segment by segment: the set of pattern
 * positions reachable after each directory name; a `**` can take any number of names. Over-answering
 * only costs a read; under-answering would hide files, so every unsure case says yes.
 */
export function buildPartialTest(segments: readonly PathSegment[], flags: string): (relDir: string) => boolean {
  return literalPrefixThenGlobstar(segments, flags) ?? buildSteppedPartialTest(segments, flags);
}

/** The general partial test, for every shape (exported for the test that checks the fast one against it). */
export function buildSteppedPartialTest(segments: readonly PathSegment[], flags: string): (relDir: string) => boolean {
  const tests = segments.map((s) => (s === GLOBSTAR ? undefined : new RegExp(`^${s.source}$`, flags)));
  const n = segments.length;
  const closure = (states: Set<number>) => {
    for (const i of states) if (i < n && segments[i] === GLOBSTAR) states.add(i + 1);
    return states;
  };
  return (relDir) => {
    let states = closure(new Set([0]));
    for (const name of relDir.split('/')) {
      const next = new Set<number>();
      for (const i of states) {
        if (i >= n) continue;
        if (segments[i] === GLOBSTAR) next.add(i);
        else if (tests[i]!.test(name)) next.add(i + 1);
      }
      if (next.size === 0) return false;
      states = closure(next);
    }
    // A file below needs at least one more segment of pattern left to match it.
    for (const i of states) if (i < n) return true;
    return false;
  };
}

/**
 * The partial test of the commonest rooted shape, `lit/lit/**...` (literal names, then `**`), as
 * string compares: a directory could hold a match when it lies on the literal path or below it
 * (the `**` takes any names, and a file below needs only what follows it). Perf: the general test
 * splits the path and steps sets per directory (2.3 ms of a 34 ms rooted walk, profiled).
 * Undefined for other shapes, and when case does not matter (a folded compare would have to fold
 * exactly as the regex does).
 */
function literalPrefixThenGlobstar(segments: readonly PathSegment[], flags: string): ((relDir: string) => boolean) | undefined {
  if (flags.includes('i')) return undefined;
  const names: string[] = [];
  let i = 0;
  for (; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === GLOBSTAR || segment.literal === undefined) break;
    names.push(segment.literal);
  }
  if (segments[i] !== GLOBSTAR) return undefined;
  const prefix = names.join('/');
  if (prefix === '') return () => true;
  // Perf: a length check and one compare, with no string made per directory.
  const SLASH = 47;
  return (relDir) =>
    relDir.length > prefix.length
      ? relDir.charCodeAt(prefix.length) === SLASH && relDir.startsWith(prefix)
      : relDir.length === prefix.length
        ? relDir === prefix
        : prefix.charCodeAt(relDir.length) === SLASH && prefix.startsWith(relDir);
}
