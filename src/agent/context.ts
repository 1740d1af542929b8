/**
 * What the host gives the tools (`ToolContext`: trusted, never from the model) and the settings
 * the tools derive from it once per call. The model controls only the tool input; everything that
 * bounds the cost or the reach of a search (root, budget, depth, excludes) lives here.
 */
import * as path from 'node:path';
import { FindFileError } from '../errors.js';
import { findFiles } from '../find.js';
import type { DirentLike, FsLike } from '../fs.js';
import { BACKEND_OPTIONS, type BackendOption, type Clock, type FindOptions, type Platform } from '../options.js';
import type { FindResult } from '../result.js';
import { RG_PATH, checkAbsolutePath, checkBackendFs, checkClockShape, checkOptionNames, checkSignal, describe, readChoice, readEnv, readFs, readFunction, readLimit, readRoot, runningPlatform } from '../plan/read.js';
import { withSeparator, type Separator } from '../paths.js';
import { normalizePatternList } from '../patterns.js';
import { buildInsideCheck, type Env } from '../rg/resolve.js';
import type { ProcessRunner } from '../rg/runner.js';

/** The host's side of a tool call. */
export interface ToolContext {
  /** The workspace root: an absolute path. Nothing outside it (and `roots`) is ever searched. */
  root: string;
  /**
   * More workspace roots, absolute (a host with several workspace folders; MCP's roots). A `path`
   * may be an absolute path inside any of them; a relative `path`, and no `path`, mean `root`.
   * Answers about a search in one of these show absolute paths, so each can be passed back as a
   * `path` as it is. @default []
   */
  roots?: string[];
  /** A `node:fs`-shaped object (a memfs volume works). @default node:fs */
  fs?: unknown;
  /** Where `timeBudgetMs` is read; tests inject a fake. @default a monotonic clock */
  clock?: Clock;
  /** Each search stops after this many milliseconds and says so. @default 10000 */
  timeBudgetMs?: number;
  /** How deep each search looks (1: the search root's children only). @default unlimited */
  maxDepth?: number;
  /** Globs left out of every search, reported as policy. @default ['.git/', 'node_modules/'] */
  exclude?: string[];
  /** Which engine searches, as `FindOptions.backend`. @default 'walker' */
  backend?: BackendOption;
  /** Starts ripgrep; tests inject a fake. @default child_process.spawn, no shell */
  runner?: ProcessRunner;
  /** Absolute path to the ripgrep executable. @default `FIND_FILE_RG`, then `rg` on the PATH */
  rgPath?: string;
  /** Where `FIND_FILE_RG` and `PATH` are read, and what ripgrep's (minimal) environment is taken from. @default process.env */
  env?: Env;
  /** Path flavour of `root`, `roots` and the answers' paths. @default the running platform */
  platform?: Platform;
  /** Stops the search; the answer says what was found so far and that it was cut short (`aborted`). */
  signal?: AbortSignal;
  /**
   * How many matches a search counts before it stops counting. Above every `limit`, so a cut list
   * can say how many there were: `(truncated: showing 100 of 640)`, or `of more than 1000` when
   * counting stopped. @default 1000
   */
  countCap?: number;
  /**
   * The largest page the model may ask for: its `limit` is capped here and the answer says so (an
   * MCP server's `--max-results`). Between 1 and `MAX_LIMIT`. @default MAX_LIMIT (500)
   */
  maxLimit?: number;
  /** Watches each search's walk (the library's `onDirectory`: each directory read, relative to the search root, and its entries): progress for a host. */
  onDirectory?: (dir: string, entries: readonly DirentLike[]) => void;
  /**
   * Runs the file searches of both tools in place of the library's `findFiles`, and must answer as
   * it does: a pool of watched indexes (`IndexPool#findFiles`, what `find-file mcp --watch` uses)
   * makes repeat searches fast without changing a word. @default findFiles
   */
  findFiles?: (options: FindOptions) => Promise<FindResult>;
}

/** The answer to a tool call: `content` is what the model reads, `metadata` what the host reads. */
export interface ToolResult<M> {
  /** One line for a UI or a log. */
  summary: string;
  /** The text for the model. */
  content: string;
  /** The same facts as structured data, for the host. */
  metadata: M;
  /** True when the call was refused or could not run (bad input, a path outside the workspace). */
  isError: boolean;
}

/** `mtime` (glob only): newest first, as agent hosts show files. */
export type SortOrder = 'path' | 'relevance' | 'mtime';

/** The page size when the model gives no `limit`. */
export const DEFAULT_LIMIT = 100;
/** Whatever the model asks, a page holds at most this many lines. */
export const MAX_LIMIT = 500;
/** grep's context lines on each side of a hit: at most this many (a page must stay readable). */
export const MAX_CONTEXT_LINES = 20;
/** `ToolContext.countCap` when the host gives none. */
export const DEFAULT_COUNT_CAP = 1000;
/** `ToolContext.timeBudgetMs` when the host gives none, in milliseconds. */
export const DEFAULT_TIME_BUDGET_MS = 10_000;
/** `ToolContext.exclude` when the host gives none: reported as policy in every answer. */
export const DEFAULT_EXCLUDE: readonly string[] = ['.git/', 'node_modules/'];

/** One workspace root. */
export interface Workspace {
  root: string;
  /** `root` ending in one separator: a path relative to it has the native form `prefix + rel` (paths.ts). */
  prefix: string;
  /** The context's `root`: answers show paths relative to it. Paths under the other roots are shown absolute. */
  primary: boolean;
}

/** The context, checked and filled in. */
export interface Settings {
  workspaceRoot: string;
  /** `workspaceRoot` ending in one separator: a workspace-relative path's native form is `workspacePrefix + rel` (paths.ts). */
  workspacePrefix: string;
  /** Every workspace root, the primary (`workspaceRoot`) first, each once. */
  workspaces: Workspace[];
  platform: Platform;
  sep: Separator;
  fs: FsLike;
  /** True when the host gave an fs: the search must read through it. */
  fsInjected: boolean;
  clock: Clock | undefined;
  timeBudgetMs: number;
  maxDepth: number | undefined;
  exclude: string[];
  backend: BackendOption;
  countCap: number;
  maxLimit: number;
  /** The context's `findFiles`, or the library's. */
  findFiles: (options: FindOptions) => Promise<FindResult>;
  ctx: ToolContext;
}

/**
 * Checks the host's context, every field, before any I/O. A bad context is a bug in the host, not
 * something the model can fix, so it throws instead of answering: a `FindFileError` with the code
 * `findFiles` gives the same value (`option` names the context's field), so a host handles both
 * the same way.
 */
export function readContext(given: ToolContext): Settings {
  if (typeof given !== 'object' || given === null) throw new FindFileError('FF_INVALID_OPTION', `the tool context must be an object with a root, got ${describe(given)}`);
  checkOptionNames(given, CONTEXT_KEYS);
  // Own properties only, copied once: a setting on Object.prototype (or on any prototype of the
  // host's object) is not a setting, and everything later reads this copy.
  const ctx = ownContext(given);
  const platform = readChoice(ctx.platform, 'platform', PLATFORMS, runningPlatform);
  const sep = platform === 'win32' ? '\\' : '/';
  const workspaceRoot = readWorkspaceRoot(ctx.root, platform, 'root');
  const workspaces = readWorkspaces(workspaceRoot, ctx.roots, platform, sep);
  const fs = readFs(ctx.fs);
  checkHostHooks(ctx, platform);
  return {
    workspaceRoot,
    workspacePrefix: workspaces[0]!.prefix,
    workspaces,
    platform,
    sep,
    fs,
    fsInjected: ctx.fs !== undefined,
    clock: ctx.clock ?? undefined,
    timeBudgetMs: ctx.timeBudgetMs === undefined ? DEFAULT_TIME_BUDGET_MS : readLimit(ctx.timeBudgetMs, 'timeBudgetMs'),
    maxDepth: ctx.maxDepth === undefined ? undefined : readLimit(ctx.maxDepth, 'maxDepth'),
    exclude: readExclude(ctx.exclude, platform),
    backend: readBackend(ctx.backend, ctx.fs !== undefined),
    countCap: readCountCap(ctx.countCap),
    maxLimit: readMaxLimit(ctx.maxLimit),
    findFiles: ctx.findFiles ?? findFiles,
    ctx,
  };
}

const PLATFORMS: readonly Platform[] = ['posix', 'win32'];

// A record, so a new ToolContext field does not compile until it is copied (and checked) too.
const CONTEXT_FIELDS: Record<keyof ToolContext, true> = {
  root: true, roots: true, fs: true, clock: true, timeBudgetMs: true, maxDepth: true, exclude: true, backend: true,
  runner: true, rgPath: true, env: true, platform: true, signal: true, countCap: true, maxLimit: true, onDirectory: true,
  findFiles: true,
};
const CONTEXT_KEYS = Object.keys(CONTEXT_FIELDS) as (keyof ToolContext)[];

/** True for the name of a `ToolContext` field (`exclude[2]` names `exclude`). */
export function isContextField(option: string): boolean {
  return Object.hasOwn(CONTEXT_FIELDS, option.replace(/\[\d+\]$/, ''));
}

/** The context's own settings; a key it does not own is absent, whatever its prototypes hold. */
function ownContext(given: ToolContext): ToolContext {
  const own: Partial<Record<keyof ToolContext, unknown>> = {};
  for (const key of CONTEXT_KEYS) own[key] = Object.hasOwn(given, key) ? given[key] : undefined;
  return own as ToolContext;
}

/** The root as `findFiles` reads it, and absolute: a relative root would mean "wherever the host's cwd is". */
function readWorkspaceRoot(root: unknown, platform: Platform, option: string): string {
  const paths = platform === 'win32' ? path.win32 : path.posix;
  // `root` as findFiles reads it (its codes and words); another root with the same checks, named as itself.
  if (option === 'root') readRoot(root, platform);
  else if (typeof root !== 'string' || root === '' || root.includes('\0')) throw new FindFileError('FF_INVALID_ROOT', `${option} must be a non-empty string without NUL, got ${describe(root)}`, option);
  if (!paths.isAbsolute(root as string)) throw new FindFileError('FF_INVALID_ROOT', `${option} must be an absolute path (${option === 'root' ? 'the workspace root' : 'a workspace root'}), got ${describe(root)}`, option);
  return paths.resolve(root as string);
}

/** The primary root, then each of `roots` not already listed (a root given twice is one root). */
function readWorkspaces(primary: string, roots: unknown, platform: Platform, sep: Separator): Workspace[] {
  if (roots !== undefined && !Array.isArray(roots)) throw invalid('roots', 'an array of absolute paths', roots);
  const all = [primary, ...((roots as unknown[] | undefined) ?? []).map((root, i) => readWorkspaceRoot(root, platform, `roots[${i}]`))];
  const same = platform === 'win32' ? (a: string, b: string) => a.toLowerCase() === b.toLowerCase() : (a: string, b: string) => a === b;
  const unique = all.filter((root, i) => all.findIndex((other) => same(other, root)) === i);
  return unique.map((root, i) => ({ root, prefix: withSeparator(root, sep), primary: i === 0 }));
}

/** The settings handed to the search as they are: checked here with the library's own readers, so none reaches the model as a search error. */
function checkHostHooks(ctx: ToolContext, platform: Platform): void {
  checkClockShape(ctx.clock);
  checkSignal(ctx.signal);
  readFunction(ctx.runner, 'runner');
  checkAbsolutePath(ctx.rgPath, 'rgPath', RG_PATH, platform);
  readEnv(ctx.env);
  readFunction(ctx.onDirectory, 'onDirectory');
  readFunction(ctx.findFiles, 'findFiles');
}

function readExclude(exclude: unknown, platform: Platform): string[] {
  if (exclude === undefined) return [...DEFAULT_EXCLUDE];
  // An array, as the type says: the library would also take one string, but `[...'abc']` is three globs.
  if (!Array.isArray(exclude) || exclude.some((glob) => typeof glob !== 'string')) throw invalid('exclude', 'an array of globs', exclude);
  // Each glob checked as the search will check it (a negation, `..`), before any I/O; case does not change what is valid.
  normalizePatternList(exclude, { platform, caseSensitive: true }, 'exclude', true);
  return [...(exclude as string[])];
}

function readBackend(backend: unknown, fsInjected: boolean): BackendOption {
  const chosen = readChoice(backend, 'backend', BACKEND_OPTIONS, 'walker');
  checkBackendFs(chosen, fsInjected);
  return chosen;
}

function readCountCap(countCap: unknown): number {
  if (countCap === undefined) return DEFAULT_COUNT_CAP;
  const cap = readLimit(countCap, 'countCap');
  // Above every page, so a cut page can say how many there were.
  if (cap <= MAX_LIMIT) throw new FindFileError('FF_INVALID_LIMIT', `countCap must be above ${MAX_LIMIT} (the largest limit), got ${cap}`, 'countCap');
  return cap;
}

function readMaxLimit(maxLimit: unknown): number {
  if (maxLimit === undefined) return MAX_LIMIT;
  const cap = readLimit(maxLimit, 'maxLimit');
  if (cap < 1 || cap > MAX_LIMIT) throw new FindFileError('FF_INVALID_LIMIT', `maxLimit must be between 1 and ${MAX_LIMIT}, got ${cap}`, 'maxLimit');
  return cap;
}

function invalid(option: keyof ToolContext, what: string, value: unknown): FindFileError {
  return new FindFileError('FF_INVALID_OPTION', `${option} must be ${what}, got ${describe(value)}`, option);
}

/**
 * The search options every tool call takes from the context, for a search of `scope.root` (native,
 * inside `scope.workspace`); `gitignore`: the call applies ignore files (`ToolCall.ignoreFiles`).
 */
export function searchOptions(settings: Settings, scope: { root: string; workspace: Workspace }, gitignore: boolean) {
  const { ctx } = settings;
  const env = settings.workspaces.length > 1 ? pathOutside(settings, ctx.env ?? process.env) : ctx.env;
  return {
    root: scope.root,
    gitignore,
    platform: settings.platform,
    timeBudgetMs: settings.timeBudgetMs,
    exclude: settings.exclude,
    backend: settings.backend,
    // ripgrep is never run from inside the workspace (a planted node_modules/.bin/rg).
    workspace: scope.workspace.root,
    ...(settings.fsInjected ? { fs: settings.fs } : {}),
    ...(settings.clock === undefined ? {} : { clock: settings.clock }),
    ...(settings.maxDepth === undefined ? {} : { maxDepth: settings.maxDepth }),
    ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
    ...(ctx.runner === undefined ? {} : { runner: ctx.runner }),
    ...(ctx.rgPath === undefined ? {} : { rgPath: ctx.rgPath }),
    ...(env === undefined ? {} : { env }),
    ...(ctx.onDirectory === undefined ? {} : { onDirectory: ctx.onDirectory }),
  };
}

/**
 * The environment with no PATH entry inside any workspace root: the library keeps ripgrep out of
 * the searched workspace (comparing real paths too); this keeps it out of the other roots, as
 * written. (A PATH entry that is a link into another root is not caught here.)
 */
function pathOutside(settings: Settings, env: Env): Env {
  const paths = settings.platform === 'win32' ? path.win32 : path.posix;
  const inRoot = buildInsideCheck(settings.workspaces.map((w) => w.root), settings.platform);
  const inside = (dir: string) => inRoot(paths.resolve(dir));
  const out: Record<string, string | undefined> = { ...env };
  for (const key of Object.keys(out)) {
    // Windows names it Path (any case): every spelling is filtered.
    if (key.toUpperCase() !== 'PATH' || typeof out[key] !== 'string') continue;
    out[key] = out[key]!.split(paths.delimiter).filter((dir) => dir === '' || !paths.isAbsolute(dir) || !inside(dir)).join(paths.delimiter);
  }
  return out;
}

/** The page size: the model's `limit`, or the default, never above the host's `maxLimit`. */
export function pageSize(requested: number | undefined, maxLimit = MAX_LIMIT): { limit: number; capped: boolean } {
  if (requested === undefined) return { limit: Math.min(DEFAULT_LIMIT, maxLimit), capped: false };
  return requested > maxLimit ? { limit: maxLimit, capped: true } : { limit: requested, capped: false };
}
