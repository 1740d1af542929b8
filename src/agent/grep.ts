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
import type { Deadline } from '../limits.js';
import { shownUpTo, type ShownSoFar } from '../content/hits.js';
import { searchContent } from '../content/search.js';
import { readQuery } from '../content/query.js';
import type { ContentHit, ContentOptions, ContentResult } from '../content/types.js';
import { buildCloser, openListedFile, readChunk } from '../content/file-io.js';
import { READ_CHUNK_BYTES } from '../content/scanner.js';
import { FindFileError } from '../errors.js';
import { canReadFiles } from '../fs.js';
import { exactGlob } from '../patterns.js';
import { droppedBy, statSizes, totalOf, type ErrorMetadata } from './answer.js';
import { MAX_CONTEXT_LINES, searchOptions, type Settings, type SortOrder, type ToolContext, type ToolResult } from './context.js';
import { buildOverview } from './guidance.js';
import { workspaceNative } from './paths.js';
import { refinePage, relevanceOrder, wordsOf } from './rank.js';
import { GREP_INPUT_SCHEMA } from './schema.js';
import { contextCappedNote, contextNotShownNote, countLine, cutLinesNote, partialCountNote, perFileCapNote, grepScope, hitLine, hitPlace, hitRows, includeText, noMatchesHeadline } from './text.js';
import { LISTED_PATHS, count, listedPaths, quote } from './text-words.js';
import { unreadFileText, type UnreadCause } from './text-reasons.js';
import { NAMES_NOT_TRIED, attemptNames, attemptQuery, couldNotRunText, overviewLine, triedLines, type Attempt, type Overview } from './text-guidance.js';
import { answerCall, type ResultMetadata, type ToolCall, type ToolDefinition } from './tool.js';

/** What the model sends to `grepTool`, as `GREP_INPUT_SCHEMA` states it; checked against it on every call. */
export interface GrepInput {
  /** The text to find; literal unless `regex`. */
  query: string;
  /** A glob: only files whose path matches it are searched. @default every file */
  include?: string;
  /** The directory to search, relative to the workspace root. @default the workspace root */
  path?: string;
  /** Results on the page (lines, or files); above `ToolContext.maxLimit` it is capped and the answer says so. @default 100 (`DEFAULT_LIMIT`) */
  limit?: number;
  /** Read `query` as a regex (ripgrep's syntax). @default false */
  regex?: boolean;
  /** true: with case; false: ignoring it. @default smart: ignore case unless the query holds a capital letter */
  case_sensitive?: boolean;
  /** Leave out what ignore files ignore. @default true */
  respect_git_ignore?: boolean;
  /** The page's order: `path` or `relevance` (`mtime` is glob's only). @default 'path' */
  sort?: SortOrder;
  /** What the page lists: the lines, each file once, or each file with its count. @default 'content' */
  output_mode?: OutputMode;
  /** At most this many matching lines listed per file; the rest are counted, not listed. @default no cap */
  max_matches_per_file?: number;
  /** Lines before and after each hit (`rg -C`); `before` and `after` override it on their side. @default 0, at most `MAX_CONTEXT_LINES` */
  context?: number;
  /** Lines before each hit (`rg -B`), overriding `context` on that side. @default `context` */
  before?: number;
  /** Lines after each hit (`rg -A`), overriding `context` on that side. @default `context` */
  after?: number;
}

/** A file and its number of matching lines; `atLeast` when the search stopped inside it (a lower bound). */
export interface FileCount {
  /** Workspace-relative with `/`. */
  path: string;
  /** Matching lines the search counted in it. */
  count: number;
  /** Present when the search stopped inside this file, or read it only to its first hit (`files_with_matches`): `count` is a lower bound. */
  atLeast?: true;
}

/** What a page lists: the lines, each file once, or each file with its count. */
export type OutputMode = 'content' | 'files_with_matches' | 'count';

/** What an empty page adds to help the next call: facts only, the same as the text says. */
export interface GrepGuidance {
  /** What the search root holds. */
  overview: Overview;
  /** After a complete empty search: the query ignoring case, and its longest word as a file name, with what each found. */
  tried?: Attempt[];
}

/** What the host reads from a grep answer (`result` is the whole `ContentResult`). */
export interface GrepMetadata extends ResultMetadata<'grep', ContentResult, GrepGuidance> {
  /** The query as the model sent it. */
  query: string;
  /** The model's `include` glob; absent without one, or when `path` named one file. */
  include?: string;
  /** Whether the query was read as a regex. */
  regex: boolean;
  /** The page: the hits `content` lists, paths workspace-relative with `/` (empty unless `outputMode` is `content`). */
  hits: ContentHit[];
  /** What the page lists (`output_mode`). */
  outputMode: OutputMode;
  /** `files_with_matches` and `count`: the page's files, with their numbers of matching lines (those the search counted). */
  files?: FileCount[];
}

/** A grep answer: with results (`isError: false`, `GrepMetadata`) or refused (`isError: true`, `ErrorMetadata`). */
export type GrepToolResult = ToolResult<GrepMetadata> | ToolResult<ErrorMetadata & {
  /** Which tool answered. */
  tool: 'grep';
}>;

/** Each hit's text is cut here (a minified file's one line must not flood the context). */
export const GREP_MAX_LINE_CHARS = 500;
/** The content search's cap on the bytes of hits kept; reaching it is the `output-limit` gap. */
export const GREP_MAX_OUTPUT_BYTES = 1024 * 1024;
/** The retries after an empty answer count this far, and show this many examples. */
const RETRY_CAP = 20;
const EXAMPLES = 3;

/**
 * The grep tool: finds lines of text under the workspace and answers `path:line:column: text` in
 * text a model cannot misread: a complete empty answer says the text is not there, an incomplete
 * one says what was not searched and never claims absence. `input` comes from the model (checked
 * against `GREP_INPUT_SCHEMA`); `ctx` from the host (trusted).
 * @throws {FindFileError} Only for a bad `ctx`, the host's bug, before any I/O: `FF_UNKNOWN_OPTION`,
 * `FF_INVALID_OPTION`, `FF_INVALID_LIMIT`, `FF_INVALID_ROOT`, `FF_MISSING_OPTION` (no `root`),
 * `FF_INVALID_PATTERN` (an `exclude` glob), `option` naming the field. What the model sends (bad
 * input, a path outside the workspace, a search error) is answered with `isError: true`, never thrown.
 * @example
 * const answer = await grepTool({ query: 'LoginService', include: '*.ts' }, { root: '/home/me/project' });
 * // answer.content: the text for the model. answer.metadata.complete: whether an empty page proves absence.
 */
export function grepTool(input: unknown, ctx: ToolContext): Promise<GrepToolResult> {
  return answerCall(GREP, input, ctx);
}

const GREP: ToolDefinition<'grep', GrepInput, ContentResult, Pick<GrepMetadata, 'query' | 'include' | 'regex' | 'hits' | 'outputMode' | 'files'>, GrepGuidance> = {
  tool: 'grep',
  schema: GREP_INPUT_SCHEMA,
  maxOutputBytes: GREP_MAX_OUTPUT_BYTES,
  acceptsFile: true,
  start(call) {
    const { input, settings, scope, toWorkspace, sort, limit } = call;
    const { query, regex = false, output_mode: mode = 'content' } = input;
    // A file as the path: only it is searched, and the answer names it (`include` does not apply).
    const include = scope.file === undefined ? input.include : undefined;
    const where = scope.file === undefined ? scope.root : workspaceNative(settings, toWorkspace(scope.file));
    const base = contentOptions(call);
    const context = contextOf(input, mode);
    return {
      wording: {
        emptyHeadline: noMatchesHeadline(query, where, include, regex),
        scope: grepScope(query, where, include, regex),
        unit: mode === 'content' ? 'match' : 'file',
        subject: `${mode === 'content' ? 'for' : 'with matches for'} ${quote(query)}${includeText(include)}`,
      },
      // Files with matches need a file's first hit only: the rest of it is not read, and the cap
      // counts files (one file of countCap hits no longer hides every other file).
      search: () => searchContent({ ...base, contextBefore: context.before, contextAfter: context.after, maxResults: settings.countCap, ...(mode === 'files_with_matches' ? { maxHitsPerFile: 1 } : {}) }),
      async page(result) {
        const all = result.hits.map((h) => ({ ...h, path: toWorkspace(h.path) }));
        const found = capPerFile(all, input.max_matches_per_file);
        const capNote = found.length < all.length ? [perFileCapNote(input.max_matches_per_file!)] : [];
        if (mode !== 'content') {
          const partial = result.partialFile === undefined ? undefined : toWorkspace(result.partialFile);
          // A count lists no lines: the per-file cap (lines listed) must not cut what it counts
          // (an adversarial run: a file of 3 hits read `a.txt:1`, exact, under max_matches_per_file 1).
          const files = filesPage(mode === 'count' ? all : found, mode, limit, { query, include, regex }, partial);
          const cut = mode === 'count' ? files.metadata.files.filter((f) => f.atLeast) : [];
          return { ...files, notes: [...context.notes, ...cut.map((f) => partialCountNote(f.path, f.count, settings.countCap)), ...specialsNote(result, toWorkspace)] };
        }
        const hits = sort === 'relevance' ? await relevantPage(settings, call.deadline, found, query, limit) : found.slice(0, limit);
        return {
          lines: context.before + context.after > 0 ? rowsWithContext(hits) : hits.map(hitLine),
          counted: result.hitCount,
          metadata: { query, ...(include === undefined ? {} : { include }), regex, hits, outputMode: mode },
          notes: [...context.notes, ...capNote, ...(hits.some(hasCutLine) ? [cutLinesNote(GREP_MAX_LINE_CHARS)] : []), ...specialsNote(result, toWorkspace)],
        };
      },
      ...(scope.file === undefined ? {} : { unread: async (result: ContentResult) => unreadAnswer(call, result) }),
      async guide(result) {
        const overview = await buildOverview(settings.fs, scope.root, scope.root);
        // After an incomplete search, "nothing" is not an answer to improve on: it must be completed first.
        if (!result.complete) return { facts: { overview }, lines: [overviewLine(overview)] };
        const tried = await retry(call, base);
        return { facts: { overview, tried }, lines: [...triedLines(tried), overviewLine(overview)] };
      },
    };
  },
};

/**
 * When `path` named one file and the search did not read it, why (text-reasons.ts words it).
 * Binary: the walker counts it. Excluded or ignored: the file is not listed by a file search with
 * the same settings, and is listed once the one or the other is lifted (one file: cheap).
 */
async function unreadAnswer(call: ToolCall<GrepInput>, result: ContentResult): Promise<{ content: string; summary: string } | undefined> {
  const { settings, scope, ignoreFiles, toWorkspace, input } = call;
  const causes: UnreadCause[] = await droppedBy(settings, scope, `./${exactGlob(scope.file!, settings.platform, true)!}`, ignoreFiles);
  if (causes.length > 0) return unreadFileText(causes, toWorkspace(scope.file!), input.query);
  // ripgrep leaves a binary file without a word (binaryCounted false): the file's head says.
  const native = workspaceNative(settings, toWorkspace(scope.file!));
  if (result.binarySkipped > 0 || (!result.binaryCounted && (await startsBinary(settings, native)))) causes.push('binary');
  return causes.length === 0 ? undefined : unreadFileText(causes, toWorkspace(scope.file!), input.query);
}

/** A NUL byte in the file's first 64 KiB, read once: the walker's own test for a binary file (it then searches none of it). */
async function startsBinary(settings: Settings, native: string): Promise<boolean> {
  if (!canReadFiles(settings.fs)) return false;
  const opened = await openListedFile(settings.fs, native, () => false);
  if (!opened.ok) return false;
  try {
    const head = new Uint8Array(READ_CHUNK_BYTES);
    const read = await readChunk(settings.fs, opened.fd, head, 0);
    return read.ok && head.subarray(0, read.bytes).includes(0);
  } finally {
    buildCloser(settings.fs)(opened.fd);
  }
}

/** The FIFOs, sockets and devices the file pattern matched: never opened, so never searched, and said so. */
function specialsNote(result: Pick<ContentResult, 'specialMatches' | 'specialMatchedCount'>, toWorkspace: (rel: string) => string): string[] {
  const n = result.specialMatchedCount;
  if (n === 0) return [];
  const named = listedPaths(result.specialMatches.slice(0, LISTED_PATHS).map(toWorkspace), n);
  return [`${count(n, 'matching special file was', 'matching special files were')} not searched (a FIFO, socket or device is never opened): ${named}.`];
}

function contentOptions({ input, settings, scope, ignoreFiles }: ToolCall<GrepInput>): ContentOptions {
  const { query, regex = false } = input;
  // A file as the path: its name, escaped and anchored at its directory, is the only pattern (paths.ts made sure it can be escaped).
  const include = scope.file === undefined ? input.include : `./${exactGlob(scope.file, settings.platform, true)!}`;
  return {
    ...searchOptions(settings, scope, ignoreFiles),
    query,
    mode: regex ? 'regex' : 'literal',
    caseSensitive: input.case_sensitive ?? 'smart',
    maxLineChars: GREP_MAX_LINE_CHARS,
    maxOutputBytes: GREP_MAX_OUTPUT_BYTES,
    ...(include === undefined ? {} : { pattern: include }),
  };
}

/** The context lines asked (`before` and `after` override `context`), capped; none for a mode that lists no lines. */
function contextOf(input: GrepInput, mode: OutputMode): { before: number; after: number; notes: string[] } {
  const before = input.before ?? input.context ?? 0;
  const after = input.after ?? input.context ?? 0;
  if (before + after === 0) return { before: 0, after: 0, notes: [] };
  if (mode !== 'content') return { before: 0, after: 0, notes: [contextNotShownNote(mode)] };
  const most = Math.max(before, after);
  const notes = most > MAX_CONTEXT_LINES ? [contextCappedNote(most, MAX_CONTEXT_LINES)] : [];
  return { before: Math.min(before, MAX_CONTEXT_LINES), after: Math.min(after, MAX_CONTEXT_LINES), notes };
}

/** Each hit with its context lines, `--` between groups that do not run on (as rg -C). */
function rowsWithContext(hits: readonly ContentHit[]): string[][] {
  let shown: ShownSoFar | undefined;
  return hits.map((hit) => {
    const rows = hitRows(hit, shown);
    shown = shownUpTo(hit);
    return rows;
  });
}

function hasCutLine(hit: ContentHit): boolean {
  return hit.textTruncated === true || [...(hit.before ?? []), ...(hit.after ?? [])].some((c) => c.textTruncated);
}

/** At most `cap` hits of each file, in order (hits come file by file). */
function capPerFile(hits: ContentHit[], cap: number | undefined): ContentHit[] {
  if (cap === undefined) return hits;
  const seen = new Map<string, number>();
  return hits.filter((h) => {
    const n = (seen.get(h.path) ?? 0) + 1;
    seen.set(h.path, n);
    return n <= cap;
  });
}

/**
 * `files_with_matches` and `count`: each file once, in path order, with how many of its matching
 * lines the search counted. The total counts files; when the search stopped counting hits at its
 * cap, more files may exist, and the total says "more than". The file the search stopped inside
 * (`partial`) may hold more matching lines than counted: its count is `N+`.
 */
function filesPage(hits: readonly ContentHit[], mode: 'files_with_matches' | 'count', limit: number, asked: { query: string; include: string | undefined; regex: boolean }, partial: string | undefined) {
  const counts = new Map<string, number>();
  for (const h of hits) counts.set(h.path, (counts.get(h.path) ?? 0) + 1);
  // files_with_matches read each file to its first hit only: every count is then "at least".
  const files: FileCount[] = [...counts]
    .map(([path, count]): FileCount => (path === partial || mode === 'files_with_matches' ? { path, count, atLeast: true } : { path, count }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const page = files.slice(0, limit);
  return {
    lines: page.map((f) => (mode === 'count' ? countLine(f.path, f.count, f.atLeast) : f.path)),
    counted: files.length,
    metadata: { query: asked.query, ...(asked.include === undefined ? {} : { include: asked.include }), regex: asked.regex, hits: [], outputMode: mode, files: page },
  };
}

/**
 * Files ranked (rank.ts, plus a point per hit up to 5), then hits taken file by file, in line
 * order, until the page is full. Sizes are read for the page's files only.
 */
async function relevantPage(settings: Settings, deadline: Deadline, hits: readonly ContentHit[], query: string, limit: number): Promise<ContentHit[]> {
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
  const order = refinePage(files, words, await statSizes(settings, deadline, files), bonus);
  return order.flatMap((f) => byFile.get(f)!.slice(0, taken.get(f)));
}

/** The searches after a complete, empty answer, and the first search itself, as "Tried:" lines. */
async function retry(call: ToolCall<GrepInput>, base: ContentOptions): Promise<Attempt[]> {
  const { query, regex = false } = call.input;
  const caseSensitive = base.caseSensitive ?? 'smart';
  const keptCase = !readQuery({ query, mode: base.mode, caseSensitive }, false).ignoreCase;
  const asked = keptCase ? 'exact' : caseSensitive === false ? 'ignore' : 'smart-ignore';
  const attempts: Attempt[] = [{ what: attemptQuery(query, regex, asked), total: { count: 0, kind: 'exact' }, unit: 'match' }];
  if (keptCase) attempts.push(await ignoringCase(call, base));
  const word = regex ? undefined : longestWord(query);
  if (word === undefined) attempts.push({ what: attemptNames(), notTried: regex ? NAMES_NOT_TRIED.regex : NAMES_NOT_TRIED.noWord, unit: 'file' });
  else attempts.push(await byName(call, `**/*${word}*`));
  return attempts;
}

/** The query again, ignoring case (only when the first search respected it). */
async function ignoringCase({ input, toWorkspace, deadline }: ToolCall<GrepInput>, base: ContentOptions): Promise<Attempt> {
  const what = attemptQuery(input.query, input.regex ?? false, 'ignore');
  if (deadline.passed()) return { what, notTried: BUDGET_SPENT, unit: 'match' };
  try {
    const r = await searchContent({ ...base, caseSensitive: false, maxResults: RETRY_CAP, timeBudgetMs: Math.floor(deadline.left()) });
    const examples = r.hits.slice(0, EXAMPLES).map((h) => hitPlace(toWorkspace(h.path), h));
    return { what, total: totalOf(r.hitCount, r.complete, r.incompleteReasons), complete: r.complete, reasons: r.incompleteReasons, examples, unit: 'match' };
  } catch (error) {
    return { what, notTried: notRun(error), unit: 'match' };
  }
}

/** Why a retry was not made: the searches before it took the call's whole budget (the retries share it). */
const BUDGET_SPENT = 'the searches before it took the whole time budget';

/** The query's longest word as a file-name glob: the text may be in a name rather than in a file. */
async function byName({ settings, scope, toWorkspace, ignoreFiles, deadline }: ToolCall<GrepInput>, glob: string): Promise<Attempt> {
  const what = attemptNames(glob);
  if (deadline.passed()) return { what, notTried: BUDGET_SPENT, unit: 'file' };
  try {
    const r = await settings.findFiles({ ...searchOptions(settings, scope, ignoreFiles), pattern: glob, maxResults: RETRY_CAP, timeBudgetMs: Math.floor(deadline.left()) });
    const examples = r.matches.slice(0, EXAMPLES).map(toWorkspace);
    return { what, total: totalOf(r.matchedCount, r.complete, r.incompleteReasons), complete: r.complete, reasons: r.incompleteReasons, examples, unit: 'file' };
  } catch (error) {
    return { what, notTried: notRun(error), unit: 'file' };
  }
}

/** The longest run of glob-safe name characters, 3 or more long: the part of a query a file name may hold. */
export function longestWord(query: string): string | undefined {
  let best: string | undefined;
  for (const run of query.match(/[A-Za-z0-9_.-]+/g) ?? []) if (run.length >= 3 && (best === undefined || run.length > best.length)) best = run;
  return best;
}

/** Why a retry was not tried: a `FindFileError`, in words; anything else is a bug and is thrown. */
function notRun(error: unknown): string {
  if (error instanceof FindFileError) return couldNotRunText(error.message);
  throw error;
}
