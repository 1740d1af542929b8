/**
 * The host's `pruneDirectory`, asked on the walk's behalf. Host code may be slow: after it ran, the
 * walk asks the budget and the signal before its next entry (a callback of 10 ms had run 250 times,
 * 2.5 s, past a 100 ms budget and a timer's abort: an adversarial run), and after a call of a
 * millisecond or more the async walk lets the event loop turn, so a timer's abort is heard. Its
 * answer is read by truthiness, as node-glob reads `childrenIgnored` (`d.match(/x/)` prunes).
 */
import type { Deadline } from '../limits.js';

/** What the host's code did since the walk last asked: nothing, a quick call, or a slow one. */
export type HostRan = 'quick' | 'slow' | undefined;

export class HostPrune {
  private ran: HostRan;

  constructor(
    private readonly prune: (dir: string) => unknown,
    private readonly deadline: Deadline,
  ) {}

  /** True when the host leaves `dir`'s entries unread (root-relative, ending in `/`). */
  ask(dir: string): boolean {
    const before = this.deadline.elapsed();
    const pruned = Boolean(this.prune(dir));
    this.ran = this.deadline.elapsed() - before >= 1 ? 'slow' : 'quick';
    return pruned;
  }

  /** What ran since the last call of `took`, then forgotten. */
  took(): HostRan {
    const ran = this.ran;
    this.ran = undefined;
    return ran;
  }
}
