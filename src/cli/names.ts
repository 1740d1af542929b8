/**
 * fd's ways of naming files on the command line, turned into the library's options: `-F TEXT` (a
 * substring of the base name), `--name-regex REGEX` (fd's default mode) and `-e EXT`, each one
 * RE2 regex of `nameRegex` that must match the base name (src/plan/name.ts), beside the glob.
 *
 * Smart case, as fd: a name mode's text with no capital letter (nor a class whose range starts or
 * ends on one, src/regex-syntax.ts) matches in any case; one with a capital, exactly; `-s` and `-i` override; on Windows names match in any
 * case anyway. The glob and `-E` keep their own case (exact, except on Windows): a glob is a path
 * as the shell and .gitignore read it, and `find-file README.md` finding `readme.md` would surprise
 * more than it helps.
 */
import * as path from 'node:path';
import { FindFileError } from '../errors.js';
import { escapeRegex } from '../regex-escape.js';
import { ignoresCaseSmartly, literalSyntax, readRegexSyntax, type RegexSyntax } from '../regex-syntax.js';
import type { CliArgs } from './args.js';

/** What the name flags add to a file search's options; `pattern` is the glob the search then gets. */
export interface NameOptions {
  pattern: string | string[] | undefined;
  nameRegex?: string[];
}

/** The glob that matches every base name at any depth: a name mode alone tests names only. */
const EVERY_NAME = '*';

export function nameOptions(args: CliArgs, patterns: string[]): NameOptions {
  const glob = globsOf(patterns);
  const typed = args.fixedStrings === true ? patterns.map(literalSyntax) : args.nameRegex !== undefined ? [readRegexSyntax(args.nameRegex)] : [];
  const flag = smartCaseFlag(args.caseSensitive === true || args.ignoreCase === true, typed);
  const regexes = [
    // fd takes one pattern; several -F texts are alternatives, as several globs are.
    ...(args.fixedStrings === true ? [flag + patterns.map(escapeRegex).join('|')] : []),
    ...(args.nameRegex !== undefined ? [flag + args.nameRegex] : []),
    // As fd (`^.+\.EXT$`): an extension matches in any case, after at least one character, so
    // `-e txt` does not list a dot file named `.txt`; `s` lets that character be a line feed.
    ...(args.extension !== undefined ? [`(?is).\\.(?:${args.extension.map(escapeRegex).join('|')})$`] : []),
  ];
  if (regexes.length === 0) return { pattern: glob };
  const pattern = args.fixedStrings === true ? EVERY_NAME : (glob ?? EVERY_NAME);
  return { pattern, nameRegex: regexes };
}

/**
 * The positional patterns as the library's `pattern`: one as itself (errors then name "pattern",
 * not "pattern[0]"), none as undefined. A pattern of white space only is the name it spells: the
 * library refuses a blank pattern (docs/contract.md: from code, a stray value), but here it was
 * typed, a file named " " can exist, and `fd -g ' '` finds it; so each character is escaped.
 */
export function globsOf(patterns: string[]): string | string[] | undefined {
  const globs = patterns.map((p) => (p === '' || p.trim() !== '' ? p : [...p].map(escapeGlobCharacter).join('')));
  return globs.length === 0 ? undefined : globs.length === 1 ? globs[0]! : globs;
}

/** One character as a glob that matches only it: `\x`, or `[x]` on Windows, where `\` is a separator. */
function escapeGlobCharacter(c: string): string {
  return process.platform === 'win32' ? `[${c}]` : `\\${c}`;
}

/**
 * Smart case as a flag on the typed regexes alone: the glob and `-E` keep their own case, as fd's
 * `-E` does (it had made `-F make -E Build` leave out `build/` too). Nothing when `-s` or `-i`
 * chose (`chosen`: the search's `caseSensitive` says it for everything), or on Windows, where names
 * match in any case whatever the text. The `-F` hint's search (hint.ts) reads its text by it too.
 */
export function smartCaseFlag(chosen: boolean, typed: RegexSyntax[]): string {
  if (chosen || typed.length === 0 || process.platform === 'win32') return '';
  return typed.every((syntax) => ignoresCaseSmartly(syntax, 'fd')) ? '(?i)' : '(?-i)';
}

/**
 * A name mode's text matches within a base name, which never holds a `/` (nor `\\` on Windows): fd
 * refuses such a pattern, where this answered "no match, complete" (`-F app/sub` over app/sub/x).
 */
export function refuseSeparatorInNames(args: CliArgs, patterns: string[]): void {
  const separators = path.sep === '\\' ? /[\\/]/ : /\//;
  const [flag, text] = args.fixedStrings === true ? ['-F', patterns.find((p) => separators.test(p))] : ['--name-regex', separators.test(args.nameRegex ?? '') ? args.nameRegex : undefined];
  if (text === undefined) return;
  throw new FindFileError(
    'FF_INVALID_OPTION',
    `${flag} ${JSON.stringify(text)} holds a path separator, and ${flag} matches base names, which never hold one: it could match nothing. For what is inside a folder: find-file '*' FOLDER; for paths through one: a glob, find-file '**/${flag === '-F' ? text : 'FOLDER'}/**'`,
    args.fixedStrings === true ? 'fixedStrings' : 'nameRegex',
  );
}
