/**
 * `-x/--exec` and `-X/--exec-batch`, as fd: the rules, with no I/O (exec-run.ts runs them).
 *
 * - The command is the words after `-x` (or `-X`) up to a word `;` or the end of the command line,
 *   as fd takes them: they are taken out of argv before either parser sees it, so `-x rm -rf` is
 *   never read as flags of ours, and a `--` before `-x` leaves `-x` a pattern.
 * - Each word may hold placeholders: `{}` the path, `{/}` its name, `{//}` its parent, `{.}` the
 *   path without its extension, `{/.}` the name without it. None given: the path is the last word.
 * - A path is always one argv element, never split or read by a shell (there is none). A relative
 *   path starts with `./` (fd does so for the current directory), so a name like `-rf` cannot be
 *   read by the command as an option.
 * - `-X`: one run with every path; each word holding a placeholder is repeated for every path.
 *   When the words would exceed the OS's limit, the paths are split over several runs, as fd and
 *   xargs do.
 */
import * as path from 'node:path';
import { FindFileError } from '../errors.js';
import { buildFlags } from './flags.js';

/** The command to run on the matches: its words as given (placeholders unfilled). */
export interface ExecCommand {
  /** `-X`: one run with every path; `-x`: one run per path. */
  batch: boolean;
  words: string[];
}

const EXEC_FLAGS: Record<string, boolean> = { '-x': false, '--exec': false, '-X': true, '--exec-batch': true };

/**
 * Takes the command out of argv: `-x CMD ARGS... ;` becomes `-x` alone, which the parsers read as
 * a boolean (so `--help`, conflicts and checks see it). The value of a flag (`--contains -x`) and
 * everything after `--` stay as they are. Throws a usage error for `-x` with no command, or given twice.
 */
export function takeExecCommand(argv: readonly string[]): { argv: string[]; exec: ExecCommand | undefined } {
  const flags = Object.entries(buildFlags(0)).filter(([, spec]) => spec.requiresArg === true);
  const valued = new Set([...flags.map(([name]) => `--${name}`), ...flags.flatMap(([, spec]) => (spec.alias === undefined ? [] : [`-${spec.alias}`]))]);
  const out: string[] = [];
  let exec: ExecCommand | undefined;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return { argv: [...out, ...argv.slice(i)], exec };
    const batch = EXEC_FLAGS[word];
    if (batch === undefined) {
      out.push(word);
      if (valued.has(word) && i + 1 < argv.length) out.push(argv[++i]!);
      continue;
    }
    if (exec !== undefined) throw usage(`give one command only: ${word} after -x/-X`);
    const end = argv.indexOf(';', i + 1);
    const words = argv.slice(i + 1, end === -1 ? argv.length : end);
    if (words.length === 0) throw usage(`${word} needs a command: ${word} CMD [ARGS...] [;]`);
    exec = { batch, words };
    out.push(word);
    i = end === -1 ? argv.length : end;
  }
  return { argv: out, exec };
}

function usage(message: string): FindFileError {
  return new FindFileError('FF_INVALID_OPTION', message, 'exec');
}

const PLACEHOLDER = /\{(\/\/|\/\.|\/|\.)?\}/g;

function holdsPlaceholder(word: string): boolean {
  return word.search(PLACEHOLDER) !== -1;
}

/** The command's words with a `{}` last when none holds a placeholder, as fd. */
export function withPlaceholder(words: readonly string[]): string[] {
  return words.some(holdsPlaceholder) ? [...words] : [...words, '{}'];
}

/** `word` with each placeholder replaced by that part of `file` (a path as the command gets it). */
export function fillPlaceholders(word: string, file: string): string {
  return word.replace(PLACEHOLDER, (_, kind: string | undefined) => {
    if (kind === undefined) return file;
    const name = path.basename(file);
    if (kind === '/') return name;
    if (kind === '//') return path.dirname(file);
    if (kind === '.') return file.slice(0, file.length - path.extname(file).length);
    return name.slice(0, name.length - path.extname(name).length); // '/.'
  });
}

/** A path as the command gets it: relative ones start with `./` (or `../`), so none reads as an option. */
export function asArgument(shown: string): string {
  if (path.isAbsolute(shown) || shown.startsWith(`.${path.sep}`) || shown.startsWith(`..${path.sep}`)) return shown;
  return `.${path.sep}${shown}`;
}

/** `-x`: the argv of one run, for one path. */
export function argvFor(words: readonly string[], file: string): string[] {
  return withPlaceholder(words).map((word) => fillPlaceholders(word, file));
}

/**
 * The most argv bytes one `-X` run is given: 128 KiB on POSIX, GNU xargs' default (Linux allows
 * more, but the environment shares the space); Windows' command line is at most 32,767 characters
 * once quoted, so 30,000 leaves room for the quotes.
 */
export const ARGV_BUDGET = process.platform === 'win32' ? 30_000 : 128 * 1024;

/** What one word costs in argv: its bytes, its NUL and its pointer (as the kernel counts it). */
function cost(word: string): number {
  return Buffer.byteLength(word) + 1 + 8;
}

/**
 * `-X`: the argv of each run. Words with a placeholder repeat for every path (in order); the
 * paths are split so that each run stays within `budget` (a single path over it still runs alone:
 * the OS then says why it cannot).
 */
export function batchArgvs(words: readonly string[], files: readonly string[], budget = ARGV_BUDGET): string[][] {
  const template = withPlaceholder(words);
  const fixed = template.filter((word) => !holdsPlaceholder(word)).reduce((sum, word) => sum + cost(word), 0);
  const perFile = (file: string) => template.filter(holdsPlaceholder).reduce((sum, word) => sum + cost(fillPlaceholders(word, file)), 0);
  const runs: string[][] = [];
  let chunk: string[] = [];
  let size = fixed;
  const close = () => {
    if (chunk.length > 0) runs.push(template.flatMap((word) => (holdsPlaceholder(word) ? chunk.map((file) => fillPlaceholders(word, file)) : [word])));
  };
  for (const file of files) {
    const more = perFile(file);
    if (chunk.length > 0 && size + more > budget) {
      close();
      [chunk, size] = [[], fixed];
    }
    chunk.push(file);
    size += more;
  }
  close();
  return runs;
}
