/**
 * fd's ways of naming files on the command line, turned into the library's options: `-F TEXT` (a
 * substring of the base name), `--name-regex REGEX` (fd's default mode) and `-e EXT`, each one
 * RE2 regex of `nameRegex` that must match the base name (src/plan/name.ts), beside the glob.
 *
 * Smart case, as fd: a name mode's text with no capital letter matches in any case; one with a
 * capital, exactly; `-s` and `-i` override; on Windows names match in any case anyway. The glob
 * keeps its own case (exact, except on Windows): a glob is a path as the shell and .gitignore read
 * it, and `find-file README.md` finding `readme.md` would surprise more than it helps.
 */
import { escapeRegex } from '../regex-escape.js';
import type { CliArgs } from './args.js';

/** What the name flags add to a file search's options; `pattern` is the glob the search then gets. */
export interface NameOptions {
  pattern: string | string[] | undefined;
  nameRegex?: string[];
  /** Smart case resolved, when a name mode decided it; undefined leaves `-s`/`-i` or the default. */
  smartCase?: boolean;
}

/** The glob that matches every base name at any depth: a name mode alone tests names only. */
const EVERY_NAME = '*';

export function nameOptions(args: CliArgs, patterns: string[]): NameOptions {
  const glob = patterns.length === 0 ? undefined : patterns.length === 1 ? patterns[0]! : patterns;
  const typed = args.fixedStrings === true ? patterns : args.nameRegex !== undefined ? [args.nameRegex] : [];
  const regexes = [
    // fd takes one pattern; several -F texts are alternatives, as several globs are.
    ...(args.fixedStrings === true ? [patterns.map(escapeRegex).join('|')] : []),
    ...(args.nameRegex !== undefined ? [args.nameRegex] : []),
    // As fd: an extension matches in any case.
    ...(args.extension !== undefined ? [`(?i)\\.(?:${args.extension.map(escapeRegex).join('|')})$`] : []),
  ];
  if (regexes.length === 0) return { pattern: glob };
  const pattern = args.fixedStrings === true ? EVERY_NAME : (glob ?? EVERY_NAME);
  const chosen = args.caseSensitive === true || args.ignoreCase === true || typed.length === 0;
  return { pattern, nameRegex: regexes, ...(chosen ? {} : { smartCase: typed.some(hasCapital) }) };
}

/** A capital letter in the text as typed, escapes (`\S`, `\W`) aside: fd's smart-case test. */
export function hasCapital(text: string): boolean {
  return /\p{Lu}/u.test(text.replace(/\\./g, ''));
}
