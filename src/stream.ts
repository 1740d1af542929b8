/**
 * The hand-off behind every streaming form (`findFilesStream`, `searchContentStream`): a producer
 * pushes items as it finds them, a reader takes them. Memory stays flat because the producer is
 * asked to pause once `highWater` items wait (`isFull`) and is resumed when the reader has taken
 * them. A reader that leaves early ends the producer rather than leaving it paused.
 */
export class HandOff<T> {
  private waiting: T[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  private failure: unknown;
  private readerLeft = false;
  private droppedCount = 0;
  private lastHanded: T | undefined;

  constructor(private readonly highWater: number) {}

  readonly push = (item: T): void => {
    // The reader left: nobody will take it, but the summary must not count it as handed over.
    if (this.readerLeft) {
      this.droppedCount++;
      return;
    }
    this.waiting.push(item);
    this.wakeReader();
  };

  /**
   * Items pushed that a reader who left early never took (0 when it read to the end): the
   * producer counted them as found, so a summary says "returned" only after taking these off.
   */
  get dropped(): number {
    return this.droppedCount;
  }

  /** The last item handed to a reader that left early (undefined if it took none or read to the end). */
  get lastTaken(): T | undefined {
    return this.lastHanded;
  }

  /** True while `highWater` items or more wait for the reader: the producer should pause. */
  get isFull(): boolean {
    return this.waiting.length >= this.highWater;
  }

  /**
   * Ties the reading to the producer's end: it finishes when `done` resolves and throws what
   * `done` rejects with. The returned promise is `done`, marked handled, so a summary nobody
   * awaits cannot crash the process (the reading reports the failure).
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

  /**
   * Everything waiting, a batch at a time: one promise per batch rather than per item (the
   * command prints 200k paths this way). `onTaken`: the reader took what was waiting (resume the
   * producer). `onEarlyExit`: the reader left before the end (end the producer).
   */
  async *batches(onTaken: () => void, onEarlyExit: () => void): AsyncGenerator<T[]> {
    let lastYielded: T | undefined;
    try {
      for (;;) {
        if (this.waiting.length > 0) {
          const batch = this.waiting;
          this.waiting = [];
          onTaken();
          lastYielded = batch[batch.length - 1];
          yield batch;
          continue;
        }
        if (this.ended) {
          if (this.failure !== undefined) throw this.failure;
          return;
        }
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      if (!this.ended) {
        this.readerLeft = true;
        this.droppedCount += this.waiting.length;
        // `items` already said which item it handed last; a reader of whole batches took all of each.
        this.lastHanded ??= lastYielded;
        this.waiting = [];
        onEarlyExit();
      }
    }
  }

  /**
   * The items one by one (the public streams' `for await`). Perf: an iterator written out rather
   * than an async generator (`yield*` over each batch): an item already taken from the producer is
   * handed over at once, and 200k items cost 20 ms instead of 70-100. Calls of `next` made while
   * one waits for a batch are answered in order, after it.
   */
  items(onTaken: () => void, onEarlyExit: () => void): AsyncIterableIterator<T> {
    const batches = this.batches(onTaken, onEarlyExit);
    let batch: T[] = [];
    let at = 0;
    let pulling: Promise<IteratorResult<T>> | undefined;
    const pull = async (): Promise<IteratorResult<T>> => {
      while (at >= batch.length) {
        const step = await batches.next();
        if (step.done === true) return { value: undefined, done: true };
        batch = step.value;
        at = 0;
      }
      return { value: batch[at++]!, done: false };
    };
    const iterator: AsyncIterableIterator<T> = {
      [Symbol.asyncIterator]: () => iterator,
      next: () => {
        if (pulling === undefined && at < batch.length) return Promise.resolve({ value: batch[at++]!, done: false });
        const result = pulling === undefined ? pull() : pulling.then(pull, pull);
        pulling = result;
        const settled = () => {
          if (pulling === result) pulling = undefined;
        };
        result.then(settled, settled);
        return result;
      },
      // `break` in a `for await`: the rest is dropped and the producer ended (the batches' `finally`).
      return: async () => {
        // The rest of the batch in hand was never handed over.
        this.droppedCount += batch.length - at;
        if (at > 0) this.lastHanded = batch[at - 1];
        batch = [];
        at = 0;
        await batches.return(undefined);
        return { value: undefined, done: true };
      },
    };
    return iterator;
  }

  private end(): void {
    this.ended = true;
    this.wakeReader();
  }

  /**
   * Perf: the reader is woken once per wait. Calling a settled promise's resolve again is not free:
   * 120k paths handed over took 33 ms with a call per path, 6 ms with one per wait.
   */
  private wakeReader(): void {
    const wake = this.wake;
    if (wake === undefined) return;
    this.wake = undefined;
    wake();
  }
}
