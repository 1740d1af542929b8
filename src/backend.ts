/**
 * Which engine answers a search: the walker, ripgrep, or `auto`. `auto` runs ripgrep when it can
 * answer as fully as the walker would, and the walker otherwise, saying why (`fallbackReason`):
 *
 * - an injected `fs`: only the walker can read it (`fs-injected`);
 * - a finite `maxDepth` the patterns reach past: ripgrep could only say `depth-limit`, the walker
 *   can prove more (`max-depth`, see src/rg/depth.ts);
 * - no executable resolves (`rg-not-found`);
 * - ripgrep ran and failed without a single match (`spawn`, `exit`, `eagain`, `max_buffer`): the
 *   walker runs in the time left. A failure with matches keeps them, marked incomplete; a spent time
 *   budget is not retried by the walker (it has no time left either).
 */
import { FindFileError } from './errors.js';
import type { BackendOption, BackendPlan, WalkPlan } from './options.js';
import type { FallbackReason, FindResult, FindSummary, RecoveryInfo } from './result.js';
import { isDepthLimited } from './rg/depth.js';
import { listFilesWithRipgrep } from './rg/files.js';
import { resolveRipgrep } from './rg/resolve.js';
import { spawnRunner } from './rg/runner.js';

export type WalkFunction = (plan: WalkPlan) => Promise<FindResult>;

export async function runBackend(plan: WalkPlan, backend: BackendPlan, walk: WalkFunction, format: (rel: string) => string): Promise<FindResult> {
  if (backend.backend === 'walker') return walk(plan);
  const auto = backend.backend === 'auto';
  const startedAt = plan.clock.now();
  // A forced 'ripgrep' with an injected fs was refused in buildBackendPlan, before any I/O.
  if (backend.fsInjected) return withReason(await walk(plan), 'fs-injected');
  if (auto && isDepthLimited(plan.maxDepth, backend.patterns)) return withReason(await walk(plan), 'max-depth');

  const rg = await resolveRipgrep({ rgPath: backend.rgPath, env: backend.env, platform: plan.platform, root: plan.root, cwd: process.cwd() });
  if (rg.path === undefined) {
    if (!auto) throw new FindFileError('FF_RG_NOT_FOUND', `backend "ripgrep": ${rg.why}`, 'backend');
    return withReason(await walk(plan), 'rg-not-found');
  }
  let result = await listFilesWithRipgrep(plan, {
    rg,
    runner: backend.runner ?? spawnRunner,
    env: backend.env,
    patterns: backend.patterns,
    excludes: backend.excludes,
    startedAt,
    format,
  });
  const failure = result.recovery?.failureKind;
  if (auto && failure !== undefined && failure !== 'timeout' && result.matchedCount === 0 && !plan.signal?.aborted) {
    const spent = plan.clock.now() - startedAt;
    const walked = await walk({ ...plan, timeBudgetMs: Math.max(0, plan.timeBudgetMs - spent) });
    result = {
      ...walked,
      stats: { ...walked.stats, elapsedMs: plan.clock.now() - startedAt },
      recovery: result.recovery,
      fallbackReason: failure,
    };
  }
  emitRecovery(backend, result.recovery);
  return result;
}

/** The walker-only API forms (`findFilesSync`, `findFilesStream`): what to add to their summary. */
export function walkerOnly(backend: BackendOption | undefined, api: string): Pick<FindSummary, 'fallbackReason'> {
  if (backend === 'ripgrep') {
    throw new FindFileError('FF_INVALID_OPTION', `${api} runs the walker only: use findFiles for backend "ripgrep"`, 'backend');
  }
  return backend === 'auto' ? { fallbackReason: 'api' } : {};
}

function withReason(result: FindResult, fallbackReason: FallbackReason): FindResult {
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
