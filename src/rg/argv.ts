/**
 * What ripgrep is given: a fixed argv and a minimal environment. The aim is ripgrep's file set equal
 * to the walker's defaults, and no way for user text or user config to change what the flags mean.
 *
 * - `--files --hidden --no-ignore`: every file, dot files included, no .gitignore/.ignore/.rgignore.
 *   With `gitignore: true`, `--no-ignore-global` instead: ripgrep's own ignore rules, the walker's
 *   (src/walk/ignore.ts), without the user's global gitignore (an answer must not depend on it).
 *   Links are not followed because `-L`/`--follow` is never passed (ripgrep's default), as the walker.
 * - `--no-config`, and no `RIPGREP_CONFIG_PATH` in the child's environment: a user's config file
 *   cannot add flags.
 * - `--null`: records end in NUL, so names holding a newline survive.
 * - `--path-separator /`: the walker's form on Windows too.
 * - `--threads N`: always explicit, so the EAGAIN retry swaps exactly this value for 1.
 * - Never `--no-messages`: stderr is how unreadable directories are reported.
 *
 * User text only ever appears inside `--glob=<text>` and, for content search, `--type-add=findfile:<text>`
 * (src/rg/type-filter.ts) (one element each: a glob starting with `-` cannot be read as a flag). The root is the child's cwd, not an argument: globs with a `/` are anchored at
 * ripgrep's cwd, so the cwd must be the root for them to mean what they mean to the walker.
 */
import { availableParallelism } from 'node:os';
import type { Platform } from '../patterns.js';
import type { Env } from './resolve.js';
import { buildTypeArgs } from './type-filter.js';

/** Threads ripgrep gets unless a retry asks for one. */
export function defaultThreads(): number {
  return Math.max(1, Math.min(availableParallelism(), 8));
}

export interface FilesArgvInput {
  threads: number;
  /** Infinity for no limit. */
  maxDepth: number;
  /** Normalised exclude alternatives, as the walker's excluder sees them. */
  excludes: readonly string[];
  hidden: boolean;
  caseSensitive: boolean;
  /** Apply ignore files (`gitignore: true`). */
  gitignore: boolean;
  /** `ignoreFiles`, absolute: each one `--ignore-file=<path>` element (its rules relative to the cwd, the root). */
  ignoreFiles: readonly string[];
  /** `ignoreGitDirs: true`: no directory named `.git` is entered. */
  gitDirsIgnored: boolean;
}

/** Which ignore files ripgrep reads: none, or its defaults without the global gitignore. */
function ignoreFlag(input: Pick<FilesArgvInput, 'gitignore'>): string {
  return input.gitignore ? '--no-ignore-global' : '--no-ignore';
}

/** The argv for listing files. */
export function buildFilesArgv(input: FilesArgvInput): string[] {
  const argv = ['--files', '--hidden', ignoreFlag(input), '--no-config', '--null', '--path-separator', '/', '--threads', String(input.threads)];
  if (Number.isFinite(input.maxDepth)) argv.push('--max-depth', String(input.maxDepth));
  argv.push(...ignoreFileArgs(input), ...buildGlobArgs(input));
  return argv;
}

/** `--ignore-file=<path>`, one element each: a path starting with `-` cannot be read as a flag. `--no-ignore` does not turn them off. */
function ignoreFileArgs(input: Pick<FilesArgvInput, 'ignoreFiles'>): string[] {
  return input.ignoreFiles.map((file) => `--ignore-file=${file}`);
}

/** What content search adds to the file set (docs/content-search.md). */
export interface ContentArgvInput extends FilesArgvInput {
  /** The normalised pattern alternatives: their last segments become ripgrep's file-type filter (src/rg/type-filter.ts). */
  patterns: readonly string[];
  /** The user's text: only ever the one element after `--`. */
  query: string;
  /** `--fixed-strings` unless the caller asked for a regex. */
  literal: boolean;
  caseMode: 'sensitive' | 'ignore' | 'smart';
  /** The query can match a line break: `--multiline`. */
  multiline: boolean;
  /** `maxHitsPerFile`: `--max-count`, so ripgrep stops reading a file at it (Infinity: none). */
  perFile: number;
  /** Context lines asked for; ripgrep sends them as `context` events (0: none). */
  before: number;
  after: number;
}

const CASE_FLAGS = { sensitive: '--case-sensitive', ignore: '--ignore-case', smart: '--smart-case' } as const;

/**
 * The argv for content search: the listing's file set (same flags, same globs, same depth), narrowed
 * to the file names the patterns can select (a file-type filter: ripgrep opens only those, and
 * still enters every directory), then `--json` events instead of `--files`. Every flag is fixed and always explicit (case included, so
 * no default can change under us); the query is the single element after `--`, followed only by
 * `.` (the root is the cwd, and an explicit path keeps ripgrep from ever reading stdin). Nothing the
 * user typed can be read as a flag, and no shell ever sees it.
 */
export function buildContentArgv(input: ContentArgvInput): string[] {
  const argv = ['--json', '--hidden', ignoreFlag(input), '--no-config', '--path-separator', '/', '--threads', String(input.threads)];
  if (Number.isFinite(input.maxDepth)) argv.push('--max-depth', String(input.maxDepth));
  argv.push(CASE_FLAGS[input.caseMode]);
  if (input.literal) argv.push('--fixed-strings');
  if (input.multiline) argv.push('--multiline');
  if (Number.isFinite(input.perFile)) argv.push('--max-count', String(input.perFile));
  if (input.before > 0) argv.push('--before-context', String(input.before));
  if (input.after > 0) argv.push('--after-context', String(input.after));
  argv.push(...ignoreFileArgs(input), ...buildGlobArgs(input), ...buildTypeArgs(input.patterns, input.caseSensitive));
  argv.push('--', input.query, '.');
  return argv;
}

/**
 * The globs ripgrep pre-filters with: excludes only. find-file filters every listed path with the
 * walker's own matcher, so ripgrep may list more than matches, never less; and ripgrep 13's include
 * globs can list less: `--glob=in*` and `--glob=*` do not match `d<LF>x/in.ts` (matched against the
 * whole path, where a newline in a directory name stops it; `*.ts` does, by its extension shortcut). So no
 * include glob is passed (over /usr that costs ripgrep 0.37 s instead of 0.24 s for `*.so`:
 * docs/ripgrep.md); content search narrows by file name instead (src/rg/type-filter.ts). An exclude that fails to match
 * only makes ripgrep list more, so excludes are passed where ripgrep would leave out no more than
 * the walker does. Later globs win in ripgrep; excludes are all there is.
 */
export function buildGlobArgs(input: Pick<FilesArgvInput, 'excludes' | 'hidden' | 'caseSensitive' | 'gitDirsIgnored'>): string[] {
  const flag = input.caseSensitive ? '--glob=' : '--iglob=';
  const args: string[] = [];
  for (const exclude of input.excludes) {
    if (isSafeGlob(exclude) && (input.caseSensitive || foldsAlike(exclude))) args.push(flag + '!' + exclude);
  }
  if (!input.hidden) args.push('--glob=!.*');
  // A directory at any depth; the name exactly, as the walker's rule (src/walk/rules.ts).
  if (input.gitDirsIgnored) args.push('--glob=!.git/');
  return args;
}

const UNSAFE = /[()[\]?{}\\]/;

/**
 * An exclude ripgrep reads exactly as the walker does (gitignore-style globs). Refused: extglobs
 * and classes (`(`, `[`: ripgrep reads them differently or not at all), `?` (ripgrep's `?` is one
 * byte of UTF-8 in places), braces and backslashes (the alternatives are final: a literal `{` must
 * stay literal), `**` inside a segment, empty segments, and what gitignore treats specially (a
 * leading `#` is a comment, `!` a negation, trailing spaces are trimmed).
 */
function isSafeGlob(glob: string): boolean {
  if (glob === '' || UNSAFE.test(glob) || glob.startsWith('#') || glob.startsWith('!') || glob.trim() !== glob) return false;
  // A trailing `/` (directories only) means the same in both.
  const body = glob.endsWith('/') ? glob.slice(0, -1) : glob;
  return body.split('/').every((segment) => segment !== '' && (segment === '**' || !segment.includes('**')));
}

/**
 * ripgrep folds case by Unicode (`k` matches KELVIN SIGN U+212A, `s` matches LONG S U+017F); the
 * walker folds as JavaScript's `i` flag does, which keeps those apart (as NTFS does). A
 * case-insensitive exclude is passed only when no character in it can fold differently: ASCII
 * with no `k` or `s`.
 */
function foldsAlike(glob: string): boolean {
  return /^[\x20-\x7e]*$/.test(glob) && !/[ksKS]/.test(glob);
}

/** Replaces the value of `--threads` (the retry runs with 1). */
export function withThreads(argv: readonly string[], threads: number): string[] {
  const i = argv.indexOf('--threads');
  if (i < 0 || i + 1 >= argv.length) throw new Error('argv has no --threads value');
  const next = [...argv];
  next[i + 1] = String(threads);
  return next;
}

/** The `--threads` value, or undefined. */
export function threadsOf(argv: readonly string[]): number | undefined {
  const i = argv.indexOf('--threads');
  return i < 0 ? undefined : Number(argv[i + 1]);
}

/** The `--ignore-file=<path>` paths, as ripgrep prints them in its warnings (flags only: nothing after `--`). */
export function ignoreFilesOf(argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  const flags = end < 0 ? argv : argv.slice(0, end);
  return flags.filter((arg) => arg.startsWith('--ignore-file=')).map((arg) => arg.slice('--ignore-file='.length));
}

/**
 * What ripgrep needs from the environment, and nothing else: no config path, no secrets. Windows
 * programs need SystemRoot to start their runtime; TEMP/TMP/TMPDIR are harmless and keep it usable.
 */
const KEPT_ENV = ['PATH', 'SYSTEMROOT', 'WINDIR', 'TEMP', 'TMP', 'TMPDIR'];

export function buildChildEnv(env: Env, platform: Platform): Record<string, string> {
  const child: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const name = platform === 'win32' ? key.toUpperCase() : key;
    if (KEPT_ENV.includes(name)) child[key] = value;
  }
  return child;
}
