/**
 * One path segment compiled into the cheapest test that is bounded for its shape: a string
 * compare for a literal, a V8 regex where backtracking is provably linear (src/glob/regex.ts), the
 * state-set simulation everywhere else (src/glob/nfa.ts). `couldMatch` is the undecoded-name
 * question (see nfa.ts), asked only of names holding U+FFFD, so its program is built on first use.
 */
import { foldRangesAsBash } from './fold.js';
import { compileNfa, type SegmentNfa } from './nfa.js';
import { parseSegment, type GlobNode } from './parse.js';
import { compiledRegex, isLinearInV8, regexSource } from './regex.js';

export interface SegmentGlob {
  /** The segment's characters when it has no magic (escapes resolved). */
  literal: string | undefined;
  /** Regex source (no anchors, never matches `/`) when its backtracking is linear; undefined otherwise. */
  source: string | undefined;
  nodes: readonly GlobNode[];
  /** Does the name match? */
  test(name: string): boolean;
  /** Could a name holding U+FFFD (bytes that did not decode) match in some reading of its bytes? */
  couldMatch(name: string): boolean;
}

/** Compiles one segment (no `/` in it). `raw` names the whole pattern in errors. */
export function compileSegment(glob: string, escapes: boolean, raw: string, caseSensitive: boolean): SegmentGlob {
  const parsed = parseSegment(glob, escapes, raw);
  const { literal } = parsed;
  // Ignoring case, ranges are read as bash's nocaseglob reads them (src/glob/fold.ts).
  const nodes = caseSensitive ? parsed.nodes : foldRangesAsBash(parsed.nodes);
  const source = isLinearInV8(nodes) ? regexSource(nodes) : undefined;
  let nfa: SegmentNfa | undefined;
  const lazyNfa = () => (nfa ??= compileNfa(nodes, caseSensitive));
  // Perf: compiled on first use; a brace set's thousand alternatives are often only ever asked merged (src/glob/set.ts).
  let test = (name: string): boolean => {
    const re = source === undefined ? undefined : compiledRegex(`^${source}$`, caseSensitive ? '' : 'i');
    test = re === undefined ? lazyNfa().matches : (n) => re.test(n);
    return test(name);
  };
  return { literal, source, nodes, test: (name) => test(name), couldMatch: (name) => lazyNfa().couldMatch(name) };
}
