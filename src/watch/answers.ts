/**
 * Whole answers kept for reuse: the same query asked again while no watch its walk read through
 * has reported a change (and nothing was dropped wholesale since: the epoch) gets the answer the
 * walk gave, copied (a walk over the same reads gives the same answer; see src/watch/coverage.ts).
 * Only answers whose every read was covered, made while nothing they read changed, that no limit
 * of time or signal cut short, are kept (and none made after a failed sync).
 */
import type { FindResult, IncompleteReason } from '../result.js';
import type { Tracked } from './coverage.js';
import type { IndexQuery } from './watched-index.js';

/** How many answers are kept (the least recently asked goes first). */
const KEPT_ANSWERS = 16;

/** Reasons that depend on when the walk ran, not on the tree: such an answer is never reused. */
const TIMING_REASONS: readonly IncompleteReason[] = ['time-budget', 'aborted'];

/**
 * The query as a key: every option that shapes the answer. Undefined (not reusable) when an
 * option is a callback the walk must call (`onDirectory`, `pruneDirectory`). `signal`, `clock` and `timeBudgetMs`
 * only bound the work: a kept complete answer is what the walk gives with time enough.
 */
export function answerKey(query: IndexQuery): string | undefined {
  if (query.onDirectory !== undefined || query.pruneDirectory !== undefined) return undefined;
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

interface KeptAnswer {
  epoch: number;
  /** Every watch the walk read through, and its count of changes then (perf: two arrays, not a map, per kept answer). */
  watches: Tracked[];
  changes: number[];
  result: FindResult;
}

function stillStands(entry: KeptAnswer): boolean {
  for (let i = 0; i < entry.watches.length; i++) {
    const watch = entry.watches[i]!;
    if (!watch.live || watch.changes !== entry.changes[i]) return false;
  }
  return true;
}

export class AnswerCache {
  private readonly kept = new Map<string, KeptAnswer>();
  hits = 0;

  /** The kept answer for `key`, copied, when nothing it read has changed since, in this `epoch`; or undefined. */
  get(key: string | undefined, epoch: number): FindResult | undefined {
    if (key === undefined) return undefined;
    const entry = this.kept.get(key);
    if (entry === undefined) return undefined;
    if (entry.epoch !== epoch || !stillStands(entry)) {
      this.kept.delete(key);
      return undefined;
    }
    this.kept.delete(key);
    this.kept.set(key, entry); // most recently asked last
    this.hits++;
    return copyOf(entry.result);
  }

  /** Keeps `result` when it can be reused (see the module comment): `deps` are its walk's. */
  offer(key: string | undefined, epoch: number, deps: ReadonlyMap<Tracked, number>, result: FindResult): void {
    if (key === undefined || result.incompleteReasons.some((reason) => TIMING_REASONS.includes(reason))) return;
    const entry: KeptAnswer = { epoch, watches: [...deps.keys()], changes: [...deps.values()], result };
    // Something it read changed while it walked: it may mix the two states.
    if (!stillStands(entry)) return;
    entry.result = copyOf(result);
    this.kept.delete(key);
    this.kept.set(key, entry);
    if (this.kept.size > KEPT_ANSWERS) this.kept.delete(this.kept.keys().next().value!);
  }

  clear(): void {
    this.kept.clear();
  }
}
