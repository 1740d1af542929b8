/**
 * How a driver that runs over turns of the event loop ends, the same for both (drivers.ts
 * `AsyncDriver`, main-thread.ts `MainThreadDriver`): one `done` promise, settled once; the caller's
 * signal heard (the walk marked aborted, the driver ended) and its listener removed at the end.
 */
import type { Walk } from './engine.js';

export abstract class DriverEnd {
  readonly done: Promise<void>;
  protected readonly walk: Walk;
  protected finished = false;
  private resolveDone!: (error?: unknown) => void;
  private readonly onAbort = () => {
    this.walk.abort();
    this.finish();
  };

  constructor(walk: Walk) {
    this.walk = walk;
    this.done = new Promise<void>((resolve, reject) => {
      this.resolveDone = (error) => (error === undefined ? resolve() : reject(error));
    });
    walk.plan.limits.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Ends the driver once: `done` resolves, or rejects with `error` (a missing root). */
  protected finish(error?: unknown): void {
    if (this.finished) return;
    this.finished = true;
    this.onFinish();
    this.walk.plan.limits.signal?.removeEventListener('abort', this.onAbort);
    this.resolveDone(error);
  }

  /** What a driver lets go of as it ends (a timer). */
  protected onFinish(): void {}
}
