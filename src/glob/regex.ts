/**
 * The fast path: a segment's nodes as V8 regex source, only for shapes a backtracking engine
 * matches in linear time (`isLinearInV8`). Everything else goes to the state-set simulation
 * (src/glob/nfa.ts), whose answers these must equal (test/glob/nfa.test.ts compares them).
 *
 * The source never matches `/`, uses no `.` (names holding a newline match like any other) and
 * needs no `u` flag: it matches code points spelled out over UTF-16 units. Every piece starts and
 * ends between two code points, never between the halves of a surrogate pair: `?` takes a pair
 * whole, a set never takes a pair's first half as a BMP member (`[ぁ-ﾟ]` spans U+D800-U+DFFF),
 * and a `*` stops between two halves only where the next piece could start with a second half,
 * which a guard then refuses (`*[!😀]` matched `😀` as its high half and a lone low half).
 */
import { escapeClassChar, escapeRegex } from '../regex-escape.js';
import type { GlobNode } from './parse.js';

/** One code point other than `/`: a surrogate pair, or one unit that is not the first half of one. */
const ONE_CHAR = '(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|[^/\\uD800-\\uDBFF])';
const ANY_RUN = '[^/]*';
/** Not between the halves of a surrogate pair (after a `*`, before a piece that could take a second half). */
const AT_CODE_POINT = '(?<![\\uD800-\\uDBFF](?=[\\uDC00-\\uDFFF]))';
/** Not at the first half of a surrogate pair (before a BMP set that holds first halves, or after a lone first half). */
const NOT_A_PAIR = '(?![\\uD800-\\uDBFF][\\uDC00-\\uDFFF])';
const NO_SECOND_HALF = '(?![\\uDC00-\\uDFFF])';

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
  nodes.forEach((node, i) => {
    if (node.kind === 'char') source += escapeRegex(String.fromCodePoint(node.cp)) + (isHighHalf(node.cp) ? NO_SECOND_HALF : '');
    else if (node.kind === 'one') source += ONE_CHAR;
    else if (node.kind === 'star') source += ANY_RUN + (mayStartWithSecondHalf(nodes[i + 1]) ? AT_CODE_POINT : '');
    else if (node.kind === 'class') source += classSource(node.items as readonly { lo: number; hi: number }[], node.negated);
    else throw new Error(`regexSource: ${node.kind} has no linear regex`);
  });
  return source;
}

const isHighHalf = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isSecondHalf = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * Perf: the guard after a `*` only where it can matter. After a `*` that stopped between two
 * halves the next unit is a second half: the end of the segment, a literal other than one and a
 * set holding none never match there, so `*.ts` and `*[0-9]` keep their plain `[^/]*`.
 */
function mayStartWithSecondHalf(next: GlobNode | undefined): boolean {
  if (next === undefined) return false;
  if (next.kind === 'char') return isSecondHalf(next.cp);
  if (next.kind === 'class' && !next.negated) return next.items.some((item) => 'lo' in item && item.lo <= 0xdfff && item.hi >= 0xdc00);
  return true;
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
  // A BMP member may be a first half (`[ぁ-ﾟ]`): then it must not take the start of a pair.
  const guard = ranges.some(({ lo, hi }) => lo <= hi && lo <= 0xdbff && hi >= 0xd800) ? NOT_A_PAIR : '';
  const options = [...astral, ...(members === '' ? [] : [`${guard}[${members}]`])];
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
