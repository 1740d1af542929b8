/**
 * globTool: find files by pattern, answered in text a model cannot misread (text.ts).
 *
 * One search counts up to the context's `countCap` matches (above every `limit`), so a cut page can
 * say how many there were; the page is the first `limit` in path order, or by relevance (rank.ts).
 * An empty page gets the overview of the search root and, when the walker answered, the file names
 * it saw that are closest to the pattern (seen.ts).
 */
import type { Deadline } from '../limits.js';
import type { FindResult } from '../result.js';
import { isSpecialKind } from '../plan/select.js';
import { droppedBy, statSizes, type ErrorMetadata } from './answer.js';
import { searchOptions, type Settings, type SortOrder, type ToolContext, type ToolResult } from './context.js';
import { buildMissingFolder, buildOverview, buildSimilarNames, isLiteralPath, kindAt } from './guidance.js';
import { refinePage, relevanceOrder, wordsOf } from './rank.js';
import { GLOB_INPUT_SCHEMA } from './schema.js';
import { collectSeenNames } from './seen.js';
import { globScope, noFilesHeadline, type EntryUnit } from './text.js';
import { existsButLine, listWith, missingFolderLines, overviewLine, similarNamesLine, type Dropped, type MissingFolder, type Overview, type SimilarNames } from './text-guidance.js';
import { nameGlob, quote } from './text-words.js';
import { answerCall, type ResultMetadata, type ToolCall, type ToolDefinition } from './tool.js';

/** What the model sends to `globTool`, as `GLOB_INPUT_SCHEMA` states it; checked against it on every call. */
export interface GlobInput {
  /** A glob over paths relative to the search root. */
  pattern: string;
  /** The directory to search, relative to the workspace root. @default the workspace root */
  path?: string;
  /** Paths on the page; above `ToolContext.maxLimit` it is capped and the answer says so. @default 100 (`DEFAULT_LIMIT`) */
  limit?: number;
  /** The page's order: `path`, `relevance` or `mtime` (newest first). @default 'path' */
  sort?: SortOrder;
  /** Match the pattern with case. @default false on win32, true elsewhere */
  case_sensitive?: boolean;
  /** Leave out what ignore files ignore. @default true */
  respect_git_ignore?: boolean;
  /** What is listed: regular files, directories (by their path), or every entry: symlinks (listed, never followed) and special files (listed, never opened) too. @default 'file' */
  type?: GlobType;
}

export type GlobType = 'file' | 'directory' | 'any';
const UNIT_OF: Record<GlobType, EntryUnit> = { file: 'file', directory: 'directory', any: 'entry' };

/** What an empty page adds to help the next call: facts only, the same as the text says. */
export interface GlobGuidance {
  /** What the search root holds. */
  overview: Overview;
  /** The names seen that are closest to the pattern; the walker only (ripgrep lists no directories). */
  similarNames?: SimilarNames;
  /** The pattern's first literal folder that does not exist, with what the deepest existing one holds. */
  missingFolder?: MissingFolder;
}

/** What the host reads from a glob answer (`result` is the whole `FindResult`). */
export interface GlobMetadata extends ResultMetadata<'glob', FindResult, GlobGuidance> {
  /** The pattern as the model sent it. */
  pattern: string;
  /** The page, workspace-relative with `/`: the paths `content` lists. */
  paths: string[];
}

/** A glob answer: with results (`isError: false`, `GlobMetadata`) or refused (`isError: true`, `ErrorMetadata`). */
export type GlobToolResult = ToolResult<GlobMetadata> | ToolResult<ErrorMetadata & {
  /** Which tool answered. */
  tool: 'glob';
}>;

/**
 * The glob tool: finds files by pattern under the workspace and answers in text a model cannot
 * misread: a complete empty answer says the files do not exist, an incomplete one says what was
 * not read and never claims absence. `input` comes from the model (checked against
 * `GLOB_INPUT_SCHEMA`); `ctx` from the host (trusted).
 * @throws {FindFileError} Only for a bad `ctx`, the host's bug, before any I/O: `FF_UNKNOWN_OPTION`,
 * `FF_INVALID_OPTION`, `FF_INVALID_LIMIT`, `FF_INVALID_ROOT`, `FF_MISSING_OPTION` (no `root`),
 * `FF_INVALID_PATTERN` (an `exclude` glob), `option` naming the field. What the model sends (bad
 * input, a path outside the workspace, a search error) is answered with `isError: true`, never thrown.
 * @example
 * const answer = await globTool({ pattern: '*.test.ts', path: 'src' }, { root: '/home/me/project' });
 * // answer.content: the text for the model. answer.metadata: the same facts for the host.
 */
export function globTool(input: unknown, ctx: ToolContext): Promise<GlobToolResult> {
  return answerCall(GLOB, input, ctx);
}

const GLOB: ToolDefinition<'glob', GlobInput, FindResult, Pick<GlobMetadata, 'pattern' | 'paths'>, GlobGuidance> = {
  tool: 'glob',
  schema: GLOB_INPUT_SCHEMA,
  start(call) {
    const { input, settings, scope, toWorkspace, sort, limit, ignoreFiles } = call;
    const { pattern, case_sensitive: caseSensitive, type = 'file' } = input;
    const unit = UNIT_OF[type];
    const seen = collectSeenNames();
    const hostWatch = settings.ctx.onDirectory;
    return {
      wording: { emptyHeadline: noFilesHeadline(pattern, scope.root, unit), scope: globScope(pattern, scope.root, unit), unit, subject: `matching ${quote(pattern)}` },
      search: () =>
        settings.findFiles({
          ...searchOptions(settings, scope, ignoreFiles),
          pattern,
          ...(caseSensitive === undefined ? {} : { caseSensitive }),
          type,
          // Newest first over the whole tree: the count cap keeps the newest, not the first found.
          ...(sort === 'mtime' ? { sort: 'mtime' as const } : {}),
          // ripgrep has no times and lists regular files only: auto answers with the walker and says so.
          ...((sort === 'mtime' || type !== 'file') && settings.backend === 'ripgrep' ? { backend: 'auto' as const } : {}),
          maxResults: settings.countCap,
          // The names seen feed the guidance; the host may watch the walk too (progress).
          onDirectory: hostWatch === undefined ? seen.onDirectory : (dir, entries) => (seen.onDirectory(dir, entries), hostWatch(dir, entries)),
        }),
      async page(result) {
        const found = result.matches.map(toWorkspace);
        const paths = sort === 'relevance' ? await relevantPaths(settings, call.deadline, found, pattern, limit) : found.slice(0, limit);
        return { lines: paths, counted: result.matchedCount, metadata: { pattern, paths } };
      },
      async guide(result) {
        const overview = await buildOverview(settings.fs, scope.root, scope.root, seen.rootEntries);
        // A folder of the pattern that does not exist pruned the walk: it saw nothing to compare, so
        // the deepest folder that does exist is shown in place of "similar names seen: none".
        const sensitive = caseSensitive ?? settings.platform !== 'win32';
        const missing = await buildMissingFolder(settings.fs, scope.root, scope.root, pattern, sensitive, settings.sep);
        // The paths that exist are shown as the answer's paths are: workspace-relative.
        if (missing !== undefined) {
          // Each is checked against this search's excludes and ignore files: the model uses it verbatim.
          const existingDropped = await Promise.all(missing.existingPaths.map((p, i) => (missing.existingKinds?.[i] === 'file' || isSpecialKind(missing.existingKinds?.[i]) ? droppedOf(call, p) : undefined)));
          const missingFolder = { ...missing, existingPaths: missing.existingPaths.map(toWorkspace), ...(existingDropped.some(Boolean) ? { existingDropped } : {}) };
          return { facts: { overview, missingFolder }, lines: [overviewLine(overview), ...missingFolderLines(missingFolder)] };
        }
        const exists = await existsBut(call, pattern, unit);
        // Only the walker lists directories: after ripgrep's answer the pool is empty, not "nothing resembles".
        const similarNames = result.backend === 'walker' ? buildSimilarNames(pattern, seen, toWorkspace) : undefined;
        if (similarNames === undefined) return { facts: { overview }, lines: [overviewLine(overview), ...exists] };
        return { facts: { overview, similarNames }, lines: [overviewLine(overview), similarNamesLine(similarNames), ...exists] };
      },
    };
  },
};

/**
 * What leaves `rel` (a file or special file, relative to the search root) out of this search, and
 * the call that lists it. The excludes do not apply to a search root itself, so when they drop a
 * folder on its way, a search of the file's own folder lists it, unless its name is excluded.
 */
async function droppedOf(call: ToolCall<GlobInput>, rel: string): Promise<Dropped | undefined> {
  const { settings, scope, ignoreFiles, toWorkspace } = call;
  const causes = await droppedBy(settings, scope, `./${nameGlob(rel, settings.platform)}`, ignoreFiles, 'any');
  if (causes.length === 0) return undefined;
  if (!causes.includes('excluded')) return { causes, findWith: listWith(undefined, settings.platform, true) };
  const cut = rel.lastIndexOf('/');
  if (cut < 0) return { causes };
  const folder = { root: scope.root + settings.sep + rel.slice(0, cut).split('/').join(settings.sep), workspace: scope.workspace };
  const there = await droppedBy(settings, folder, `./${nameGlob(rel.slice(cut + 1), settings.platform)}`, ignoreFiles, 'any');
  if (there.includes('excluded')) return { causes };
  return { causes, findWith: listWith(toWorkspace(rel), settings.platform, there.length > 0) };
}

/** After an empty answer to a plain path that exists: the line that says why it was not listed (text-guidance.ts existsButLine). */
async function existsBut(call: ToolCall<GlobInput>, pattern: string, unit: EntryUnit): Promise<string[]> {
  const { settings, scope, toWorkspace } = call;
  const rel = pattern.replace(/^\.\//, '').replace(/\/+$/, '');
  if (rel === '' || !isLiteralPath(rel)) return [];
  const kind = await kindAt(settings.fs, scope.root + settings.sep + rel.split('/').join(settings.sep));
  if (kind === null || kind === 'symlink') return [];
  const dropped = kind === 'file' || isSpecialKind(kind) ? await droppedOf(call, rel) : undefined;
  const line = existsButLine(toWorkspace(rel), kind, unit, dropped);
  return line === undefined ? [] : [line];
}

/** The page by relevance: the found paths ranked (rank.ts), sizes read for the page's paths only. */
async function relevantPaths(settings: Settings, deadline: Deadline, found: readonly string[], pattern: string, limit: number): Promise<string[]> {
  const words = wordsOf(pattern);
  const top = relevanceOrder(found, words).slice(0, limit);
  return refinePage(top, words, await statSizes(settings, deadline, top));
}
