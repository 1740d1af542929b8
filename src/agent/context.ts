/**
 * What the host gives the tools (`ToolContext`: trusted, never from the model) and the settings
 * the tools derive from it once per call. The model controls only the tool input; everything that
 * bounds the cost or the reach of a search (root, budget, depth, excludes) lives here.
 */
import * as path from 'node:path';
import { defaultFs, isFsLike, type FsLike } from '../fs.js';
import { runningPlatform, type BackendOption, type Clock, type Platform } from '../options.js';
import type { Env } from '../rg/resolve.js';
import type { ProcessRunner } from '../rg/runner.js';

/** The host's side of a tool call. */
export interface ToolContext {
  /** The workspace root: an absolute path. Nothing outside it is ever searched. */
  root: string;
  /** A `node:fs`-shaped object (a memfs volume works). @default node:fs */
  fs?: unknown;
  /** @default a monotonic clock */
  clock?: Clock;
  /** Each search stops after this many milliseconds and says so. @default 10000 */
  timeBudgetMs?: number;
  /** How deep each search looks (1: the search root's children only). @default unlimited */
  maxDepth?: number;
  /** Globs left out of every search, reported as policy. @default ['.git/', 'node_modules/'] */
  exclude?: string[];
  /** @default 'walker' */
  backend?: BackendOption;
  runner?: ProcessRunner;
  rgPath?: string;
  env?: Env;
  /** @default the running platform */
  platform?: Platform;
  signal?: AbortSignal;
  /**
   * How many matches a search counts before it stops counting. Above every `limit`, so a cut list
   * can say how many there were: `(truncated: showing 100 of 640)`, or `of more than 1000` when
   * counting stopped. @default 1000
   */
  countCap?: number;
}

/** The answer to a tool call: `content` is what the model reads, `metadata` what the host reads. */
export interface ToolResult<M> {
  /** One line for a UI or a log. */
  summary: string;
  /** The text for the model. */
  content: string;
  metadata: M;
  /** True when the call was refused or could not run (bad input, a path outside the workspace). */
  isError: boolean;
}

export type SortOrder = 'path' | 'relevance';

export const DEFAULT_LIMIT = 100;
/** Whatever the model asks, a page holds at most this many lines. */
export const MAX_LIMIT = 500;
export const DEFAULT_COUNT_CAP = 1000;
export const DEFAULT_TIME_BUDGET_MS = 10_000;
export const DEFAULT_EXCLUDE: readonly string[] = ['.git/', 'node_modules/'];

/** The context, checked and filled in. */
export interface Settings {
  workspaceRoot: string;
  platform: Platform;
  fs: FsLike;
  /** True when the host gave an fs: the search must read through it. */
  fsInjected: boolean;
  clock: Clock | undefined;
  timeBudgetMs: number;
  maxDepth: number | undefined;
  exclude: string[];
  backend: BackendOption;
  countCap: number;
  ctx: ToolContext;
}

/**
 * Checks the host's context. A bad context is a bug in the host, not something the model can fix,
 * so it throws (a `TypeError`) instead of answering.
 */
export function readContext(given: ToolContext): Settings {
  if (typeof given !== 'object' || given === null) throw new TypeError('the tool context must be an object with a root');
  // Own properties only, copied once: a setting on Object.prototype (or on any prototype of the
  // host's object) is not a setting, and everything later reads this copy.
  const ctx = ownContext(given);
  const platform = ctx.platform ?? runningPlatform;
  const paths = platform === 'win32' ? path.win32 : path.posix;
  if (typeof ctx.root !== 'string' || !paths.isAbsolute(ctx.root)) {
    throw new TypeError(`the tool context's root must be an absolute path, got ${JSON.stringify(ctx.root)}`);
  }
  const fs = ctx.fs ?? defaultFs;
  if (!isFsLike(fs)) throw new TypeError('the tool context\'s fs must be shaped like node:fs (readdir, readdirSync, lstat, lstatSync)');
  const countCap = ctx.countCap ?? DEFAULT_COUNT_CAP;
  if (!Number.isInteger(countCap) || countCap <= MAX_LIMIT) {
    throw new TypeError(`the tool context's countCap must be an integer above ${MAX_LIMIT}, got ${String(countCap)}`);
  }
  return {
    workspaceRoot: paths.resolve(ctx.root),
    platform,
    fs,
    fsInjected: ctx.fs !== undefined,
    clock: ctx.clock,
    timeBudgetMs: ctx.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS,
    maxDepth: ctx.maxDepth,
    exclude: [...(ctx.exclude ?? DEFAULT_EXCLUDE)],
    backend: ctx.backend ?? 'walker',
    countCap,
    ctx,
  };
}

// A record, so a new ToolContext field does not compile until it is copied too.
const CONTEXT_FIELDS: Record<keyof ToolContext, true> = {
  root: true, fs: true, clock: true, timeBudgetMs: true, maxDepth: true, exclude: true, backend: true,
  runner: true, rgPath: true, env: true, platform: true, signal: true, countCap: true,
};
const CONTEXT_KEYS = Object.keys(CONTEXT_FIELDS) as (keyof ToolContext)[];

/** The context's own settings; a key it does not own is absent, whatever its prototypes hold. */
function ownContext(given: ToolContext): ToolContext {
  const own: Partial<Record<keyof ToolContext, unknown>> = {};
  for (const key of CONTEXT_KEYS) own[key] = Object.hasOwn(given, key) ? given[key] : undefined;
  return own as ToolContext;
}

/** The page size: the model's `limit`, or the default, never above `MAX_LIMIT`. */
export function pageSize(requested: number | undefined): { limit: number; capped: boolean } {
  if (requested === undefined) return { limit: DEFAULT_LIMIT, capped: false };
  return requested > MAX_LIMIT ? { limit: MAX_LIMIT, capped: true } : { limit: requested, capped: false };
}
