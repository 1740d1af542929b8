/**
 * Splits a byte stream into records at a one-byte delimiter: NUL for `--files --null`, newline for
 * stderr lines and for `--json` events. Splitting happens on bytes and a record is decoded only once
 * it is whole, so a chunk may end anywhere, inside a multi-byte UTF-8 character included (NUL and
 * newline never occur inside one). Memory is bounded: at most one unfinished record is held, and one
 * that grows past `maxBytes` is refused.
 */

const decoder = new TextDecoder('utf-8');

export type PushResult =
  /** Every complete record was taken. */
  | 'ok'
  /** `onRecord` returned false: the rest of the chunk was not read. */
  | 'stopped'
  /** The unfinished record passed the byte cap. */
  | 'overflow';

export class RecordSplitter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly delimiter: number,
    private readonly maxBytes: number,
  ) {}

  /** Takes a chunk; calls `onRecord` for each record it completes. */
  push(chunk: Uint8Array, onRecord: (record: string) => boolean): PushResult {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(this.delimiter, start);
      if (end < 0) break;
      if (this.pendingBytes + end - start > this.maxBytes) return 'overflow';
      const record = this.take(chunk.subarray(start, end));
      start = end + 1;
      if (!onRecord(record)) return 'stopped';
    }
    if (start < chunk.length) {
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > this.maxBytes) return 'overflow';
      // Copied (Buffer#slice would be a view): the caller may reuse its buffer.
      this.pending.push(new Uint8Array(chunk.subarray(start)));
    }
    return 'ok';
  }

  /**
   * The unfinished tail once the stream has ended, or undefined. Listings drop it (a record without
   * its delimiter may be cut short); stderr keeps it (a last line without a newline is still a line).
   */
  rest(): string | undefined {
    if (this.pendingBytes === 0) return undefined;
    return this.take(new Uint8Array(0));
  }

  private take(tail: Uint8Array): string {
    if (this.pendingBytes === 0) return decoder.decode(tail);
    const whole = new Uint8Array(this.pendingBytes + tail.length);
    let at = 0;
    for (const part of this.pending) {
      whole.set(part, at);
      at += part.length;
    }
    whole.set(tail, at);
    this.pending = [];
    this.pendingBytes = 0;
    return decoder.decode(whole);
  }
}
