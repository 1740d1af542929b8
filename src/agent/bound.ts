/**
 * A tool call's own reads outside its search (the `path` resolved segment by segment, the page's
 * sizes for `sort: 'relevance'`, the guidance after an empty answer) are bounded as the search is:
 * by what is left of the call's budget and by the caller's signal. Each waited for a read that
 * hung, and held the call (an MCP server's too) for as long as the read hung, past both.
 */
import { Deadline, untilStopped } from '../limits.js';
import { monotonicClock } from '../plan/clock.js';
import type { Settings } from './context.js';

/** What reads made after the search may wait when it spent the budget: a quick read still helps. */
export const AFTER_SEARCH_GRACE_MS = 200;

/**
 * `work`'s answer, or `cut` once what is left of the budget (at least `graceMs`) has passed or the
 * caller's signal fires, whichever comes first (limits.ts `untilStopped`); the read itself goes on,
 * unheard. An injected clock is the caller's to advance: no timer runs on it, only the signal bounds.
 */
export async function within<T>(work: Promise<T>, deadline: Deadline, settings: Settings, cut: T, graceMs = 0): Promise<T> {
  const allowance = new Deadline(settings.clock ?? monotonicClock, Math.max(deadline.left(), graceMs));
  const answer = await untilStopped(work.then((value) => ({ value })), allowance, settings.ctx.signal);
  return answer === undefined ? cut : answer.value;
}
