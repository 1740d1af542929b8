/**
 * The read worker's side of its protocol (read-worker.ts starts the worker and speaks for the main
 * thread): the commands, the answers, and `SyncReader`, which opens and reads listed files
 * synchronously with the defences of file-io.ts, into the slots of a shared ring.
 */
import type { ByteLines } from './byte-lines.js';

/** What the worker needs from the main thread, once. */
export interface ReaderInit {
  /** `open` flags (file-io.ts `OPEN_FLAGS`). */
  flags: string | number;
  /** Bytes read at a time (scanner.ts `READ_CHUNK_BYTES`): the size of a slot. */
  chunkBytes: number;
  /** The ring, `chunkBytes` times its slot count. */
  ring: SharedArrayBuffer | ArrayBuffer;
  /** Chunks of a long file read per request (`TOGETHER`). */
  together: number;
  /** The query's bytes when not finding them proves a file has no hit (scanner.ts `buildNeedle`). */
  needle?: Uint8Array | undefined;
  /** The scanner's byte mode applies (a needle, line by line, no context): a whole file's hits are found here. */
  byteMode?: boolean;
  /** `HITS_IN_WORKER` (the worker cannot see this module's constants). */
  hitCap: number;
}

/** Hits of one file found in the worker, at most (as line, column, text): a file with more is searched by the main thread. */
export const HITS_IN_WORKER = 256;

/** Slots in the ring: more than the read-ahead's window with the worker (64) and two batches of `TOGETHER`. */
export const SLOTS = 104;

/** Chunks of a long file read per request. */
export const TOGETHER = 16;

/**
 * One file's first chunk (in `slot`, `bytes` long), or why there is none. With a slot and a code:
 * a read that failed after those bytes (the file is closed).
 */
export interface FirstAnswer {
  id: number;
  slot?: number;
  bytes?: number;
  eof?: boolean;
  /** Decided here, as the scanner would decide (no slot, the file closed): see `WholeFileVerdict`. */
  verdict?: WholeFileVerdict;
  /** With the verdict `hits`: line, column, text, for each hit in order. */
  hits?: (number | string)[];
  code?: string;
  message?: string;
}

/** The next chunks of a file still open in the worker (an empty one: its end; the file is closed then), and the error that ended them. */
export interface ChunkAnswer {
  id: number;
  slots: number[];
  sizes: number[];
  code?: string;
  message?: string;
}

/**
 * What the scanner decides for a file, decided in the worker by the same code (byte-lines.ts
 * `ByteLines`): a NUL in its first chunk (not UTF-16) is a binary file, never searched; a whole
 * file without the query's bytes has no hit (`firstLook`); in byte mode, a whole file's hits are
 * found (`search`). Such a file costs the main thread a number
 * or its hits, not a buffer. Perf: most files of a search are these.
 */
export type WholeFileVerdict = 'binary' | 'no-hit' | 'hits';

/**
 * `[0, id, path, expected]`: open and read the first chunk (`expected`: what /proc/self/fd must
 * name, or ''); `[1, id]`: the next chunks; `[2, id]`: close; `[3, slot]`: a slot given back.
 */
export type Command = [0, number, string, string] | [1, number] | [2, number] | [3, number];

/** The sync fs calls the reader makes (node:fs; a test may pass its own). */
export interface SyncReaderFs {
  openSync(path: string, flags: string | number): number;
  fstatSync(fd: number): { isFile(): boolean; size: number };
  readlinkSync(path: string): string;
  readSync(fd: number, buffer: Uint8Array, offset: number, length: number, position: null): number;
  closeSync(fd: number): void;
  /**
   * Closes a FIFO or device opened by mistake (a file swapped after the walk listed it), whose
   * driver may wait on close: the one-thread engine closes those without waiting (the read
   * worker's thread may wait, so it has none).
   */
  closeNonRegular?(fd: number): void;
}

/**
 * The worker's reader. Self-contained (the worker runs it from its source text: it may use nothing
 * from this module's scope but the global `Buffer`), and exported so tests run the very code the
 * worker runs. `first` and `more` answer undefined when no slot is free: the caller waits for one
 * to come back (`free`).
 */
export class SyncReader {
  /** Slots free to read into. */
  readonly free: number[] = [];
  private readonly ring: Uint8Array;
  /** Files longer than one chunk, open until their end, an error or `close`: id to descriptor. */
  private readonly openFiles = new Map<number, number>();

  constructor(
    private readonly fs: SyncReaderFs,
    private readonly init: ReaderInit,
    /** byte-lines.ts `ByteLines`: the scanner's first look and byte mode (the worker is given its own). */
    private readonly lines: Pick<ByteLines, 'firstLook' | 'withoutBom' | 'search'>,
  ) {
    this.ring = new Uint8Array(init.ring);
    for (let slot = this.ring.length / init.chunkBytes - 1; slot >= 0; slot--) this.free.push(slot);
  }

  /** Opens `path`, checks it (file-io.ts's checks, in its order) and reads its first chunk. */
  first(id: number, path: string, expected: string): FirstAnswer | undefined {
    if (this.free.length === 0) return undefined;
    let fd: number;
    try {
      fd = this.fs.openSync(path, this.init.flags);
    } catch (error) {
      return { id, ...this.failure(error) };
    }
    let size: number | undefined;
    try {
      const stats = this.fs.fstatSync(fd);
      if (!stats.isFile()) {
        if (this.fs.closeNonRegular !== undefined) this.fs.closeNonRegular(fd);
        else this.closeQuietly(fd);
        return { id, code: 'EFTYPE', message: 'not a regular file any more' };
      }
      size = stats.size;
    } catch {
      // a failed fstat: the read will say
    }
    if (expected !== '' && !this.isPlace(fd, expected)) {
      this.closeQuietly(fd);
      return { id, code: 'ELOOP', message: 'opened through a link swapped in on the way' };
    }
    return this.readFirst(id, fd, size);
  }

  /** The next chunks of an open file, up to `together`; the file is closed at its end or an error. */
  more(id: number): ChunkAnswer | undefined {
    const fd = this.openFiles.get(id);
    if (fd === undefined) return { id, slots: [], sizes: [], code: 'EBADF', message: 'the file is not open' };
    if (this.free.length === 0) return undefined;
    const { chunkBytes, together } = this.init;
    const answer: ChunkAnswer = { id, slots: [], sizes: [] };
    try {
      while (answer.slots.length < together && this.free.length > 0) {
        const slot = this.free.pop()!;
        const bytes = this.fs.readSync(fd, this.slotView(slot, chunkBytes), 0, chunkBytes, null);
        answer.slots.push(slot);
        answer.sizes.push(bytes);
        if (bytes === 0) {
          this.close(id);
          break;
        }
      }
    } catch (error) {
      this.close(id);
      return { ...answer, ...this.failure(error) };
    }
    return answer;
  }

  close(id: number): void {
    const fd = this.openFiles.get(id);
    if (fd === undefined) return;
    this.openFiles.delete(id);
    this.closeQuietly(fd);
  }

  /**
   * Fills a slot from the start of the file, up to its end or the slot's. A file whose size was
   * read is at its end (no second read to learn it); a size of 0 proves nothing (`/proc`).
   */
  private readFirst(id: number, fd: number, size: number | undefined): FirstAnswer {
    const { chunkBytes } = this.init;
    const known = size !== undefined && size > 0 && size < chunkBytes;
    const slot = this.free.pop()!;
    const buffer = this.slotView(slot, known ? size! : chunkBytes);
    let bytes = 0;
    try {
      for (;;) {
        const read = this.fs.readSync(fd, buffer, bytes, buffer.length - bytes, null);
        if (read === 0) break;
        bytes += read;
        if (bytes === buffer.length) {
          if (known) break;
          if (this.lines.firstLook(buffer, false, this.init.needle) === 'binary') return this.judged(id, fd, slot, bytes, 'binary');
          this.openFiles.set(id, fd);
          return { id, slot, bytes, eof: false };
        }
      }
    } catch (error) {
      this.closeQuietly(fd);
      return { id, slot, bytes, eof: false, ...this.failure(error) };
    }
    const whole = buffer.subarray(0, bytes);
    const verdict = this.lines.firstLook(whole, true, this.init.needle);
    if (verdict === 'binary' || verdict === 'no-hit') return this.judged(id, fd, slot, bytes, verdict);
    const hits = verdict === 'holds-needle' ? this.findHits(whole) : undefined;
    if (hits !== undefined) return { ...this.judged(id, fd, slot, bytes, 'hits'), hits };
    this.closeQuietly(fd);
    return { id, slot, bytes, eof: true };
  }

  /**
   * Byte mode on a whole UTF-8 file that holds the needle (`ByteLines.firstLook`): its hits, as the
   * scanner's byte mode finds them (a UTF-8 BOM dropped first); undefined past `HITS_IN_WORKER`.
   */
  private findHits(bytes: Uint8Array): (number | string)[] | undefined {
    const { needle, byteMode } = this.init;
    if (needle === undefined || byteMode !== true) return undefined;
    const body = this.lines.withoutBom(bytes);
    const block = Buffer.from(body.buffer, body.byteOffset, body.length);
    const hits: (number | string)[] = [];
    const cap = this.init.hitCap * 3;
    this.lines.search(block, needle, 1, (line, column, text) => hits.push(line, column, text) < cap, true);
    return hits.length < cap ? hits : undefined;
  }

  /** A file decided here: closed, its slot free again, only the verdict goes out. */
  private judged(id: number, fd: number, slot: number, bytes: number, verdict: WholeFileVerdict): FirstAnswer {
    this.closeQuietly(fd);
    this.free.push(slot);
    return { id, bytes, verdict };
  }

  /** Linux: is the descriptor the listed file (`/proc/self/fd`)? An unreadable link proves nothing: no. */
  private isPlace(fd: number, expected: string): boolean {
    try {
      return this.fs.readlinkSync(`/proc/self/fd/${fd}`) === expected;
    } catch {
      return false;
    }
  }

  private slotView(slot: number, length: number): Uint8Array {
    const start = slot * this.init.chunkBytes;
    return this.ring.subarray(start, start + length);
  }

  private closeQuietly(fd: number): void {
    try {
      this.fs.closeSync(fd);
    } catch {
      // nothing was written: nothing to lose
    }
  }

  private failure(error: unknown): { code: string; message: string } {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    return { code: typeof code === 'string' ? code : 'EIO', message: typeof message === 'string' ? message : String(error) };
  }
}
