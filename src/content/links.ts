/**
 * `auto`'s look at links after ripgrep's complete content answer with no hit. ripgrep never enters
 * a symlinked directory nor searches a link to a file, and says of neither, so its empty answer
 * proves absence only outside them. A listing walk (the same plan and rules, no file opened: far cheaper than searching
 * again) names them, in the time left. A walk that does not finish leaves the answer as ripgrep
 * gave it (`linksExamined: false`): never a half list read as the whole.
 */
import type { ContentPlan } from '../plan/content-plan.js';
import { AsyncDriver } from '../walk/drivers.js';
import { Walk } from '../walk/engine.js';
import type { ContentSummary } from './types.js';
import { SpecialFiles, contentWalkPolicy } from './walk-policy.js';

/** What a summary says of links when nothing could see them (ripgrep alone): `linksExamined` false, none named. */
export function linksUnseen(): Pick<ContentSummary, 'linksOnTheWay' | 'linkOnTheWayCount' | 'linkMatches' | 'linkMatchedCount' | 'specialMatches' | 'specialMatchedCount' | 'linksExamined'> {
  return { linksOnTheWay: [], linkOnTheWayCount: 0, linkMatches: [], linkMatchedCount: 0, specialMatches: [], specialMatchedCount: 0, linksExamined: false };
}

export function needsLinkWalk(plan: ContentPlan, summary: ContentSummary): boolean {
  return plan.backend.backend === 'auto' && summary.complete && summary.hitCount === 0 && !summary.linksExamined && plan.limits.signal?.aborted !== true;
}

export async function examineLinks(plan: ContentPlan, summary: ContentSummary): Promise<ContentSummary> {
  const timeBudgetMs = plan.limits.timeBudgetMs - summary.stats.elapsedMs;
  const specials = new SpecialFiles();
  const walk = new Walk({ ...plan, limits: { ...plan.limits, timeBudgetMs } }, () => {}, contentWalkPolicy(specials));
  try {
    await new AsyncDriver(walk).done;
  } catch {
    return summary; // the root vanished since ripgrep read it: keep ripgrep's answer as it stands
  }
  const walked = walk.summary();
  if (!walked.complete) return summary;
  const elapsedMs = summary.stats.elapsedMs + walked.stats.elapsedMs;
  const { linksOnTheWay, linkOnTheWayCount, linkMatches, linkMatchedCount } = walked;
  return { ...summary, linksOnTheWay, linkOnTheWayCount, linkMatches, linkMatchedCount, ...specials.fields(), linksExamined: true, stats: { ...summary.stats, elapsedMs } };
}
