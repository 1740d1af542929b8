/**
 * A tool call's own reads outside its search (the `path` resolved segment by segment, the page's
 * sizes for `sort: 'relevance'`, the guidance after an empty answer) are bounded as the search is:
 * by what is left of the call's budget and by the caller's signal. Each waited for a read that
 * hung, and held the call (an MCP server's too) for as long as the read hung, past both.
 */
import type { Deadline } from '../limits.js';
import type { Settings } from './context.js';

/** What reads made after the search may wait when it spent the budget: a quick read still helps. */
export const AFTER_SEARCH_GRACE_MS = 200;

/**
 * `work`'s answer, or `cut` once what is left of the budget (at least `graceMs`) has passed or the
 * caller's signal fires, whichever comes first; the read itself goes on, unheard. An injected clock
 * is the caller's to advance: no timer runs on it (as the engines' budgets), only the signal bounds.
 */
export function within<T>(work: Promise<T>, deadline: Deadline, settings: Settings, cut: T, graceMs = 0): Promise<T> {
  const signal = settings.ctx.signal;
  if (signal?.aborted === true) return Promise.resolve(cut);
  const waitMs = settings.clock === undefined && Number.isFinite(deadline.ms) ? Math.max(deadline.left(), graceMs) : undefined;
  if (waitMs === undefined && signal === undefined) return work;
  return new Promise((resolve, reject) => {
    const timer = waitMs === undefined ? undefined : setTimeout(() => settle(true), waitMs);
    const onAbort = () => settle(true);
    signal?.addEventListener('abort', onAbort, { once: true });
    function settle(timedOut: boolean, value?: T, error?: unknown): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (timedOut) resolve(cut);
      else if (error !== undefined) reject(error);
      else resolve(value as T);
    }
    work.then(
      (value) => settle(false, value),
      (error: unknown) => settle(false, undefined, error ?? new Error('failed')),
    );
  });
}
