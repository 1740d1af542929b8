/**
 * What a regex's syntax says, read as ripgrep reads it (regex-syntax's AST), for the two rules that
 * depend on how the pattern is written, not on what it matches:
 *
 * - Smart case (`rg -S`): ignore case when the pattern has a literal character and none of its
 *   literal characters is upper-case. A literal is a character written to stand for itself:
 *   plain (`A`), escaped (`\.`, `\x41`, `\x{41}`, `\101`, `\Q..\E` contents), or a member or range
 *   end of a bracketed class (`[A-Z]`). Never one: the letters of an escape that is a class or an
 *   assertion (`\pL`, `\p{Lu}`, `\S`, `\W`, `\D`, `\B`), `[[:upper:]]`, a group's name
 *   (`(?P<Name>...)`), flags (`(?U)`), repetition counts. ripgrep's `AstAnalysis` (grep-regex
 *   `ast.rs`): `any_literal && !any_uppercase`.
 * - A written line feed: a literal character U+000A however spelled (a raw line break, `\n`,
 *   `\x0a`, `\x{a}`, `\012`), alone or inside brackets (`[\n]`, `[a\n]`, a range end `[\n-\r]`).
 *   ripgrep refuses the first kind without `-U` and silently drops the second; we search such a
 *   pattern across lines (`rg -U`'s meaning) instead. A class that only happens to hold U+000A
 *   (`\s`, `[^x]`, `[\x00-\x7f]`, `(?s).`) does not count: it matches within a line, as in `rg`.
 *
 * The reader never throws: it runs before RE2 checks the pattern (and for a ripgrep-only search,
 * which reports its own errors), so on bad syntax its answer is a best effort.
 *
 * It lives here, not under src/content/, because the CLI's name modes decide smart case from the
 * same reading (`ignoresCaseSmartly`, fd's rule), and src/ never imports from src/cli/.
 */
import type { RE2JS } from 're2js';
import { loadRe2 } from './re2.js';
import { decodeRanges, inRanges } from './range-table.js';
import { RG_UPPERCASE_TABLE } from './rg-uppercase-table.js';

export interface RegexSyntax {
  /** Some character is written as a literal. */
  anyLiteral: boolean;
  /** Some literal character is upper-case (Unicode `Uppercase` as ripgrep 13 has it: `isUppercaseForRg`). */
  anyUppercase: boolean;
  /** Some literal character is a line feed. */
  writesLineFeed: boolean;
  /** The source of each class written outside brackets' members: `[...]`, `\pL`, `\p{No}`, `\w`, `\D`... */
  classes: string[];
  /**
   * Some literal with a case partner is written where an `i` flag is on (`(?i)b`, `(?i:b)`): fd's
   * HIR reads it as a class holding its capital (`[Bb]`), ripgrep's AST as the literal it is.
   */
  foldsCasedLiteral: boolean;
  /**
   * The first construct in brackets that Rust's regex (ripgrep) reads as a set operation and RE2 as
   * characters: `&&` (intersection), `--` (difference), `~~` (symmetric difference), or a `[` that
   * opens a nested class (a union; `[:alpha:]` aside). `[a-z&&[^o]]` is "a to z but o" for ripgrep,
   * the characters `a`-`z`, `&`, `[`, `^`, `o` then a literal `]` for RE2. Its offset in the pattern.
   */
  classSetOperation: { construct: '&&' | '--' | '~~' | '['; at: number } | undefined;
}

const UPPERCASE = /^\p{Uppercase}$/u;
const LINE_FEED = 0x0a;

/** The facts above for a pattern in RE2 / Rust regex syntax. */
export function readRegexSyntax(pattern: string): RegexSyntax {
  const facts: RegexSyntax = { anyLiteral: false, anyUppercase: false, writesLineFeed: false, classes: [], foldsCasedLiteral: false, classSetOperation: undefined };
  // Whether an `i` flag is on here, and what it was outside each open group (a flag set inside a group ends with it).
  let folding = false;
  const outside: boolean[] = [];
  const literal = (code: number) => {
    facts.anyLiteral = true;
    const ch = String.fromCodePoint(code);
    if (!facts.anyUppercase && isUppercaseForRg(code)) facts.anyUppercase = true;
    if (folding && ch.toUpperCase() !== ch.toLowerCase()) facts.foldsCasedLiteral = true;
    if (code === LINE_FEED) facts.writesLineFeed = true;
  };
  const reader = new Reader(pattern);
  while (!reader.done()) {
    const c = reader.peek();
    const start = reader.at;
    if (c === '\\') {
      const escape = reader.escape();
      if (escape.kind === 'literal') literal(escape.code);
      else if (escape.kind === 'quoted') for (const ch of escape.text) literal(ch.codePointAt(0)!);
      else if (escape.kind === 'class') facts.classes.push(pattern.slice(start, reader.at));
    } else if (c === '[') {
      reader.next();
      reader.bracketed(literal);
      facts.classes.push(pattern.slice(start, reader.at));
    } else if (c === '(') {
      reader.next();
      const flags = reader.groupHeader();
      // `(?i)` sets the flag for the rest of the enclosing group; `(?i:...)` and `(...)` open one.
      if (flags?.directive !== true) outside.push(folding);
      if (flags?.folding !== undefined) folding = flags.folding;
    } else if (c === ')') {
      reader.next();
      folding = outside.pop() ?? folding;
    } else if (c === '{' && reader.repetition()) {
      // a count, `{2}` `{2,}` `{2,5}`: no characters
    } else if ('.^$|*+?'.includes(c)) {
      reader.next();
    } else {
      literal(reader.nextCodePoint());
    }
  }
  facts.classSetOperation = reader.setOperation;
  return facts;
}

const UPPERCASE_TEXT = /\p{Uppercase}/u;

/** A literal query's facts: every character is a literal (and the query is never empty). */
export function literalSyntax(text: string): RegexSyntax {
  // Perf: V8's test first, over the whole text at once: ripgrep's upper-case letters are among V8's.
  const anyUppercase = UPPERCASE_TEXT.test(text) && [...text].some((ch) => isUppercaseForRg(ch.codePointAt(0)!));
  return { anyLiteral: true, anyUppercase, writesLineFeed: text.includes('\n'), classes: [], foldsCasedLiteral: false, classSetOperation: undefined };
}

/**
 * Smart case, the one decision for content and names: true when a pattern with no case of its own
 * asked should match in any case. Both tools count an upper-case letter (Unicode `Uppercase`, so
 * `Ⓐ` and `Ⅻ` too) written as a literal, however spelled (`A`, `\x41`, `\101`); they part on classes:
 * - `'rg'` (content search, `rg -S`, grep-regex's AST): classes never count, and a pattern with no
 *   literal at all keeps case.
 * - `'fd'` (the CLI's name modes, fd's `pattern_has_uppercase_char` over regex-syntax's HIR): a class
 *   counts when one of its ranges, merged, starts or ends on an upper-case letter: `\w`, `\p{Lu}`,
 *   `\pL`, `[[:upper:]]`, `[A-Z]` do; `\pN`, `\p{No}`, `\D`, `\S`, `[^a]`, `.` do not; nor does a
 *   letter written under an `i` flag (`(?i:a)b`: the HIR's `[Aa]`), which keeps the rest's case.
 */
export function ignoresCaseSmartly(syntax: RegexSyntax, rule: 'rg' | 'fd'): boolean {
  if (syntax.anyUppercase) return false;
  return rule === 'rg' ? syntax.anyLiteral : !syntax.foldsCasedLiteral && !syntax.classes.some(hasUppercaseBound);
}

/**
 * The class's set read as RE2 (the engine that runs a name regex) reads it; a range bound is a
 * member with a neighbour outside. Perf: ~20 ms once for the list, ~1-20 ms a class; the CLI asks
 * once per run, for `--name-regex` alone.
 */
function hasUppercaseBound(source: string): boolean {
  let regex: RE2JS;
  try {
    regex = loadRe2().compile(`^(?:${source})$`);
  } catch {
    return false; // RE2 refuses the whole pattern after this, with its own message
  }
  const has = (code: number) => code >= 0 && code <= 0x10ffff && regex.matches(String.fromCodePoint(code));
  return uppercaseCodePoints().some((code) => has(code) && (!has(code - 1) || !has(code + 1)));
}

let rgUppercase: Uint32Array | undefined;

/**
 * Whether ripgrep 13's smart case calls the code point upper-case (Rust's `char::is_uppercase`, from
 * its Unicode tables, src/rg-uppercase-table.ts). Not V8's `\p{Uppercase}`: V8 knows characters
 * newer than ripgrep's tables (U+1C89 CYRILLIC CAPITAL LETTER TJE, Unicode 16), and a query `\u1C89x`
 * kept case on the pure-TS path where `rg -S` ignores it: the walker missed `\u1C89X` and said complete.
 */
export function isUppercaseForRg(code: number): boolean {
  return inRanges((rgUppercase ??= decodeRanges(RG_UPPERCASE_TABLE)), code);
}

let uppercase: number[] | undefined;

/** Every `Uppercase` code point: none lies past U+1FFFF (the last are U+1F170-U+1F189). */
function uppercaseCodePoints(): number[] {
  if (uppercase !== undefined) return uppercase;
  uppercase = [];
  for (let code = 0; code <= 0x1ffff; code++) {
    if ((code < 0xd800 || code > 0xdfff) && UPPERCASE.test(String.fromCodePoint(code))) uppercase.push(code);
  }
  return uppercase;
}

type Escape = { kind: 'literal'; code: number } | { kind: 'quoted'; text: string } | { kind: 'class' } | { kind: 'other' };

const SIMPLE_ESCAPES: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };
/** Escape letters that stand for a class (`\pL` aside), then those that stand for an assertion: not a character. */
const CLASS_ESCAPES = new Set(['d', 'D', 's', 'S', 'w', 'W']);
const ASSERTIONS = new Set(['b', 'B', 'A', 'z', 'Z', 'C']);
const HEX = /^[0-9a-fA-F]+$/;

/** `[:alpha:]`, `[:^digit:]`: an ASCII class inside brackets, for both dialects. */
const NAMED_CLASS = /^\[:\^?[a-z]+:\]/;

class Reader {
  private i = 0;
  /** The first set operation met in brackets (`RegexSyntax.classSetOperation`). */
  setOperation: RegexSyntax['classSetOperation'];
  constructor(private readonly s: string) {
    // A non-string has no length: done() would never be true and the read loops would spin forever.
    if (typeof s !== 'string') throw new TypeError(`a regex must be text, got ${typeof s}`);
  }

  get at(): number {
    return this.i;
  }

  done(): boolean {
    return this.i >= this.s.length;
  }

  peek(offset = 0): string {
    return this.s[this.i + offset] ?? '';
  }

  next(): string {
    return this.s[this.i++] ?? '';
  }

  nextCodePoint(): number {
    const code = this.s.codePointAt(this.i)!;
    this.i += code > 0xffff ? 2 : 1;
    return code;
  }

  /** At a backslash: one escape, whatever it stands for. */
  escape(): Escape {
    this.i++; // the backslash
    if (this.done()) return { kind: 'other' };
    const c = this.peek();
    if (c === 'Q') return { kind: 'quoted', text: this.quoted() };
    if (c === 'x') return this.hex(2);
    if (c === 'u') return this.hex(4);
    if (c === 'U') return this.hex(8);
    if (c >= '0' && c <= '7') return this.octal();
    if (c === 'p' || c === 'P') {
      this.i++;
      if (this.peek() === '{') this.skipPast('}');
      else if (!this.done()) this.nextCodePoint();
      return { kind: 'class' };
    }
    if (c in SIMPLE_ESCAPES) {
      this.i++;
      return { kind: 'literal', code: SIMPLE_ESCAPES[c]! };
    }
    if (CLASS_ESCAPES.has(c)) {
      this.i++;
      return { kind: 'class' };
    }
    if (ASSERTIONS.has(c) || /[0-9a-zA-Z]/.test(c)) {
      this.i++;
      return { kind: 'other' };
    }
    return { kind: 'literal', code: this.nextCodePoint() }; // `\.`, `\[`, `\ `: the character itself
  }

  /** `\Q...\E` (RE2): the text up to `\E` or the end, each character a literal. */
  private quoted(): string {
    this.i++; // Q
    const end = this.s.indexOf('\\E', this.i);
    const text = this.s.slice(this.i, end < 0 ? this.s.length : end);
    this.i = end < 0 ? this.s.length : end + 2;
    return text;
  }

  /** `\xHH` or `\x{H...}` (and Rust's `\uHHHH`, `\UHHHHHHHH`, `\u{...}`). */
  private hex(digits: number): Escape {
    this.i++; // the letter
    let text: string;
    if (this.peek() === '{') {
      const end = this.s.indexOf('}', this.i);
      if (end < 0) return { kind: 'other' };
      text = this.s.slice(this.i + 1, end);
      this.i = end + 1;
    } else {
      text = this.s.slice(this.i, this.i + digits);
      this.i += text.length;
    }
    const code = HEX.test(text) ? parseInt(text, 16) : NaN;
    return code <= 0x10ffff ? { kind: 'literal', code } : { kind: 'other' };
  }

  /** RE2's octal `\0`, `\012`, `\101` (up to three digits); `\1` alone is a back-reference RE2 refuses. */
  private octal(): Escape {
    const digits = /^[0-7]{1,3}/.exec(this.s.slice(this.i))![0];
    this.i += digits.length;
    return digits.length === 1 && digits !== '0' ? { kind: 'other' } : { kind: 'literal', code: parseInt(digits, 8) };
  }

  private skipPast(end: string): void {
    const at = this.s.indexOf(end, this.i);
    this.i = at < 0 ? this.s.length : at + 1;
  }

  /** After `[`: the class's members up to its `]`; literal members and range ends go to `literal`. */
  bracketed(literal: (code: number) => void): void {
    if (this.peek() === '^') this.i++;
    let first = true; // a `]` first is a member
    let previous: number | undefined; // the last single member, a range's possible start
    while (!this.done()) {
      const c = this.peek();
      if (c === ']' && !first) {
        this.i++;
        return;
      }
      first = false;
      const named = c === '[' ? NAMED_CLASS.exec(this.s.slice(this.i, this.i + 16)) : null;
      if (named !== null) {
        this.i += named[0].length;
        previous = undefined;
        continue;
      }
      if (c === '[' || ((c === '&' || c === '-' || c === '~') && this.peek(1) === c)) {
        this.setOperation ??= { construct: c === '[' ? '[' : (`${c}${c}` as '&&' | '--' | '~~'), at: this.i };
      }
      if (c === '-' && previous !== undefined && this.peek(1) !== ']' && this.peek(1) !== '') {
        this.i++; // a range: both ends are literals, the start counted already
        const end = this.member(literal);
        if (end !== undefined) literal(end);
        previous = undefined;
        continue;
      }
      previous = this.member(literal);
      if (previous !== undefined) literal(previous);
    }
  }

  /**
   * One class member: its code point when it is a character, undefined for `\d`, `\pL` and the
   * like. `\Q..\E` holds several: all but the last go to `literal` here, the last is returned.
   */
  private member(literal: (code: number) => void): number | undefined {
    if (this.peek() !== '\\') return this.nextCodePoint();
    const escape = this.escape();
    if (escape.kind === 'literal') return escape.code;
    if (escape.kind !== 'quoted' || escape.text === '') return undefined;
    const codes = [...escape.text].map((ch) => ch.codePointAt(0)!);
    codes.slice(0, -1).forEach(literal);
    return codes.at(-1);
  }

  /**
   * After `(`: skips `?:`, `?flags)`, `?flags:`, `?P<name>`, `?<name>`; the group's body is read as
   * usual. Says what the flags did to `i` (undefined: nothing), and whether it was a `(?flags)`
   * directive (its `)` read here: no group opened).
   */
  groupHeader(): { folding: boolean | undefined; directive: boolean } | undefined {
    if (this.peek() !== '?') return undefined;
    this.i++;
    if (this.peek() === 'P' && this.peek(1) === '<') this.skipPast('>');
    else if (this.peek() === '<' && this.peek(1) !== '=' && this.peek(1) !== '!') this.skipPast('>');
    else {
      let folding: boolean | undefined;
      let negated = false;
      while (!this.done()) {
        const c = this.next();
        if (c === ')' || c === ':') return { folding, directive: c === ')' };
        if (c === '-') negated = true;
        else if (c === 'i') folding = !negated;
      }
    }
    return undefined;
  }

  /** At `{`: true, having skipped it, when it starts a repetition count; false (a literal `{`) otherwise. */
  repetition(): boolean {
    const count = /^\{\d+(,\d*)?\}/.exec(this.s.slice(this.i, this.i + 32));
    if (count === null) return false;
    this.i += count[0].length;
    return true;
  }
}
