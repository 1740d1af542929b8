/**
 * The command's flags as data, without yargs: the option specs (in the order and groups `--help`
 * shows them), the rules between them, and the checks. parser.ts gives them to yargs (help, usage
 * errors); fast-args.ts parses a valid command line with yargs-parser alone from the same table,
 * so start-up does not pay for loading yargs. One table, two readers: test/cli/fast-args.test.ts
 * checks that they agree.
 */
import type { CliArgs } from './args.js';
import { FindFileError } from '../errors.js';
import { BACKEND_OPTIONS } from '../options.js';
import { SORT_OPTIONS } from '../plan/select.js';
import { COLOR_CHOICES, type ColorChoice } from './color.js';
import { TYPE_WORDS, parseSizes, parseTypes, parseWhen } from './filters.js';

/** One flag, as yargs' `.option()` takes it (and yargs-parser reads its type, alias, arity and coercion). */
export interface FlagSpec {
  type: 'string' | 'boolean';
  alias?: string;
  requiresArg?: boolean;
  coerce?: (value: string | string[]) => unknown;
  describe?: string;
  hidden?: boolean;
  /** What a completion offers for the value: these words, a directory or a file. @default nothing (free text) */
  completes?: readonly string[] | 'directories' | 'files';
}

/** The flags; `now` is the wall clock at start, for `--changed-within 2h`. */
export function buildFlags(now: number): Record<string, FlagSpec> {
  return refuseSwitchForms({
    root: { type: 'string', requiresArg: true, coerce: last, completes: 'directories', describe: 'Directory to search [default: the current directory]' },
    exclude: { alias: 'E', type: 'string', requiresArg: true, coerce: (v: string | string[]) => [v].flat(), describe: 'Glob of entries not to enter or return; repeatable' },
    extension: { alias: 'e', type: 'string', requiresArg: true, coerce: parseExtensions, describe: 'Only names ending in .EXT (a leading dot is fine; any case, as fd); repeatable: -e ts -e tsx; without a pattern, every such file' },
    hidden: { alias: 'H', type: 'boolean', describe: 'Include entries whose name starts with "." [default: included; --no-hidden leaves them out]' },
    gitignore: { type: 'boolean', describe: 'Leave out what ignore files ignore, as fd and rg do: .gitignore (in a git repository), .ignore, .rgignore, .git/info/exclude, and .git/ itself [default: on (the library\'s default is off); -u or --no-ignore turns it off]' },
    ignore: { type: 'boolean', hidden: true },
    unrestricted: { alias: 'u', type: 'boolean', describe: 'Every file: no ignore files, .git/ included (as --no-ignore; hidden files are included already)' },
    'ignore-file': { type: 'string', requiresArg: true, coerce: (v: string | string[]) => [v].flat(), completes: 'files', describe: 'More ignore rules, in gitignore syntax, relative to the root (.qwenignore); repeatable; applied with or without --gitignore, as rg --ignore-file' },
    type: { alias: 't', type: 'string', requiresArg: true, coerce: parseTypes, completes: TYPE_WORDS, describe: 'Kinds of entry to return: f (file), d (directory), l (symlink, never followed), p (pipe), s (socket), b (block-device), c (char-device): special files are listed, never opened; repeatable, as fd [default: f]' },
    'changed-within': { type: 'string', requiresArg: true, coerce: parseWhen('--changed-within', now), describe: 'Only entries modified within a duration (2h, 3d, 1week) or after a date (2026-01-31, "2026-01-31 12:00:00"), as fd' },
    'changed-before': { type: 'string', requiresArg: true, coerce: parseWhen('--changed-before', now), describe: 'Only entries modified longer ago than a duration, or before a date' },
    size: { alias: 'S', type: 'string', requiresArg: true, coerce: parseSizes, describe: 'Only files of at least +N or at most -N bytes, with a unit: +10k, -1M (k = 1000, ki = 1024), as fd; repeatable' },
    'name-regex': { type: 'string', requiresArg: true, coerce: last, describe: 'Only base names in which REGEX finds a match (RE2 syntax), fd\'s default mode; with a glob, both must match; smart case: insensitive unless REGEX holds a capital' },
    'fixed-strings': { alias: 'F', type: 'boolean', describe: 'The pattern is text a base name contains, not a glob (find-file -F make: Makefile, cmake/); smart case as --name-regex' },
    backend: { type: 'string', requiresArg: true, coerce: last, completes: BACKEND_OPTIONS, describe: 'Search engine: walker, ripgrep or auto [default: walker; with --contains: auto]' },
    'ignore-case': { alias: 'i', type: 'boolean', describe: 'Match the pattern (with --contains: the text) ignoring case [default: on Windows only]' },
    'case-sensitive': { alias: 's', type: 'boolean', describe: 'Match the pattern (with --contains: the text) with case [default: except on Windows]' },
    contains: { type: 'string', requiresArg: true, coerce: last, describe: 'Search file content for TEXT and print path:line:column: text; without a pattern, every file' },
    regex: { type: 'boolean', describe: 'With --contains: TEXT is a regular expression (RE2 syntax, as ripgrep\'s) [default: literal text]' },
    'files-with-matches': { alias: 'l', type: 'boolean', describe: 'With --contains: print each file with a hit once, not the hits' },
    count: { alias: 'c', type: 'boolean', describe: 'With --contains: print each file with a hit as path:N (its number of matching lines), not the hits' },
    'max-count': { alias: 'm', type: 'string', requiresArg: true, coerce: positiveCountOf('--max-count'), describe: 'With --contains: at most N hits in each file, the rest of it not read (as grep -m, rg -m); with -c each count is at most N' },
    'before-context': { alias: 'B', type: 'string', requiresArg: true, coerce: countOf('--before-context'), describe: 'With --contains: also print N lines before each hit (overrides -C)' },
    'after-context': { alias: 'A', type: 'string', requiresArg: true, coerce: countOf('--after-context'), describe: 'With --contains: also print N lines after each hit (overrides -C)' },
    context: { alias: 'C', type: 'string', requiresArg: true, coerce: countOf('--context'), describe: 'With --contains: also print N lines before and after each hit; each line once, groups apart by "--", as rg' },
    'max-results': { type: 'string', requiresArg: true, coerce: countOf('--max-results'), describe: 'Stop after N matches (marked incomplete if more exist)' },
    'max-depth': { alias: 'd', type: 'string', requiresArg: true, coerce: countOf('--max-depth'), describe: 'Look N levels deep; 1 = the root\'s own entries' },
    'time-budget-ms': { type: 'string', requiresArg: true, coerce: countOf('--time-budget-ms'), describe: 'Stop after N milliseconds (marked incomplete)' },
    strict: { type: 'boolean', describe: 'Exit 3 when the result is incomplete' },
    quiet: { alias: 'q', type: 'boolean', describe: 'Print nothing and stop at the first match; the status answers: 0 one exists, 1 none (proven: complete, and nothing passed that it does not read by policy: links, ignored entries, binary files), 3 none found but it may exist, 2 the search could not run (as fd -q and grep -q, with 3 added)' },
    glob: { alias: 'g', type: 'boolean', hidden: true, describe: "fd's -g: accepted, a pattern is a glob already" },
    json: { type: 'boolean', describe: 'Print the whole result as one JSON object' },
    ndjson: { type: 'boolean', describe: 'Print one JSON line per match, then a summary line' },
    absolute: { alias: 'a', type: 'boolean', describe: 'Print absolute paths' },
    'print0': { alias: '0', type: 'boolean', describe: 'Separate paths with NUL instead of newline (for xargs -0)' },
    sort: { type: 'string', requiresArg: true, coerce: last, completes: SORT_OPTIONS, describe: 'Order of the paths: path, or mtime (newest first; printed when the search ends) [default: as found; path in --json]' },
    stats: { type: 'boolean', describe: "With --json or --ndjson: each match's type, size and modification time" },
    // Commands run on the matches (src/cli/exec.ts): their words are taken out of argv before parsing, `-x` alone stays, a boolean.
    exec: { alias: 'x', type: 'boolean', describe: 'CMD [ARGS...] [;]: run CMD once per match (with --contains: per file with a hit), its words up to ";" or the end, no shell; placeholders {} (path), {/} (name), {//} (parent), {.} and {/.} (without extension), none: the path goes last; as fd' },
    'exec-batch': { alias: 'X', type: 'boolean', describe: 'CMD [ARGS...] [;]: run CMD once with every match (in several runs if they exceed the OS limit), as fd' },
    color: { type: 'string', requiresArg: true, coerce: colorOf, completes: COLOR_CHOICES, describe: 'Colour paths (by LS_COLORS, as fd) and matches (as rg): auto (a terminal, unless NO_COLOR; FORCE_COLOR forces it), always or never; never with --json, --ndjson or -0 [default: auto]' },
    jobs: { alias: 'j', type: 'string', requiresArg: true, coerce: jobsOf, describe: 'With -x: run N commands at once, their output written whole [default: the number of cores]' },
  });
}

/**
 * Every flag that takes a value refuses a switch's forms. yargs and yargs-parser accept `--no-X`
 * for any flag and hand the coercer `false` (`--no-root`, `--no-type`): the coercers and the
 * library read text, so that was a JS error, or a hang (`--no-name-regex` in the regex reader).
 * One guard on the table's coercers covers every valued flag and every spelling the parsers
 * accept; its error is a usage error (status 2) naming the flag.
 */
function refuseSwitchForms(flags: Record<string, FlagSpec>): Record<string, FlagSpec> {
  for (const [name, spec] of Object.entries(flags)) {
    if (spec.type !== 'string') continue;
    const coerce = spec.coerce ?? last;
    spec.coerce = (value) => {
      if ([value].flat().some((v) => typeof v !== 'string')) throw new Error(`--${name} takes a value: --no-${name} is not a flag`);
      return coerce(value);
    };
  }
  return flags;
}

/** `--color WHEN`: one of the choices, the last given winning. */
function colorOf(value: string | string[]): ColorChoice {
  const choice = COLOR_CHOICES.find((c) => c === last(value));
  if (choice === undefined) throw new Error(`--color must be auto, always or never, got ${JSON.stringify(last(value))}`);
  return choice;
}

/** `-j N`: at least one run at a time. */
const jobsOf = positiveCountOf('--jobs');

/** A count of at least 1 (0 would do nothing: `-j 0` runs no command, `-m 0` searches no file). */
function positiveCountOf(flag: string): (value: string | string[]) => number {
  const read = countOf(flag);
  return (value) => {
    const n = read(value);
    if (n === 0) throw new Error(`${flag} must be at least 1`);
    return n;
  };
}

/** How yargs (and the fast path) read the command line. */
export const PARSER_CONFIGURATION = {
  'strip-aliased': true,
  'strip-dashed': true,
  // Patterns are text: "007" stays "007", and `--exclude a b` does not swallow the pattern b.
  'parse-positional-numbers': false,
  'greedy-arrays': false,
} as const;

export const FLAG_GROUPS: [string[], string][] = [
  [['root', 'exclude', 'hidden', 'gitignore', 'unrestricted', 'ignore-file', 'extension', 'name-regex', 'fixed-strings', 'type', 'changed-within', 'changed-before', 'size', 'ignore-case', 'case-sensitive', 'backend', 'contains', 'regex', 'files-with-matches', 'count', 'max-count', 'before-context', 'after-context', 'context'], 'Search:'],
  [['max-results', 'max-depth', 'time-budget-ms', 'strict', 'quiet'], 'Limits:'],
  [['json', 'ndjson', 'absolute', 'print0', 'sort', 'stats'], 'Output:'],
  [['color'], 'Output:'],
  [['exec', 'exec-batch', 'jobs'], 'Commands:'],
];

export const FLAG_CONFLICTS: Record<string, string | string[]> = {
  json: ['ndjson', 'print0'],
  ndjson: 'print0',
  'ignore-case': 'case-sensitive',
  'fixed-strings': 'name-regex',
  // -l and -c print no lines: context asked with them would be silently dropped.
  'files-with-matches': ['json', 'ndjson', 'count', 'before-context', 'after-context', 'context'],
  count: ['json', 'ndjson', 'before-context', 'after-context', 'context'],
  // The matches go to the command: no listing to print as JSON or with NULs. With --contains the
  // files with a hit go to it (as `rg -l | xargs`): hit lines, counts and context are not printed.
  exec: ['exec-batch', 'json', 'ndjson', 'print0', 'count', 'before-context', 'after-context', 'context'],
  'exec-batch': ['json', 'ndjson', 'print0', 'count', 'before-context', 'after-context', 'context'],
  // -q prints nothing and answers with its status: an output or a command asked beside it would be lost.
  quiet: ['json', 'ndjson', 'print0', 'exec', 'exec-batch', 'count', 'files-with-matches', 'sort', 'max-results'],
  // fd's -g selects its glob mode, which a pattern here always is; -F reads it as text.
  glob: 'fixed-strings',
};

/** The rules yargs' `.check` enforces (throws the usage error's message). */
export function checkArgs(args: CliArgs): true {
  // With --contains the pattern only narrows the files searched; -e and --name-regex name files themselves.
  if (args._.length === 0 && args.contains === undefined && args.extension === undefined && args.nameRegex === undefined) throw new Error('no pattern given: name at least one glob, e.g. find-file "*.md"');
  // Before -F's own check: `--contains a.b -F` (grep's -F habit) had been told "-F needs the text a name contains".
  if (args.fixedStrings === true && args.contains !== undefined) throw new Error('-F does not go with --contains: its TEXT is literal already (--regex makes it a regex); -F is for a file listing, where it reads the pattern as text a name contains');
  if (args.fixedStrings === true && args._.length === 0) throw new Error('-F needs the text a name contains, e.g. find-file -F make');
  const needsContains = CONTENT_ONLY.find(([key]) => args[key] !== undefined && args[key] !== false)?.[1];
  if (args.contains === undefined && needsContains !== undefined) throw new Error(`${needsContains} needs --contains TEXT`);
  const filesOnly = FILES_ONLY.find(([key]) => args[key] !== undefined && args[key] !== false)?.[1];
  if (args.contains !== undefined && filesOnly !== undefined) throw new Error(`${filesOnly} cannot go with --contains: ${filesOnlyReason(filesOnly, args)}`);
  if (args.stats === true && !args.json && !args.ndjson) throw new Error('--stats needs --json or --ndjson (the metadata goes with each match there)');
  checkWindows(args);
  return true;
}

/**
 * A time or size window with nothing in it, in the flags' words. The library refuses it too, but
 * names its options and epoch milliseconds (`modifiedAfter (1796583220429) is not before ...`);
 * here the instants are dates a person can read.
 */
function checkWindows(args: CliArgs): void {
  const { changedWithin: after, changedBefore: before } = args;
  if (after !== undefined && before !== undefined && after >= before) {
    const [from, to] = [after, before].map((ms) => new Date(ms).toISOString());
    throw new Error(`--changed-within (after ${from}) and --changed-before (before ${to}) leave no time between them: --changed-within must reach further back, e.g. --changed-within 3d --changed-before 1d`);
  }
  const { minSize, maxSize } = args.size ?? {};
  if (minSize !== undefined && maxSize !== undefined && minSize > maxSize) {
    throw new Error(`--size asks for at least ${minSize} and at most ${maxSize} bytes: no file is both; the + bound must be the smaller, e.g. -S +1k -S -10k`);
  }
}

/**
 * Why a listing's flag does not go with `--contains`, and what to write: a name mode names the files
 * to read, which a content search takes as a glob (`-e ts` had been told "filters no metadata").
 */
function filesOnlyReason(flag: string, args: CliArgs): string {
  if (flag === '--extension') {
    const exts = args.extension ?? [];
    const glob = exts.length === 1 ? `*.${exts[0]}` : `*.{${exts.join(',')}}`;
    return `name the files to read with a glob: find-file '${glob}' --contains TEXT`;
  }
  if (flag === '--name-regex') return 'name the files to read with a glob: find-file GLOB --contains TEXT';
  return 'content search reads files and filters no metadata';
}

/** The flags that mean something only for a content search, as the error names them. */
export const CONTENT_ONLY: [keyof CliArgs, string][] = [
  ['regex', '--regex'],
  ['filesWithMatches', '--files-with-matches'],
  ['count', '--count'],
  ['maxCount', '--max-count'],
  ['beforeContext', '--before-context'],
  ['afterContext', '--after-context'],
  ['context', '--context'],
];

/** The flags of a file listing only: content search has no entry types, metadata filters or order (-F has its own message in checkArgs). */
export const FILES_ONLY: [keyof CliArgs, string][] = [
  ['type', '--type'],
  ['changedWithin', '--changed-within'],
  ['changedBefore', '--changed-before'],
  ['size', '--size'],
  ['sort', '--sort'],
  ['extension', '--extension'],
  ['nameRegex', '--name-regex'],
  ['stats', '--stats'],
];

/** The flag table's words as the argv passes below read them; made once (the table does not change). */
interface ArgvWords {
  /** Every spelling of a flag that takes a value (`--max-depth`, `-d`): the next word is its value. */
  valued: Set<string>;
  /** The short letters of those flags (`d`, `t`, `A`). */
  shortValued: Set<string>;
  /** The long names of the switches (flags without a value: `strict`, `json`). */
  switches: Set<string>;
  /** Their short letters and digits (`a`, `H`, `0`). */
  shortSwitches: Set<string>;
}

let words: ArgvWords | undefined;

function argvWords(): ArgvWords {
  if (words !== undefined) return words;
  const flags = Object.entries(buildFlags(0));
  const takingValues = flags.filter(([, spec]) => spec.requiresArg === true);
  const switchFlags = flags.filter(([, spec]) => spec.type === 'boolean');
  const shortValued = new Set(takingValues.flatMap(([, spec]) => (spec.alias === undefined ? [] : [spec.alias])));
  words = {
    valued: new Set([...takingValues.map(([name]) => `--${name}`), ...[...shortValued].map((alias) => `-${alias}`)]),
    shortValued,
    switches: new Set(switchFlags.map(([name]) => name)),
    shortSwitches: new Set(switchFlags.flatMap(([, spec]) => (spec.alias === undefined ? [] : [spec.alias]))),
  };
  return words;
}

/**
 * rg's and fd's habit of gluing a short flag to its value (`-tf`, `-td`, `-A0`, `-C2`) as the two
 * words yargs reads (`-t f`): yargs-parser reads `-tf` as the flags `-t` and `-f`, and `-A0` as
 * `-A` and `-0` (`--print0`), so both were usage errors. Written once, applied to argv before
 * either parser sees it (src/cli/main.ts), so the fast path and yargs agree by construction. The
 * value of a flag (`--contains -tf`) and everything after `--` stay as they are; `-0` alone is
 * untouched, `-e.ts` is `-e .ts`, and `-S+10k` or `-t=f` already parse.
 */
export function splitGluedValues(argv: readonly string[]): string[] {
  const { valued, shortValued, shortSwitches } = argvWords();
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return [...out, ...argv.slice(i)];
    // fd's -I (--no-ignore), as the long flag; -L/--follow asks for what find-file never does.
    if (word === '-I') {
      out.push('--no-ignore');
      continue;
    }
    if (word === '-L' || word === '--follow') {
      throw new FindFileError('FF_INVALID_OPTION', `${word}: find-file never follows symlinks or junctions (by policy: each is listed, counted, and named where a match could lie beyond it); search the link's target as the root instead`, 'follow');
    }
    // A negative number, which yargs-parser takes for a positional: fd's `-1` (--max-results 1) had
    // listed every match and a file named `-1`, and `-5` was read as a root. Any other is no flag
    // (`-0` is --print0).
    if (/^-\d+$/.test(word) && word !== '-0') {
      if (word !== '-1') throw new FindFileError('FF_INVALID_OPTION', `unknown option ${word}: a word that starts with - goes after -- (find-file -- ${word}); -1 is --max-results 1, as fd's`, word.slice(1));
      out.push('--max-results', '1');
      continue;
    }
    // Any value, not only one that starts with a word character: `-e.ts` and `-E.git` (fd and rg read
    // them so) had reached yargs-parser whole, and `-e.ts` failed as "text.replace is not a function".
    const glued = /^-(.)([^=].*)$/s.exec(word);
    // fd's `-H0`: switches then `-0` (--print0), which yargs-parser would read as the value `0` of `-H`.
    const endsInPrint0 = /^-([A-Za-z]+)0$/.exec(word);
    if (endsInPrint0 !== null && [...endsInPrint0[1]!].every((letter) => shortSwitches.has(letter))) out.push(`-${endsInPrint0[1]}`, '-0');
    else if (glued !== null && shortValued.has(glued[1]!)) out.push(`-${glued[1]}`, glued[2]!);
    else if (valued.has(word) && i + 1 < argv.length) out.push(word, argv[++i]!);
    else out.push(word);
  }
  return out;
}

/**
 * How the parsers read a word such as `-dash.txt` when its letter is a flag that takes a value:
 * `-d ash.txt` (fd reads it so too). Undefined for any other word. For the usage error's tip,
 * which then says why a flag the user never typed (`--max-depth`) is named.
 */
export function readAsGlued(word: string): string | undefined {
  const glued = /^-(.)([^=].*)$/s.exec(word);
  return glued !== null && argvWords().shortValued.has(glued[1]!) ? `-${glued[1]} ${glued[2]}` : undefined;
}

/**
 * A switch given a value (`--strict=1`, `--json=yes`, `-a=1`, `-a.log`) is a usage error. yargs
 * reads any value but `true` as false, so `--strict=1` turned strict off and exited 0 on an
 * incomplete search: the partial answer passing as complete that --strict exists to prevent (fd
 * refuses `--hidden=yes` too). `=true` and `=false` keep yargs' meaning. Applied to argv before
 * either parser sees it (src/cli/main.ts), up to `--`; a flag's value (`--contains --strict=1`) is text.
 */
export function refuseValuedSwitches(argv: readonly string[]): void {
  const { valued, switches, shortSwitches } = argvWords();
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return;
    if (valued.has(word)) {
      i++; // the next word is this flag's value, whatever it looks like
      continue;
    }
    const long = /^--(?:no-)?([^=]+)=(.*)$/s.exec(word);
    if (long !== null && switches.has(long[1]!) && long[2] !== 'true' && long[2] !== 'false') {
      throw new FindFileError('FF_INVALID_OPTION', `--${long[1]} is a switch and takes no value, got ${JSON.stringify(word)}: write --${long[1]}, or --no-${long[1]} to turn it off`, long[1]);
    }
    // A cluster of short switches (`-Ha`) ends at its first character that is not a letter: a value glued to the last one.
    const short = /^-([A-Za-z]+)([^A-Za-z].*)$/s.exec(word);
    if (short !== null && shortSwitches.has(short[1]!.at(-1)!)) {
      const flag = short[1]!.at(-1)!;
      throw new FindFileError('FF_INVALID_OPTION', `-${flag} is a switch and takes no value, got ${JSON.stringify(word)}`, flag);
    }
  }
}

/** `-e ts -e .tsx`: the extensions without their dot; one holding a `/` or nothing is a usage error. */
function parseExtensions(value: string | string[]): string[] {
  return [value].flat().map((text) => {
    const ext = text.replace(/^\./, '');
    if (ext === '' || /[\\/]/.test(ext)) throw new Error(`--extension must be a file extension such as ts or .ts, got ${JSON.stringify(text)}`);
    return ext;
  });
}

/** The last value of an option given more than once: later flags override earlier ones. */
export function last(value: string | string[]): string {
  return Array.isArray(value) ? value[value.length - 1]! : value;
}

/** A coercer for a count: digits only, so "1.5", "-1", "1e3", "0x10" and "" are usage errors. */
export function countOf(flag: string): (value: string | string[]) => number {
  return (value) => {
    const text = last(value);
    const n = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(n)) throw new Error(`${flag} must be a non-negative integer, got ${JSON.stringify(text)}`);
    return n;
  };
}
