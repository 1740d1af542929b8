/**
 * Which engine answers a search: the walker, ripgrep, or `auto`. `auto` runs ripgrep when it can
 * answer as fully as the walker would, and the walker otherwise, saying why (`fallbackReason`):
 *
 * - an injected `fs`: only the walker can read it (`fs-injected`);
 * - a finite `maxDepth` the patterns reach past: ripgrep could only say `depth-limit`, the walker
 *   can prove more (`max-depth`, see src/rg/depth.ts);
 * - no executable resolves (`rg-not-found`);
 * - ripgrep ran and failed without a single match (`spawn`, `exit`, `eagain`, `max_buffer`, and for
 *   content search `protocol`): the walker runs in the time left; for a file listing, handed on
 *   only at the end, also after matches (ripgrep 13 drops an ignore file past its regex size limit,
 *   warns, exits 0 and lists what that file ignores; a walker answer cut short keeps what ripgrep
 *   had found: `keepFound`). A content search's failure after hits were
 *   handed on keeps them, marked incomplete; a spent time budget is not retried by the walker (it
 *   has no time left either);
 * - ripgrep was stopped, blocked opening a FIFO (or other special file) named as an ignore file
 *   (`blocked`, src/rg/blocking.ts): the walker, which never opens one, answers in the time left;
 *   for a file listing also after matches (none was handed on yet, and ripgrep's listing misses
 *   what lies under that file's directory), for content search when no hit was handed on;
 * - ripgrep could not enter the root, its cwd, and found nothing (`root-unreadable`): the walker
 *   gives the same skipped root, or lists what a `r--` root shows;
 * - file listing only: `type` other than files (`entry-types`), or a size or time filter, `sort:
 *   'mtime'` or `stats` (`metadata`): `rg --files` lists regular files and no metadata;
 * - file listing only: ripgrep's answer was complete and empty (`links-unexamined`). `rg --files`
 *   never lists symlinks, so its empty answer cannot name a matching link (`/usr/bin/python3`)
 *   nor a symlinked directory on the way (`linked-src` for `linked-src/*.ts`, pnpm's
 *   `node_modules/react`); the walker, in the time left, can. An answer with a match keeps ripgrep's.
 *   An abort that comes before that walk leaves the answer `aborted`, never complete.
 */
import { FindFileError } from './errors.js';
import { Deadline, untilStopped } from './limits.js';
import type { BackendOption } from './options.js';
import type { FindPlan, SearchPlan } from './plan/search-plan.js';
import { walkerOnlyReason } from './plan/select.js';
import { reasonForCode, verdictFields, type FallbackReason, type FindResult, type FindSummary, type IncompleteReason, type RecoveryEvent, type RecoveryInfo, type SkippedEntry } from './result.js';
import type { ResolvedRipgrep } from './rg/resolve.js';

/** The file search's two engines, for `findFiles`. */
export async function runFileBackend(plan: FindPlan, walk: (plan: FindPlan) => Promise<FindResult>, format: (rel: string) => string): Promise<FindResult> {
  // `rg --files` lists regular files without metadata: forced ripgrep was refused by the plan.
  const walkerOnlyFor = walkerOnlyReason(plan.scope.select, plan.query);
  if (walkerOnlyFor !== undefined && plan.backend.backend === 'auto') return withReason(await walk(plan), walkerOnlyFor);
  const result = await chooseBackend(plan, {
    walker: walk,
    ripgrep: async (rg, deadline) => {
      // Perf: the ripgrep modules load only when ripgrep runs (the command starts faster without them).
      const [{ listFilesWithRipgrep }, { spawnRunner }] = await Promise.all([import('./rg/files.js'), import('./rg/runner.js')]);
      return listFilesWithRipgrep(plan, { rg, runner: plan.backend.runner ?? spawnRunner, deadline }, format);
    },
    countOf: (result) => result.matchedCount,
    held: true,
    recheck: (answer) => (isUnexaminedEmpty(answer) ? 'links-unexamined' : undefined),
    keep: (listed, walked) => keepListed(plan, listed, walked),
  });
  // Only an abort between ripgrep's end and that walk leaves such an answer: it proved nothing of links.
  return plan.backend.backend === 'auto' && isUnexaminedEmpty(result) ? { ...result, ...verdictFields<IncompleteReason>(['aborted']) } : result;
}

/** ripgrep's complete empty listing: it cannot name a matching link, nor one on the way. */
function isUnexaminedEmpty(result: FindResult): boolean {
  return result.complete && result.matchedCount === 0 && !result.linksExamined;
}

/**
 * A held listing's matches, kept in the walker's incomplete answer (`keepFound`): each path
 * ripgrep listed exists and passed the walker's own matcher (src/rg/files.ts), so the walker would
 * have returned it had it got there. The union is sorted as the walker sorts, cut at `maxResults`
 * (`result-limit`).
 */
function keepListed(plan: FindPlan, listed: FindResult, walked: FindResult): FindResult {
  const known = new Set(walked.matches);
  const found = listed.matches.filter((match) => !known.has(match));
  if (found.length === 0) return walked;
  const { rootPrefix, sep } = plan.scope;
  // The walker sorts root-relative paths with `/` (src/walk/collector.ts): absolute ones by theirs.
  const relOf = plan.query.absolute ? (match: string) => match.slice(rootPrefix.length).split(sep).join('/') : (match: string) => match;
  const union = [...walked.matches, ...found].map((match) => [relOf(match), match] as const);
  union.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const matches = union.slice(0, plan.limits.maxResults).map(([, match]) => match);
  const cut = union.length > matches.length && !walked.incompleteReasons.includes('result-limit');
  return { ...walked, matches, matchedCount: matches.length, ...verdictFields(cut ? [...walked.incompleteReasons, 'result-limit'] : walked.incompleteReasons) };
}

/** What `auto` needs to read and amend in an answer, whatever the search (file listing, content). */
export interface BackendAnswer {
  stats: { elapsedMs: number };
  skipped: readonly SkippedEntry[];
  skippedCount: number;
  complete: boolean;
  incompleteReasons: readonly string[];
  recovery?: RecoveryInfo;
  fallbackReason?: FallbackReason;
}

/** The two engines of one kind of search. */
export interface BackendEngines<Q, R extends BackendAnswer> {
  /** The embedded engine, given the plan (with the time left, after a failed ripgrep run). */
  walker(plan: SearchPlan<Q>): Promise<R>;
  /** The ripgrep engine, given the executable and the search's deadline (its budget runs from the search's start). */
  ripgrep(rg: ResolvedRipgrep, deadline: Deadline): Promise<R>;
  /** How many results an answer holds: a ripgrep failure with none is retried on the walker. */
  countOf(result: R): number;
  /** The results are held until the answer (a file listing): a `blocked` run's, with matches, can still be replaced. */
  held?: boolean;
  /** For an answer ripgrep gave without failing: a reason to have the walker answer instead, if any. */
  recheck?(result: R): FallbackReason | undefined;
  /** After a fallback, the walker's incomplete answer with ripgrep's results it did not return (a held listing's matches). */
  keep?(ripgrep: R, walked: R): R;
}

/** The decision above, for any kind of search: `findFiles` and `searchContent` both come through here. */
export async function chooseBackend<Q, R extends BackendAnswer>(plan: SearchPlan<Q>, engines: BackendEngines<Q, R>): Promise<R> {
  const { scope, limits, backend } = plan;
  if (backend.backend === 'walker') return engines.walker(plan);
  const auto = backend.backend === 'auto';
  const deadline = new Deadline(limits.clock, limits.timeBudgetMs);
  // A forced 'ripgrep' with an injected fs was refused when the plan was built, before any I/O.
  if (scope.fsInjected) return withReason(await engines.walker(plan), 'fs-injected');
  if (auto && scope.depthLimited) return withReason(await engines.walker(plan), 'max-depth');

  const { resolveRipgrep } = await import('./rg/resolve.js');
  const resolving = resolveRipgrep({ rgPath: backend.rgPath, env: backend.env, platform: scope.platform, root: scope.root, cwd: currentDirectory(), ...(backend.workspace === undefined ? {} : { workspace: backend.workspace }) });
  // Within the budget and the signal (the real path of a root on a hung mount). Cut, the signal has
  // fired or the budget passed: the ripgrep engine, asked, stops before its start with no I/O (its
  // first check), so the answer names the engine asked for, as a stop found there would.
  const rg = (await untilStopped(resolving, deadline, limits.signal)) ?? { path: '', selectionMode: backend.rgPath === undefined ? 'system' : 'explicit' };
  if (rg.path === undefined) {
    if (!auto) throw new FindFileError('FF_RG_NOT_FOUND', `backend "ripgrep": ${rg.why}`, 'backend');
    return withReason(await engines.walker(plan), 'rg-not-found');
  }
  let result = await engines.ripgrep(rg, deadline);
  const fallback = auto && !limits.signal?.aborted ? walkerReason(result, engines) : undefined;
  if (fallback !== undefined) {
    const answered = await engines.walker({ ...plan, limits: { ...limits, timeBudgetMs: deadline.left() } });
    const walked = keepFound(plan, result, answered, engines);
    result = { ...walked, stats: { ...walked.stats, elapsedMs: deadline.elapsed() }, recovery: result.recovery, fallbackReason: fallback };
  }
  emitRecovery(plan.backend.onEvent, result.recovery);
  return result;
}

/**
 * The walker's answer after a fallback. Complete, it is the whole truth. Incomplete (the time left
 * ran out, the caller aborted), it keeps what ripgrep had already found, as nothing found is ever
 * thrown away: a held listing's matches (`keep`), and ripgrep's skipped entries it did not meet
 * (each judged a gap where the walker would have read: src/rg/files.ts, src/content/rg-gaps.ts),
 * but the root, which the walker always reads first itself. Not with ignore files in play: a
 * failed ripgrep 13 may have dropped one it could not compile and listed what that file ignores,
 * which the walker's rules reject. The answer stays the walker's
 * (`backend`, `fallbackReason`, `complete: false`, its reasons first).
 */
function keepFound<Q, R extends BackendAnswer>(plan: SearchPlan<Q>, ripgrep: R, walked: R, engines: BackendEngines<Q, R>): R {
  if (walked.complete || plan.scope.ignore !== undefined) return walked;
  const kept = engines.keep?.(ripgrep, walked) ?? walked;
  const met = new Set(kept.skipped.map(gapKey));
  // The root is the walker's own first read: its verdict stands (an `r--` root ripgrep cannot enter, it lists).
  const gaps = ripgrep.skipped.filter((entry) => entry.path !== '.' && !met.has(gapKey(entry)));
  if (gaps.length === 0) return kept;
  const skipped = [...kept.skipped, ...gaps];
  // `findFiles`' reasons, which every kind of search has among its own.
  const reasons = [...kept.incompleteReasons];
  for (const entry of gaps) {
    const reason = reasonForCode(entry.code);
    if (reason !== undefined && !reasons.includes(reason)) reasons.push(reason);
  }
  return { ...kept, skipped, skippedCount: skipped.length, ...verdictFields(reasons) };
}

function gapKey(entry: SkippedEntry): string {
  return `${entry.code}\0${entry.path}`;
}

/** Why `auto` should let the walker answer after this ripgrep answer, or undefined to keep it. */
function walkerReason<R extends BackendAnswer>(result: R, engines: BackendEngines<never, R>): FallbackReason | undefined {
  // A root ripgrep cannot enter may still be listed by the walker (`r--`: names without search).
  if (engines.countOf(result) === 0 && result.skipped.some((s) => s.path === '.')) return 'root-unreadable';
  const failure = result.recovery?.failureKind;
  // A listing handed nothing on yet: the walker's whole answer, not ripgrep's failed one.
  if (failure !== undefined && failure !== 'timeout' && engines.held === true) return failure;
  if (failure !== undefined) return failure !== 'timeout' && engines.countOf(result) === 0 ? failure : undefined;
  return engines.recheck?.(result);
}

/** The walker-only API forms (`findFilesSync`, `findFilesStream`): what to add to their summary. */
export function walkerOnly(backend: BackendOption | undefined, api: string): Pick<FindSummary, 'fallbackReason'> {
  if (backend === 'ripgrep') {
    throw new FindFileError('FF_INVALID_OPTION', `${api} runs the walker only: use findFiles for backend "ripgrep"`, 'backend');
  }
  return backend === 'auto' ? { fallbackReason: 'api' } : {};
}

function withReason<R extends BackendAnswer>(result: R, fallbackReason: FallbackReason): R {
  return { ...result, fallbackReason };
}

/** Only a retry or a failure is worth an event; the payload holds no pattern, path or output. */
function emitRecovery(onEvent: ((event: RecoveryEvent) => void) | undefined, recovery: RecoveryInfo | undefined): void {
  if (onEvent === undefined || recovery === undefined) return;
  if (!recovery.retryTriggered && recovery.failureKind === undefined) return;
  try {
    onEvent({ type: 'ripgrep-recovery', ...recovery });
  } catch {
    // Telemetry must never change a search's answer.
  }
}

/** The current directory, or undefined when it was deleted (process.cwd() throws ENOENT): an absolute root is still searched. */
function currentDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}
