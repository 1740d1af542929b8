/**
 * The only places where find-file may answer differently from an oracle of the conformance suite
 * (test/conformance/conformance.test.ts), each with its reason. Keep this list small: an entry
 * here is a promise to users that the difference is meant. Every entry is a predicate over one
 * disagreement (which oracle, the pattern, the case mode, and the paths only one side returned),
 * written as narrowly as the reason: it must not swallow a different bug that happens to share the
 * pattern.
 */
import { braceExpand } from 'minimatch';

export type OracleName = 'bash' | 'minimatch' | 'ripgrep' | 'auto' | 'sync' | 'stream' | 'refusal';

export interface Disagreement {
  oracle: OracleName;
  pattern: string;
  nocase: boolean;
  /** Index of the generated tree, and its directory (removed after the run unless FF_CONFORMANCE_KEEP=1). */
  tree: number;
  root: string;
  /** Paths the oracle (or the reference answer) has and find-file does not. */
  expectedOnly: string[];
  /** Paths find-file returned that the oracle does not. */
  actualOnly: string[];
  /** Anything else that differed: a refusal, completeness, an error. */
  note?: string;
  /** What the oracle did that a reader needs to know (bash's brace expansion differing from braceExpand's). */
  context?: string;
}

export interface Deviation {
  oracles: readonly OracleName[];
  /** One line: why find-file is right to differ here. */
  reason: string;
  applies(d: Disagreement): boolean;
}

const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;
/**
 * Letters bash's nocaseglob joins to another (towlower, C.UTF-8) and JavaScript's `i` without `u`
 * does not (it compares simple upper-case mappings, per UTF-16 unit, never a non-ASCII letter with
 * an ASCII one): KELVIN SIGN ~ k, OHM SIGN ~ ω, ANGSTROM SIGN ~ å, ẞ ~ ß, İ ~ i, ϴ ~ θ, and every
 * astral letter with case (𐐀 ~ 𐐨). LONG S U+017F bash leaves alone too.
 */
const BASH_ONLY_FOLDS = /[\u0130\u03F4\u1E9E\u2126\u212A\u212B]|(?=[\u{10000}-\u{10FFFF}])[\p{Lu}\p{Ll}\p{Lt}]/u;
/** Letters JavaScript's `i` joins to another (one upper-case mapping) and towlower does not: µ ~ μ, ς ~ σ, ϐ ~ β, ϑ ~ θ, ϕ ~ φ, ϖ ~ π, ϰ ~ κ, ϱ ~ ρ, ϵ ~ ε, ẛ ~ ṡ, ι (U+1FBE) and U+0345 ~ ι. */
const JS_ONLY_FOLDS = /[\u00B5\u0345\u03C2\u03D0\u03D1\u03D5\u03D6\u03F0\u03F1\u03F5\u1E9B\u1FBE]/u;
/** A bracket range with a non-ASCII upper-case end (`[Ç-ç]`, `[ÿ-Ÿ]`): bash's nocaseglob folds the ends (`[ç-ç]`), find-file folds the members. */
const RANGE_WITH_CAPITAL_END = /\[[^\]]*(?:(?=[^\x00-\x7f])\p{Lu}-[^\]]|[^[]-(?=[^\x00-\x7f])\p{Lu})/u;
/** Characters Unicode case folding joins to another letter and JavaScript's `i` without `u` does not. */
const UNICODE_ONLY_FOLDS = /[\u017F\u212A\u212B\u2126\u1E9E]/u;

/** The pattern's brace alternatives (minimatch's braceExpand, as find-file expands them), split into segments. */
type Segments = string[][];

/** Scans one segment for unescaped extglob openers: is one left open, is a `!(` followed by more text? */
function scanSegment(segment: string): { unclosed: boolean; negation: boolean } {
  let depth = 0;
  let negation = false;
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if ('?*+@!'.includes(c) && segment[i + 1] === '(') {
      if (c === '!') negation = true;
      depth++;
      i++;
    } else if (c === ')' && depth > 0) depth--;
  }
  return { unclosed: depth > 0, negation };
}

const hasUnclosedExtglob = (alternatives: Segments) => alternatives.some((segs) => segs.some((s) => scanSegment(s).unclosed));
/** A `!(...)` in a segment that is not the alternative's last. */
const hasInnerNegation = (alternatives: Segments) => alternatives.some((segs) => segs.slice(0, -1).some((s) => scanSegment(s).negation));
const globstars = (alternatives: Segments) => Math.max(0, ...alternatives.map((segs) => segs.filter((s) => s === '**').length));
/** A segment where a backslash escape (other than `\\*`, `\\?`) comes after an unescaped `*`, `?`, `[` or extglob. */
function escapeAfterMagic(segment: string): boolean {
  let magic = false;
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '\\') {
      if (magic && !'*?'.includes(segment[i + 1] ?? '')) return true;
      i++;
    } else if ('*?['.includes(c) || ('@!+'.includes(c) && segment[i + 1] === '(')) magic = true;
  }
  return false;
}

/** An escaped `c` (an odd run of backslashes before it). */
const hasEscaped = (pattern: string, c: string) => new RegExp(`(^|[^\\\\])(\\\\\\\\)*\\\\\\${c}`).test(pattern);

/** The pattern read as a plain path (no backslash in it), with `.` segments dropped. */
function literalText(pattern: string): string | undefined {
  if (pattern.includes('\\')) return undefined;
  return pattern
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
}

const fewerOnly = (d: Disagreement) => d.actualOnly.length === 0 && d.expectedOnly.length > 0;
const moreOnly = (d: Disagreement) => d.expectedOnly.length === 0 && d.actualOnly.length > 0;

export const DEVIATIONS: readonly Deviation[] = [
  // Where find-file means more than the glob says, on purpose.
  {
    oracles: ['bash', 'minimatch'],
    reason:
      'src/patterns.ts literalReading: a pattern with no backslash and no brace set also matches the path its text names (`app/[id]/page.tsx` finds the folder `[id]`, as agent hosts do)',
    applies: (d) => {
      const literal = literalText(d.pattern);
      // Only where the literal reading differs from the glob's: text a glob would not match itself.
      if (literal === undefined || !/[[*?(]/.test(literal) || !moreOnly(d)) return false;
      // A brace set expands first and is never read literally (`a{1,2}[x].txt`).
      const expanded = braceExpand(d.pattern);
      if (expanded.length !== 1 || expanded[0] !== d.pattern) return false;
      const same = (a: string, b: string) => (d.nocase ? a.toLowerCase() === b.toLowerCase() : a === b);
      const anchored = d.pattern.includes('/');
      return d.actualOnly.every((p) => (anchored ? same(p, literal) : same(p.slice(p.lastIndexOf('/') + 1), literal)));
    },
  },
  {
    oracles: ['minimatch'],
    reason:
      "minimatch compiles a glob holding a POSIX class with the regex `u` flag, and with `i` that folds by Unicode (`s` matches LONG S, `k` the KELVIN SIGN); find-file folds every glob as JavaScript's `i` without `u` does (docs/contract.md), as bash does LONG S",
    applies: (d) => d.nocase && fewerOnly(d) && /\[:[a-z]+:\]/.test(d.pattern) && d.expectedOnly.every((p) => UNICODE_ONLY_FOLDS.test(p)),
  },
  // Oracle quirks: the oracle is wrong (the other oracle and find-file agree).
  {
    oracles: ['minimatch'],
    reason:
      "minimatch reads an extglob opener (`!(`, `@(`, `?(`, `*(`, `+(`) not closed in its segment as its characters, `*` and `?` still wildcards (`a*(b` matches `axx(b`); bash compares the rest of the segment as plain text (and its `*` before one takes the rest of the name), and find-file reads it as bash does (test/conformance/group-scan.test.ts)",
    applies: (d) => hasUnclosedExtglob(segmentsOf(d.pattern)),
  },
  {
    oracles: ['bash'],
    reason:
      "bash's nocaseglob folds with towlower, which joins the KELVIN, OHM and ANGSTROM signs to k, ω and å, ẞ to ß, İ to i, ϴ to θ, and astral letters (𐐀 to 𐐨); find-file folds as JavaScript's `i` flag does (docs/contract.md), which keeps them apart, as NTFS and the ripgrep excludes (src/rg/argv.ts foldsAlike) do the KELVIN SIGN",
    applies: (d) => d.nocase && fewerOnly(d) && d.expectedOnly.every((p) => BASH_ONLY_FOLDS.test(p) || BASH_ONLY_FOLDS.test(d.pattern)),
  },
  {
    oracles: ['bash'],
    reason:
      "ignoring case, find-file joins what JavaScript's `i` joins and towlower does not (µ with μ and Μ, ς with σ and Σ, ϑ with θ...), and a bracket range matches a character whose case partner is in it (`[Ç-ç]` matches è, as È is in it); bash's nocaseglob folds a range's ends instead (`[Ç-ç]` is `[ç-ç]`)",
    applies: (d) => d.nocase && moreOnly(d) && (RANGE_WITH_CAPITAL_END.test(d.pattern) || d.actualOnly.every((p) => JS_ONLY_FOLDS.test(p)) || JS_ONLY_FOLDS.test(d.pattern)),
  },
  {
    oracles: ['minimatch'],
    reason:
      "minimatch's `?` and `[...]` match one UTF-16 code unit, so `?` never matches 😀 and `??` does; find-file (like bash in C.UTF-8) matches one code point",
    applies: (d) => /[?[]/.test(d.pattern) && [...d.expectedOnly, ...d.actualOnly].every((p) => ASTRAL.test(p)),
  },
  {
    oracles: ['minimatch'],
    reason: "minimatch's `!(...)` in a segment before a `/` matches across segments (`!(a)/**` matches `a/x` and root files); bash and find-file read it per segment",
    applies: (d) => d.expectedOnly.length > 0 && hasInnerNegation(segmentsOf(d.pattern)),
  },
  {
    oracles: ['minimatch'],
    reason: 'minimatch 10 gives up on some patterns with three or more `**` segments (`**/a/b/**/x/**/h` does not match `a/b/x/h`)',
    applies: (d) => moreOnly(d) && globstars(segmentsOf(d.pattern)) >= 3,
  },
  {
    oracles: ['minimatch'],
    reason: 'minimatch 10 never matches a segment where an escaped character follows magic (`?p\\)` does not match `(p)`, nor `*\\,` `x,`)',
    applies: (d) => moreOnly(d) && segmentsOf(d.pattern).some((segs) => segs.some(escapeAfterMagic)),
  },
  {
    oracles: ['minimatch'],
    reason:
      "minimatch's braceExpand leaves a brace set holding a newline unexpanded and turns `\\\\` into `\\` inside one; find-file expands as bash does (the bash oracle checks it)",
    applies: (d) => d.pattern.includes('{') && (d.pattern.includes('\n') || d.pattern.includes('\\\\')),
  },
  {
    oracles: ['minimatch'],
    reason: 'minimatch 10 reads an escaped `\\|` as an alternation bar, in and out of extglobs',
    applies: (d) => hasEscaped(d.pattern, '|'),
  },
];

function segmentsOf(pattern: string): Segments {
  return braceExpand(pattern).map((a) => a.split('/'));
}

/** Patterns find-file refuses on purpose (docs/contract.md, "Patterns that are refused"), with the code. */
export interface IntendedRefusal {
  code: 'FF_INVALID_PATTERN' | 'FF_PATTERN_OUTSIDE_ROOT';
  reason: string;
  test(pattern: string, alternatives: readonly string[]): boolean;
}

export const INTENDED_REFUSALS: readonly IntendedRefusal[] = [
  { code: 'FF_INVALID_PATTERN', reason: 'empty or blank: no glob at all', test: (p) => p.trim() === '' },
  {
    code: 'FF_PATTERN_OUTSIDE_ROOT',
    reason: 'a `..` segment (after brace expansion) climbs out of the root',
    test: (_p, alternatives) => alternatives.some((a) => a.split('/').includes('..')),
  },
  {
    code: 'FF_PATTERN_OUTSIDE_ROOT',
    reason: 'absolute (after brace expansion): patterns are root-relative',
    test: (_p, alternatives) => alternatives.some((a) => a.startsWith('/')),
  },
  {
    code: 'FF_INVALID_PATTERN',
    reason: 'a leading `!` not followed by `(` is a negation: that is what `exclude` is for',
    test: (p) => p.startsWith('!') && !p.startsWith('!('),
  },
  { code: 'FF_INVALID_PATTERN', reason: 'ends in `/`: it names a directory, and find-file returns files', test: (p) => p.endsWith('/') },
  {
    code: 'FF_INVALID_PATTERN',
    reason: 'only `.` segments: it names the root itself, not a file under it',
    test: (_p, alternatives) => alternatives.some((a) => a.split('/').every((s) => s === '.' || s === '')),
  },
  {
    code: 'FF_INVALID_PATTERN',
    reason: 'ends in `/.` (after brace expansion): `x/.` exists only when `x` is a directory, so it names directories, as a trailing `/` does',
    test: (_p, alternatives) => alternatives.some((a) => a.split('/').filter((s) => s !== '').at(-1) === '.'),
  },
];

/** The refusal find-file should give, or undefined when the pattern must be searched. */
export function intendedRefusal(pattern: string, alternatives: readonly string[]): IntendedRefusal | undefined {
  return INTENDED_REFUSALS.find((r) => r.test(pattern, alternatives));
}

/** The deviation that covers this disagreement, if any. */
export function knownDeviation(d: Disagreement): Deviation | undefined {
  return DEVIATIONS.find((dev) => dev.oracles.includes(d.oracle) && dev.applies(d));
}

