/**
 * One path segment of a glob (no `/` in it), parsed into nodes. The meaning is bash's with
 * `extglob dotglob` on (docs/contract.md has the table; test/conformance checks it against bash):
 *
 * - `*` any run of characters; `?` one character (a code point, not a UTF-16 unit);
 *   `[...]` one character of a set, `[!...]`/`[^...]` one not in it, ranges by code point, POSIX
 *   classes by glibc's tables (src/glob/posix-classes.ts); `\x` the character x (posix only: on
 *   win32 `\` is a separator).
 * - `@(a|b)`, `?(..)`, `*(..)`, `+(..)`: one, zero or one, any, one or more of the alternatives.
 *   `!(a|b)`: anything but them, as the last thing in a segment and outside other groups (where
 *   its meaning is "the rest of the segment is none of them"). Elsewhere the pattern is refused.
 * - A group ends where bash's scan ends it: any `(` inside nests (`@(a(b|c))` is the one
 *   alternative `a(b|c)`, its parentheses plain characters), a `)` or `|` inside `[...]` or after
 *   `\` does not count. A group not closed in its segment makes the rest of the segment plain
 *   text as written (`a*(b` is only the name `a*(b`; `@(a|@(b|c)` only itself).
 * - Everything else is literal, including an unclosed `[`, and `(`, `)`, `|` outside groups.
 *
 * Parsing only says what the glob means; how it is matched is chosen from the nodes
 * (src/glob/segment.ts): a V8 regex where that is provably linear, else a state-set simulation.
 */
import { FindFileError } from '../errors.js';
import { POSIX_CLASS_NAMES, isPosixClassName } from './posix-classes.js';

/** One member of a `[...]` set: a code point range (`lo === hi` for one), or a POSIX class by name. */
export type ClassItem = { lo: number; hi: number } | { posix: string };

export type GlobNode =
  | { kind: 'char'; cp: number }
  | { kind: 'one' }
  | { kind: 'star' }
  | { kind: 'class'; negated: boolean; items: ClassItem[] }
  | { kind: 'group'; op: '@' | '?' | '*' | '+'; alternatives: GlobNode[][] }
  /**
   * `!(...)`: only ever the last node of a segment's top level. `afterStar`: it follows a run of
   * `*` and `?`, where bash passes a name that ends where it starts, whatever the alternatives
   * (its `*` asks them the other way round there): so does find-file, never saying no where bash
   * says yes.
   */
  | { kind: 'not'; alternatives: GlobNode[][]; afterStar: boolean };

export interface ParsedSegment {
  nodes: GlobNode[];
  /** The segment's characters when it has no magic (escapes resolved): a string compare does. */
  literal: string | undefined;
}

const EXTGLOB_KINDS = '?*+@!';

/**
 * Groups nested deeper are refused (`FF_PATTERN_TOO_LARGE`): parsing and compiling recurse once per
 * level, and 3,000 levels overflowed the stack ("unexpected failure", exit 1, for bad input).
 */
export const MAX_GROUP_NESTING = 100;

interface Parser {
  glob: string;
  i: number;
  escapes: boolean;
  raw: string;
  /** What the `[` scans of this segment learned (`parseClass`), made on the first. */
  classScans?: ClassScans;
}

/**
 * Perf: an unclosed `[` is literal, found by scanning to the end of the segment, so `[` x 9,998
 * scanned ~50 million characters (4.8 s, past any time budget: compiling is not a step of the
 * walk). A scan that found no close marks each position where it read an item. A later scan that
 * reaches such a position as an item reads the rest exactly as that scan did (the two could differ
 * only in how they read a `]` there, and that scan read none: it would have closed), so it fails
 * there. A position is read as an item by at most one scan that fails (a scan that closes is never
 * passed again), so reading is linear however the scans' items fall out of step (`[!-` x 3,333: a
 * range `!-[` swallows the next `[`, so each scan's items fell between the last one's).
 */
interface ClassScans {
  /** The end the scans ran to (a group's alternative ends earlier): other ends start afresh. */
  end: number;
  count: number;
  /** The scan that last read an item at each position (0: none). */
  itemAt: Int32Array;
  failed: Set<number>;
  /** The last search for `:]`, `.]` and `=]`: from where, and what it found (-1: none from there on). */
  closes: Map<string, { from: number; at: number }>;
}

function classScansOf(p: Parser, end: number): ClassScans {
  if (p.classScans === undefined || p.classScans.end !== end) {
    p.classScans = { end, count: 0, itemAt: new Int32Array(p.glob.length + 1), failed: new Set(), closes: new Map() };
  }
  return p.classScans;
}

/**
 * The first `close` (`:]`, `.]`, `=]`) at or after `from`: a search per `[:` was quadratic too
 * (`[:` x 5,000 then `:]`). The last answer holds for any later `from` up to where it was found.
 */
function closeAfter(scans: ClassScans, glob: string, close: string, from: number): number {
  let last = scans.closes.get(close);
  if (last === undefined || from < last.from || (last.at >= 0 && last.at < from)) {
    last = { from, at: glob.indexOf(close, from) };
    scans.closes.set(close, last);
  }
  return last.at;
}

/** The longest POSIX class name (`xdigit`): a longer one (twice that with backslashes) is not looked up (nor sliced out). */
const LONGEST_CLASS_NAME = Math.max(...POSIX_CLASS_NAMES.map((name) => name.length));

/**
 * Splits a brace-free glob into its segments where bash's pathname expansion splits it
 * (glob_dirscan): at each `/`, an escaped one too (`src\/*.ts` is `src/*.ts`), but not inside
 * a closed extglob group (bash reads `@(a/b|c)` as one name pattern: it matches `c`; no name
 * holds the `/` of `a/b`), and nowhere after a group opener left unclosed: bash reads the rest
 * of the pattern, slashes included, as one name pattern (`src/app**(x/c.ts` is `app*` in `src`,
 * not `c.ts` in `src/app`).
 */
export function splitSegments(glob: string, escapes: boolean): string[] {
  // Only the groups and escapes before the last `/` can change where it splits.
  const lastSlash = glob.lastIndexOf('/');
  if (lastSlash < 0 || (!glob.includes('(') && !(escapes && glob.includes('\\')))) return glob.split('/');
  const segments: string[] = [];
  let start = 0;
  // Perf: each group is scanned once, from its opener to its close, and the loop goes on past the
  // close; a group never closed ends the loop. So the whole split reads each character at most twice.
  for (let i = 0; i <= lastSlash; i++) {
    const c = glob[i]!;
    if (c === '\\' && escapes) {
      if (glob[i + 1] === '/') {
        segments.push(glob.slice(start, i));
        start = i + 2;
      }
      i++;
    } else if (c === '/') {
      segments.push(glob.slice(start, i));
      start = i + 1;
    } else if (EXTGLOB_KINDS.includes(c) && glob[i + 1] === '(') {
      const scan = scanGroup(glob, escapes, i + 2, glob.length);
      if (scan === undefined) break;
      i = scan.close;
    }
  }
  segments.push(glob.slice(start));
  return segments;
}

/** Parses one segment. `raw` names the whole pattern in errors. Throws `FindFileError` for what the dialect refuses. */
export function parseSegment(glob: string, escapes: boolean, raw: string): ParsedSegment {
  const parser: Parser = { glob, i: 0, escapes, raw };
  const nodes = parseSequence(parser, glob.length, 0);
  let literal: string | undefined = '';
  for (const node of nodes) {
    if (node.kind !== 'char') {
      literal = undefined;
      break;
    }
    literal += String.fromCodePoint(node.cp);
  }
  return { nodes, literal };
}

/** Parses `glob[p.i, end)`: the whole segment (depth 0) or one alternative of a group. */
function parseSequence(p: Parser, end: number, depth: number): GlobNode[] {
  const nodes: GlobNode[] = [];
  // Where the run of `*`, `?`, `*(...)` and `?(...)` that starts at the last unescaped `*` starts
  // in `nodes` (-1: the text since that `*` holds something else). bash reads an open group after
  // such a run apart.
  let starRun = -1;
  while (p.i < end) {
    const ch = p.glob[p.i]!;
    const afterRun = starRun;
    if (ch !== '*' && ch !== '?') starRun = -1;
    if (ch === '\\' && p.escapes) {
      const next = p.i + 1 < end ? p.glob.codePointAt(p.i + 1) : undefined;
      nodes.push({ kind: 'char', cp: next ?? 0x5c });
      p.i += next === undefined ? 1 : 1 + (next > 0xffff ? 2 : 1);
      continue;
    }
    if (EXTGLOB_KINDS.includes(ch) && p.i + 1 < end && p.glob[p.i + 1] === '(') {
      const scan = scanGroup(p.glob, p.escapes, p.i + 2, end);
      if (scan === undefined) readOpenGroup(p, end, nodes, afterRun);
      else {
        nodes.push(parseGroup(p, scan, end, depth, afterRun >= 0));
        // bash's `*` steps over a `*(...)` or `?(...)` (each may match nothing) as part of its run.
        starRun = ch === '*' || ch === '?' ? afterRun : -1;
      }
      continue;
    }
    if (ch === '*') {
      // Runs of `*` are one `*`; a later `*(` starts an extglob.
      if (starRun < 0) starRun = nodes.length;
      p.i++;
      while (p.i < end && p.glob[p.i] === '*' && p.glob[p.i + 1] !== '(') p.i++;
      if (nodes[nodes.length - 1]?.kind !== 'star') nodes.push({ kind: 'star' });
      continue;
    }
    if (ch === '?') {
      nodes.push({ kind: 'one' });
      p.i++;
      continue;
    }
    if (ch === '[') {
      const cls = parseClass(p, end);
      if (cls !== undefined) {
        nodes.push(cls);
        continue;
      }
    }
    const cp = p.glob.codePointAt(p.i)!;
    nodes.push({ kind: 'char', cp });
    p.i += cp > 0xffff ? 2 : 1;
  }
  return nodes;
}

/**
 * A group `K(` at `p.i` that is not closed before `end`: bash compares the rest of the pattern as
 * plain text, as written (`*`, `[` and `\` in it are themselves), but for what its `*` does first
 * when the group follows a run of `*` and `?` (`starRun`, the run's first node): an open `?(` or
 * `*(` there is skipped and the `*` takes the rest of the name (`a**(b` matches `axyz`); an open
 * `!(` there also matches where the run's `?` end the name (`a*!(b` matches `a`).
 */
function readOpenGroup(p: Parser, end: number, nodes: GlobNode[], starRun: number): void {
  const kind = p.glob[p.i]!;
  const rest = p.glob.slice(p.i, end);
  // The rest may hold a `/` (splitSegments keeps it in this segment, as bash does): no name holds
  // one, so such text matches nothing (an empty set), and never a path read across the `/`.
  const text: GlobNode[] = rest.includes('/') ? [{ kind: 'class', negated: false, items: [] }] : [...rest].map((c) => ({ kind: 'char', cp: c.codePointAt(0)! }));
  p.i = end;
  if (starRun < 0 || kind === '+' || kind === '@') nodes.push(...text);
  else if (kind !== '!') nodes.push({ kind: 'star' });
  else {
    // The run's groups match nothing here (bash skips them), its `?` one character each.
    const ones = nodes.splice(starRun).filter((node) => node.kind === 'one');
    nodes.push({ kind: 'group', op: '@', alternatives: [ones, [...ones, { kind: 'star' }, ...text]] });
  }
}

interface GroupScan {
  /** The index of the `)` that closes the group. */
  close: number;
  /** The indices of the `|` between its alternatives. */
  bars: number[];
}

/**
 * Where the group opened just before `from` closes, scanned as bash scans it (PATSCAN): a `\`
 * hides the next character, any `(` nests (not only an extglob's), and inside `[...]` nothing but
 * the `]` that ends the set counts (a `]` first, or right after the `:`, `.` or `=` of a `[:`,
 * `[.` or `[=` seen before, does not end it). Undefined when it is not closed before `end`.
 */
function scanGroup(glob: string, escapes: boolean, from: number, end: number): GroupScan | undefined {
  const bars: number[] = [];
  // The `(` met and not yet closed.
  let open = 0;
  let inSet = false;
  let setStart = 0;
  // The `:`, `.` or `=` of the last `[:`, `[.` or `[=` seen in a set: a `]` after it ends no set
  // (bash 5.2 keeps it past the set's end, as here).
  let setQuote = '';
  let lastBracket: number | undefined;
  for (let i = from; i < end; i++) {
    const c = glob[i]!;
    if (c === '\\' && escapes) i++;
    else if (c === '[') {
      if (!inSet) {
        // A set no `]` can end holds the rest: the group is not closed (no need to read on).
        lastBracket ??= glob.lastIndexOf(']', end - 1);
        if (lastBracket < i) return undefined;
        inSet = true;
        setStart = i + 1;
        if (glob[setStart] === '!' || glob[setStart] === '^') setStart++;
      } else if (':.='.includes(glob[i + 1] ?? '_')) setQuote = glob[i + 1]!;
    } else if (c === ']') {
      if (!inSet) continue;
      if (setQuote !== '' && glob[i - 1] === setQuote) setQuote = '';
      else if (i !== setStart) inSet = false;
    } else if (inSet) continue;
    else if (c === '(') open++;
    else if (c === ')') {
      if (open === 0) return { close: i, bars };
      open--;
    } else if (c === '|' && open === 0) bars.push(i);
  }
  return undefined;
}

/** The group `K(...)` at `p.i` (K one of `?*+@!`), closed where `scan` says; each alternative is parsed within its bounds. */
function parseGroup(p: Parser, scan: GroupScan, end: number, depth: number, afterStar: boolean): GlobNode {
  const kind = p.glob[p.i]!;
  if (depth >= MAX_GROUP_NESTING) {
    throw new FindFileError('FF_PATTERN_TOO_LARGE', `pattern ${JSON.stringify(p.raw)}: groups nested more than ${MAX_GROUP_NESTING} deep`, 'pattern');
  }
  const alternatives: GlobNode[][] = [];
  let from = p.i + 2;
  for (const to of [...scan.bars, scan.close]) {
    p.i = from;
    alternatives.push(parseSequence(p, to, depth + 1));
    from = to + 1;
  }
  p.i = scan.close + 1;
  if (kind !== '!') return { kind: 'group', op: kind as '@' | '?' | '*' | '+', alternatives };
  // bash: `!(L)R` matches when some split leaves a head not in L and a tail in R. With R empty that
  // is "the rest of the segment is not in L", which the matchers compute exactly. Any other place
  // is refused rather than approximated: an approximation could hide a file.
  if (depth > 0 || p.i < end) {
    throw new FindFileError(
      'FF_INVALID_PATTERN',
      `pattern ${JSON.stringify(p.raw)}: "!(...)" is supported only at the end of a path segment and outside other groups (as in "!(*.js)" or "*.!(js)"): use exclude to leave files out`,
      'pattern',
    );
  }
  return { kind: 'not', alternatives, afterStar };
}

/**
 * `[...]` at `p.i`, within `end`. Returns the node, or undefined (and `p.i` unchanged) when the
 * bracket is not closed: then `[` is literal, as in bash.
 */
function parseClass(p: Parser, end: number): GlobNode | undefined {
  const { glob } = p;
  let i = p.i + 1;
  const negated = glob[i] === '!' || glob[i] === '^';
  if (negated) i++;
  const scans = classScansOf(p, end);
  const scan = ++scans.count;
  const items: ClassItem[] = [];
  // The first one-character member followed by a `/` (only ever inside a group, where no `/`
  // splits): bash gives up on the set when its scan for a member reaches it, so it and all after
  // it match nothing, and a negated set nothing at all (`@([xa/])` is `x`; `!([a/b])` is anything).
  let cut: number | undefined;
  let first = true;
  while (i < end) {
    if (glob[i] === ']' && !first) {
      p.i = i + 1;
      if (cut === undefined) return { kind: 'class', negated, items };
      return { kind: 'class', negated: false, items: negated ? [] : items.slice(0, cut) };
    }
    // Where a failed scan read an item, this one reads the rest as it did: it fails too.
    if (scans.failed.has(scans.itemAt[i]!)) break;
    scans.itemAt[i] = scan;
    first = false;
    // bash reads `[.a.]` and `[=a=]` as a collating symbol and an equivalence class (by name:
    // `[.space.]` is a space, `[.ab.]` matches nothing). Not read here: refused, never misread.
    if (glob[i] === '[' && (glob[i + 1] === '.' || glob[i + 1] === '=')) {
      const close = closeAfter(scans, glob, `${glob[i + 1]}]`, i + 2);
      if (close >= 0 && close + 2 <= end) {
        throw new FindFileError(
          'FF_INVALID_PATTERN',
          `pattern ${JSON.stringify(p.raw)}: collating symbols and equivalence classes ("[.a.]", "[=a=]" inside a set) are not supported: write the character itself, "[a]"`,
          'pattern',
        );
      }
      // bash 5.2 reads a `[.` never closed to the end, so the set is never closed: its `[` is literal.
      if (glob[i + 1] === '.') break;
    }
    if (glob[i] === '[' && glob[i + 1] === ':') {
      const nameEnd = closeAfter(scans, glob, ':]', i + 2);
      // bash: `[:name:]` with a name it does not know is a class of nothing, not its characters. A
      // backslash in the name is removed (`[:al\pha:]` is `[:alpha:]`), as bash dequotes it.
      if (nameEnd >= 0 && nameEnd + 2 <= end) {
        const quoted = nameEnd - i - 2 <= 2 * LONGEST_CLASS_NAME ? glob.slice(i + 2, nameEnd) : '';
        const name = p.escapes ? quoted.replace(/\\(.?)/gs, '$1') : quoted;
        items.push(isPosixClassName(name) ? { posix: name } : { lo: 1, hi: 0 });
        i = nameEnd + 2;
        continue;
      }
      // bash 5.2 drops the `[` of a `[:` never closed: `[[:alpha]` is the set of `:alpha`.
      i++;
    }
    if (glob[i] === '\\' && p.escapes && i + 1 < end) i++;
    const lo = glob.codePointAt(i)!;
    i += lo > 0xffff ? 2 : 1;
    // A range: `a-z`, unless the `-` is last (then it is literal). A reversed one matches nothing.
    if (glob[i] === '-' && i + 1 < end && glob[i + 1] !== ']') {
      let j = i + 1;
      if (glob[j] === '\\' && p.escapes && j + 1 < end) j++;
      const hi = glob.codePointAt(j)!;
      i = j + (hi > 0xffff ? 2 : 1);
      items.push({ lo, hi });
      continue;
    }
    if (glob[i] === '/') cut ??= items.length;
    items.push({ lo, hi: lo });
  }
  scans.failed.add(scan);
  return undefined;
}
