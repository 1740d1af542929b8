/**
 * Ordering a stream's reader against its producer without timing: gates that hold chosen reads
 * (or a fake ripgrep's output) until the test opens them, and the moment the hand-off has seen the
 * producer end (src/stream.ts `HandOff.finish`), which nothing public shows: the summary itself
 * waits for the reader.
 */
import { vi } from 'vitest';
import { HandOff, type Taken } from '../../src/stream.js';

/** A promise the test resolves by hand. */
export interface Gate {
  readonly opened: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A memfs volume whose `readdir` of each gated directory (`/root/g`: the walk asks for `/root/g/`) waits for its gate. */
export function gatedFs<V extends object>(volume: V, gates: Record<string, Gate>): V {
  return new Proxy(volume, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (key === 'readdir') {
        return (path: string, options: unknown, callback: unknown) => {
          const held = gates[path.replace(/\/+$/, '')];
          const read = () => (value as (...args: unknown[]) => void).call(target, path, options, callback);
          if (held === undefined) read();
          else void held.opened.then(read);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * From now on (until `vi.restoreAllMocks`), `ended()` is the end of the producer of the stream made
 * last, settled once its hand-off has seen it. Registered after the hand-off's own handler on the
 * same promise, so it runs after that one (promise handlers run in the order they were added).
 */
export function watchProducerEnds(): { ended: () => Promise<void> } {
  const finish = HandOff.prototype.finish;
  let last: Promise<void> | undefined;
  vi.spyOn(HandOff.prototype, 'finish').mockImplementation(function (this: HandOff<unknown>, done: Promise<unknown>, handedOver: (found: unknown, taken: Taken<unknown>) => unknown) {
    const summary = finish.call(this, done, handedOver);
    last = done.then(
      () => undefined,
      () => undefined,
    );
    return summary;
  });
  return {
    ended: () => {
      if (last === undefined) throw new Error('no stream was made since watchProducerEnds');
      return last;
    },
  };
}
