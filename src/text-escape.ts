/**
 * Untrusted text made safe to show: a file name, a path, a line of a file, on its way into an
 * agent's answer (src/agent/text.ts) or onto a person's terminal (src/cli/). A name is whatever the
 * filesystem allows, newlines and escape sequences included, so shown raw it can forge a line of
 * the answer ("(search complete)"), move a terminal's cursor, or reorder what is read (bidi).
 *
 * The contract (docs/agent.md, "Untrusted text"):
 * - Escaped, each as `\u{HEX}` (its code point, lower-case hex, no padding): every C0 control
 *   (U+0000-U+001F: tab, newline, carriage return, ESC...), DEL (U+007F), every C1 control
 *   (U+0080-U+009F), U+2028 and U+2029, the bidirectional controls (U+061C, U+200E, U+200F,
 *   U+202A-U+202E, U+2066-U+2069), and the other characters that are invisible and stand for no
 *   text: every other format character (`\p{Cf}`: U+00AD, U+180E, U+200B, U+2060-U+2064,
 *   U+206A-U+206F, U+FEFF, U+FFF9-U+FFFB, the tags U+E0000-U+E007F...), the Hangul fillers
 *   (U+115F, U+1160, U+3164, U+FFA0), U+034F, the variation selectors (U+FE00-U+FE0F,
 *   U+E0100-U+E01EF), and an unpaired surrogate. Left alone: U+200C and U+200D (format characters
 *   too), which shape ordinary writing (Persian, Indic scripts, emoji sequences).
 * - A backslash is written `\u{5c}` only where it is followed by `u{`, the one place it could be
 *   read as the start of an escape; everywhere else it is itself.
 * - So every `\u{` in the output starts an escape, and the form is reversible (`unescapeText`).
 *   Everything else passes unchanged: a line of code holding `\n`, `\t` or `\\`, or a Windows path
 *   like `C:\tools\new`, reads exactly as it is on disk, which a C-style `\n` form cannot offer
 *   (it would have to double those backslashes).
 * - The output holds no line break: escaped text can never start a line of its own.
 */

/**
 * What is escaped; the `u` flag makes a class of surrogates match unpaired ones only. Every format
 * character (`\p{Cf}`: soft hyphen, U+180E, the bidi and tag controls...) but ZWNJ and ZWJ, and
 * the whole tag block (its unassigned code points are not Cf); the Hangul fillers and U+034F,
 * which render as nothing; the variation selectors.
 */
const UNSAFE_CHARS = String.raw`[\u0000-\u001f\u007f-\u009f\u034f\u115f\u1160\u2028\u2029\u3164\ufe00-\ufe0f\uffa0\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}\ud800-\udfff]|(?![\u200c\u200d])\p{Cf}`;
const UNSAFE = new RegExp(`${UNSAFE_CHARS}|\\\\(?=u\\{)`, 'u');
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'gu');
const ESCAPE_ALL = /\\u\{([0-9a-f]{1,6})\}/g;

/** `text` with every character that could forge a line, drive a terminal or hide text written `\u{HEX}`. */
export function escapeText(text: string): string {
  // Perf: almost every name holds nothing to escape; one scan, and the same string back.
  if (!UNSAFE.test(text)) return text;
  return text.replace(UNSAFE_ALL, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** The text `escapeText` was given, from what it returned. */
export function unescapeText(shown: string): string {
  return shown.replace(ESCAPE_ALL, (escape, hex: string) => {
    const code = parseInt(hex, 16);
    return code > 0x10ffff ? escape : String.fromCodePoint(code);
  });
}

/** The first `max` UTF-16 units, never ending on half of a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = max > 0 && isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The longest failure message shown: V8's message for a regex it could not compile carried 100 KB of source once. */
export const MAX_MESSAGE_CHARS = 2_000;

/**
 * A failure's message cut to about `max` characters: its start and its end (where a usage error
 * lists the choices), with how many characters were left out between them.
 */
export function shortMessage(text: string, max = MAX_MESSAGE_CHARS): string {
  if (text.length <= max) return text;
  const head = cutText(text, Math.ceil(max / 2));
  let tailStart = text.length - Math.floor(max / 2);
  if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart++; // never start on half of a pair
  return `${head} ... (${tailStart - head.length} characters left out) ... ${text.slice(tailStart)}`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
