/**
 * The hand-off behind every streaming form (`findFilesStream`, `searchContentStream`): a producer
 * pushes items as it finds them, a reader iterates them. Memory stays flat because the producer
 * is asked to pause once `highWater` items wait (`isFull`) and is resumed when the reader has
 * taken them all. A reader that leaves early ends the producer rather than leaving it paused.
 */
export class HandOff<T> {
  private buffer: T[] = [];
  private head = 0;
  private wake: (() => void) | undefined;
  private ended = false;
  private failure: unknown;

  constructor(private readonly highWater: number) {}

  readonly push = (item: T): void => {
    this.buffer.push(item);
    this.wake?.();
  };

  /** True while the reader has `highWater` items or more to take: the producer should pause. */
  get isFull(): boolean {
    return this.buffer.length - this.head >= this.highWater;
  }

  /**
   * Ties the iteration to the producer's end: it finishes when `done` resolves and throws what
   * `done` rejects with. The returned promise is `done`, marked handled, so a summary nobody
   * awaits cannot crash the process (the iteration reports the failure).
   */
  finish<S>(done: Promise<S>): Promise<S> {
    const settled = done.then(
      (value) => value,
      (error: unknown) => {
        this.failure = error;
        throw error;
      },
    );
    settled.catch(() => {});
    void settled.then(
      () => this.end(),
      () => this.end(),
    );
    return settled;
  }

  /** `onDrained`: the reader took everything (resume the producer). `onEarlyExit`: the reader left first (end it). */
  async *iterate(onDrained: () => void, onEarlyExit: () => void): AsyncGenerator<T> {
    try {
      for (;;) {
        if (this.head < this.buffer.length) {
          const item = this.buffer[this.head++]!;
          if (this.head === this.buffer.length) {
            this.buffer = [];
            this.head = 0;
            onDrained();
          }
          yield item;
          continue;
        }
        if (this.ended) {
          if (this.failure !== undefined) throw this.failure;
          return;
        }
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
      }
    } finally {
      if (!this.ended) {
        this.buffer = [];
        this.head = 0;
        onEarlyExit();
      }
    }
  }

  private end(): void {
    this.ended = true;
    this.wake?.();
  }
}
