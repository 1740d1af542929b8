/**
 * The query: checked once, before any I/O, and compiled into the matcher the pure-TS path runs.
 *
 * - Literal unless `mode: 'regex'`; a query is never guessed to be a regex.
 * - Case: `true` exact, `false` ignore, `'smart'` (default) ignore unless the query holds an
 *   upper-case letter, as `rg --smart-case` decides it (Unicode `Uppercase`, the property Rust's
 *   `char::is_uppercase` tests, from ripgrep 13's tables: `isUppercaseForRg`). In regex mode, only literal characters count, read from the
 *   regex's syntax as ripgrep reads it (regex-syntax.ts): not the letters of `\S`, `\p{Lu}`, a
 *   group name or a flag; and a regex with no literal at all keeps case, as in ripgrep.
 * - Ignoring case is Unicode simple case folding on both paths (`rg -i`; JS `iu` flags).
 * - A query that holds a line break (regex mode: a line feed written however, `\n`, `\x0a`,
 *   `[\n]`..., regex-syntax.ts) is matched across lines (`rg --multiline`); any other query is
 *   matched within one line at a time.
 * - A regex runs on RE2 (re2js), never on V8's backtracking engine: the model writes the query, and
 *   `(a+)+$` over `aaaa…!` would hold the event loop for minutes, past any time budget. RE2 matches
 *   in linear time, and its syntax is close to ripgrep's (no lookaround, no backreferences).
 */
import type { RE2JS } from 're2js';
import { FindFileError } from '../errors.js';
import { describe, readChoice } from '../plan/read.js';
import { escapeRegex } from '../regex-escape.js';
import { isHighSurrogate } from '../text-escape.js';
import { ignoresCaseSmartly, literalSyntax, readRegexSyntax, type RegexSyntax } from '../regex-syntax.js';
import { checkRe2Size, loadRe2, re2Size } from '../re2.js';
import { BoundedDfa } from './bounded-dfa.js';
import { OPEN_GATE, type MatchGate } from './match-gate.js';

/** Longest query accepted, in UTF-8 bytes: far above any real search, far below argv limits. */
export const MAX_QUERY_BYTES = 64 * 1024;

export type QueryMode = 'literal' | 'regex';
export type CaseMode = 'sensitive' | 'ignore' | 'smart';

export interface Query {
  text: string;
  mode: QueryMode;
  /** As asked: ripgrep gets the matching flag and decides smart case itself. */
  caseMode: CaseMode;
  /** Smart case resolved: what the pure-TS path does. */
  ignoreCase: boolean;
  /** The query can match a line break: search whole files, a hit per group of touching lines. */
  multiline: boolean;
}

/**
 * Checks the query options. `compileRegex` is false only when ripgrep alone will run: its regex
 * dialect (Rust) accepts some patterns JavaScript does not, and it reports its own errors.
 */
export function readQuery(options: { query?: unknown; mode?: unknown; caseSensitive?: unknown }, compileRegex: boolean): Query {
  const text = options.query;
  if (text === undefined) throw new FindFileError('FF_MISSING_OPTION', 'query is required: the text to search for', 'query');
  if (typeof text !== 'string') throw new FindFileError('FF_INVALID_QUERY', `query must be a string, got ${describe(text)}`, 'query');
  if (text === '') throw new FindFileError('FF_EMPTY_QUERY', 'query is empty: it would match every line; give the text to search for', 'query');
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_QUERY_BYTES) {
    throw new FindFileError('FF_QUERY_TOO_LONG', `query is ${bytes} bytes long; the limit is ${MAX_QUERY_BYTES} (64 KiB)`, 'query');
  }
  // Neither can reach ripgrep intact: argv cannot hold NUL, and a lone surrogate becomes U+FFFD.
  if (text.includes('\0')) throw new FindFileError('FF_INVALID_QUERY', 'query holds a NUL character', 'query');
  if (LONE_SURROGATE.test(text)) throw new FindFileError('FF_INVALID_QUERY', 'query holds an unpaired UTF-16 surrogate', 'query');
  const mode = readChoice(options.mode, 'mode', ['literal', 'regex'] as const, 'literal');
  const caseMode = readCaseMode(options.caseSensitive);
  const syntax = mode === 'regex' ? readRegexSyntax(text) : literalSyntax(text);
  const ignoreCase = caseMode === 'ignore' || (caseMode === 'smart' && ignoresCaseSmartly(syntax, 'rg'));
  const query: Query = { text, mode, caseMode, ignoreCase, multiline: syntax.writesLineFeed };
  if (mode === 'regex' && compileRegex) {
    refuseSetOperation(syntax.classSetOperation);
    buildLineMatcher(query);
  }
  return query;
}

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

const SET_OPERATIONS = { '&&': 'the intersection of two classes', '--': 'the difference of two classes', '~~': 'the symmetric difference of two classes', '[': 'a nested class' } as const;

/**
 * A class set operation (`[a-z&&[^o]]`, `[^[a]]`, `[--z]`) is refused on the pure-TS path: ripgrep's
 * regex reads it as a set, RE2 as characters, and the two would answer differently, each "complete".
 * Translating it exactly would need a class algebra over Unicode; a rewrite as one class is easy.
 */
function refuseSetOperation(operation: RegexSyntax['classSetOperation']): void {
  if (operation === undefined) return;
  const { construct, at } = operation;
  throw new FindFileError(
    'FF_INVALID_QUERY',
    `query uses \`${construct}\` inside brackets (at character ${at + 1}), which ripgrep's regex reads as ${SET_OPERATIONS[construct]} and RE2 (the pure-TS path) as characters: write it as one class (\`[a-z&&[^o]]\` as \`[a-np-z]\`; a literal \`${construct[0]}\` escaped, \`\\${construct[0]}\`), or search with backend "ripgrep"`,
    'query',
  );
}

function readCaseMode(value: unknown): CaseMode {
  if (value === undefined || value === 'smart') return 'smart';
  if (value === true) return 'sensitive';
  if (value === false) return 'ignore';
  throw new FindFileError('FF_INVALID_OPTION', `caseSensitive must be true, false or "smart", got ${describe(value)}`, 'caseSensitive');
}

/**
 * Finds matches in a string. `find` returns the index of the first match starting at or after
 * `from`, or -1; `lastEnd` is then that match's end.
 */
export interface Matcher {
  find(text: string, from: number): number;
  lastEnd: number;
  /** True when `find` over several lines at once finds exactly what it finds line by line. */
  readonly blockSafe: boolean;
  /** True once the gate refused a call: `find` finds nothing more, and the caller ends the file or the search (`gate.refusal`). */
  readonly refused: boolean;
}

/**
 * `gate` is asked before each call that could hold the thread for long (match-gate.ts): RE2 is
 * linear in the text, but one call still costs up to the regex's size times the line's length.
 */
export function buildLineMatcher(query: Query, gate: MatchGate = OPEN_GATE): Matcher {
  if (query.mode === 'literal' && !query.ignoreCase) return new LiteralMatcher(query.text);
  // A literal cannot match a line break (that query would be multi-line), so searching many lines
  // at once finds what line-by-line search finds. A regex can (`\s`, `[^x]`): never.
  if (query.mode === 'literal') return new FoldedLiteralMatcher(query.text, gate);
  // MULTILINE only for whole-file (multi-line) search, where `^` and `$` must stop at line breaks as
  // in ripgrep (at `\n`, as RE2 does); line by line, a line is the whole input.
  const RE2 = loadRe2();
  const flags = (query.ignoreCase ? RE2.CASE_INSENSITIVE : 0) | (query.multiline ? RE2.MULTILINE : 0);
  return new Re2Matcher(compileRe2(query.text, flags), gate);
}

/** An RE2 regex of the caller's, compiled now; a bad one is a `FindFileError` naming `option` (the query, or `nameRegex`). */
export function compileRe2(source: string, flags: number, code: 'FF_INVALID_QUERY' | 'FF_INVALID_OPTION' = 'FF_INVALID_QUERY', option = 'query'): RE2JS {
  checkRe2Size(re2Size(source), option, code);
  const RE2 = loadRe2();
  try {
    return RE2.compile(source, flags);
  } catch (error) {
    // re2js names the case flag in the part it quotes (`(?i)a(`), a flag smart case chose, not the
    // user: the reason is asked again without it, so the message quotes what was typed.
    let reason = error as Error;
    if ((flags & RE2.CASE_INSENSITIVE) !== 0) {
      try {
        RE2.compile(source, flags & ~RE2.CASE_INSENSITIVE);
      } catch (plain) {
        reason = plain as Error;
      }
    }
    // re2js says "error parsing regexp: <reason>: `<part>`": keep it, it names the bad part.
    const message = reason.message.replace(/^error parsing regexp: /, '');
    throw new FindFileError(code, `${option} is not a valid regex (RE2 syntax, as ripgrep's): ${message}`, option);
  }
}

/**
 * A regex ripgrep refused (`reason`: its own words, src/rg/stderr.ts) is bad input, as one RE2
 * refuses: `FF_INVALID_QUERY`, never a search cut short by an I/O error.
 */
export function refusedByRipgrep(reason: string): FindFileError {
  return new FindFileError('FF_INVALID_QUERY', `query is not a valid regex (ripgrep's syntax): ${reason || 'ripgrep gave no reason'}`, 'query');
}

/** A RegExp, compiled now: V8 compiles on first use, and a pattern too large for it fails only then. */
function compile(source: string, flags: string): RegExp {
  try {
    const regex = new RegExp(source, flags);
    regex.exec('');
    regex.lastIndex = 0;
    return regex;
  } catch (error) {
    // V8 says "Invalid regular expression: /<the whole source>/<flags>: <reason>": keep the reason.
    const message = (error as Error).message;
    throw new FindFileError('FF_INVALID_QUERY', `query is not a valid regex: ${message.slice(message.lastIndexOf(': ') + 2)}`, 'query');
  }
}

class LiteralMatcher implements Matcher {
  lastEnd = -1;
  readonly blockSafe = true;
  readonly refused = false;
  constructor(private readonly text: string) {}

  find(text: string, from: number): number {
    const at = text.indexOf(this.text, from);
    if (at >= 0) this.lastEnd = at + this.text.length;
    return at;
  }
}

/**
 * Cost model of one re2js search that asks for positions (its NFA, or its backtracker on short
 * text), per character: a fixed cost plus, at worst, a step per instruction (`programSize`), every
 * thread alive. Measured on this project's two-core machine under load, over 256 KiB-1 MiB of `a`:
 * 22-36 µs a character for `(?:[b-y]?){300}z` (603 instructions), 11.8 µs for `(?:[b-y]?){100}$`
 * (203), 290-440 ns for `\w+$` and `(?i)a+q` (5), 260 ns for `function\s+\w+` (14) over minified
 * code. Its lazy DFA, which only answers "is there a match", is bounded apart (bounded-dfa.ts).
 */
const NFA_NS_PER_CHAR = 200;
const NFA_NS_PER_INSTRUCTION = 70;
/** Characters the first measuring probe reads at most (`Re2Matcher.measure`). */
const PROBE_CHARS = 4096;

class Re2Matcher implements Matcher {
  lastEnd = -1;
  readonly blockSafe = false;
  /** Estimated ms per character of one search. */
  private readonly msPerChar: number;
  private readonly dfa: BoundedDfa;

  constructor(
    private readonly regex: RE2JS,
    private readonly gate: MatchGate,
  ) {
    this.msPerChar = (NFA_NS_PER_CHAR + regex.programSize() * NFA_NS_PER_INSTRUCTION) / 1e6;
    this.dfa = new BoundedDfa(regex);
  }

  get refused(): boolean {
    return this.gate.refusal !== undefined;
  }

  /**
   * Ms one search of the text from `from` would take, measured (`probes`). A pause of the thread
   * during a probe (another process on the core, a garbage collection) reads as a slow regex: a
   * 60 ms pause over a match found at once refused a 256 KiB file and ended the search. So a
   * measurement that says the search would not fit is made again, within what is left of half the
   * room, and the faster counts: a regex slow on this text is slow both times (refused after at most
   * half the room), a pause rarely strikes twice.
   */
  private measure(text: string, from: number, room: number): number {
    const first = this.probes(text, from, room, room);
    if (first.estimate <= room || first.spent * 2 > room) return first.estimate;
    return Math.min(first.estimate, this.probes(text, from, room, room / 2 - first.spent).estimate);
  }

  /**
   * The NFA over the text's first 4 KiB, then four times more while the estimate does not fit in
   * `room` (re2js's first calls run cold: 4 KiB of minified code said 1.4 us a character, the whole
   * line ran at 0.08), until the probes have spent a quarter of `allowance` (a regex that is slow on
   * this text). A match found early ends a probe early, as it ends the search there. No probe starts
   * whose worst case (the model) would not fit in what is left of `allowance`: it is cut to fit, and
   * is the last (`[ab]{0,1000}c`, 2,003 instructions: 4 KiB could cost 0.57 s, and a probe ran 220 ms
   * past a 300 ms budget); when not even 64 characters fit, the line is refused (Infinity).
   */
  private probes(text: string, from: number, room: number, allowance: number): { estimate: number; spent: number } {
    const chars = text.length - from;
    let spent = 0;
    for (let size = PROBE_CHARS; ; size *= 4) {
      const end = Math.min(text.length, from + size, from + Math.floor((allowance - spent) / this.msPerChar));
      if (end - from < Math.min(MIN_PROBE_CHARS, chars)) return { estimate: Infinity, spent };
      const started = performance.now();
      this.regex.matcher(text.slice(0, end)).find(from);
      const took = performance.now() - started;
      spent += took;
      const estimate = (took / Math.max(1, end - from)) * chars;
      if (estimate <= room || end === text.length || end - from < size || spent * 4 > allowance) return { estimate, spent };
    }
  }

  find(text: string, from: number): number {
    if (this.refused) return -1;
    const chars = text.length - from;
    const cost = chars * this.msPerChar;
    let room = this.gate.room();
    if (cost > room) {
      // Most long lines hold no match: the DFA says so for a fraction of the NFA's cost, and only a
      // match needs positions. It may spend half the room (it stops itself there: bounded-dfa.ts);
      // its text starts a character early, so `\b`, `\B` see what is before `from` (a match it
      // finds there only leads to the measurement: never a match lost).
      const seen = this.dfa.test(from === 0 ? text : text.slice(from - 1), room / 2);
      if (seen === false) return -1;
      room = this.gate.room();
      // The DFA found a match: its states stayed few, and the NFA's threads are those states' NFA
      // states. The model is the worst case (every thread alive), which most regexes run far below
      // (`function\s+\w+` over a 1.9 MB minified line: 0.15 s where the model says 2.2): measure.
      // The DFA could not say (it blew up: `[ab]*a[ab]{1000}c`, or the line is too long for it): a
      // measured start says nothing of the rest, so the worst case must fit, or the line is refused.
      const estimate = seen === true ? this.measure(text, from, room) : cost;
      if (estimate > room) {
        this.gate.refuse(estimate);
        return -1;
      }
    }
    const match = this.regex.matcher(text);
    if (!match.find(from)) return -1;
    this.lastEnd = match.end();
    return match.start();
  }
}

/** Fewer characters than this say nothing of a regex's speed: a line that cannot afford them is refused. */
const MIN_PROBE_CHARS = 64;

/**
 * A literal, ignoring case. Perf and safety: V8 cannot compile a case-insensitive regex of tens of
 * thousands of characters (stack overflow), and the query may be 64 KiB. So the literal is cut into
 * pieces: the first finds candidates, each next one must follow at once (a sticky regex), the match
 * length taken from each piece's match (folding may change it).
 *
 * Safety: V8 tries a case-insensitive pattern at each position of the line, so a search costs up to
 * the pattern's length times the line's (`a`×1023+`b` over 16 MiB of `a`: 13 s in one call). The
 * first piece is therefore short (`HEAD_CHARS`: one call over 16 MiB stays ~0.3 s, and is asked of
 * the gate), and the candidates it finds are checked in a loop that asks the gate as it goes.
 */
class FoldedLiteralMatcher implements Matcher {
  lastEnd = -1;
  readonly blockSafe = true;
  private readonly head: RegExp;
  private readonly headChars: number;
  private readonly rest: RegExp[];
  private readonly restChars: number;

  constructor(
    text: string,
    private readonly gate: MatchGate,
  ) {
    const [first, ...others] = splitPieces(text, HEAD_CHARS);
    this.head = compile(escapeRegex(first!), 'giu');
    this.headChars = first!.length;
    const restText = others.join('');
    this.restChars = restText.length;
    this.rest = restText === '' ? [] : splitPieces(restText, PIECE_CHARS).map((piece) => compile(escapeRegex(piece), 'yiu'));
  }

  get refused(): boolean {
    return this.gate.refusal !== undefined;
  }

  find(text: string, from: number): number {
    let work = 0;
    for (let start = from; ; ) {
      if (this.refused) return -1;
      // Before a call that may run to the end of the text (a short one goes through even on a spent
      // budget, as this matcher always let it: the engine's own checks end the search before the next
      // chunk), and once per `CHECK_CHARS` of checking, whatever is left.
      if (start === from || work >= CHECK_CHARS) {
        const cost = (text.length - start) * this.headChars * FOLD_MS_PER_STEP;
        if ((work >= CHECK_CHARS || cost >= SHORT_CALL_MS) && cost > this.gate.room()) {
          this.gate.refuse(cost);
          return -1;
        }
        work = 0;
      }
      this.head.lastIndex = start;
      const match = this.head.exec(text);
      if (match === null) return -1;
      work += this.headChars + this.restChars;
      let end = match.index + match[0].length;
      for (const piece of this.rest) {
        piece.lastIndex = end;
        const next = piece.exec(text);
        if (next === null) {
          end = -1;
          break;
        }
        end += next[0].length;
      }
      if (end >= 0) {
        this.lastEnd = end;
        return match.index;
      }
      start = match.index + (isHighSurrogate(text.charCodeAt(match.index)) ? 2 : 1);
    }
  }
}

/**
 * Characters of the first piece. Measured: one `/giu` search of `a`×15+`b` over 16 MiB of `a`
 * 143 ms, of 31 `a` and `b` 270 ms, of 63 and `b` 717 ms (V8, this project's machine under load).
 */
const HEAD_CHARS = 16;
/** Estimated ms per character and pattern character of a `/iu` search (measured ≤ 0.6 ns, see above). */
const FOLD_MS_PER_STEP = 1e-6;
/** Characters checked between two questions to the gate (~1 ms). */
const CHECK_CHARS = 1 << 20;
/** A search estimated under this (ms) starts without asking: a 64 KiB chunk costs ~1 ms. */
const SHORT_CALL_MS = 5;

/** Characters per piece: far below what V8 compiles case-insensitively without trouble (~20k). */
const PIECE_CHARS = 1024;

function splitPieces(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; ) {
    let end = Math.min(i + size, text.length);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--; // never split a pair
    pieces.push(text.slice(i, end));
    i = end;
  }
  return pieces;
}



