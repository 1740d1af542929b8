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
 *   is written with a leading zero) or single letters.
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
  from: number;
  to: number;
  step: number;
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
    else if (c === '{') level++;
    else if (c === '}') {
      if (level > 0) level--;
      else if (any || commas.length > 0 || readSequence(text.slice(start, i)) !== undefined) return { close: i, commas };
    } else if (c === ',' && level === 0) commas.push(i);
  }
  return undefined;
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

const NUMERIC = /^([-+]?\d{1,15})\.\.([-+]?\d{1,15})(?:\.\.([-+]?\d{1,15}))?$/;
const LETTERS = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.([-+]?\d{1,15}))?$/;

function readSequence(body: string): Sequence | undefined {
  const numeric = NUMERIC.exec(body);
  const match = numeric ?? LETTERS.exec(body);
  if (match === null) return undefined;
  const [, x, y, by] = match as unknown as [string, string, string, string | undefined];
  const step = Math.abs(Number(by ?? 1)) || 1;
  if (numeric === null) return { from: x.charCodeAt(0), to: y.charCodeAt(0), step, width: 0, letters: true };
  const padded = /^[-+]?0\d/.test(x) || /^[-+]?0\d/.test(y);
  return { from: Number(x), to: Number(y), step, width: padded ? Math.max(x.length, y.length) : 0, letters: false };
}

function sequenceLength(s: Sequence): number {
  return Math.floor(Math.abs(s.to - s.from) / s.step) + 1;
}

function sequenceValues(s: Sequence): string[] {
  const out: string[] = [];
  const direction = s.to >= s.from ? 1 : -1;
  for (let k = 0, v = s.from; k < sequenceLength(s); k++, v += direction * s.step) {
    if (s.letters) out.push(v === 0x5c ? '' : String.fromCharCode(v)); // `\` would escape what follows
    else {
      const digits = String(Math.abs(v)).padStart(s.width - (v < 0 ? 1 : 0), '0');
      out.push(v < 0 ? `-${digits}` : digits);
    }
  }
  return out;
}

/**
 * The characters of a sequence's values together, by arithmetic: a thousand `{1..9999}` in one set
 * would list ten million values before the count refused them. The values are `lo + j × step`
 * (j < n) in either direction; each digit count and sign is one interval of j.
 */
function sequenceCharacters(s: Sequence): number {
  const n = sequenceLength(s);
  const lo = Math.min(s.from, s.from + (s.to >= s.from ? 1 : -1) * s.step * (n - 1));
  // How many values fall in [a, b].
  const within = (a: number, b: number) => Math.max(0, Math.min(n - 1, Math.floor((b - lo) / s.step)) - Math.max(0, Math.ceil((a - lo) / s.step)) + 1);
  if (s.letters) return n - within(0x5c, 0x5c); // `\` gives nothing (see sequenceValues)
  let characters = 0;
  for (let digits = 1, min = 0, max = 9; digits <= 16; digits++, min = max + 1, max = max * 10 + 9) {
    characters += within(min, max) * Math.max(s.width, digits);
    characters += within(-max, -Math.max(min, 1)) * Math.max(s.width, digits + 1);
  }
  return characters;
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
