/**
 * globTool: find files by pattern, answered in text a model cannot misread (text.ts).
 *
 * One search counts up to the context's `countCap` matches (above every `limit`), so a cut page can
 * say how many there were; the page is the first `limit` in path order, or by relevance (rank.ts).
 */
import { findFiles } from '../find.js';
import type { FindResult } from '../result.js';
import { readContext, pageSize, type SortOrder, type ToolContext, type ToolResult } from './context.js';
import { contextOptions, gapsOf, policyOf, refusalAnswer, searchErrorAnswer, statSizes, totalOf, workspacePath, errorAnswer, type ErrorMetadata } from './answer.js';
import { buildOverview, buildSimilarNames } from './guidance.js';
import { resolveScope } from './paths.js';
import { refinePage, relevanceOrder, wordsOf } from './rank.js';
import { GLOB_INPUT_SCHEMA, validate } from './schema.js';
import { collectSeenNames } from './seen.js';
import { globScope, invalidInputText, isTruncated, noFilesHeadline, renderAnswer, summaryLine, type Policy, type Total } from './text.js';
import { overviewLine, similarNamesLine, type Overview, type SimilarNames } from './text-guidance.js';

export interface GlobInput {
  /** A glob over paths relative to the search root. */
  pattern: string;
  /** The directory to search, relative to the workspace root. @default the workspace root */
  path?: string;
  /** @default 100, at most 500 */
  limit?: number;
  /** @default 'path' */
  sort?: SortOrder;
  /** @default false on win32, true elsewhere */
  case_sensitive?: boolean;
}

export interface GlobMetadata {
  tool: 'glob';
  workspaceRoot: string;
  /** The native path searched. */
  searchRoot: string;
  pattern: string;
  /** The page, workspace-relative with `/`: the paths `content` lists. */
  paths: string[];
  returned: number;
  /** How many matches the search counted, and how far that count can be trusted. */
  total: Total;
  truncated: boolean;
  /** The search's own `complete`: true only when every directory it could match into was read. */
  complete: boolean;
  limit: number;
  limitRequested?: number;
  sort: SortOrder;
  policy: Policy;
  /** The search's whole result; its paths are relative to `searchRoot`. */
  result: FindResult;
  guidance?: { overview: Overview; similarNames?: SimilarNames };
}

export type GlobToolResult = ToolResult<GlobMetadata> | ToolResult<ErrorMetadata & { tool: 'glob' }>;

export async function globTool(input: unknown, ctx: ToolContext): Promise<GlobToolResult> {
  const settings = readContext(ctx);
  const problems = validate(GLOB_INPUT_SCHEMA, input);
  if (problems.length > 0) return errorAnswer('glob', settings, 'invalid-input', invalidInputText('glob', problems));
  const { pattern, path, limit: asked, sort = 'path', case_sensitive: caseSensitive } = input as GlobInput;
  const { limit, capped } = pageSize(asked);
  const scope = await resolveScope(settings, path);
  if (!scope.ok) return refusalAnswer('glob', settings, scope);

  const seen = collectSeenNames();
  let result: FindResult;
  try {
    result = await findFiles({
      ...contextOptions(settings),
      root: scope.root,
      pattern,
      ...(caseSensitive === undefined ? {} : { caseSensitive }),
      maxResults: settings.countCap,
      onDirectory: seen.onDirectory,
      ...(settings.fsInjected ? { fs: settings.fs } : {}),
    });
  } catch (error) {
    return searchErrorAnswer('glob', settings, scope.root, error);
  }

  const toWorkspace = workspacePath(scope);
  const found = result.matches.map(toWorkspace);
  let page: string[];
  if (sort === 'relevance') {
    const words = wordsOf(pattern);
    const top = relevanceOrder(found, words).slice(0, limit);
    page = refinePage(top, words, await statSizes(settings, top));
  } else {
    page = found.slice(0, limit);
  }
  const total = totalOf(result.matchedCount, result.complete, result.incompleteReasons);
  const policy = policyOf(settings, result, toWorkspace);

  let guidance: GlobMetadata['guidance'];
  if (page.length === 0) {
    const overview = await buildOverview(settings.fs, scope.root, scope.root, seen.rootEntries);
    // Only the walker lists directories: after ripgrep's answer the pool is empty, not "nothing resembles".
    const similarNames = result.backend === 'walker' ? buildSimilarNames(pattern, seen, toWorkspace) : undefined;
    guidance = { overview, ...(similarNames === undefined ? {} : { similarNames }) };
  }
  const content = renderAnswer({
    tool: 'glob',
    emptyHeadline: noFilesHeadline(pattern, scope.root),
    scope: globScope(pattern, scope.root),
    lines: page,
    total,
    complete: result.complete,
    gaps: gapsOf(settings, result.incompleteReasons, result.skipped, toWorkspace),
    policy,
    limit,
    ...(capped ? { limitRequested: asked! } : {}),
    ...(guidance === undefined
      ? {}
      : { guidance: [overviewLine(guidance.overview), ...(guidance.similarNames === undefined ? [] : [similarNamesLine(guidance.similarNames)])] }),
  });
  return {
    summary: summaryLine('file', `matching ${JSON.stringify(pattern)}`, page.length, total, result.complete, result.incompleteReasons, policy.links),
    content,
    metadata: {
      tool: 'glob',
      workspaceRoot: settings.workspaceRoot,
      searchRoot: scope.root,
      pattern,
      paths: page,
      returned: page.length,
      total,
      truncated: isTruncated(page.length, total),
      complete: result.complete,
      limit,
      ...(capped ? { limitRequested: asked! } : {}),
      sort,
      policy,
      result,
      ...(guidance === undefined ? {} : { guidance }),
    },
    isError: false,
  };
}
