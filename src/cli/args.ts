/**
 * What the `find-file` command line means: the flags (with their help text, groups, conflicts and
 * examples), the count rule, the root rule, and the one request each command line turns into.
 * docs/cli.md is the contract. Nothing here runs a search or touches the process: main.ts wires
 * the parser to the process, run.ts runs the request.
 *
 * Flags not given stay absent from the request's options, so the library's defaults apply (and
 * the library, not this module, checks what only it knows, e.g. the backend names).
 */
import { existsSync, statSync } from 'node:fs';
import yargs, { type Argv } from 'yargs';
import type { ContentOptions } from '../content/types.js';
import { rootError } from '../errors.js';
import { editDistance } from '../plan/read.js';
import type { EntryType, FindOptions } from '../options.js';
import { parseSizes, parseTypes, parseWhen, type SizeBounds } from './filters.js';

export type OutputMode = 'human' | 'print0' | 'json' | 'ndjson';

/** One search of the command, of one kind, with the options the library gets as they are. */
export type CliRequest =
  | {
      kind: 'files';
      /** The library options the command line asked for; flags not given are absent. */
      options: FindOptions;
      output: OutputMode;
      /** `--strict`: an incomplete result exits 3. */
      strict: boolean;
    }
  | {
      /** `--contains TEXT`: search file content instead of listing files. */
      kind: 'content';
      options: ContentOptions;
      output: OutputMode;
      strict: boolean;
      /** `--absolute`: hits carry root-relative paths, so the command makes them absolute when it prints them. */
      absolute: boolean;
      /** `-l`: each file with a hit, once, instead of the hits. */
      filesWithMatches: boolean;
      /** `-c`: each file with a hit and its number of hits, instead of the hits. */
      count: boolean;
    };

/** The parsed command line: yargs' camel-case keys (aliases and dashed forms stripped), values coerced. */
export interface CliArgs {
  _: (string | number)[];
  root?: string | undefined;
  exclude?: string[] | undefined;
  hidden?: boolean | undefined;
  gitignore?: boolean | undefined;
  ignoreFile?: string[] | undefined;
  /** `--no-ignore` (yargs reads it as `ignore: false`): ignore files off, whatever else was given. */
  ignore?: boolean | undefined;
  backend?: string | undefined;
  ignoreCase?: boolean | undefined;
  caseSensitive?: boolean | undefined;
  contains?: string | undefined;
  regex?: boolean | undefined;
  filesWithMatches?: boolean | undefined;
  count?: boolean | undefined;
  beforeContext?: number | undefined;
  afterContext?: number | undefined;
  context?: number | undefined;
  maxResults?: number | undefined;
  maxDepth?: number | undefined;
  timeBudgetMs?: number | undefined;
  strict?: boolean | undefined;
  json?: boolean | undefined;
  ndjson?: boolean | undefined;
  absolute?: boolean | undefined;
  print0?: boolean | undefined;
  type?: EntryType[] | undefined;
  /** `--changed-within`, as an instant (epoch ms): the library's `modifiedAfter`. */
  changedWithin?: number | undefined;
  /** `--changed-before`, as an instant: `modifiedBefore`. */
  changedBefore?: number | undefined;
  size?: SizeBounds | undefined;
  sort?: string | undefined;
  stats?: boolean | undefined;
}

export interface ParserSettings {
  /** What `--version` prints. */
  version: string;
  /** The terminal's width, if stdout is one: the help text wraps at it (at most 100 columns). */
  columns: number | undefined;
  /** Called for every usage error yargs finds (unknown flag, bad count, conflict, no pattern); must not return. */
  onUsageError(message: string): never;
  /** The wall clock when the command started, for `--changed-within 2h`. @default Date.now() */
  now?: number;
}

/** The yargs parser of the command. `--help` and `--version` print and exit when it parses. */
export function buildParser(settings: ParserSettings): Argv<CliArgs> {
  return defineFlags(yargs(), settings.now ?? Date.now())
    .scriptName('find-file')
    .usage(
      'Usage: $0 <pattern..> [DIR | --root DIR] [options]\n\n' +
        'Find files whose root-relative path matches a glob. Paths go to stdout as they are found; ' +
        'a summary on stderr says whether the search was complete, and if not, why.',
    )
    .example('$0 "*.md"', 'every Markdown file under the current directory')
    .example('$0 "pdftotext*" --root ~ --max-depth 6', 'an executable somewhere in your home directory')
    .example('$0 "**/*.ts" src --exclude "*.d.ts" --json', 'TypeScript under src/, as JSON')
    .epilogue(
      'A glob without "/" matches file names at any depth. Without --root, the last of two or more ' +
        'positionals is the root if it names an existing directory (one that holds a "/" and does not exist is an error).\n\n' +
        'Exit status: 0 the search ran (complete or not: read the summary), 1 fatal error, ' +
        '2 usage error, 3 incomplete with --strict, 130 interrupted. See docs/cli.md.',
    )
    .parserConfiguration({
      'strip-aliased': true,
      'strip-dashed': true,
      // Patterns are text: "007" stays "007", and `--exclude a b` does not swallow the pattern b.
      'parse-positional-numbers': false,
      'greedy-arrays': false,
    })
    .strictOptions()
    .version(settings.version)
    .alias('version', 'V')
    .help()
    .alias('help', 'h')
    .wrap(Math.min(100, settings.columns || 100))
    .fail((message: string | undefined, error: Error | undefined) => settings.onUsageError(message ?? error?.message ?? String(error)));
}

/** The flags, in the order and groups `--help` shows them, and the rules between them. The return type checks them against `CliArgs`. */
function defineFlags(parser: Argv, now: number): Argv<CliArgs> {
  return parser
    .option('root', { type: 'string', requiresArg: true, coerce: last, describe: 'Directory to search [default: the current directory]' })
    .option('exclude', { type: 'string', requiresArg: true, coerce: (v: string | string[]) => [v].flat(), describe: 'Glob of entries not to enter or return; repeatable' })
    .option('hidden', { type: 'boolean', describe: 'Include entries whose name starts with "." [default: included; --no-hidden leaves them out]' })
    .option('gitignore', { type: 'boolean', describe: 'Leave out what ignore files ignore, as rg does: .gitignore (in a git repository), .ignore, .rgignore, .git/info/exclude [default: off, as the library: every file; --no-ignore turns it off]' })
    .option('ignore', { type: 'boolean', hidden: true })
    .option('ignore-file', { type: 'string', requiresArg: true, coerce: (v: string | string[]) => [v].flat(), describe: 'More ignore rules, in gitignore syntax, relative to the root (.qwenignore); repeatable; applied with or without --gitignore, as rg --ignore-file' })
    .option('type', { alias: 't', type: 'string', requiresArg: true, coerce: parseTypes, describe: 'Kinds of entry to return: f (file), d (directory), l (symlink, never followed); repeatable, as fd [default: f]' })
    .option('changed-within', { type: 'string', requiresArg: true, coerce: parseWhen('--changed-within', now), describe: 'Only entries modified within a duration (2h, 3d, 1week) or after a date (2026-01-31, "2026-01-31 12:00:00"), as fd' })
    .option('changed-before', { type: 'string', requiresArg: true, coerce: parseWhen('--changed-before', now), describe: 'Only entries modified longer ago than a duration, or before a date' })
    .option('size', { alias: 'S', type: 'string', requiresArg: true, coerce: parseSizes, describe: 'Only files of at least +N or at most -N bytes, with a unit: +10k, -1M (k = 1000, ki = 1024), as fd; repeatable' })
    .option('backend', { type: 'string', requiresArg: true, coerce: last, describe: 'Search engine: walker, ripgrep or auto [default: walker]' })
    .option('ignore-case', { alias: 'i', type: 'boolean', describe: 'Match the pattern (with --contains: the text) ignoring case [default: on Windows only]' })
    .option('case-sensitive', { alias: 's', type: 'boolean', describe: 'Match the pattern (with --contains: the text) with case [default: except on Windows]' })
    .option('contains', { type: 'string', requiresArg: true, coerce: last, describe: 'Search file content for TEXT and print path:line:column: text; without a pattern, every file' })
    .option('regex', { type: 'boolean', describe: 'With --contains: TEXT is a regular expression (RE2 syntax, as ripgrep\'s) [default: literal text]' })
    .option('files-with-matches', { alias: 'l', type: 'boolean', describe: 'With --contains: print each file with a hit once, not the hits' })
    .option('count', { alias: 'c', type: 'boolean', describe: 'With --contains: print each file with a hit as path:N (its number of matching lines), not the hits' })
    .option('before-context', { alias: 'B', type: 'string', requiresArg: true, coerce: countOf('--before-context'), describe: 'With --contains: also print N lines before each hit (overrides -C)' })
    .option('after-context', { alias: 'A', type: 'string', requiresArg: true, coerce: countOf('--after-context'), describe: 'With --contains: also print N lines after each hit (overrides -C)' })
    .option('context', { alias: 'C', type: 'string', requiresArg: true, coerce: countOf('--context'), describe: 'With --contains: also print N lines before and after each hit; each line once, groups apart by "--", as rg' })
    .option('max-results', { type: 'string', requiresArg: true, coerce: countOf('--max-results'), describe: 'Stop after N matches (marked incomplete if more exist)' })
    .option('max-depth', { type: 'string', requiresArg: true, coerce: countOf('--max-depth'), describe: 'Look N levels deep; 1 = the root\'s own entries' })
    .option('time-budget-ms', { type: 'string', requiresArg: true, coerce: countOf('--time-budget-ms'), describe: 'Stop after N milliseconds (marked incomplete)' })
    .option('strict', { type: 'boolean', describe: 'Exit 3 when the result is incomplete' })
    .option('json', { type: 'boolean', describe: 'Print the whole result as one JSON object' })
    .option('ndjson', { type: 'boolean', describe: 'Print one JSON line per match, then a summary line' })
    .option('absolute', { type: 'boolean', describe: 'Print absolute paths' })
    .option('print0', { alias: '0', type: 'boolean', describe: 'Separate paths with NUL instead of newline (for xargs -0)' })
    .option('sort', { type: 'string', requiresArg: true, coerce: last, describe: 'Order of the paths: path, or mtime (newest first; printed when the search ends) [default: as found; path in --json]' })
    .option('stats', { type: 'boolean', describe: "With --json or --ndjson: each match's type, size and modification time" })
    .group(['root', 'exclude', 'hidden', 'gitignore', 'ignore-file', 'type', 'changed-within', 'changed-before', 'size', 'ignore-case', 'case-sensitive', 'backend', 'contains', 'regex', 'files-with-matches', 'count', 'before-context', 'after-context', 'context'], 'Search:')
    .group(['max-results', 'max-depth', 'time-budget-ms', 'strict'], 'Limits:')
    .group(['json', 'ndjson', 'absolute', 'print0', 'sort', 'stats'], 'Output:')
    .conflicts({
      json: ['ndjson', 'print0'],
      ndjson: 'print0',
      'ignore-case': 'case-sensitive',
      // -l and -c print no lines: context asked with them would be silently dropped.
      'files-with-matches': ['json', 'ndjson', 'count', 'before-context', 'after-context', 'context'],
      count: ['json', 'ndjson', 'before-context', 'after-context', 'context'],
    })
    .check((args) => {
      // With --contains the pattern only narrows the files searched: none means every file.
      if (args._.length === 0 && args.contains === undefined) throw new Error('no pattern given: name at least one glob, e.g. find-file "*.md"');
      const needsContains = CONTENT_ONLY.find(([key]) => args[key] !== undefined && args[key] !== false)?.[1];
      if (args.contains === undefined && needsContains !== undefined) throw new Error(`${needsContains} needs --contains TEXT`);
      const filesOnly = FILES_ONLY.find(([key]) => args[key] !== undefined && args[key] !== false)?.[1];
      if (args.contains !== undefined && filesOnly !== undefined) throw new Error(`${filesOnly} cannot go with --contains: content search reads files and filters no metadata`);
      if (args.stats === true && !args.json && !args.ndjson) throw new Error('--stats needs --json or --ndjson (the metadata goes with each match there)');
      return true;
    });
}

/** The flags that mean something only for a content search, as the error names them. */
const CONTENT_ONLY: [keyof CliArgs, string][] = [
  ['regex', '--regex'],
  ['filesWithMatches', '--files-with-matches'],
  ['count', '--count'],
  ['beforeContext', '--before-context'],
  ['afterContext', '--after-context'],
  ['context', '--context'],
];

/**
 * yargs' "Unknown argument(s): changedWithn, x" as one line a person can act on: the flags as
 * typed (`--changed-withn`, `-x`), a "did you mean" for a near miss among `known` (the parser's
 * long names), and where the whole usage is. Undefined for any other message.
 */
export function describeUnknownFlags(message: string, known: readonly string[]): string | undefined {
  const listed = /^Unknown arguments?: (.+)$/.exec(message)?.[1];
  if (listed === undefined) return undefined;
  const longNames = [...known.filter((k) => k.length > 1 && k !== 'ignore'), 'no-ignore', 'no-hidden'];
  const parts = listed.split(', ').map((name) => {
    const flag = name.length === 1 ? `-${name}` : `--${name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}`;
    const bare = flag.replace(/^-+/, '');
    const guess = bare.length > 1 ? closestFlag(bare, longNames) : undefined;
    return guess === undefined ? flag : `${flag} (did you mean --${guess}?)`;
  });
  return `unknown option${parts.length > 1 ? 's' : ''} ${parts.join(', ')}; see find-file --help`;
}

/** The nearest flag name: one `name` begins (`--chan`), else the closest within two edits. */
function closestFlag(name: string, names: readonly string[]): string | undefined {
  if (name.length >= 3) {
    const started = names.find((k) => k.startsWith(name));
    if (started !== undefined) return started;
  }
  let best: string | undefined;
  let bestDistance = 3;
  for (const k of names) {
    const d = editDistance(k, name);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

/** Every flag name and alias the parser knows, as defined (dashed): yargs keeps them in `getOptions().key`, untyped. */
export function flagNames(parser: Argv<CliArgs>): string[] {
  return Object.keys((parser as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key);
}

/** The flags of a file listing only: content search has no entry types, metadata filters or order. */
const FILES_ONLY: [keyof CliArgs, string][] = [
  ['type', '--type'],
  ['changedWithin', '--changed-within'],
  ['changedBefore', '--changed-before'],
  ['size', '--size'],
  ['sort', '--sort'],
  ['stats', '--stats'],
];

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

function isDirectory(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A positional that reads as a path, not a glob: it holds a separator and nothing a glob would
 * read as magic (`*`, `?`, `[`, `{`, `(`).
 */
function looksLikePath(candidate: string): boolean {
  return /[/\\]/.test(candidate) && !/[*?[{(]/.test(candidate);
}

/**
 * The root rule: --root when given; otherwise, with two or more positionals, the last one when it
 * names an existing directory; otherwise the current directory. Every other positional is a
 * pattern, except a last one that looks like a path (`src/nonexistent`) and does not exist: that
 * is a mistyped root, refused (as fd refuses it) rather than searched for as a second pattern.
 */
export function splitRoot(
  positionals: string[],
  root: string | undefined,
  isDir: (candidate: string) => boolean = isDirectory,
  exists: (candidate: string) => boolean = existsSync,
): { patterns: string[]; root: string } {
  if (root !== undefined) return { patterns: positionals, root };
  const candidate = positionals.at(-1);
  if (positionals.length >= 2 && candidate !== undefined) {
    if (isDir(candidate)) return { patterns: positionals.slice(0, -1), root: candidate };
    if (looksLikePath(candidate) && !exists(candidate)) {
      const error = rootError(candidate, 'ENOENT');
      error.message += ': the last argument names a path, so it was read as the root (to search for it as a pattern, give --root)';
      throw error;
    }
  }
  return { patterns: positionals, root: '.' };
}

/** The search the command line asks for: a file listing, or with `--contains` a content search. */
export function toCliRequest(args: CliArgs, isDir?: (candidate: string) => boolean): CliRequest {
  const { patterns, root } = splitRoot(args._.map(String), args.root, isDir);
  const output = outputMode(args);
  const strict = args.strict === true;
  // The options both kinds of search take, with the same meaning (src/plan/content-plan.ts).
  const fileSet = {
    root,
    // One pattern as itself, so errors name "pattern", not "pattern[0]"; none (--contains only): every file.
    pattern: patterns.length === 0 ? undefined : patterns.length === 1 ? patterns[0]! : patterns,
    exclude: args.exclude,
    hidden: args.hidden,
    gitignore: args.ignore === false ? false : args.gitignore,
    ignoreFiles: args.ignoreFile,
    caseSensitive: caseSensitivity(args),
    maxResults: args.maxResults,
    maxDepth: args.maxDepth,
    timeBudgetMs: args.timeBudgetMs,
    // Any text: the library refuses an unknown backend, naming the ones it has.
    backend: args.backend as FindOptions['backend'],
  };
  // A file listing's own: what kinds, which times and sizes, what order (the check above keeps them from --contains).
  const entries = {
    type: args.type === undefined ? undefined : args.type.length === 1 ? args.type[0]! : args.type,
    modifiedAfter: args.changedWithin,
    modifiedBefore: args.changedBefore,
    ...args.size,
    sort: args.sort as FindOptions['sort'],
    stats: args.stats,
  };
  if (args.contains === undefined) {
    // A file search always has a pattern (the check above): `?? patterns` only tells the compiler.
    return { kind: 'files', options: withoutAbsent<FindOptions>({ ...fileSet, ...entries, pattern: fileSet.pattern ?? patterns, absolute: args.absolute }), output, strict };
  }
  const options = withoutAbsent<ContentOptions>({
    ...fileSet,
    query: args.contains,
    mode: args.regex === true ? 'regex' : undefined,
    // As rg: -A and -B override -C, whatever their order.
    contextBefore: args.beforeContext ?? args.context,
    contextAfter: args.afterContext ?? args.context,
    // Every hit is printed, as rg prints them: the library's 1 MiB cap on the text kept is for
    // callers that hold the hits in memory; the command writes them out as they come.
    maxOutputBytes: Number.MAX_SAFE_INTEGER,
  });
  return { kind: 'content', options, output, strict, absolute: args.absolute === true, filesWithMatches: args.filesWithMatches === true, count: args.count === true };
}

/** `-s` and `-i` (which exclude each other); neither leaves the library's default. */
function caseSensitivity(args: CliArgs): boolean | undefined {
  if (args.caseSensitive === true) return true;
  return args.ignoreCase === true ? false : undefined;
}

function outputMode(args: CliArgs): OutputMode {
  if (args.json) return 'json';
  if (args.ndjson) return 'ndjson';
  return args.print0 ? 'print0' : 'human';
}

/** The record without its undefined fields: a flag not given must not reach the library as `undefined`. */
function withoutAbsent<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}
