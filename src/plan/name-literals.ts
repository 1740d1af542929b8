/**
 * The name regexes that are literals in RE2 clothing, matched without RE2. The command writes its
 * everyday name modes as regexes (src/cli/names.ts): `-F make` is `(?i)make`, several `-F` texts
 * `(?i)a|b`, `-e ts` is `(?is).\.(?:ts)$`, and the hint after an empty answer (src/cli/hint.ts)
 * searches `make` escaped. Loading and compiling re2js for them was a fifth of such a command's
 * start-up (11 of 57 ms of CPU over an empty folder: require 8 ms, compile 3): these shapes, and
 * only these, become a JavaScript regex of the same meaning, which V8 has at hand.
 *
 * Same meaning, by construction: the source is read strictly (anything else goes to RE2), and the
 * JavaScript regex is made of the same literals, escaped. A literal has no repeat, so the regex cannot
 * backtrack; a test costs (literals' length × name length) at most, what the RE2 cost model charges.
 * Case: RE2's `(?i)` and JavaScript's `iu` both match by Unicode's simple case folding (`k` also
 * matches the Kelvin sign, `s` the long s), but each carries its own Unicode tables; folding is taken
 * here only for ASCII literals, whose classes have not changed between versions (a non-ASCII literal
 * under `(?i)` goes to RE2). test/walk/name-literals.test.ts holds both to re2js over every code point.
 */
import { ESCAPED_CHARS, escapeRegex } from '../regex-escape.js';

/** The characters an escaped literal escapes (`escapeRegex`): `\X` is X itself. */
const ESCAPED = new Set(ESCAPED_CHARS);
/** What RE2 would read as syntax when written bare: those, but `/`. */
const SYNTAX = new Set(ESCAPED_CHARS.replace('/', ''));
/** The flag prefixes the command writes: fold (smart case found no capital, or `-i`), keep case. */
const PREFIXES: readonly { text: string; fold: boolean }[] = [
  { text: '(?i)', fold: true },
  { text: '(?-i)', fold: false },
];
/** `-e`'s shape (src/cli/names.ts): one character at least, a dot, one of the extensions, the end. */
const EXTENSION_START = '(?is).\\.(?:';
const EXTENSION_END = ')$';

/**
 * The longest source taken here; RE2 answers a longer one. V8 compiles a folded literal of ~12,300
 * characters to a stack overflow, thrown at the first test (an adversarial run: `-F` of 12,303
 * `a`s ended the command with status 1), and a folded alternation near `MAX_NAME_REGEX_SIZE`
 * tested a name in 16 ms against re2js's 0.3. A name is at most 255 characters on the usual file
 * systems: the command's shapes are far shorter.
 */
const MAX_SOURCE = 1_000;

/**
 * The JavaScript regex that tests a base name as RE2 would test `source` under `fold` (the search's
 * case, `CASE_INSENSITIVE`), or undefined when `source` is not one of the shapes above.
 */
export function literalNameRegex(source: string, fold: boolean): RegExp | undefined {
  if (source.length > MAX_SOURCE) return undefined;
  if (source.startsWith(EXTENSION_START) && source.endsWith(EXTENSION_END)) {
    const extensions = readAlternatives(source.slice(EXTENSION_START.length, -EXTENSION_END.length));
    // `(?is)` folds whatever the search's case is.
    if (extensions === undefined || !foldable(extensions)) return undefined;
    return new RegExp(`.\\.(?:${extensions.map(escapeRegex).join('|')})$`, 'isu');
  }
  const prefix = PREFIXES.find((p) => source.startsWith(p.text));
  const folding = prefix?.fold ?? fold;
  const literals = readAlternatives(prefix === undefined ? source : source.slice(prefix.text.length));
  if (literals === undefined || (folding && !foldable(literals))) return undefined;
  return new RegExp(literals.map(escapeRegex).join('|'), folding ? 'iu' : 'u');
}

/** `a|b\.c` as its literals (`a`, `b.c`), or undefined when anything in it is syntax or is not well-formed text. */
function readAlternatives(text: string): string[] | undefined {
  const literals: string[] = [];
  let literal = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '|') {
      literals.push(literal);
      literal = '';
    } else if (c === '\\') {
      const next = text[++i];
      if (next === undefined || !ESCAPED.has(next)) return undefined;
      literal += next;
    } else if (SYNTAX.has(c)) {
      return undefined;
    } else {
      literal += c;
    }
  }
  literals.push(literal);
  // A lone surrogate: JavaScript's `u` and re2js may read it differently; RE2 decides.
  return literals.some((l) => LONE_SURROGATE.test(l)) ? undefined : literals;
}

const LONE_SURROGATE = /\p{Cs}/u;

/** Only ASCII: the case classes both engines agree on whatever their Unicode versions. */
function foldable(literals: readonly string[]): boolean {
  return literals.every((l) => /^[\x00-\x7f]*$/.test(l));
}
