/**
 * grepTool: find lines of text, answered as `path:line:column: text` with the same fixed wording
 * as globTool (text.ts). The search counts up to the context's `countCap` hits, so a cut page says
 * how many there were.
 *
 * When the first search was complete and found nothing, two more searches run (each with the same
 * budget) and the answer says what they found: the query ignoring case (when the first search
 * respected case), and the query's longest word as a file-name glob, `**\/*<word>*`. After an
 * incomplete search they do not run: its "nothing" is not an answer to improve on, and the next
 * step is to make the search complete.
 */
import { searchContent } from '../content/search.js';
import { readQuery } from '../content/query.js';
import type { ContentHit, ContentOptions, ContentResult } from '../content/types.js';
import { FindFileError } from '../errors.js';
import { findFiles } from '../find.js';
import { contextOptions, errorAnswer, gapsOf, policyOf, refusalAnswer, searchErrorAnswer, statSizes, totalOf, workspacePath, type ErrorMetadata } from './answer.js';
import { pageSize, readContext, type Settings, type SortOrder, type ToolContext, type ToolResult } from './context.js';
import { buildOverview } from './guidance.js';
import { resolveScope, type Scope } from './paths.js';
import { refinePage, relevanceOrder, wordsOf } from './rank.js';
import { GREP_INPUT_SCHEMA, validate } from './schema.js';
import { cutLinesNote, grepScope, invalidInputText, isTruncated, noMatchesHeadline, renderAnswer, summaryLine, type Policy, type Total } from './text.js';
import { NAMES_NOT_TRIED, attemptNames, attemptQuery, overviewLine, triedLines, type Attempt, type Overview } from './text-guidance.js';

export interface GrepInput {
  /** The text to find; literal unless `regex`. */
  query: string;
  /** A glob: only files whose path matches it are searched. @default every file */
  include?: string;
  /** The directory to search, relative to the workspace root. @default the workspace root */
  path?: string;
  /** @default 100, at most 500 */
  limit?: number;
  /** @default false */
  regex?: boolean;
  /** @default 'path' */
  sort?: SortOrder;
}

export interface GrepMetadata {
  tool: 'grep';
  workspaceRoot: string;
  searchRoot: string;
  query: string;
  include?: string;
  regex: boolean;
  /** The page: the hits `content` lists, paths workspace-relative with `/`. */
  hits: ContentHit[];
  returned: number;
  total: Total;
  truncated: boolean;
  complete: boolean;
  limit: number;
  limitRequested?: number;
  sort: SortOrder;
  policy: Policy;
  /** The search's whole result; its paths are relative to `searchRoot`. */
  result: ContentResult;
  guidance?: { overview: Overview; tried?: Attempt[] };
}

export type GrepToolResult = ToolResult<GrepMetadata> | ToolResult<ErrorMetadata & { tool: 'grep' }>;

/** Each hit's text is cut here (a minified file's one line must not flood the context). */
export const GREP_MAX_LINE_CHARS = 500;
/** The content search's cap on the bytes of hits kept; reaching it is the `output-limit` gap. */
export const GREP_MAX_OUTPUT_BYTES = 1024 * 1024;
/** The retries after an empty answer count this far, and show this many examples. */
const RETRY_CAP = 20;
const EXAMPLES = 3;

export async function grepTool(input: unknown, ctx: ToolContext): Promise<GrepToolResult> {
  const settings = readContext(ctx);
  const problems = validate(GREP_INPUT_SCHEMA, input);
  if (problems.length > 0) return errorAnswer('grep', settings, 'invalid-input', invalidInputText('grep', problems));
  const { query, include, path, limit: asked, regex = false, sort = 'path' } = input as GrepInput;
  const { limit, capped } = pageSize(asked);
  const scope = await resolveScope(settings, path);
  if (!scope.ok) return refusalAnswer('grep', settings, scope);

  const base = contentOptions(settings, scope, query, regex, include);
  let result: ContentResult;
  try {
    result = await searchContent({ ...base, maxResults: settings.countCap });
  } catch (error) {
    return searchErrorAnswer('grep', settings, scope.root, error);
  }

  const toWorkspace = workspacePath(scope);
  const found = result.hits.map((h) => ({ ...h, path: toWorkspace(h.path) }));
  const page = sort === 'relevance' ? await relevantPage(settings, found, query, limit) : found.slice(0, limit);
  const total = totalOf(result.hitCount, result.complete, result.incompleteReasons);
  const policy = policyOf(settings, result);

  let guidance: GrepMetadata['guidance'];
  if (page.length === 0) {
    const overview = await buildOverview(settings.fs, scope.root, scope.root);
    const tried = result.complete ? await retry(settings, scope, base, query, regex) : undefined;
    guidance = { overview, ...(tried === undefined ? {} : { tried }) };
  }
  const content = renderAnswer({
    tool: 'grep',
    emptyHeadline: noMatchesHeadline(query, scope.root, include, regex),
    scope: grepScope(query, scope.root, include, regex),
    lines: page.map((h) => `${h.path}:${h.line}:${h.column}: ${h.text}${h.textTruncated ? '…' : ''}`),
    total,
    complete: result.complete,
    gaps: gapsOf(settings, result.incompleteReasons, result.skipped, toWorkspace, GREP_MAX_OUTPUT_BYTES),
    policy,
    limit,
    ...(capped ? { limitRequested: asked! } : {}),
    notes: page.some((h) => h.textTruncated) ? [cutLinesNote(GREP_MAX_LINE_CHARS)] : [],
    ...(guidance === undefined ? {} : { guidance: [...(guidance.tried === undefined ? [] : triedLines(guidance.tried)), overviewLine(guidance.overview)] }),
  });
  return {
    summary: summaryLine('match', `for ${JSON.stringify(query)}`, page.length, total, result.complete, result.incompleteReasons),
    content,
    metadata: {
      tool: 'grep',
      workspaceRoot: settings.workspaceRoot,
      searchRoot: scope.root,
      query,
      ...(include === undefined ? {} : { include }),
      regex,
      hits: page,
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

function contentOptions(settings: Settings, scope: Scope, query: string, regex: boolean, include: string | undefined): ContentOptions {
  return {
    ...contextOptions(settings),
    root: scope.root,
    query,
    mode: regex ? 'regex' : 'literal',
    caseSensitive: 'smart',
    maxLineChars: GREP_MAX_LINE_CHARS,
    maxOutputBytes: GREP_MAX_OUTPUT_BYTES,
    ...(include === undefined ? {} : { pattern: include }),
    ...(settings.fsInjected ? { fs: settings.fs } : {}),
  };
}

/**
 * Files ranked (rank.ts, plus a point per hit up to 5), then hits taken file by file, in line
 * order, until the page is full. Sizes are read for the page's files only.
 */
async function relevantPage(settings: Settings, hits: readonly ContentHit[], query: string, limit: number): Promise<ContentHit[]> {
  const byFile = new Map<string, ContentHit[]>();
  for (const h of hits) {
    const list = byFile.get(h.path);
    if (list === undefined) byFile.set(h.path, [h]);
    else list.push(h);
  }
  const words = wordsOf(query);
  const bonus = (p: string) => Math.min(byFile.get(p)!.length, 5);
  const taken = new Map<string, number>();
  let room = limit;
  for (const file of relevanceOrder([...byFile.keys()], words, bonus)) {
    if (room === 0) break;
    const n = Math.min(room, byFile.get(file)!.length);
    taken.set(file, n);
    room -= n;
  }
  const files = [...taken.keys()];
  const order = refinePage(files, words, await statSizes(settings, files), bonus);
  return order.flatMap((f) => byFile.get(f)!.slice(0, taken.get(f)));
}

/** The searches after a complete, empty answer, and the first search itself, as "Tried:" lines. */
async function retry(settings: Settings, scope: Scope, base: ContentOptions, query: string, regex: boolean): Promise<Attempt[]> {
  const toWorkspace = workspacePath(scope);
  const keptCase = !readQuery({ query, mode: base.mode, caseSensitive: 'smart' }, false).ignoreCase;
  const attempts: Attempt[] = [{ what: attemptQuery(query, regex, keptCase ? 'exact' : 'smart-ignore'), total: { count: 0, kind: 'exact' }, unit: 'match' }];
  if (keptCase) {
    const what = attemptQuery(query, regex, 'ignore');
    try {
      const r = await searchContent({ ...base, caseSensitive: false, maxResults: RETRY_CAP });
      attempts.push({
        what,
        total: totalOf(r.hitCount, r.complete, r.incompleteReasons),
        complete: r.complete,
        reasons: r.incompleteReasons,
        examples: r.hits.slice(0, EXAMPLES).map((h) => `${toWorkspace(h.path)}:${h.line}:${h.column}`),
        unit: 'match',
      });
    } catch (error) {
      attempts.push({ what, notTried: failure(error), unit: 'match' });
    }
  }
  const word = regex ? undefined : longestWord(query);
  if (word === undefined) {
    attempts.push({ what: 'file names', notTried: regex ? NAMES_NOT_TRIED.regex : NAMES_NOT_TRIED.noWord, unit: 'file' });
    return attempts;
  }
  const glob = `**/*${word}*`;
  try {
    const r = await findFiles({
      ...contextOptions(settings),
      root: scope.root,
      pattern: glob,
      maxResults: RETRY_CAP,
      ...(settings.fsInjected ? { fs: settings.fs } : {}),
    });
    attempts.push({
      what: attemptNames(glob),
      total: totalOf(r.matchedCount, r.complete, r.incompleteReasons),
      complete: r.complete,
      reasons: r.incompleteReasons,
      examples: r.matches.slice(0, EXAMPLES).map(toWorkspace),
      unit: 'file',
    });
  } catch (error) {
    attempts.push({ what: attemptNames(glob), notTried: failure(error), unit: 'file' });
  }
  return attempts;
}

/** The longest run of glob-safe name characters, 3 or more long: the part of a query a file name may hold. */
export function longestWord(query: string): string | undefined {
  let best: string | undefined;
  for (const run of query.match(/[A-Za-z0-9_.-]+/g) ?? []) if (run.length >= 3 && (best === undefined || run.length > best.length)) best = run;
  return best;
}

function failure(error: unknown): string {
  if (error instanceof FindFileError) return `it could not run: ${error.message}`;
  throw error;
}
