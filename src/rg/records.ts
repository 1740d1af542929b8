/**
 * Splits a byte stream into records at a one-byte delimiter: NUL for `--files --null`, newline for
 * stderr lines and for `--json` events. A chunk may end anywhere, inside a multi-byte UTF-8 character
 * included (NUL and newline never occur inside one): the decoding streams across chunks, and an
 * invalid sequence is U+FFFD in the record it belongs to, as if each record were decoded alone.
 * Memory is bounded: at most one unfinished record is held, and one that grows past `maxBytes` is
 * refused.
 */
import { StringDecoder } from 'node:string_decoder';

export type PushResult =
  /** Every complete record was taken. */
  | 'ok'
  /** `onRecord` returned false: the rest of the chunk was not read. */
  | 'stopped'
  /** The unfinished record passed the byte cap. */
  | 'overflow';

export class RecordSplitter {
  /**
   * Perf: one decode per chunk, not one per record (a content search's 26k JSON lines made 26k
   * decoder calls and as many buffer views). Streaming, so a character cut by the chunk's end is
   * completed by the next chunk. A BOM is kept wherever it is: it is part of the name or the line.
   * Node's `StringDecoder`, not `TextDecoder`: the same characters and the same U+FFFD for every
   * invalid sequence, however cut (test/rg/records.test.ts), and on Node 20 the 6.9 MB of a
   * search of /usr/include decoded in 1.2-1.8 ms against 6.7-14 (TextDecoder's streaming path
   * goes through ICU's converter).
   */
  private readonly decoder = new StringDecoder('utf8');
  /** The unfinished record, decoded so far. */
  private pendingText = '';
  private pendingBytes = 0;
  private readonly separator: string;

  constructor(
    private readonly delimiter: number,
    private readonly maxBytes: number,
  ) {
    this.separator = String.fromCharCode(delimiter);
  }

  /** Takes a chunk; calls `onRecord` for each record it completes. */
  push(chunk: Uint8Array, onRecord: (record: string) => boolean): PushResult {
    const last = chunk.lastIndexOf(this.delimiter);
    if (last < 0) return this.hold(chunk);
    // Only a record longer than the cap is refused; the records before it are still taken.
    const through = this.pendingBytes + last > this.maxBytes ? this.endBeforeOverflow(chunk, last) : last;
    if (through >= 0) {
      // The region ends with a delimiter (ASCII, never inside a character): the decoder holds nothing back.
      const records = (this.pendingText + this.decoder.write(chunk.subarray(0, through + 1))).split(this.separator);
      records.pop(); // the empty text after the region's last delimiter
      this.pendingText = '';
      this.pendingBytes = 0;
      for (const record of records) if (!onRecord(record)) return 'stopped';
    }
    if (through < last) return 'overflow';
    return this.hold(chunk.subarray(last + 1));
  }

  /**
   * The unfinished tail once the stream has ended, or undefined. Listings drop it (a record without
   * its delimiter may be cut short); stderr keeps it (a last line without a newline is still a line).
   */
  rest(): string | undefined {
    if (this.pendingBytes === 0) return undefined;
    const text = this.pendingText + this.decoder.end();
    this.pendingText = '';
    this.pendingBytes = 0;
    return text;
  }

  /** Keeps the start of an unfinished record (decoded: the caller may reuse its buffer). */
  private hold(part: Uint8Array): PushResult {
    if (part.length === 0) return 'ok';
    this.pendingBytes += part.length;
    if (this.pendingBytes > this.maxBytes) return 'overflow';
    this.pendingText += this.decoder.write(part);
    return 'ok';
  }

  /** The delimiter ending the last record before the first one over the cap (-1: the first is). */
  private endBeforeOverflow(chunk: Uint8Array, last: number): number {
    let size = this.pendingBytes;
    let previous = -1;
    for (let end = chunk.indexOf(this.delimiter); end >= 0 && end <= last; end = chunk.indexOf(this.delimiter, end + 1)) {
      if (size + end - previous - 1 > this.maxBytes) return previous;
      size = 0;
      previous = end;
    }
    return last;
  }
}
