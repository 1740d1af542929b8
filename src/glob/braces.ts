/**
 * Brace expansion as bash does it (before globbing, once), counted and measured before it is
 * done: a pattern whose alternatives pass `MAX_BRACE_ALTERNATIVES`, or hold more than
 * `MAX_BRACE_CHARACTERS` together, is refused before any I/O with `FF_PATTERN_TOO_LARGE`, never
 * cut short (a cut would drop files and still say "complete").
 *
 * bash's rules, each checked against bash by test/glob/braces.test.ts and the conformance suite:
 * - A set is `{` … `}` holding a `,` at its own level: `a{b,c}d` is `abd acd`; sets nest and
 *   combine left to right. A `}` met before any such `,` is literal when the text so far is not a
 *   sequence (`{a},b}` is `a}` and `b`); a `{` never closed is literal, and what follows it still
 *   expands (`{a{b,c}` is `{ab {ac`).
 * - A sequence is `{x..y}` or `{x..y..step}`: integers (zero-padded to the wider end when either
 *   is written with a leading zero; 64-bit, as bash's intmax_t: past that the braces are literal)
 *   or single letters.
 * - `${` starts no set (a parameter expansion in bash) unless its `$` is escaped (`\${a,b}` is
 *   `\$a \$b`), `\` escapes one character (posix only).
 * - Empty alternatives of the whole pattern are dropped, as bash drops empty words.
 * Sets nested more than `MAX_BRACE_NESTING` deep are refused too (bash has no such limit).
 */
import { FindFileError } from '../errors.js';

/** Alternatives one pattern (or a whole pattern list) may expand to. */
export const MAX_BRACE_ALTERNATIVES = 10_000;

/**
 * Characters all the alternatives of one pattern (or a whole pattern list) may hold together,
 * counted before they are made. Each alternative is normalised (src/patterns.ts) before the
 * compile cost is known, at a cost per character: `{1..9999}` + `@(/`×3,299 (9,999 alternatives
 * of 9,900 characters) took 8-11 s to be refused, deaf to the time budget and the signal. What
 * the compile-cost limit accepts holds at most 250,000 characters (2 units each), so this leaves
 * room for text that normalising drops (`./`, `//`) and for duplicates, and bounds that work to
 * well under a second. Past it, the pattern is refused with `FF_PATTERN_TOO_LARGE`.
 */
export const MAX_BRACE_CHARACTERS = 1_000_000;

/**
 * What expansion may still make. `characters` is spent by `expandBraces` (a pattern list shares
 * one budget); `alternatives` is set by the caller, which counts the distinct normalised ones.
 */
export interface BraceBudget {
  alternatives: number;
  characters: number;
}

export function fullBraceBudget(): BraceBudget {
  return { alternatives: MAX_BRACE_ALTERNATIVES, characters: MAX_BRACE_CHARACTERS };
}

/**
 * Sets nested deeper are refused (`FF_PATTERN_TOO_LARGE`) while parsing, before the next level is
 * read: parsing, counting and expanding recurse once per level, and about 1,600 levels (a 6,400
 * character pattern, within the length limit) overflowed the stack: a bare RangeError, "unexpected
 * failure" from the command. The same bound as extglob groups (`MAX_GROUP_NESTING`).
 */
export const MAX_BRACE_NESTING = 100;

interface Reading {
  escapes: boolean;
  /** Throws the refusal that names the pattern and the nesting limit. */
  tooDeep: () => never;
}

type Part = string | { alternatives: Part[][] } | { sequence: Sequence };

interface Sequence {
  /** bigint: bash reads the ends and the step as 64-bit integers, past what a double holds exactly. */
  from: bigint;
  to: bigint;
  step: bigint;
  width: number;
  letters: boolean;
}

/** The pattern's alternatives in bash's order (duplicates kept), or a refusal past the limits. */
export function expandBraces(pattern: string, escapes: boolean, option: string, raw: string, budget = fullBraceBudget()): string[] {
  const shown = JSON.stringify(raw.length > 80 ? `${raw.slice(0, 77)}...` : raw);
  const tooDeep = (): never => {
    throw new FindFileError('FF_PATTERN_TOO_LARGE', `${option} ${shown}: brace sets nested more than ${MAX_BRACE_NESTING} deep`, option);
  };
  const parts = parse(pattern, { escapes, tooDeep }, 0);
  const { count, characters } = measure(parts);
  if (count > budget.alternatives) {
    throw new FindFileError(
      'FF_PATTERN_TOO_LARGE',
      `${option} ${shown} expands to ${count > 1e15 ? 'more than 10^15' : count.toLocaleString('en-US')} alternatives, over the limit of ${MAX_BRACE_ALTERNATIVES.toLocaleString('en-US')}${budget.alternatives < MAX_BRACE_ALTERNATIVES ? ' for all patterns together' : ''}: use a shorter range or a glob (e.g. "[0-9]*" for "{1..100000}")`,
      option,
    );
  }
  if (characters > budget.characters) {
    throw new FindFileError(
      'FF_PATTERN_TOO_LARGE',
      `${option} ${shown} expands to ${count.toLocaleString('en-US')} alternatives of ${characters.toLocaleString('en-US')} characters in all, over the limit of ${MAX_BRACE_CHARACTERS.toLocaleString('en-US')}${budget.characters < MAX_BRACE_CHARACTERS ? ' for all patterns together' : ''}: use fewer brace alternatives or put the braces where they repeat less (e.g. "src/{a,b}/*.ts" rather than a long pattern around "{a,b}")`,
      option,
    );
  }
  budget.characters -= characters;
  return expand(parts).filter((alternative) => alternative !== '');
}

/** The parts of `text`: literal runs, sets and sequences, in order; `depth`: the sets around `text`. */
function parse(text: string, reading: Reading, depth: number): Part[] {
  const { escapes } = reading;
  const parts: Part[] = [];
  let rest = text;
  for (;;) {
    const open = findOpen(rest, escapes);
    if (open < 0) {
      if (rest !== '') parts.push(rest);
      return parts;
    }
    if (open > 0) parts.push(rest.slice(0, open));
    const group = gobble(rest, open + 1, escapes);
    if (group === undefined) {
      // Never closed: the `{` is literal, and what follows it may still hold sets.
      parts.push('{');
      rest = rest.slice(open + 1);
      continue;
    }
    const body = rest.slice(open + 1, group.close);
    const sequence = group.commas.length === 0 ? readSequence(body) : undefined;
    if (sequence !== undefined) parts.push({ sequence });
    else {
      if (depth >= MAX_BRACE_NESTING) reading.tooDeep();
      parts.push({ alternatives: splitAt(body, group.commas, open + 1).map((alt) => parse(alt, reading, depth + 1)) });
    }
    rest = rest.slice(group.close + 1);
  }
}

/**
 * The first `{` that can start a set (not escaped, not after an unescaped `$`); `${...}` is skipped
 * whole. An escaped `$` is a plain character to bash, so `\${a,b}` is `\$a \$b`: looking back at
 * `text[i - 1]` alone would see its `$` and refuse the set.
 */
function findOpen(text: string, escapes: boolean): number {
  let dollar = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && escapes) {
      i++;
      dollar = false;
    } else if (!escapes && isBraceCharSet(text, i)) {
      i += 2;
      dollar = false;
    } else if (c === '{') {
      if (!dollar) return i;
      const inner = gobble(text, i + 1, escapes, true);
      if (inner !== undefined) i = inner.close;
      dollar = false;
    } else dollar = c === '$';
  }
  return -1;
}

/**
 * The `}` that closes the set opened just before `start`, and the `,` at its level. A `}` seen
 * before any such `,` closes only a sequence (else it is literal); `any`: the first `}` at level 0.
 */
function gobble(text: string, start: number, escapes: boolean, any = false): { close: number; commas: number[] } | undefined {
  let level = 0;
  const commas: number[] = [];
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && escapes) i++;
    else if (!escapes && isBraceCharSet(text, i)) i += 2;
    else if (c === '{') level++;
    else if (c === '}') {
      if (level > 0) level--;
      else if (any || commas.length > 0 || readSequence(text.slice(start, i)) !== undefined) return { close: i, commas };
    } else if (c === ',' && level === 0) commas.push(i);
  }
  return undefined;
}

/**
 * Where `\\` escapes nothing (win32: it is a separator), `[{]`, `[}]` and `[,]` are the way to
 * write that character, and brace expansion reads them so too (bash, which has `\\`, expands
 * `[{]a,b[}]` into `[]a]` and `[b[]`): else no pattern could name a file called `{a,b}` there, and
 * an escaped path (tinyglobby's `escapePath`, turned into sets) found nothing.
 */
function isBraceCharSet(text: string, i: number): boolean {
  return text[i] === '[' && text[i + 2] === ']' && (text[i + 1] === '{' || text[i + 1] === '}' || text[i + 1] === ',');
}

/** `body` cut at the given commas (absolute indices, `offset` being body's start). */
function splitAt(body: string, commas: readonly number[], offset: number): string[] {
  const out: string[] = [];
  let from = 0;
  for (const at of commas) {
    out.push(body.slice(from, at - offset));
    from = at - offset + 1;
  }
  out.push(body.slice(from));
  return out;
}

const NUMERIC = /^([-+]?\d+)\.\.([-+]?\d+)(?:\.\.([-+]?\d+))?$/;
const LETTERS = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.([-+]?\d+))?$/;
/** bash's intmax_t: an end or a step outside it makes the braces literal text. */
const INT64_MAX = 2n ** 63n - 1n;

function readSequence(body: string): Sequence | undefined {
  const numeric = NUMERIC.exec(body);
  const match = numeric ?? LETTERS.exec(body);
  if (match === null) return undefined;
  const [, x, y, by] = match as unknown as [string, string, string, string | undefined];
  // bash takes the step's magnitude, and cannot for the lowest intmax_t: literal too.
  const step = BigInt(by ?? 1);
  if (step > INT64_MAX || -step > INT64_MAX) return undefined;
  const magnitude = (step < 0n ? -step : step) || 1n;
  if (numeric === null) return { from: BigInt(x.charCodeAt(0)), to: BigInt(y.charCodeAt(0)), step: magnitude, width: 0, letters: true };
  const from = BigInt(x);
  const to = BigInt(y);
  if ([from, to].some((v) => v > INT64_MAX || v < -INT64_MAX - 1n)) return undefined;
  const padded = /^[-+]?0\d/.test(x) || /^[-+]?0\d/.test(y);
  return { from, to, step: magnitude, width: padded ? Math.max(x.length, y.length) : 0, letters: false };
}

/** How many values: a double, exact up to 2^53 (far past any limit it is compared with). */
function sequenceLength(s: Sequence): number {
  return Number(sequenceCount(s));
}

/** How many values a sequence makes, exact (a bigint, as its bounds are). */
function sequenceCount(s: Sequence): bigint {
  return (s.to >= s.from ? s.to - s.from : s.from - s.to) / s.step + 1n;
}

function sequenceValues(s: Sequence): string[] {
  const out: string[] = [];
  const stride = s.to >= s.from ? s.step : -s.step;
  for (let k = 0, n = sequenceLength(s), v = s.from; k < n; k++, v += stride) {
    if (s.letters) out.push(v === 0x5cn ? '' : String.fromCharCode(Number(v))); // `\` would escape what follows
    else {
      const digits = String(v < 0n ? -v : v).padStart(s.width - (v < 0n ? 1 : 0), '0');
      out.push(v < 0n ? `-${digits}` : digits);
    }
  }
  return out;
}

/**
 * The characters of a sequence's values together, by arithmetic: a thousand `{1..9999}` in one set
 * would list ten million values before the count refused them. The values are `lo + j × step`
 * (j < n) in either direction; each digit count and sign is one interval of j. In bigints, as the
 * values are (64-bit, as bash's).
 */
function sequenceCharacters(s: Sequence): number {
  const n = sequenceCount(s);
  const last = s.from + (s.to >= s.from ? s.step : -s.step) * (n - 1n);
  const lo = last < s.from ? last : s.from;
  // How many values fall in [a, b].
  const within = (a: bigint, b: bigint): bigint => {
    const first = ceilDiv(a - lo, s.step);
    const end = floorDiv(b - lo, s.step);
    const count = (end < n - 1n ? end : n - 1n) - (first > 0n ? first : 0n) + 1n;
    return count > 0n ? count : 0n;
  };
  if (s.letters) return Number(n - within(0x5cn, 0x5cn)); // `\` gives nothing (see sequenceValues)
  let characters = 0n;
  const width = BigInt(s.width);
  for (let digits = 1n, min = 0n, max = 9n; digits <= 19n; digits++, min = max + 1n, max = max * 10n + 9n) {
    characters += within(min, max) * (width > digits ? width : digits);
    characters += within(-max, -(min > 1n ? min : 1n)) * (width > digits + 1n ? width : digits + 1n);
  }
  return Number(characters);
}

/** `x / d` rounded down and up, for `d > 0` (bigint division rounds toward zero). */
function floorDiv(x: bigint, d: bigint): bigint {
  const q = x / d;
  return x % d !== 0n && x < 0n ? q - 1n : q;
}

function ceilDiv(x: bigint, d: bigint): bigint {
  const q = x / d;
  return x % d !== 0n && x > 0n ? q + 1n : q;
}

/**
 * How many alternatives the parts make and their characters in all, without making them: a part
 * is repeated once per alternative of the parts before it, and they once per alternative of it.
 */
function measure(parts: readonly Part[]): { count: number; characters: number } {
  let count = 1;
  let characters = 0;
  for (const part of parts) {
    let n = 1;
    let length = 0;
    if (typeof part === 'string') length = part.length;
    else if ('sequence' in part) {
      n = sequenceLength(part.sequence);
      length = sequenceCharacters(part.sequence);
    } else {
      n = 0;
      for (const alternative of part.alternatives) {
        const inner = measure(alternative);
        n += inner.count;
        length += inner.characters;
      }
    }
    characters = characters * n + length * count;
    count *= n;
  }
  return { count, characters };
}

/** Every alternative, left to right (only called once the count is within the limit). */
function expand(parts: readonly Part[]): string[] {
  let acc = [''];
  for (const part of parts) {
    let values: string[];
    if (typeof part === 'string') values = [part];
    else if ('sequence' in part) values = sequenceValues(part.sequence);
    else values = part.alternatives.flatMap(expand);
    const next: string[] = [];
    for (const head of acc) for (const value of values) next.push(head + value);
    acc = next;
  }
  return acc;
}
