/**
 * The facts between a search and its text, the same for both tools: the count the search can
 * vouch for, the gaps and policy in workspace terms, sizes for the relevance order, and the
 * refusal and error answers.
 */
import { FindFileError } from '../errors.js';
import type { Deadline } from '../limits.js';
import type { SkippedEntry } from '../result.js';
import { errorCodeOf } from '../result.js';
import path from 'node:path';
import { AFTER_SEARCH_GRACE_MS, within } from './bound.js';
import { isContextField, searchOptions, type Settings, type ToolResult } from './context.js';
import { buildOverview } from './guidance.js';
import { displayPath, lstat, workspaceNative, type Refusal, type Scope } from './paths.js';
import { droppedText, type DroppedCause } from './text-reasons.js';
import { nameGlob } from './text-words.js';
import { invalidPatternText, invalidQueryText, refusalText, searchFailedText, type Policy, type Total } from './text.js';
import { overviewLine, type Overview } from './text-guidance.js';
import type { Gaps } from './text-reasons.js';

/**
 * How many matches exist, as far as the search can vouch: exact when it was complete, "more than"
 * when it stopped counting at its cap, "at least" when something else cut it short.
 */
export function totalOf(found: number, complete: boolean, reasons: readonly string[]): Total {
  if (reasons.includes('result-limit')) return { count: found, kind: 'more-than' };
  return { count: found, kind: complete ? 'exact' : 'at-least' };
}

/**
 * Root-relative search paths to the paths answers show (`.`, the search root, becomes its own
 * path): relative to the primary workspace root, absolute under another root (paths.ts displayPath).
 */
export function workspacePath(settings: Settings, scope: Scope): (rel: string) => string {
  const inWorkspace = scope.rel === '' ? (rel: string) => (rel === '.' ? '' : rel) : (rel: string) => (rel === '.' ? scope.rel : `${scope.rel}/${rel}`);
  if (scope.workspace.primary) return scope.rel === '' ? (rel) => rel : inWorkspace;
  return (rel) => displayPath(settings, scope.workspace, inWorkspace(rel));
}

export function gapsOf(settings: Settings, reasons: readonly string[], skipped: readonly SkippedEntry[], toWorkspace: (rel: string) => string, maxOutputBytes?: number): Gaps {
  return {
    reasons,
    skipped: skipped.map((s) => ({ path: toWorkspace(s.path), code: s.code })),
    timeBudgetMs: settings.timeBudgetMs,
    maxDepth: settings.maxDepth,
    countCap: settings.countCap,
    ...(maxOutputBytes === undefined ? {} : { maxOutputBytes }),
  };
}

/** The counts a result gives: a file search's also name its matching symlinks (`FindResult`). */
export interface PolicyCounts {
  excludedCount: number;
  symlinkSkipped: number;
  binarySkipped?: number;
  /** grep: false when ripgrep answered (`binarySkipped` is then a lower bound). */
  binaryCounted?: boolean;
  linkMatches?: readonly string[];
  linkMatchedCount?: number;
  linksExamined?: boolean;
  linksOnTheWay?: readonly string[];
  linkOnTheWayCount?: number;
  ignoredCount: number;
  backend: 'walker' | 'ripgrep';
}

/**
 * What was left out on purpose, in workspace terms. `toWorkspace` turns the result's root-relative
 * link paths into workspace-relative ones; without it they stay relative to the search root (the
 * same thing when the search root is the workspace root).
 */
export function policyOf(settings: Settings, counts: PolicyCounts, toWorkspace: (rel: string) => string = (rel) => rel, ignoreFiles = false): Policy {
  const { excludedCount, symlinkSkipped, binarySkipped, binaryCounted, linkMatches, linkMatchedCount, linksExamined, linksOnTheWay, linkOnTheWayCount } = counts;
  // ripgrep applies the ignore files itself and does not count what they left out.
  const ignored = ignoreFiles ? { count: counts.ignoredCount, counted: counts.backend === 'walker' } : undefined;
  const onTheWay = { paths: (linksOnTheWay ?? []).map(toWorkspace), count: linkOnTheWayCount ?? 0 };
  const links = linksExamined === undefined ? undefined : { paths: (linkMatches ?? []).map(toWorkspace), count: linkMatchedCount ?? 0, examined: linksExamined, onTheWay };
  return {
    exclude: settings.exclude,
    excludedCount,
    symlinkSkipped,
    ...(binarySkipped === undefined ? {} : { binarySkipped, binaryCounted: binaryCounted !== false }),
    ...(links === undefined ? {} : { links }),
    ...(ignored === undefined ? {} : { ignored }),
  };
}

/**
 * Sizes of a page's files (workspace-relative), from one `lstat` each: undefined where the call
 * fails, the fs gives none, or it does not answer within the call's budget and signal (bound.ts:
 * sizes only reorder the page).
 */
export async function statSizes(settings: Settings, deadline: Deadline, paths: readonly string[]): Promise<Map<string, number | undefined>> {
  const sizes = new Map<string, number | undefined>();
  await Promise.all(
    paths.map(async (p) => {
      const { stats } = await within(lstat(settings.fs, workspaceNative(settings, p)), deadline, settings, {}, AFTER_SEARCH_GRACE_MS);
      const size = (stats as { size?: unknown } | undefined)?.size;
      sizes.set(p, typeof size === 'number' ? size : undefined);
    }),
  );
  return sizes;
}

/** What the host reads from a refused answer (`isError: true`): the call did not search, or its search could not run. */
export interface ErrorMetadata {
  /** Why: `code` is stable (`invalid-input`, `path-not-found` and the other `path-*` refusals, or the search's `FF_*` code), `message` the text the model reads. */
  error: {
    /** Stable, for programs to branch on. */
    code: string;
    /** The text the model reads. */
    message: string;
  };
  /** The context's `root`, as checked (native, absolute). */
  workspaceRoot: string;
  /** For a `path` that does not exist: the deepest directory on it that does. */
  overview?: Overview;
}

export function errorAnswer<T extends 'glob' | 'grep'>(tool: T, settings: Settings, code: string, message: string, extra: Partial<ErrorMetadata> = {}): ToolResult<ErrorMetadata & { tool: T }> {
  const content = extra.overview === undefined ? message : `${message}\n${overviewLine(extra.overview, 'The nearest existing directory')}`;
  return {
    summary: `${tool}: ${message.split('\n')[0]}`,
    content,
    metadata: { tool, error: { code, message }, workspaceRoot: settings.workspaceRoot, ...extra },
    isError: true,
  };
}

export async function refusalAnswer<T extends 'glob' | 'grep'>(tool: T, settings: Settings, refusal: Refusal, ignoreFiles = false): Promise<ToolResult<ErrorMetadata & { tool: T }>> {
  const roots = settings.workspaces.map((w) => w.root);
  const message = refusalText(refusal.kind, refusal.input, refusal.at, refusal.workspace.root, roots, settings.platform);
  if (refusal.kind === 'not-directory' || refusal.kind === 'special-file') {
    // The suggested search would not list it when the excludes or ignore files drop it: said, never left to an empty answer.
    const paths = settings.platform === 'win32' ? path.win32 : path.posix;
    const name = paths.basename(refusal.atNative);
    const scope = { root: paths.dirname(refusal.atNative), workspace: refusal.workspace };
    const causes = await droppedBy(settings, scope, `./${nameGlob(name, settings.platform)}`, ignoreFiles, refusal.kind === 'special-file' ? 'any' : 'file');
    return errorAnswer(tool, settings, `path-${refusal.kind}`, causes.length === 0 ? message : `${message} ${droppedText(causes)}`);
  }
  if (refusal.kind !== 'not-found') return errorAnswer(tool, settings, `path-${refusal.kind}`, message);
  // A wrong path deserves the same help as an empty answer: what is there instead.
  const nearest = refusal.atNative;
  const overview = await buildOverview(settings.fs, nearest, nearest);
  return errorAnswer(tool, settings, 'path-not-found', message, { overview });
}

/**
 * What leaves the one entry `pattern` names under `scope.root` out of a search with these
 * settings: the host's excludes, ignore files (both can); [] when such a search lists it. A file
 * search per question, each of one directory: cheap.
 */
export async function droppedBy(settings: Settings, scope: Pick<Scope, 'root' | 'workspace'>, pattern: string, ignoreFiles: boolean, type: 'file' | 'any' = 'file'): Promise<DroppedCause[]> {
  const listed = async (exclude: readonly string[], gitignore: boolean) => {
    const found = await settings.findFiles({ ...searchOptions(settings, scope, gitignore), exclude: [...exclude], pattern, type, maxResults: 1 });
    return !found.complete || found.matchedCount > 0;
  };
  if (await listed(settings.exclude, ignoreFiles)) return [];
  const causes: DroppedCause[] = [];
  if (settings.exclude.length > 0 && !(await listed(settings.exclude, false))) causes.push('excluded');
  if (ignoreFiles && !(await listed([], true))) causes.push('ignored');
  return causes;
}

/**
 * A `FindFileError` (bad pattern, root gone) as an answer the model can act on. Anything else is a
 * bug and is thrown, and so is an error about a setting of the host's (an exclude glob the library
 * refuses, a clock that stopped returning numbers): readContext checks what it can before any I/O,
 * and what only the search can check is still not the model's to fix.
 */
export function searchErrorAnswer<T extends 'glob' | 'grep'>(tool: T, settings: Settings, root: string, error: unknown): ToolResult<ErrorMetadata & { tool: T }> {
  if (!(error instanceof FindFileError) || isHostError(error)) throw error;
  const code: string = error.code;
  const isPattern = code === 'FF_INVALID_PATTERN' || code === 'FF_PATTERN_OUTSIDE_ROOT' || code === 'FF_PATTERN_TOO_LARGE';
  const isQuery = code === 'FF_EMPTY_QUERY' || code === 'FF_QUERY_TOO_LONG' || code === 'FF_INVALID_QUERY';
  const message = isPattern ? invalidPatternText(error.message, root) : isQuery ? invalidQueryText(error.message) : searchFailedText(error.message);
  return errorAnswer(tool, settings, errorCodeOf(error), message);
}

/** The codes of a refused option (not a root that is gone, nor a ripgrep that cannot be found). */
const OPTION_CODES: ReadonlySet<string> = new Set(['FF_MISSING_OPTION', 'FF_UNKNOWN_OPTION', 'FF_INVALID_OPTION', 'FF_INVALID_LIMIT', 'FF_INVALID_PATTERN']);

/** True when the library refused one of the host's settings. */
function isHostError(error: FindFileError): boolean {
  return error.option !== undefined && error.option !== 'root' && isContextField(error.option) && OPTION_CODES.has(error.code);
}
