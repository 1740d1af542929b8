/**
 * Text made literal inside a regular expression, for every module that compiles one from user text
 * (globs, ignore rules, a literal content query). Only syntax characters are escaped, so the result
 * is valid with and without the `u` flag (with it, an escaped `-` outside a set is an error).
 */

/** `text` matched as itself. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/** One character matched as itself inside `[...]`. */
export function escapeClassChar(char: string): string {
  return /[\\\]^-]/.test(char) ? `\\${char}` : char;
}
