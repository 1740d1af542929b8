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
 * - Everything else is literal, including an unclosed `[` or `(`.
 *
 * Parsing only says what the glob means; how it is matched is chosen from the nodes
 * (src/glob/segment.ts): a V8 regex where that is provably linear, else a state-set simulation.
 */
import { FindFileError } from '../errors.js';
import { isPosixClassName } from './posix-classes.js';

/** One member of a `[...]` set: a code point range (`lo === hi` for one), or a POSIX class by name. */
export type ClassItem = { lo: number; hi: number } | { posix: string };

export type GlobNode =
  | { kind: 'char'; cp: number }
  | { kind: 'one' }
  | { kind: 'star' }
  | { kind: 'class'; negated: boolean; items: ClassItem[] }
  | { kind: 'group'; op: '@' | '?' | '*' | '+'; alternatives: GlobNode[][] }
  /** `!(...)`: only ever the last node of a segment's top level. */
  | { kind: 'not'; alternatives: GlobNode[][] };

export interface ParsedSegment {
  nodes: GlobNode[];
  /** The segment's characters when it has no magic (escapes resolved): a string compare does. */
  literal: string | undefined;
}

const EXTGLOB_KINDS = '?*+@!';

interface Parser {
  glob: string;
  i: number;
  escapes: boolean;
  raw: string;
}

/** Parses one segment. `raw` names the whole pattern in errors. Throws `FindFileError` for what the dialect refuses. */
export function parseSegment(glob: string, escapes: boolean, raw: string): ParsedSegment {
  const parser: Parser = { glob, i: 0, escapes, raw };
  const nodes = parseSequence(parser, 0);
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

/** Parses until the end of the segment (depth 0) or an unnested `|`/`)` (inside a group). */
function parseSequence(p: Parser, depth: number): GlobNode[] {
  const nodes: GlobNode[] = [];
  while (p.i < p.glob.length) {
    const ch = p.glob[p.i]!;
    if (depth > 0 && (ch === '|' || ch === ')')) break;
    if (ch === '\\' && p.escapes) {
      const next = p.glob.codePointAt(p.i + 1);
      nodes.push({ kind: 'char', cp: next ?? 0x5c });
      p.i += next === undefined ? 1 : 1 + (next > 0xffff ? 2 : 1);
      continue;
    }
    if (EXTGLOB_KINDS.includes(ch) && p.glob[p.i + 1] === '(') {
      const group = parseExtglob(p, depth);
      if (group !== undefined) {
        nodes.push(group);
        continue;
      }
    }
    if (ch === '*') {
      // Runs of `*` are one `*`; a later `*(` starts an extglob (an unclosed one is a `*` and a `(`).
      p.i++;
      while (p.glob[p.i] === '*' && p.glob[p.i + 1] !== '(') p.i++;
      if (nodes[nodes.length - 1]?.kind !== 'star') nodes.push({ kind: 'star' });
      continue;
    }
    if (ch === '?') {
      nodes.push({ kind: 'one' });
      p.i++;
      continue;
    }
    if (ch === '[') {
      const cls = parseClass(p);
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
 * `K(a|b)` at `p.i` (K one of `?*+@!`). Returns the node, or undefined (and `p.i` unchanged) when
 * the group is not closed in this segment: then `K` and `(` are literal, as in bash.
 */
function parseExtglob(p: Parser, depth: number): GlobNode | undefined {
  const start = p.i;
  const kind = p.glob[p.i]!;
  p.i += 2;
  const alternatives: GlobNode[][] = [];
  for (;;) {
    alternatives.push(parseSequence(p, depth + 1));
    if (p.i >= p.glob.length) {
      p.i = start;
      return undefined;
    }
    const stop = p.glob[p.i]!;
    p.i++;
    if (stop === ')') break;
  }
  if (kind !== '!') return { kind: 'group', op: kind as '@' | '?' | '*' | '+', alternatives };
  // bash: `!(L)R` matches when some split leaves a head not in L and a tail in R. With R empty that
  // is "the rest of the segment is not in L", which the matchers compute exactly. Any other place
  // is refused rather than approximated: an approximation could hide a file.
  if (depth > 0 || p.i < p.glob.length) {
    throw new FindFileError(
      'FF_INVALID_PATTERN',
      `pattern ${JSON.stringify(p.raw)}: "!(...)" is supported only at the end of a path segment and outside other groups (as in "!(*.js)" or "*.!(js)"): use exclude to leave files out`,
      'pattern',
    );
  }
  return { kind: 'not', alternatives };
}

/**
 * `[...]` at `p.i`. Returns the node, or undefined (and `p.i` unchanged) when the bracket is not
 * closed: then `[` is literal, as in bash.
 */
function parseClass(p: Parser): GlobNode | undefined {
  const { glob } = p;
  let i = p.i + 1;
  const negated = glob[i] === '!' || glob[i] === '^';
  if (negated) i++;
  const items: ClassItem[] = [];
  let first = true;
  while (i < glob.length) {
    if (glob[i] === ']' && !first) {
      p.i = i + 1;
      return { kind: 'class', negated, items };
    }
    first = false;
    if (glob[i] === '[' && glob[i + 1] === ':') {
      const end = glob.indexOf(':]', i + 2);
      const name = end < 0 ? '' : glob.slice(i + 2, end);
      // bash: `[:name:]` with a name it does not know is a class of nothing, not its characters.
      if (end >= 0) {
        items.push(isPosixClassName(name) ? { posix: name } : { lo: 1, hi: 0 });
        i = end + 2;
        continue;
      }
    }
    if (glob[i] === '\\' && p.escapes && i + 1 < glob.length) i++;
    const lo = glob.codePointAt(i)!;
    i += lo > 0xffff ? 2 : 1;
    // A range: `a-z`, unless the `-` is last (then it is literal). A reversed one matches nothing.
    if (glob[i] === '-' && i + 1 < glob.length && glob[i + 1] !== ']') {
      let j = i + 1;
      if (glob[j] === '\\' && p.escapes && j + 1 < glob.length) j++;
      const hi = glob.codePointAt(j)!;
      i = j + (hi > 0xffff ? 2 : 1);
      items.push({ lo, hi });
      continue;
    }
    items.push({ lo, hi: lo });
  }
  return undefined;
}
