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
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import type { Argv } from 'yargs';
import type { ContentOptions } from '../content/types.js';
import { FindFileError, rootError } from '../errors.js';
import { exactGlob } from '../patterns.js';
import { editDistance, resolvePath } from '../plan/read.js';
import { globsOf, nameOptions, refuseSeparatorInNames } from './names.js';
import type { EntryType, FindOptions } from '../options.js';
import type { ColorChoice } from './color.js';
import type { ExecPlan } from './exec-run.js';
import type { SizeBounds } from './filters.js';

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
      /** `-q`: nothing printed; the status says whether a match exists (run.ts `searchQuietly`, exit.ts `quietExitCode`). */
      quiet: boolean;
      /** `-x`/`-X`: the command the matches go to, instead of stdout. */
      exec?: ExecPlan | undefined;
      /** `--color`; absent: auto. */
      color?: ColorChoice | undefined;
    }
  | {
      /** `--contains TEXT`: search file content instead of listing files. */
      kind: 'content';
      options: ContentOptions;
      output: OutputMode;
      strict: boolean;
      quiet: boolean;
      /** `--absolute`: hits carry root-relative paths, so the command makes them absolute when it prints them. */
      absolute: boolean;
      /** `-l`: each file with a hit, once, instead of the hits. */
      filesWithMatches: boolean;
      /** `-c`: each file with a hit and its number of hits, instead of the hits. */
      count: boolean;
      /** `-x`/`-X`: the command each file with a hit goes to (once per file, as `rg -l | xargs`), instead of stdout. */
      exec?: ExecPlan | undefined;
      color?: ColorChoice | undefined;
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
  /** `-e`: the extensions, without their dot. */
  extension?: string[] | undefined;
  nameRegex?: string | undefined;
  /** `-F`: the patterns are text a base name contains. */
  fixedStrings?: boolean | undefined;
  /** `-u`: as `--no-ignore`. */
  unrestricted?: boolean | undefined;
  backend?: string | undefined;
  ignoreCase?: boolean | undefined;
  caseSensitive?: boolean | undefined;
  contains?: string | undefined;
  regex?: boolean | undefined;
  filesWithMatches?: boolean | undefined;
  count?: boolean | undefined;
  /** `-m N`: at most N hits per file. */
  maxCount?: number | undefined;
  beforeContext?: number | undefined;
  afterContext?: number | undefined;
  context?: number | undefined;
  maxResults?: number | undefined;
  maxDepth?: number | undefined;
  timeBudgetMs?: number | undefined;
  strict?: boolean | undefined;
  /** `-q`: print nothing, answer with the status, stop at the first match. */
  quiet?: boolean | undefined;
  /** `-g`: fd's glob mode, which a pattern always is here. */
  glob?: boolean | undefined;
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
  exec?: boolean | undefined;
  execBatch?: boolean | undefined;
  jobs?: number | undefined;
  color?: ColorChoice | undefined;
  /** The words of `-x`/`-X`, taken out of argv before parsing (exec.ts `takeExecCommand`). */
  execWords?: string[] | undefined;
}

/**
 * yargs' "Unknown argument(s): changedWithn, x" as one line a person can act on: the flags as
 * typed (`--changed-withn`, `-x`, `--no-ignore-vcs`: `typed` is the command line), a "did you
 * mean" for a near miss among `known` (the parser's long names), and where the whole usage is.
 * Undefined for any other message.
 */
export function describeUnknownFlags(message: string, known: readonly string[], typed: readonly string[] = []): string | undefined {
  const listed = /^Unknown arguments?: (.+)$/.exec(message)?.[1];
  if (listed === undefined) return undefined;
  const longNames = [...known.filter((k) => k.length > 1 && k !== 'ignore'), 'no-ignore', 'no-hidden'];
  const parts = listed.split(', ').map((name) => {
    const flag = flagAsTyped(name, typed);
    const bare = flag.replace(/^-+/, '');
    const guess = bare.length > 1 ? closestFlag(bare, longNames) : undefined;
    return guess === undefined ? flag : `${flag} (did you mean --${guess}?)`;
  });
  return `unknown option${parts.length > 1 ? 's' : ''} ${parts.join(', ')}; see find-file --help`;
}

/**
 * yargs' key as the flag the user typed: it reads `--no-X` as X turned off and reports `X`, so
 * `--no-ignore-vcs` (fd's) was named `--ignore-vcs`, a flag no one typed.
 */
function flagAsTyped(name: string, typed: readonly string[]): string {
  if (name.length === 1) return `-${name}`;
  const dashed = name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
  const end = typed.indexOf('--');
  const words = (end === -1 ? typed : typed.slice(0, end)).map((word) => word.replace(/=.*$/s, ''));
  return words.includes(`--no-${dashed}`) && !words.includes(`--${dashed}`) ? `--no-${dashed}` : `--${dashed}`;
}

/** The nearest flag name: one `name` begins (`--chan`), one that begins `name` before a `-` (`--no-ignore-vcs`), else the closest within two edits. */
function closestFlag(name: string, names: readonly string[]): string | undefined {
  if (name.length >= 3) {
    const started = names.find((k) => k.startsWith(name));
    if (started !== undefined) return started;
  }
  // fd's and grep's longer spellings (`--no-ignore-vcs`, `--exclude-dir`): the longest flag they extend.
  const extended = names.filter((k) => name.startsWith(`${k}-`)).sort((a, b) => b.length - a.length)[0];
  if (extended !== undefined) return extended;
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

/** True for a path that names an existing directory (through links, as a root is opened). */
export function isDirectory(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}

/** Why `stat` fails for a path (its code), or undefined when it does not. */
function codeOfStat(candidate: string): string | undefined {
  try {
    statSync(candidate);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
}

/** Glob syntax (`*`, `?`, `[`, `{`, `(`): a positional holding none of it reads as a path, never as a glob. */
function holdsGlobSyntax(candidate: string): boolean {
  return /[*?[{(]/.test(candidate);
}

/**
 * The root rule, written once (docs/cli.md "Patterns and the root"). --root when given: every
 * positional is a pattern. Otherwise the last positional is a root candidate when there are more
 * positionals than the patterns the command needs (a listing needs one, so two or more; `--contains`
 * needs none, so one or more, rg's `rg TEXT DIR`). A candidate that names an existing directory is
 * the root; one that holds glob syntax, or names an existing file (`find-file a.md b.md`, rg's
 * `rg TEXT file`), is a pattern, and finds that file; any other names nothing and was meant as the
 * root, so it is fatal, as fd refuses it: `find-file '*.log' build -0 | xargs -0 rm` with no build/
 * must delete nothing, never search the current directory instead.
 */
export function splitRoot(
  positionals: string[],
  root: string | undefined,
  isDir: (candidate: string) => boolean = isDirectory,
  exists: (candidate: string) => boolean = existsSync,
  patternsNeeded = 1,
): { patterns: string[]; root: string } {
  if (root !== undefined) return { patterns: positionals, root };
  const candidate = positionals.at(-1);
  if (positionals.length > patternsNeeded && candidate !== undefined) {
    if (isDir(candidate)) return { patterns: refuseSeveralRoots(positionals.slice(0, -1), patternsNeeded, candidate, isDir), root: candidate };
    if (exists(candidate)) return { patterns: withLiteral(positionals, candidate), root: '.' };
    if (!holdsGlobSyntax(candidate)) {
      const code = codeOfStat(candidate);
      // Not read is not "does not exist": a path that cannot be looked at (EACCES under a locked
      // folder, ELOOP) may be the directory meant. It is the root, and the search says why it read
      // nothing there (a gap, incomplete), as --root says it.
      if (code !== undefined && code !== 'ENOENT' && code !== 'ENOTDIR') return { patterns: positionals.slice(0, -1), root: candidate };
      // The kernel's reason: `v.txt/..` is ENOTDIR (a file on the way), as --root says it.
      const error = rootError(candidate, code === 'ENOTDIR' ? 'ENOTDIR' : 'ENOENT');
      error.message += ': the last argument holds no glob syntax and names nothing here, so it was read as the root (to search for it as a pattern, give --root .)';
      throw error;
    }
  }
  return { patterns: positionals, root: '.' };
}

/**
 * fd's `fd PAT src docs` and rg's `rg TEXT src docs` search both folders; here one root is the last
 * argument and the others are patterns, so `src` was a name to look for and only `docs` was
 * searched ("no match, complete" while src/ held one). A pattern beyond the ones the command needs
 * that names an existing directory, with the last argument a directory too, is refused (status 2).
 */
function refuseSeveralRoots(patterns: string[], patternsNeeded: number, root: string, isDir: (candidate: string) => boolean): string[] {
  const folders = patterns.slice(patternsNeeded).filter((p) => !holdsGlobSyntax(p) && isDir(p));
  if (folders.length === 0) return patterns;
  const named = [...folders, root].map((p) => JSON.stringify(p)).join(', ');
  // No command is built for the user: one that names the folders in a glob would change what -F,
  // --name-regex or --contains asks (an adversarial run: '{src,docs}/**/a' for -F a proved an absence).
  throw new FindFileError(
    'FF_INVALID_OPTION',
    `${named} are all folders: find-file searches one root, the last argument, and reads the others as patterns (fd and rg would search each). Run it once per folder, with that folder last`,
    'root',
  );
}

/**
 * The patterns when the last one names an existing file: as a pattern it finds that file (docs/cli.md,
 * as `rg TODO notes.md`), however its name reads as a glob. `a{1,2}.txt`, `b\x.txt` or `?(x).txt`
 * read as globs never name themselves (braces expand, `\` escapes, a group matches), so the name's
 * exact glob is one more pattern beside the glob reading.
 */
function withLiteral(positionals: string[], candidate: string): string[] {
  const literal = exactGlob(candidate, path.sep === '\\' ? 'win32' : 'posix', true);
  // `./`: the file the name reaches from here (the root is `.`), and never a leading `!` (a negation).
  return literal === undefined || literal === candidate ? positionals : [...positionals, `./${literal}`];
}

/**
 * The root spelled so that reading it by name, as the printed paths and the summary do, reaches
 * what the kernel reaches (plan/read.ts `resolvePath`): `view/lnk/..` is printed as `real`, where
 * `lnk` leads to `real/sub`, never as `view`, which the paths printed under it would not name. A
 * root without `..`, or on Windows (which reads `..` by name), is kept as written.
 */
function rootAsRead(root: string): string {
  if (path.sep !== '/' || !root.split('/').includes('..')) return root;
  const real = resolvePath(root);
  // Still holding `..`: the kernel cannot reach it (`missing/..`), and the search says so.
  if (real.split('/').includes('..')) return root;
  return path.isAbsolute(root) ? real : path.relative(process.cwd(), real) || '.';
}

/**
 * `--contains ... --json`: the cap on the hit text held for the one object printed at the end
 * (`output-limit` past it, an honest incomplete answer); ~10 bytes of memory a byte of text (198 MB
 * peak at the cap).
 * `--ndjson` and the lines stream every hit.
 */
export const JSON_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/** The search the command line asks for: a file listing, or with `--contains` a content search. */
export function toCliRequest(args: CliArgs, isDir?: (candidate: string) => boolean): CliRequest {
  // Before the root rule: `-lx echo` left `echo` among the positionals, where it read as a missing root (status 1).
  refuseGluedExec(args);
  // A content search, -e or --name-regex needs no pattern: one positional may be the root. -F's
  // text is a positional (`-F make -e md`: make was read as a missing root).
  const needed = args.contains === undefined && (args.fixedStrings === true || (args.extension === undefined && args.nameRegex === undefined)) ? 1 : 0;
  const { patterns, root: given } = splitRoot(args._.map(String), args.root, isDir, undefined, needed);
  if (args.contains === undefined) refuseSeparatorInNames(args, patterns);
  const root = rootAsRead(given);
  const output = outputMode(args);
  const strict = args.strict === true;
  const quiet = args.quiet === true;
  const gitignore = isIgnoring(args);
  // The options both kinds of search take, with the same meaning (src/plan/content-plan.ts).
  const fileSet = {
    root,
    // None (--contains only): every file; names.ts globsOf says the rest.
    pattern: globsOf(patterns),
    // fd's and rg's default: a repository's own records (.git/) are not the user's files; -u includes them.
    exclude: args.exclude,
    ignoreGitDirs: gitignore,
    hidden: args.hidden,
    gitignore,
    ignoreFiles: args.ignoreFile,
    caseSensitive: caseSensitivity(args),
    // -q: one match answers the question (fd and grep stop there too).
    maxResults: quiet ? 1 : args.maxResults,
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
    const { pattern, nameRegex } = nameOptions(args, patterns);
    // A file search always has a pattern (the check above): `?? patterns` only tells the compiler.
    const options = withoutAbsent<FindOptions>({ ...fileSet, ...entries, pattern: pattern ?? patterns, nameRegex, absolute: args.absolute });
    const exec = execPlan(args);
    return { kind: 'files', options, output, strict, quiet, ...(exec === undefined ? {} : { exec }), ...(args.color === undefined ? {} : { color: args.color }) };
  }
  const options = withoutAbsent<ContentOptions>({
    ...fileSet,
    query: args.contains,
    mode: args.regex === true ? 'regex' : undefined,
    // -l and -x need one hit a file: the rest of each file is not read (as `rg -l`).
    maxHitsPerFile: args.filesWithMatches === true || args.exec === true || args.execBatch === true ? 1 : args.maxCount,
    // As rg: -A and -B override -C, whatever their order.
    contextBefore: args.beforeContext ?? args.context,
    contextAfter: args.afterContext ?? args.context,
    // Every hit is printed, as rg prints them: the library's 1 MiB cap on the text kept is for
    // callers that hold the hits in memory; the command writes them out as they come. Not `--json`,
    // which holds them all to print one object: uncapped, `--contains e --json` over /usr/include
    // took 1.8 GB, and a larger tree ended in V8's out-of-memory abort with nothing printed.
    maxOutputBytes: output === 'json' ? JSON_MAX_OUTPUT_BYTES : Number.MAX_SAFE_INTEGER,
  });
  const color = args.color === undefined ? {} : { color: args.color };
  const exec = execPlan(args);
  const lines = { filesWithMatches: args.filesWithMatches === true, count: args.count === true };
  return { kind: 'content', options, output, strict, quiet, absolute: args.absolute === true, ...lines, ...(exec === undefined ? {} : { exec }), ...color };
}

/** `-x`/`-X` with their words; `-j` defaults to the number of cores, as fd. */
function execPlan(args: CliArgs): ExecPlan | undefined {
  if (args.exec !== true && args.execBatch !== true) return undefined;
  return { batch: args.execBatch === true, words: args.execWords!, jobs: args.jobs ?? availableParallelism() };
}

/** `-lx echo` (yargs reads -l -x): the words went to the patterns, so refuse rather than guess (a usage error, status 2). */
function refuseGluedExec(args: CliArgs): void {
  if ((args.exec === true || args.execBatch === true) && args.execWords === undefined) {
    throw new FindFileError('FF_INVALID_OPTION', 'give -x/-X as a word of its own, followed by the command: -x CMD [ARGS...]', 'exec');
  }
}

/**
 * Ignore files apply unless `-u`, `--no-ignore` or `--no-gitignore` says otherwise: the command's
 * default is fd's and rg's (the library's default, every file, is for callers that choose).
 */
function isIgnoring(args: CliArgs): boolean {
  return args.ignore !== false && args.unrestricted !== true && args.gitignore !== false;
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
