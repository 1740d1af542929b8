/**
 * The public options, validated and normalised once, before any I/O. Everything the walk needs is
 * decided here; the walk itself never looks at a raw option again.
 */
import * as path from 'node:path';
import { FindFileError } from './errors.js';
import { defaultFs, isFsLike, type DirentLike, type FsLike } from './fs.js';
import { buildExcluder, buildMatcher, normalizePatternList, type Excluder, type PathMatcher, type Platform } from './patterns.js';
import type { RecoveryEvent } from './result.js';
import type { Env } from './rg/resolve.js';
import type { ProcessRunner } from './rg/runner.js';
import { withSeparator } from './paths.js';

export type { Platform } from './patterns.js';

/** A source of time in milliseconds. Only differences are used, so any origin will do. */
export interface Clock {
  now(): number;
}

/** `walker`: the embedded walk. `ripgrep`: `rg --files` (docs/ripgrep.md). `auto`: ripgrep where it answers as fully, else the walker. */
export type BackendOption = 'walker' | 'ripgrep' | 'auto';

export const BACKEND_OPTIONS: readonly BackendOption[] = ['walker', 'ripgrep', 'auto'];

export interface FindOptions {
  /** The directory to search. Relative roots resolve against the current directory. Opened even if it is a link. */
  root: string;
  /** Globs over the root-relative path (`/` separators); a glob without `/` matches base names at any depth. */
  pattern: string | string[];
  /** Globs of entries not to enter or return. Counted in `excludedCount`. @default [] */
  exclude?: string[];
  /** Include entries whose name starts with `.`. @default true */
  hidden?: boolean;
  /** Return at most this many matches; the walk stops when it sees one more. @default unlimited */
  maxResults?: number;
  /** Stop once this many milliseconds (by `clock`) have passed. @default unlimited */
  timeBudgetMs?: number;
  /** How deep to look: 1 examines only the root's direct children. @default unlimited */
  maxDepth?: number;
  /** A `node:fs`-shaped object; a memfs volume works. @default node:fs */
  fs?: unknown;
  /** @default a monotonic clock (`performance.now`) */
  clock?: Clock;
  /** Stops the walk; the partial result is returned, marked `aborted`. */
  signal?: AbortSignal;
  /** Path flavour: separators, drive letters, `\\` as a separator in patterns on win32. @default the running platform */
  platform?: Platform;
  /** Whether patterns and excludes match case exactly. @default false on win32, true elsewhere */
  caseSensitive?: boolean;
  /** Return native absolute paths instead of root-relative ones. @default false */
  absolute?: boolean;
  /** Which engine runs the search (`findFiles` only: the sync and stream forms run the walker). @default 'walker' */
  backend?: BackendOption;
  /** Absolute path to the ripgrep executable. @default `FIND_FILE_RG`, then `rg` on the PATH */
  rgPath?: string;
  /** Starts ripgrep; tests inject a fake. @default child_process.spawn, no shell */
  runner?: ProcessRunner;
  /** Receives a recovery event when ripgrep was retried or failed; never the pattern, paths or output. */
  onEvent?: (event: RecoveryEvent) => void;
  /**
   * Watches the walk without changing it: called with each directory the walker lists (its
   * root-relative path, `''` for the root, else ending in `/`) and its entries, before any is
   * judged. Never called for ripgrep's answer; called in queue order, also when `auto` falls back.
   * The CLI's progress line and the agent's similar names use it. A throw here is the caller's bug
   * and ends the search with that error.
   */
  onDirectory?: (dir: string, entries: readonly DirentLike[]) => void;
  /**
   * The project the search belongs to (an agent's workspace), absolute. ripgrep is never run from a
   * PATH folder inside it, as it is never run from inside the root or the cwd (docs/ripgrep.md).
   * @default none
   */
  workspace?: string;
  /** Where `FIND_FILE_RG` and `PATH` are read, and what ripgrep's (minimal) environment is taken from. @default process.env */
  env?: Env;
  /**
   * Directory reads in flight (or read and waiting to be taken) at once in the async walk. Tuning
   * only: it never changes the answer. 256 kept the libuv pool busy here; 64 was 1.2x slower
   * (bench/concurrency.mjs). @default 256
   */
  concurrency?: number;
}

/** The options as the walk uses them: checked, normalised and compiled. */
export interface WalkPlan {
  /** `pattern` and `exclude` as checked and normalised (the matcher was compiled from them; ripgrep gets them as globs). */
  patterns: string[];
  excludes: string[];
  /** The root, resolved, in native form. */
  root: string;
  /** `root` ending in exactly one separator: a child's path is `rootPrefix + rel`. */
  rootPrefix: string;
  sep: '/' | '\\';
  platform: Platform;
  caseSensitive: boolean;
  matcher: PathMatcher;
  excluder: Excluder;
  hidden: boolean;
  maxResults: number;
  maxDepth: number;
  timeBudgetMs: number;
  fs: FsLike;
  clock: Clock;
  signal: AbortSignal | undefined;
  absolute: boolean;
  concurrency: number;
  onDirectory: ((dir: string, entries: readonly DirentLike[]) => void) | undefined;
}

export const FIND_OPTION_NAMES: readonly string[] = [
  'root', 'pattern', 'exclude', 'hidden', 'maxResults', 'timeBudgetMs', 'maxDepth', 'fs', 'clock',
  'signal', 'platform', 'caseSensitive', 'absolute', 'backend', 'concurrency', 'rgPath', 'runner', 'onEvent', 'onDirectory', 'env', 'workspace',
];

const DEFAULT_CONCURRENCY = 256;

const monotonicClock: Clock = { now: () => performance.now() };

/** True for the clock used when none is injected: real time, so real timers agree with it. */
export function isDefaultClock(clock: Clock): boolean {
  return clock === monotonicClock;
}

/** The longest delay Node's timers take (about 24.8 days); a longer one warns on stderr and fires after 1 ms. */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

export interface BudgetTimer {
  clear(): void;
}

/**
 * The one timer for a time budget (the async walk, content search and ripgrep runs arm it, with the
 * real clock only): calls `onDue` once `ms` milliseconds have passed. A delay past
 * `MAX_TIMER_DELAY_MS` is waited out in steps that each read the clock again, so a budget of
 * 2^32 ms neither prints `TimeoutOverflowWarning` nor ends the search at once. Infinity (and NaN)
 * arm nothing: no budget.
 */
export function setBudgetTimer(ms: number, onDue: () => void): BudgetTimer {
  let timer: NodeJS.Timeout | undefined;
  if (Number.isFinite(ms)) {
    const due = monotonicClock.now() + ms;
    const arm = (left: number) => {
      timer = left > MAX_TIMER_DELAY_MS ? setTimeout(() => arm(due - monotonicClock.now()), MAX_TIMER_DELAY_MS) : setTimeout(onDue, Math.max(0, left));
    };
    arm(ms);
  }
  return { clear: () => clearTimeout(timer) };
}

/**
 * An injected clock as the search reads it. Its first reading must be a finite number
 * (`FF_INVALID_OPTION` otherwise); it is taken before any I/O and is the search's first reading,
 * so the clock is read no more often than before. A later reading that is not a finite number must
 * not pass for "no time has passed" (`NaN >= budget` is false, which would disable the budget), so
 * from then on every reading lies a whole budget past the one before (the budget is spent, wherever
 * it was measured from), or stands still when there is no budget.
 */
function buildCheckedClock(clock: Clock, timeBudgetMs: number): Clock {
  let first: unknown;
  try {
    first = clock.now();
  } catch (error) {
    throw new FindFileError('FF_INVALID_OPTION', `clock.now() threw: ${error instanceof Error ? error.message : String(error)}`, 'clock');
  }
  if (typeof first !== 'number' || !Number.isFinite(first)) {
    throw new FindFileError('FF_INVALID_OPTION', `clock.now() must return a finite number of milliseconds, got ${describe(first)}`, 'clock');
  }
  let pending: number | undefined = first;
  let highest = first;
  let broken = 0;
  return {
    now() {
      if (pending !== undefined) {
        const reading = pending;
        pending = undefined;
        return reading;
      }
      if (broken === 0) {
        const reading: unknown = clock.now();
        if (typeof reading === 'number' && Number.isFinite(reading)) {
          if (reading > highest) highest = reading;
          return reading;
        }
      }
      broken++;
      return Number.isFinite(timeBudgetMs) ? highest + timeBudgetMs * broken : highest;
    },
  };
}

export const runningPlatform: Platform = process.platform === 'win32' ? 'win32' : 'posix';

/** Throws on an option name the API does not know, suggesting the one that was probably meant. */
export function checkOptionNames(options: object, known: readonly string[]): void {
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const guess = known.find((k) => editDistance(k.toLowerCase(), name.toLowerCase()) <= 2);
    throw new FindFileError('FF_UNKNOWN_OPTION', `unknown option "${name}"${guess ? `: did you mean "${guess}"?` : ''}`, name);
  }
}

/** A non-negative integer, or Infinity when absent. */
export function readLimit(value: unknown, option: string): number {
  if (value === undefined) return Infinity;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new FindFileError('FF_INVALID_LIMIT', `${option} must be a non-negative integer, got ${describe(value)}`, option);
  }
  return value;
}

export function readBoolean(value: unknown, option: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new FindFileError('FF_INVALID_OPTION', `${option} must be true or false, got ${describe(value)}`, option);
  return value;
}

export function readChoice<T extends string>(value: unknown, option: string, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!choices.includes(value as T)) {
    throw new FindFileError('FF_INVALID_OPTION', `${option} must be one of ${choices.map((c) => `"${c}"`).join(', ')}, got ${describe(value)}`, option);
  }
  return value as T;
}

/** Resolves the root to its native absolute form. */
export function readRoot(value: unknown, platform: Platform): string {
  if (value === undefined) throw new FindFileError('FF_MISSING_OPTION', 'root is required: the directory to search', 'root');
  if (typeof value !== 'string' || value === '') throw new FindFileError('FF_INVALID_ROOT', `root must be a non-empty string, got ${describe(value)}`, 'root');
  if (value.includes('\0')) throw new FindFileError('FF_INVALID_ROOT', `root ${JSON.stringify(value)} holds a NUL byte`, 'root');
  return (platform === 'win32' ? path.win32 : path.posix).resolve(value);
}

/** Checks and compiles the options shared by every search. */
export function buildPlan(options: FindOptions, known: readonly string[] = FIND_OPTION_NAMES): WalkPlan {
  if (typeof options !== 'object' || options === null) {
    throw new FindFileError('FF_INVALID_OPTION', `options must be an object, got ${describe(options)}`);
  }
  checkOptionNames(options, known);
  const platform = readChoice(options.platform, 'platform', ['posix', 'win32'] as const, runningPlatform);
  if (options.pattern === undefined) throw new FindFileError('FF_MISSING_OPTION', 'pattern is required: a glob such as "*.ts" or "src/**/*.ts"', 'pattern');
  const flavor = { platform, caseSensitive: readBoolean(options.caseSensitive, 'caseSensitive', platform !== 'win32') };
  const patterns = normalizePatternList(options.pattern, flavor, 'pattern', false);
  for (const p of patterns) {
    if (p.endsWith('/')) {
      throw new FindFileError('FF_INVALID_PATTERN', `pattern ${JSON.stringify(p)} ends with "/": it names a directory, and find-file returns files (try "${p}**")`, 'pattern');
    }
  }
  const excludes = options.exclude === undefined ? [] : normalizePatternList(options.exclude, flavor, 'exclude', true);
  const root = readRoot(options.root, platform);
  const sep = platform === 'win32' ? '\\' : '/';
  const fs = options.fs === undefined ? defaultFs : options.fs;
  if (!isFsLike(fs)) throw new FindFileError('FF_INVALID_OPTION', 'fs must be shaped like node:fs (readdir, readdirSync, lstat, lstatSync)', 'fs');
  const injectedClock = options.clock ?? undefined;
  if (injectedClock !== undefined && typeof injectedClock?.now !== 'function') throw new FindFileError('FF_INVALID_OPTION', 'clock must have a now() method returning milliseconds', 'clock');
  const signal = options.signal;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new FindFileError('FF_INVALID_OPTION', 'signal must be an AbortSignal', 'signal');
  readChoice(options.backend, 'backend', BACKEND_OPTIONS, 'walker');
  const concurrency = options.concurrency === undefined ? DEFAULT_CONCURRENCY : readLimit(options.concurrency, 'concurrency');
  if (concurrency < 1) throw new FindFileError('FF_INVALID_LIMIT', 'concurrency must be at least 1', 'concurrency');
  const hidden = readBoolean(options.hidden, 'hidden', true);
  const maxResults = readLimit(options.maxResults, 'maxResults');
  const maxDepth = readLimit(options.maxDepth, 'maxDepth');
  const timeBudgetMs = readLimit(options.timeBudgetMs, 'timeBudgetMs');
  const absolute = readBoolean(options.absolute, 'absolute', false);
  const { onDirectory } = options;
  if (onDirectory !== undefined && typeof onDirectory !== 'function') throw new FindFileError('FF_INVALID_OPTION', `onDirectory must be a function, got ${describe(onDirectory)}`, 'onDirectory');
  // Read last: every option checked here is checked before the clock's first reading is taken.
  const clock = injectedClock === undefined ? monotonicClock : buildCheckedClock(injectedClock, timeBudgetMs);
  return {
    patterns,
    excludes,
    root,
    rootPrefix: withSeparator(root, sep),
    sep,
    platform,
    caseSensitive: flavor.caseSensitive,
    matcher: buildMatcher(patterns, flavor),
    excluder: buildExcluder(excludes, flavor),
    hidden,
    maxResults,
    maxDepth,
    timeBudgetMs,
    fs,
    clock,
    signal,
    absolute,
    concurrency,
    onDirectory,
  };
}

/** Levenshtein distance, for "did you mean" on option names (short strings only). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** What choosing and running a backend needs beyond the walk plan. */
export interface BackendPlan {
  backend: BackendOption;
  /** Checked to be absolute. */
  rgPath: string | undefined;
  runner: ProcessRunner | undefined;
  onEvent: ((event: RecoveryEvent) => void) | undefined;
  env: Env;
  /** Checked to be absolute. */
  workspace: string | undefined;
  fsInjected: boolean;
  /** `pattern` and `exclude` normalised as the matcher saw them: ripgrep gets them as globs. */
  patterns: string[];
  excludes: string[];
}

/** Checks the backend options; call after `buildPlan` (which has checked the rest). */
export function buildBackendPlan(options: FindOptions, plan: WalkPlan): BackendPlan {
  const backend = readChoice(options.backend, 'backend', BACKEND_OPTIONS, 'walker');
  const { rgPath, runner, onEvent, env, workspace } = options;
  checkAbsolutePath(rgPath, 'rgPath', 'an absolute path to the ripgrep executable', plan.platform);
  checkAbsolutePath(workspace, 'workspace', 'an absolute path', plan.platform);
  if (runner !== undefined && typeof runner !== 'function') throw new FindFileError('FF_INVALID_OPTION', `runner must be a function, got ${describe(runner)}`, 'runner');
  if (onEvent !== undefined && typeof onEvent !== 'function') throw new FindFileError('FF_INVALID_OPTION', `onEvent must be a function, got ${describe(onEvent)}`, 'onEvent');
  if (env !== undefined && (typeof env !== 'object' || env === null || Array.isArray(env) || Object.values(env).some((v) => v !== undefined && typeof v !== 'string'))) {
    throw new FindFileError('FF_INVALID_OPTION', 'env must be an object of strings, like process.env', 'env');
  }
  const fsInjected = options.fs !== undefined;
  if (backend === 'ripgrep' && fsInjected) {
    throw new FindFileError('FF_INVALID_OPTION', 'backend "ripgrep" reads the real filesystem and cannot use an injected fs: use "walker" or "auto"', 'backend');
  }
  return {
    backend,
    rgPath,
    runner,
    onEvent,
    env: env ?? process.env,
    workspace,
    fsInjected,
    patterns: plan.patterns,
    excludes: plan.excludes,
  };
}

/** An optional option that must be an absolute path of the plan's flavour, with no NUL byte. */
function checkAbsolutePath(value: unknown, option: string, what: string, platform: Platform): void {
  if (value === undefined) return;
  const isAbsolute = (platform === 'win32' ? path.win32 : path.posix).isAbsolute;
  if (typeof value !== 'string' || value.includes('\0') || !isAbsolute(value)) {
    throw new FindFileError('FF_INVALID_OPTION', `${option} must be ${what}, got ${describe(value)}`, option);
  }
}

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
