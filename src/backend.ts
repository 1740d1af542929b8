/**
 * Which engine answers a search: the walker, ripgrep, or `auto`. `auto` runs ripgrep when it can
 * answer as fully as the walker would, and the walker otherwise, saying why (`fallbackReason`):
 *
 * - an injected `fs`: only the walker can read it (`fs-injected`);
 * - a finite `maxDepth` the patterns reach past: ripgrep could only say `depth-limit`, the walker
 *   can prove more (`max-depth`, see src/rg/depth.ts);
 * - no executable resolves (`rg-not-found`);
 * - ripgrep ran and failed without a single match (`spawn`, `exit`, `eagain`, `max_buffer`, and for
 *   content search `protocol`): the walker runs in the time left. A failure with matches keeps
 *   them, marked incomplete; a spent time budget is not retried by the walker (it has no time
 *   left either);
 * - ripgrep could not enter the root, its cwd, and found nothing (`root-unreadable`): the walker
 *   gives the same skipped root, or lists what a `r--` root shows;
 * - file listing only: ripgrep's answer was complete and empty (`links-unexamined`). `rg --files`
 *   never lists symlinks, so its empty answer cannot name a matching link (`/usr/bin/python3`);
 *   the walker, in the time left, can. An answer with a match keeps ripgrep's.
 */
import { FindFileError } from './errors.js';
import type { BackendOption, BackendPlan, WalkPlan } from './options.js';
import type { FallbackReason, FindResult, FindSummary, RecoveryInfo, SkippedEntry } from './result.js';
import { isDepthLimited } from './rg/depth.js';
import type { ResolvedRipgrep } from './rg/resolve.js';

export type WalkFunction = (plan: WalkPlan) => Promise<FindResult>;

export async function runBackend(plan: WalkPlan, backend: BackendPlan, walk: WalkFunction, format: (rel: string) => string): Promise<FindResult> {
  return chooseBackend(plan, backend, {
    walker: walk,
    ripgrep: async (rg, startedAt) => {
      // Perf: the ripgrep modules load only when ripgrep runs (the command starts faster without them).
      const [{ listFilesWithRipgrep }, { spawnRunner }] = await Promise.all([import('./rg/files.js'), import('./rg/runner.js')]);
      return listFilesWithRipgrep(plan, {
        rg,
        runner: backend.runner ?? spawnRunner,
        env: backend.env,
        patterns: backend.patterns,
        excludes: backend.excludes,
        startedAt,
        format,
      });
    },
    countOf: (result) => result.matchedCount,
    recheck: (result) => (result.complete && result.matchedCount === 0 && !result.linksExamined ? 'links-unexamined' : undefined),
  });
}

/** What `auto` needs to read and amend in an answer, whatever the search (file listing, content). */
export interface BackendAnswer {
  stats: { elapsedMs: number };
  skipped: readonly SkippedEntry[];
  recovery?: RecoveryInfo;
  fallbackReason?: FallbackReason;
}

/** The two engines of one kind of search. */
export interface BackendEngines<R extends BackendAnswer> {
  /** The embedded engine, given the plan (with the time left, after a failed ripgrep run). */
  walker(plan: WalkPlan): Promise<R>;
  /** The ripgrep engine, given the executable and the search's start time (its budget runs from there). */
  ripgrep(rg: ResolvedRipgrep, startedAt: number): Promise<R>;
  /** How many results an answer holds: a ripgrep failure with none is retried on the walker. */
  countOf(result: R): number;
  /** For an answer ripgrep gave without failing: a reason to have the walker answer instead, if any. */
  recheck?(result: R): FallbackReason | undefined;
}

/** The decision above, for any kind of search: `findFiles` and `searchContent` both come through here. */
export async function chooseBackend<R extends BackendAnswer>(plan: WalkPlan, backend: BackendPlan, engines: BackendEngines<R>): Promise<R> {
  if (backend.backend === 'walker') return engines.walker(plan);
  const auto = backend.backend === 'auto';
  const startedAt = plan.clock.now();
  // A forced 'ripgrep' with an injected fs was refused in buildBackendPlan, before any I/O.
  if (backend.fsInjected) return withReason(await engines.walker(plan), 'fs-injected');
  if (auto && isDepthLimited(plan.maxDepth, backend.patterns)) return withReason(await engines.walker(plan), 'max-depth');

  const { resolveRipgrep } = await import('./rg/resolve.js');
  const rg = await resolveRipgrep({ rgPath: backend.rgPath, env: backend.env, platform: plan.platform, root: plan.root, cwd: process.cwd(), ...(backend.workspace === undefined ? {} : { workspace: backend.workspace }) });
  if (rg.path === undefined) {
    if (!auto) throw new FindFileError('FF_RG_NOT_FOUND', `backend "ripgrep": ${rg.why}`, 'backend');
    return withReason(await engines.walker(plan), 'rg-not-found');
  }
  let result = await engines.ripgrep(rg, startedAt);
  const fallback = auto && !plan.signal?.aborted ? walkerReason(result, engines) : undefined;
  if (fallback !== undefined) {
    const spent = plan.clock.now() - startedAt;
    const walked = await engines.walker({ ...plan, timeBudgetMs: Math.max(0, plan.timeBudgetMs - spent) });
    result = {
      ...walked,
      stats: { ...walked.stats, elapsedMs: plan.clock.now() - startedAt },
      recovery: result.recovery,
      fallbackReason: fallback,
    };
  }
  emitRecovery(backend, result.recovery);
  return result;
}

/** Why `auto` should let the walker answer after this ripgrep answer, or undefined to keep it. */
function walkerReason<R extends BackendAnswer>(result: R, engines: BackendEngines<R>): FallbackReason | undefined {
  // A root ripgrep cannot enter may still be listed by the walker (`r--`: names without search).
  if (engines.countOf(result) === 0 && result.skipped.some((s) => s.path === '.')) return 'root-unreadable';
  const failure = result.recovery?.failureKind;
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
function emitRecovery(backend: BackendPlan, recovery: RecoveryInfo | undefined): void {
  if (backend.onEvent === undefined || recovery === undefined) return;
  if (!recovery.retryTriggered && recovery.failureKind === undefined) return;
  try {
    backend.onEvent({ type: 'ripgrep-recovery', ...recovery });
  } catch {
    // Telemetry must never change a search's answer.
  }
}
