/**
 * Text made literal inside a regular expression, for every module that compiles one from user text
 * (globs, ignore rules, a literal content query). Only syntax characters are escaped, so the result
 * is valid with and without the `u` flag (with it, an escaped `-` outside a set is an error).
 */

/** The characters `escapeRegex` escapes (src/plan/name-literals.ts reads its output back by them). */
export const ESCAPED_CHARS = '\\^$.*+?()[]{}|/';

const ESCAPED = new RegExp(`[${[...ESCAPED_CHARS].map(escapeClassChar).join('')}]`, 'g');

/** `text` matched as itself. */
export function escapeRegex(text: string): string {
  return text.replace(ESCAPED, '\\$&');
}

/** One character matched as itself inside `[...]`. */
export function escapeClassChar(char: string): string {
  return /[\\\]^-]/.test(char) ? `\\${char}` : char;
}
