/**
 * The one answer builder both tools use. Every call runs the same steps, in this order:
 *
 * 1. read the host's context (a bad one throws: the host's bug, not the model's);
 * 2. check the input against the tool's schema (refused: `invalid-input`);
 * 3. the page size, and the scope the model's `path` names (refused: `path-*`, with help);
 * 4. the search (a `FindFileError` is answered: a bad pattern, a root gone);
 * 5. the page, the total the search can vouch for, the policy, and guidance when the page is empty;
 * 6. the text (text.ts) and the `{ summary, content, metadata, isError }` object.
 *
 * A tool says only what is its own (`ToolDefinition`): its schema, how it searches, how its result
 * becomes lines and metadata, and what helps after an empty page.
 */
import { canReadIgnoreFiles } from '../fs.js';
import { Deadline } from '../limits.js';
import { monotonicClock } from '../plan/clock.js';
import type { SkippedEntry } from '../result.js';
import { errorAnswer, gapsOf, policyOf, refusalAnswer, searchErrorAnswer, totalOf, workspacePath, type ErrorMetadata, type PolicyCounts } from './answer.js';
import { AFTER_SEARCH_GRACE_MS, within } from './bound.js';
import { pageSize, readContext, type Settings, type SortOrder, type ToolContext, type ToolResult } from './context.js';
import { resolveScope, type Scope } from './paths.js';
import { validate, type JsonSchema } from './schema.js';
import { invalidInputText, isTruncated, renderAnswer, summaryLine, type Policy, type Row, type Total, type Unit } from './text.js';

export type ToolName = 'glob' | 'grep';

/** One call, once its input is valid and its scope resolved. */
export interface ToolCall<I> {
  input: I;
  settings: Settings;
  scope: Scope;
  /** The result's paths (relative to the search root) as workspace-relative ones. */
  toWorkspace: (rel: string) => string;
  sort: SortOrder;
  /** The page size, capped. */
  limit: number;
  /**
   * Ignore files apply: `respect_git_ignore` (default true), when the host's fs can read them (an
   * fs without `readFile` searches every file, and the answer does not claim otherwise).
   */
  ignoreFiles: boolean;
  /**
   * The call's budget (`timeBudgetMs`), from its start. The searches after an empty answer (grep's
   * retries) take what is left of it: each with a budget of its own, an empty grep took up to three
   * budgets, past a host's timeout set just above one (an adversarial run: 6.7 s for 2.5 s).
   */
  deadline: Deadline;
}

/** What the builder reads of any search's result. */
export interface SearchOutcome extends PolicyCounts {
  backend: 'walker' | 'ripgrep';
  complete: boolean;
  incompleteReasons: readonly string[];
  skipped: readonly SkippedEntry[];
}

/** What a call looks for, in the answer's words. */
export interface CallWording {
  /** The headline of a complete search that found nothing. */
  emptyHeadline: string;
  /** What was looked for and where: `files matching "x" under /w`. */
  scope: string;
  /** The summary's unit, and its words after the count: `matching "*.ts"`. */
  unit: Unit;
  subject: string;
}

/** The page, as its tool has it. */
export interface Page<Own> {
  /** One row of `content` per result, raw (the text escapes them): a line, or a hit's lines with its context. */
  lines: Row[];
  /** How many results the search counted: its `matchedCount` or `hitCount`. */
  counted: number;
  /** The tool's own metadata, after `searchRoot`: what was looked for, and the page. */
  metadata: Own;
  /** Notes after the labels (lines cut at a width). */
  notes?: string[];
}

/** The help after an empty page: its facts for `metadata`, its lines for `content`. */
export interface Guidance<G> {
  facts: G;
  lines: string[];
}

/** One call's own part, set up once its input is valid and its scope resolved. */
export interface ToolRun<R, Own, G> {
  wording: CallWording;
  search(): Promise<R>;
  page(result: R): Promise<Page<Own>>;
  guide(result: R): Promise<Guidance<G>>;
  /**
   * After a complete empty page: when the one file `path` named was not read (grep), the answer in
   * its place, which must never say "no matches".
   */
  unread?(result: R): Promise<{ content: string; summary: string } | undefined>;
}

export interface ToolDefinition<T extends ToolName, I, R extends SearchOutcome, Own, G> {
  tool: T;
  schema: JsonSchema;
  /** The search's cap on bytes of matching text, when it has one: the `output-limit` gap names it. */
  maxOutputBytes?: number;
  /** `path` may name a file (grep): only it is searched. */
  acceptsFile?: boolean;
  start(call: ToolCall<I>): ToolRun<R, Own, G>;
}

/** The metadata of an answer with results; each tool adds its own fields after `searchRoot`. */
export interface ResultMetadata<T extends ToolName, R, G> {
  /** Which tool answered. */
  tool: T;
  /** The context's `root`, as checked (native, absolute). */
  workspaceRoot: string;
  /** The native path searched. */
  searchRoot: string;
  /** Results on the page (lines for grep's `content`, else paths or files). */
  returned: number;
  /** How many results the search counted, and how far that count can be trusted. */
  total: Total;
  /** The page holds fewer results than the search counted (`limit`), or counting stopped at `countCap`. */
  truncated: boolean;
  /** The search's own `complete`: true only when every directory it could match into was read. */
  complete: boolean;
  /** The page size used: the model's `limit` (or `DEFAULT_LIMIT`), capped at `ToolContext.maxLimit`. */
  limit: number;
  /** Present when the model asked for more than `maxLimit`: what it asked for. */
  limitRequested?: number;
  /** The page's order. */
  sort: SortOrder;
  /** What was left out on purpose (excludes, links, ignore files): never a coverage gap. */
  policy: Policy;
  /** The search's whole result; its paths are relative to `searchRoot`. */
  result: R;
  /** Present only when the page is empty: facts to help the next call. */
  guidance?: G;
}

export type ToolAnswer<T extends ToolName, R, Own, G> = ToolResult<ResultMetadata<T, R, G> & Own> | ToolResult<ErrorMetadata & { tool: T }>;

/** Runs one tool call, from the raw input to the answer. */
export async function answerCall<T extends ToolName, I, R extends SearchOutcome, Own, G>(
  definition: ToolDefinition<T, I, R, Own, G>,
  input: unknown,
  ctx: ToolContext,
): Promise<ToolAnswer<T, R, Own, G>> {
  const { tool } = definition;
  const settings = readContext(ctx);
  const deadline = new Deadline(settings.clock ?? monotonicClock, settings.timeBudgetMs);
  const problems = validate(definition.schema, input);
  if (problems.length > 0) return errorAnswer(tool, settings, 'invalid-input', invalidInputText(tool, problems));
  const { path, limit: asked, sort = 'path', respect_git_ignore: respect = true } = input as { path?: string; limit?: number; sort?: SortOrder; respect_git_ignore?: boolean };
  const { limit, capped } = pageSize(asked, settings.maxLimit);
  const scope = await resolveScope(settings, deadline, path, definition.acceptsFile === true);
  const ignoreFiles = respect && canReadIgnoreFiles(settings.fs);
  if (!scope.ok) return refusalAnswer(tool, settings, scope, ignoreFiles);
  const call: ToolCall<I> = { input: input as I, settings, scope, toWorkspace: workspacePath(settings, scope), sort, limit, ignoreFiles, deadline };
  const run = definition.start(call);
  let result: R;
  try {
    result = await run.search();
  } catch (error) {
    return searchErrorAnswer(tool, settings, scope.root, error);
  }
  return resultAnswer(definition, call, run, result, capped ? asked : undefined);
}

async function resultAnswer<T extends ToolName, I, R extends SearchOutcome, Own, G>(
  definition: ToolDefinition<T, I, R, Own, G>,
  call: ToolCall<I>,
  run: ToolRun<R, Own, G>,
  result: R,
  limitRequested: number | undefined,
): Promise<ToolResult<ResultMetadata<T, R, G> & Own>> {
  const { settings, scope, toWorkspace, limit } = call;
  const { complete, incompleteReasons: reasons } = result;
  const page = await run.page(result);
  const returned = page.lines.length;
  const total = totalOf(page.counted, complete, reasons);
  const policy = policyOf(settings, result, toWorkspace, call.ignoreFiles);
  const unread = returned === 0 && complete ? await run.unread?.(result) : undefined;
  // Help, never the answer: bounded as the search is (bound.ts), and none once the call is cancelled.
  const guidance = returned === 0 && unread === undefined ? await within<Guidance<G> | undefined>(run.guide(result), call.deadline, settings, undefined, AFTER_SEARCH_GRACE_MS) : undefined;
  const requested = limitRequested === undefined ? {} : { limitRequested };
  const content = unread?.content ?? renderAnswer({
    tool: definition.tool,
    emptyHeadline: run.wording.emptyHeadline,
    scope: run.wording.scope,
    lines: page.lines,
    total,
    complete,
    gaps: gapsOf(settings, reasons, result.skipped, toWorkspace, definition.maxOutputBytes),
    policy: scope.file === undefined ? policy : fileOnly(policy),
    limit,
    maxLimit: settings.maxLimit,
    ...requested,
    ...(page.notes === undefined ? {} : { notes: page.notes }),
    ...(guidance === undefined ? {} : { guidance: guidance.lines }),
  });
  return {
    summary: unread?.summary ?? summaryLine(run.wording.unit, run.wording.subject, returned, total, complete, reasons, policy.links),
    content,
    metadata: {
      tool: definition.tool,
      workspaceRoot: settings.workspaceRoot,
      searchRoot: scope.root,
      ...page.metadata,
      returned,
      total,
      truncated: isTruncated(returned, total),
      complete,
      limit,
      ...requested,
      sort: call.sort,
      policy,
      result,
      ...(guidance === undefined ? {} : { guidance: guidance.facts }),
    },
    isError: false,
  };
}

/**
 * The policy a one-file search (grep's `path` naming a file) may state: what was left out around
 * the file (its directory's excluded, ignored and linked entries) is not about it, and said after
 * its answer it would read as if it were. Its binary data and matching links stay. `metadata` keeps all.
 */
function fileOnly(policy: Policy): Policy {
  // Ignore files did not leave the file out (unread() answers when they did): nothing of them to say.
  const { ignored: _ignored, ...rest } = policy;
  return { ...rest, excludedCount: 0, symlinkSkipped: 0 };
}
