/**
 * The fast path: a segment's nodes as V8 regex source, only for shapes a backtracking engine
 * matches in linear time (`isLinearInV8`). Everything else goes to the state-set simulation
 * (src/glob/nfa.ts), whose answers these must equal (test/glob/nfa.test.ts compares them).
 *
 * The source never matches `/`, uses no `.` (names holding a newline match like any other) and
 * needs no `u` flag: `?` is one code point spelled out over UTF-16 units.
 */
import { escapeClassChar, escapeRegex } from '../regex-escape.js';
import type { GlobNode } from './parse.js';

/** One code point other than `/`: a surrogate pair, or one unit that is not the first half of one. */
const ONE_CHAR = '(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|[^/\\uD800-\\uDBFF])';
const ANY_RUN = '[^/]*';

/**
 * At most one `*`, no extglob, no POSIX class and no range ending beyond U+FFFF (one such character is fine): then a backtracking match
 * tries each place for the one star once against a fixed tail, (name length × pattern size) at
 * worst. Two stars already cost (length² × size) on a miss, and each more one a factor of length.
 */
export function isLinearInV8(nodes: readonly GlobNode[]): boolean {
  let stars = 0;
  for (const node of nodes) {
    if (node.kind === 'star') stars++;
    else if (node.kind === 'group' || node.kind === 'not') return false;
    else if (node.kind === 'class' && node.items.some((item) => 'posix' in item || (item.hi > 0xffff && item.lo < item.hi))) return false;
  }
  return stars <= 1;
}

/**
 * A V8 regex for a glob's source, compiled now; undefined when V8 cannot compile it. Its compiler
 * recurses per node, and a linear source of thousands of pieces (`?` 7,000 times: a surrogate
 * pair or one unit, each) overflows its stack at the first match ("Invalid regular expression:
 * Stack overflow", an adversarial run through the agent tools): thrown mid-walk, it rejected the
 * search. The caller then matches another way (the state sets, the path stepper).
 */
export function compiledRegex(source: string, flags: string): RegExp | undefined {
  try {
    const re = new RegExp(source, flags);
    re.test(''); // V8 compiles on the first match
    return re;
  } catch {
    return undefined;
  }
}

/** Regex source (no anchors) for nodes `isLinearInV8` accepts. */
export function regexSource(nodes: readonly GlobNode[]): string {
  let source = '';
  for (const node of nodes) {
    if (node.kind === 'char') source += escapeRegex(String.fromCodePoint(node.cp));
    else if (node.kind === 'one') source += ONE_CHAR;
    else if (node.kind === 'star') source += ANY_RUN;
    else if (node.kind === 'class') source += classSource(node.items as readonly { lo: number; hi: number }[], node.negated);
    else throw new Error(`regexSource: ${node.kind} has no linear regex`);
  }
  return source;
}

/** One code point of a set of ranges (none beyond U+FFFF but single ones), or not of it. */
function classSource(ranges: readonly { lo: number; hi: number }[], negated: boolean): string {
  let members = '';
  const astral: string[] = [];
  for (const { lo, hi } of ranges) {
    if (lo > hi) continue; // bash: a reversed range matches nothing
    if (lo > 0xffff) astral.push(escapeRegex(String.fromCodePoint(lo)));
    else members += lo === hi ? escapeClassChar(String.fromCharCode(lo)) : `${escapeClassChar(String.fromCharCode(lo))}-${escapeClassChar(String.fromCharCode(hi))}`;
  }
  const options = [...astral, ...(members === '' ? [] : [`[${members}]`])];
  if (negated) return `${options.length === 0 ? '' : `(?!${options.join('|')})`}${ONE_CHAR}`;
  if (options.length === 0) return '(?!)'; // only reversed ranges: nothing matches
  // `/` never matches: segments hold none, and a class may not reach across one.
  return `(?!/)${options.length === 1 ? options[0]! : `(?:${options.join('|')})`}`;
}

/** The regex source of a `**` segment, by its place: see `pathSource` in src/glob/path.ts. */
export const GLOBSTAR_SOURCE = {
  alone: '[^/]+(?:/[^/]+)*',
  lastForFiles: '(?:/[^/]+)+',
  lastForDirs: '(?:/[^/]+)*',
  inner: '(?:[^/]+/)*',
};
