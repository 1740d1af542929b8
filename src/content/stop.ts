/**
 * When content search's pure-TS path stops, and why: the limits (`result-limit`, `output-limit`),
 * the time budget (checked before every file and chunk, and with the real clock a timer, so a hung
 * read cannot hold the answer) and the caller's signal. Every wait of the search races `stopped`.
 */
import type { Deadline } from '../limits.js';
import { ReasonLog } from '../result.js';
import type { ContentIncompleteReason } from './types.js';

export type ContentStop = 'result-limit' | 'output-limit' | 'time-budget' | 'aborted';

/** The reasons that end a search part-way, maybe inside a file: they can cut that file's hits short. */
export const CONTENT_STOPS: readonly ContentIncompleteReason[] = ['result-limit', 'output-limit', 'time-budget', 'aborted'] satisfies ContentStop[];

export class SearchStop {
  /** The search's own reasons: its stop first, then the files it could not read. */
  readonly reasons = new ReasonLog<ContentIncompleteReason>();
  stopped = false;
  private readonly stoppedPromise: Promise<undefined>;
  private resolveStopped!: () => void;
  private readonly timer: { clear(): void } | undefined;
  private readonly onAbort = () => this.stop('aborted');

  constructor(
    private readonly deadline: Deadline,
    private readonly signal: AbortSignal | undefined,
    /** Called once, when the search stops (to end the walk). */
    private readonly onStop: () => void,
  ) {
    this.stoppedPromise = new Promise<undefined>((resolve) => (this.resolveStopped = () => resolve(undefined)));
    signal?.addEventListener('abort', this.onAbort, { once: true });
    this.timer = deadline.arm(() => this.stop('time-budget'));
  }

  stop(reason: ContentStop): true {
    if (!this.stopped) {
      this.stopped = true;
      this.reasons.stop(reason);
      this.onStop();
      this.resolveStopped();
    }
    return true;
  }

  /** Checks the signal and the budget; true when the search must stop. */
  shouldStop(): boolean {
    if (this.stopped) return true;
    if (this.signal?.aborted) return this.stop('aborted');
    if (this.deadline.passed()) return this.stop('time-budget');
    return false;
  }

  /** The I/O result, or undefined when the search stopped first. */
  race<T>(io: Promise<T>): Promise<T | undefined> {
    return Promise.race([io, this.stoppedPromise]);
  }

  dispose(): void {
    this.timer?.clear();
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}
