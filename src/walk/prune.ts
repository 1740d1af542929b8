/**
 * The host's `pruneDirectory`, asked on the walk's behalf. Host code may be slow: after it ran, the
 * walk asks the budget and the signal before its next entry, or at once after an lstat'ed entry (a
 * callback of 10 ms had run 250 times, 2.5 s, past a 100 ms budget and a timer's abort; then 257
 * times where the listing gave no kinds: two adversarial runs), and after a call of a millisecond
 * or more the async walk lets the event loop turn while judging a listing, so a timer's abort is heard. Its
 * answer is read by truthiness, as node-glob reads `childrenIgnored` (`d.match(/x/)` prunes).
 */
import { REPLACEMENT_CHAR } from '../fs.js';
import type { Deadline } from '../limits.js';
import { monotonicClock } from '../plan/clock.js';

/** What the host's code did since the walk last asked: nothing, a quick call, or a slow one. */
export type HostRan = 'quick' | 'slow' | undefined;

export class HostPrune {
  private ran: HostRan;
  private readonly twins = new Map<string, boolean>();

  constructor(
    private readonly prune: (dir: string) => unknown,
    private readonly deadline: Deadline,
  ) {}

  /**
   * True when the host leaves `dir`'s entries unread (root-relative, ending in `/`). Slow by either
   * clock: the search's (a test's fake one may stand still while real time passes, or the reverse).
   * A name with U+FFFD is asked once: its undecodable twin is the same string (engine.ts skipTwin).
   */
  ask(dir: string): boolean {
    const undecoded = dir.includes(REPLACEMENT_CHAR);
    const known = undecoded ? this.twins.get(dir) : undefined;
    if (known !== undefined) return known;
    const [before, realBefore] = [this.deadline.elapsed(), monotonicClock.now()];
    const pruned = Boolean(this.prune(dir));
    this.ran = this.deadline.elapsed() - before >= 1 || monotonicClock.now() - realBefore >= 1 ? 'slow' : 'quick';
    if (undecoded) this.twins.set(dir, pruned);
    return pruned;
  }

  /** What ran since the last call of `took`, then forgotten. */
  took(): HostRan {
    const ran = this.ran;
    this.ran = undefined;
    return ran;
  }
}
