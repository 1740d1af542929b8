/**
 * The plan: options checked and compiled once, before any I/O, into the one shape every search
 * runs from (file listing and content search alike). Only this layer (src/plan/) reads raw options;
 * everything after it reads the plan, and nothing is rebuilt on the way.
 *
 * - `Scope`: what is searched: the root, the patterns compiled, hidden names, depth, the fs.
 * - `Limits`: when to stop: the result limit, the time budget (by the plan's clock), the signal.
 * - `BackendChoice`: which engine, and what running ripgrep needs.
 * - `WalkSettings`: how the walker runs (tuning and watching): never changes the answer.
 * - `query`: what the kind of search adds (the output form of a file search, a content query).
 */
import { FindFileError } from '../errors.js';
import { canReadIgnoreFiles, type DirentLike, type FsLike } from '../fs.js';
import type { BackendOption, FindOptions } from '../options.js';
import { BACKEND_OPTIONS } from '../options.js';
import { buildNativePath, withSeparator, type Separator } from '../paths.js';
import { buildExcluder, buildMatcher, checkCompileCost, normalizePatternList, type Excluder, type GlobFlavor, type PathMatcher, type Platform } from '../patterns.js';
import type { RecoveryEvent } from '../result.js';
import { isDepthLimited } from '../rg/depth.js';
import type { Env } from '../rg/resolve.js';
import type { ProcessRunner } from '../rg/runner.js';
import { monotonicClock, readClock, type Clock } from './clock.js';
import { FILES_ONLY, readOrder, readSelection, walkerOnlyReason, type EntrySelection, type SortOption } from './select.js';
import { RG_PATH, checkAbsolutePath, describe as describeValue, checkBackendFs, checkClockShape, checkOptionNames, checkOptionsObject, checkSignal, readEnv, readFs, readBoolean, readChoice, readFunction, readLimit, readRoot, realpathOf, resolvePath, runningPlatform } from './read.js';
import { readNameRegex, withNameTest } from './name.js';

/** What a search covers. */
export interface Scope {
  /** The root, resolved, in native form. */
  root: string;
  /** `root` ending in exactly one separator. */
  rootPrefix: string;
  sep: Separator;
  platform: Platform;
  /** Whether the patterns and excludes match case exactly. */
  caseSensitive: boolean;
  /** `pattern` and `exclude`, checked and normalised (the matcher was compiled from them; ripgrep gets the excludes as globs). */
  patterns: readonly string[];
  excludes: readonly string[];
  matcher: PathMatcher;
  excluder: Excluder;
  hidden: boolean;
  maxDepth: number;
  /** Something past `maxDepth` could match (src/rg/depth.ts): ripgrep must then say `depth-limit`. */
  depthLimited: boolean;
  fs: FsLike;
  /** The caller gave `fs`: only the walker can read it. */
  fsInjected: boolean;
  /** The native path of a root-relative one. */
  nativePath: (rel: string) => string;
  /** `gitignore: true`: where the ignore files that apply are (src/walk/ignore.ts); undefined when off. */
  ignore: IgnoreGeometry | undefined;
  /** `ignoreGitDirs: true`: directories named `.git` are left out as ignored. */
  gitDirsIgnored: boolean;
  /** The kinds of entry that can match and the metadata filters (src/plan/select.ts); files only, unfiltered, for content search. */
  select: EntrySelection;
}

/** Where the ignore files that apply are: the root's (real) parents', its own and below, and `extraFiles`. */
export interface IgnoreGeometry {
  /** The search root, native: its parents are read once its symlinks are resolved (src/walk/ignore.ts). */
  root: string;
  /** `gitignore: true`: the default ignore files apply (else only `extraFiles`). */
  defaults: boolean;
  /** `ignoreFiles`, native and absolute; their rules apply relative to the root, weakest of all. */
  extraFiles: string[];
}

/** When a search stops early. */
export interface Limits {
  /** Results to return at most (files, or content hits); seeing one more is `result-limit`. */
  maxResults: number;
  /** Infinity for none; measured by `clock` from the start of the search (see src/limits.ts). */
  timeBudgetMs: number;
  clock: Clock;
  signal: AbortSignal | undefined;
}

/** Which engine runs, and what running ripgrep needs. */
export interface BackendChoice {
  backend: BackendOption;
  /** Checked to be absolute. */
  rgPath: string | undefined;
  runner: ProcessRunner | undefined;
  onEvent: ((event: RecoveryEvent) => void) | undefined;
  env: Env;
  /** Checked to be absolute. */
  workspace: string | undefined;
}

/** How the walker runs. */
export interface WalkSettings {
  concurrency: number;
  onDirectory: ((dir: string, entries: readonly DirentLike[]) => void) | undefined;
  /** `FindOptions.pruneDirectory`: true leaves the directory's entries unread. */
  pruneDirectory: ((dir: string) => unknown) | undefined;
}

export interface SearchPlan<Q> {
  scope: Scope;
  limits: Limits;
  backend: BackendChoice;
  walk: WalkSettings;
  query: Q;
}

/** A file search's own part: the form, order and metadata of its answer. */
export interface FileQuery {
  absolute: boolean;
  /** `mtime`: newest first (the walk then lstats every match, and goes on past `maxResults`). */
  sort: SortOption;
  /** Return `entries` with each match's type, size and time. */
  stats: boolean;
}

export type FindPlan = SearchPlan<FileQuery>;

export const FIND_OPTION_NAMES: readonly string[] = [
  'root', 'pattern', 'exclude', 'hidden', 'gitignore', 'ignoreGitDirs', 'ignoreFiles', 'maxResults', 'timeBudgetMs', 'maxDepth', 'fs', 'clock',
  'signal', 'platform', 'caseSensitive', 'absolute', 'backend', 'concurrency', 'rgPath', 'runner', 'onEvent', 'onDirectory', 'pruneDirectory', 'env', 'workspace',
  'type', 'modifiedAfter', 'modifiedBefore', 'minSize', 'maxSize', 'sort', 'stats', 'nameRegex',
];

const DEFAULT_CONCURRENCY = 256;

/** The options a file search and a content search share (their own are read by their builders). */
export type SharedOptions = Omit<FindOptions, 'pattern' | 'absolute' | 'concurrency' | 'type' | 'modifiedAfter' | 'modifiedBefore' | 'minSize' | 'maxSize' | 'sort' | 'stats'> & {
  pattern?: unknown;
  concurrency?: number;
};

/** How the two kinds of search read the shared options differently, and what each adds. */
export interface SharedRules<Q> {
  /** The option names the API accepts. */
  names: readonly string[];
  /** The pattern when none is given; undefined makes `pattern` required. */
  defaultPattern?: string;
  /** Whether `caseSensitive` is the globs' case (file search) or something else's (content: the query's). */
  globCase: boolean;
  /** Reads the kind's own options (the content query, the output form), after the shared ones. */
  readQuery(shared: { backend: BackendOption; maxResults: number; fs: FsLike; select: EntrySelection }): Q;
  /** The entry types and metadata filters (file search only); absent: files, unfiltered. */
  readSelection?(): EntrySelection;
}

/**
 * Checks and compiles the options of a search: the shared ones, then the clock (its first reading),
 * then the kind's own. Nothing does I/O.
 */
export function buildSearchPlan<Q>(options: SharedOptions, rules: SharedRules<Q>): SearchPlan<Q> {
  checkOptionsObject(options);
  // The time budget counts from here: compiling the patterns is part of the search. A hostile glob
  // compiled for ~470 ms under `timeBudgetMs: 5`, then started the budget, walked and said complete.
  // With the real clock, what the compile took comes off the budget (below), so every engine's
  // deadline, set from the budget when it starts, falls where the caller's does. An injected clock
  // is read only as before: the caller advances it, and the compile does not.
  const compileStarted = options.clock == null ? monotonicClock.now() : undefined;
  checkOptionNames(options, rules.names);
  const platform = readChoice(options.platform, 'platform', ['posix', 'win32'] as const, runningPlatform);
  const caseSensitive = rules.globCase ? readBoolean(options.caseSensitive, 'caseSensitive', platform !== 'win32') : platform !== 'win32';
  const flavor: GlobFlavor = { platform, caseSensitive };
  const { patterns, excludes } = readPatterns(options, flavor, rules.defaultPattern);
  const fs = readFs(options.fs);
  const root = readRoot(options.root, platform, fs);
  checkClockShape(options.clock);
  const signal = options.signal;
  checkSignal(signal);
  const backend = readBackendChoice(options, platform);
  const concurrency = options.concurrency === undefined ? DEFAULT_CONCURRENCY : readLimit(options.concurrency, 'concurrency');
  if (concurrency < 1) throw new FindFileError('FF_INVALID_LIMIT', 'concurrency must be at least 1', 'concurrency');
  const hidden = readBoolean(options.hidden, 'hidden', true);
  const gitignore = readBoolean(options.gitignore, 'gitignore', false);
  const gitDirsIgnored = readBoolean(options.ignoreGitDirs, 'ignoreGitDirs', false);
  const extraFiles = readIgnoreFiles(options.ignoreFiles, root, platform, fs);
  if ((gitignore || extraFiles.length > 0) && !canReadIgnoreFiles(fs)) {
    throw new FindFileError('FF_INVALID_OPTION', 'fs must also have readFile and readFileSync for gitignore and ignoreFiles (a memfs volume has them)', 'fs');
  }
  const maxResults = readLimit(options.maxResults, 'maxResults');
  const maxDepth = readLimit(options.maxDepth, 'maxDepth');
  const timeBudgetMs = readLimit(options.timeBudgetMs, 'timeBudgetMs');
  const onDirectory = readFunction<NonNullable<WalkSettings['onDirectory']>>(options.onDirectory, 'onDirectory');
  const pruneDirectory = readFunction<NonNullable<WalkSettings['pruneDirectory']>>(options.pruneDirectory, 'pruneDirectory');
  // ripgrep would read below a pruned directory, and `auto` answers with ripgrep's listing.
  if (pruneDirectory !== undefined && backend.backend !== 'walker') {
    throw new FindFileError('FF_INVALID_OPTION', `pruneDirectory runs in the walker only: backend must be "walker", got "${backend.backend}"`, 'pruneDirectory');
  }
  const select = rules.readSelection?.() ?? FILES_ONLY;
  checkBackendFs(backend.backend, options.fs !== undefined);
  const sep: Separator = platform === 'win32' ? '\\' : '/';
  const rootPrefix = withSeparator(root, sep);
  const scope: Scope = {
    root,
    rootPrefix,
    sep,
    platform,
    caseSensitive,
    patterns,
    excludes,
    // `nameRegex` (file search only: content search's option names refuse it) narrows the glob's matches.
    matcher: withNameTest(buildMatcher(patterns, flavor), readNameRegex(options.nameRegex, caseSensitive)),
    excluder: buildExcluder(excludes, flavor),
    hidden,
    maxDepth,
    depthLimited: isDepthLimited(maxDepth, patterns),
    fs,
    fsInjected: options.fs !== undefined,
    nativePath: buildNativePath(rootPrefix, sep),
    ignore: gitignore || extraFiles.length > 0 ? { root, defaults: gitignore, extraFiles } : undefined,
    gitDirsIgnored,
    select,
  };
  // Read after the shared options (as before this layer existed): the first reading is the search's first.
  const clock = readClock(options.clock, timeBudgetMs);
  const query = rules.readQuery({ backend: backend.backend, maxResults, fs, select });
  return { scope, limits: { maxResults, timeBudgetMs: budgetLeft(timeBudgetMs, compileStarted), clock, signal }, backend, walk: { concurrency, onDirectory, pruneDirectory }, query };
}

/** The budget less what building the plan took (real clock only: `startedAt` undefined otherwise). */
function budgetLeft(timeBudgetMs: number, startedAt: number | undefined): number {
  if (startedAt === undefined || !Number.isFinite(timeBudgetMs)) return timeBudgetMs;
  return Math.max(0, timeBudgetMs - (monotonicClock.now() - startedAt));
}

/** `ignoreFiles`: non-empty paths without NUL, resolved against the root (a `..` as the OS reads it: `resolvePath`). */
function readIgnoreFiles(value: unknown, root: string, platform: Platform, fs: FsLike): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((f) => typeof f !== 'string' || f === '' || f.includes('\0'))) {
    throw new FindFileError('FF_INVALID_OPTION', `ignoreFiles must be an array of paths (relative to the root, or absolute), got ${describeValue(value)}`, 'ignoreFiles');
  }
  const realpath = realpathOf(fs);
  return (value as string[]).map((f) => resolvePath(f, platform, realpath, root));
}

function readPatterns(options: SharedOptions, flavor: GlobFlavor, defaultPattern: string | undefined): { patterns: string[]; excludes: string[] } {
  const raw = options.pattern ?? defaultPattern;
  if (raw === undefined) throw new FindFileError('FF_MISSING_OPTION', 'pattern is required: a glob such as "*.ts" or "src/**/*.ts"', 'pattern');
  const patterns = normalizePatternList(raw, flavor, 'pattern', false);
  for (const p of patterns) {
    if (p.endsWith('/')) {
      throw new FindFileError('FF_INVALID_PATTERN', `pattern ${JSON.stringify(p)} ends with "/": it names a directory (try "${p}**" for the files below it, or type "directory" with ${JSON.stringify(p.slice(0, -1))} for the directory itself)`, 'pattern');
    }
  }
  const excludes = options.exclude === undefined ? [] : normalizePatternList(options.exclude, flavor, 'exclude', true);
  checkCompileCost(patterns, excludes);
  return { patterns, excludes };
}

function readBackendChoice(options: SharedOptions, platform: Platform): BackendChoice {
  const backend = readChoice(options.backend, 'backend', BACKEND_OPTIONS, 'walker');
  const { rgPath, workspace } = options;
  checkAbsolutePath(rgPath, 'rgPath', RG_PATH, platform);
  checkAbsolutePath(workspace, 'workspace', 'an absolute path', platform);
  const runner = readFunction<ProcessRunner>(options.runner, 'runner');
  const onEvent = readFunction<(event: RecoveryEvent) => void>(options.onEvent, 'onEvent');
  return { backend, rgPath, runner, onEvent, env: readEnv(options.env) ?? process.env, workspace };
}

/** `findFiles` (and its sync and stream forms): the shared plan plus the output form. */
export function buildFindPlan(options: FindOptions): FindPlan {
  checkOptionsObject(options);
  return buildSearchPlan(options, {
    names: FIND_OPTION_NAMES,
    globCase: true,
    // Newest first compares exact times too: two files 100 ns apart have one float mtimeMs.
    readSelection: () => {
      const select = readSelection(options);
      return options.sort === 'mtime' ? { ...select, exactTimes: true } : select;
    },
    readQuery: ({ backend, select }) => {
      const order = readOrder(options);
      const why = walkerOnlyReason(select, order);
      if (backend === 'ripgrep' && why !== undefined) {
        const what = why === 'entry-types' ? 'lists regular files only' : 'cannot filter or sort by size or time';
        const asked = why === 'entry-types' ? 'type other than "file"' : 'size or time filters, sort "mtime" or stats';
        throw new FindFileError('FF_INVALID_OPTION', `backend "ripgrep" ${what} (rg --files): use backend "walker" or "auto" for ${asked}`, 'backend');
      }
      return { absolute: readBoolean(options.absolute, 'absolute', false), ...order };
    },
  });
}
