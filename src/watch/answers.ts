/**
 * Whole answers kept for reuse: the same query asked again while the index's version has not moved
 * gets the answer the walk gave, copied (a walk over the same tree gives the same answer; the
 * version moves on every change a watch could report, see src/watch/coverage.ts). Only answers
 * whose every read was covered, made while the version stood still, that no limit of time or
 * signal cut short, are kept (and none made after a failed sync).
 */
import type { FindResult, IncompleteReason } from '../result.js';
import type { IndexQuery } from './watched-index.js';

/** How many answers are kept (the least recently asked goes first). */
const KEPT_ANSWERS = 16;

/** Reasons that depend on when the walk ran, not on the tree: such an answer is never reused. */
const TIMING_REASONS: readonly IncompleteReason[] = ['time-budget', 'aborted'];

/**
 * The query as a key: every option that shapes the answer. Undefined (not reusable) when an
 * option is a callback the walk must call (`onDirectory`). `signal`, `clock` and `timeBudgetMs`
 * only bound the work: a kept complete answer is what the walk gives with time enough.
 */
export function answerKey(query: IndexQuery): string | undefined {
  if (query.onDirectory !== undefined) return undefined;
  const { signal: _signal, clock: _clock, timeBudgetMs: _budget, ...shaping } = query;
  const modified = (value: Date | number | undefined) => (value instanceof Date ? value.getTime() : value);
  return JSON.stringify({ ...shaping, modifiedAfter: modified(shaping.modifiedAfter), modifiedBefore: modified(shaping.modifiedBefore) });
}

/** A copy the caller may change without changing the kept one. */
function copyOf(result: FindResult): FindResult {
  const copy: FindResult = {
    ...result,
    matches: result.matches.slice(),
    skipped: result.skipped.map((entry) => ({ ...entry })),
    linkMatches: result.linkMatches.slice(),
    linksOnTheWay: result.linksOnTheWay.slice(),
    incompleteReasons: result.incompleteReasons.slice(),
    stats: { ...result.stats },
  };
  if (result.entries !== undefined) copy.entries = result.entries.map((entry) => ({ ...entry }));
  return copy;
}

export class AnswerCache {
  private readonly kept = new Map<string, { version: number; result: FindResult }>();
  hits = 0;

  /** The kept answer for `key` at `version`, copied, or undefined. */
  get(key: string | undefined, version: number): FindResult | undefined {
    if (key === undefined) return undefined;
    const entry = this.kept.get(key);
    if (entry === undefined || entry.version !== version) return undefined;
    this.kept.delete(key);
    this.kept.set(key, entry); // most recently asked last
    this.hits++;
    return copyOf(entry.result);
  }

  /** Keeps `result` when it can be reused (see the module comment). */
  offer(key: string | undefined, version: number, result: FindResult): void {
    if (key === undefined || result.incompleteReasons.some((reason) => TIMING_REASONS.includes(reason))) return;
    this.kept.delete(key);
    this.kept.set(key, { version, result: copyOf(result) });
    if (this.kept.size > KEPT_ANSWERS) this.kept.delete(this.kept.keys().next().value!);
  }

  clear(): void {
    this.kept.clear();
  }
}
