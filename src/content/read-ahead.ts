/**
 * The read-ahead of content search's pure-TS path. Perf: most files fit in one chunk, so a search
 * is mostly open/read/close round trips. Files are opened and their first chunk read `READ_AHEAD`
 * at a time, but searched one at a time, in the walk's order: hits (and which ones a limit keeps)
 * are the same as with no read-ahead.
 */
import type { FileReaderFs } from '../fs.js';
import type { Scope } from '../plan/search-plan.js';
import { buildCloser, buildPlaceCheck, openListedFile, readChunk } from './file-io.js';
import { READ_CHUNK_BYTES } from './scanner.js';

/**
 * Files opened, with their first chunk read, ahead of the one being searched. Halved (down to 1)
 * each time an open finds the process out of file handles: under a low `ulimit -n` the read-ahead
 * itself held most of them, and its own EMFILEs became gaps in the answer.
 */
const READ_AHEAD = 32;

/** An open file and its first buffer: `eof` when the file ended within it (it is closed then). */
export type First = { ok: true; fd: number; bytes: number; eof: boolean; error?: unknown } | { ok: false; error: unknown };

export interface Ahead {
  rel: string;
  /** This file's read buffer (`READ_CHUNK_BYTES`), from a pool. */
  buffer: Uint8Array;
  first: Promise<First>;
}

export class ReadAhead {
  private readonly ahead: Ahead[] = [];
  private readonly pool: Uint8Array[] = [];
  /** Files given back (see `outOfHandles`), in walk order: started again before any new file. */
  private readonly retake: string[] = [];
  /** Wanted files whose open waits for a free handle: no new file is started meanwhile. */
  private readonly waitingForHandles = new Set<Ahead>();
  private readonly givenBack = new WeakSet<Ahead>();
  private limit = READ_AHEAD;
  private readonly placeCheck: ((fd: number, rel: string) => boolean) | undefined;
  /** Closes a file the search opened (file-io.ts `buildCloser`): the read-ahead's, and the searcher's once it has read a file to its end. */
  readonly close: (fd: number) => void;

  constructor(
    private readonly fs: FileReaderFs,
    private readonly scope: Scope,
    /** The next file of the walk, or undefined when none is waiting. */
    private readonly takeFile: () => string | undefined,
  ) {
    this.placeCheck = buildPlaceCheck(scope.fs, scope.root);
    this.close = buildCloser(fs);
  }

  /** Starts files until `limit` are ahead or no file waits. */
  fill(): void {
    while (this.ahead.length < this.limit && this.waitingForHandles.size === 0) {
      const rel = this.retake.shift() ?? this.takeFile();
      if (rel === undefined) return;
      const item: Ahead = { rel, buffer: this.pool.pop() ?? new Uint8Array(READ_CHUNK_BYTES), first: undefined as unknown as Promise<First> };
      item.first = this.start(item);
      this.ahead.push(item);
    }
  }

  /** The oldest file started, to be searched next. */
  next(): Ahead | undefined {
    return this.ahead.shift();
  }

  /** A searched file's buffer, for reuse: only once nothing can still be reading into it. */
  release(item: Ahead): void {
    this.pool.push(item.buffer);
  }

  /** A file the search will not look at (it stopped): closed once its open and reads have settled. */
  abandon(item: Ahead): void {
    void item.first.then((first) => first.ok && !first.eof && this.close(first.fd));
  }

  abandonAll(): void {
    for (const item of this.ahead) this.abandon(item);
  }

  /**
   * An open found the process out of file handles. Read ahead less from now on, and give back the
   * files started after this one: they are searched only after it, so the handles they hold would
   * never be freed for it (a big file keeps its handle until it is searched), and its retries would
   * run out: a gap. They start again, in order, once it has opened. False when the file itself was
   * given back (its retries end).
   */
  private outOfHandles(item: Ahead): boolean {
    if (this.givenBack.has(item)) return false;
    this.limit = Math.max(1, this.limit >> 1);
    this.waitingForHandles.add(item);
    // Not in the window: it is the file being searched, and every file in the window comes after it.
    const at = this.ahead.indexOf(item);
    const later = this.ahead.splice(at + 1);
    for (const given of later) {
      this.givenBack.add(given);
      this.waitingForHandles.delete(given);
      this.abandon(given); // its buffer may still be read into: it is not pooled
    }
    this.retake.unshift(...later.map((given) => given.rel));
    return true;
  }

  /**
   * Opens a file and fills its buffer. Reads until the buffer is full or the file ends; a file that
   * ends within it is closed here, so the search of a small file waits on no I/O at all.
   */
  private async start(item: Ahead): Promise<First> {
    const { fs } = this;
    const { rel, buffer } = item;
    const opened = await openListedFile(fs, this.scope.nativePath(rel), () => this.outOfHandles(item));
    this.waitingForHandles.delete(item);
    if (!opened.ok) return opened;
    if (this.placeCheck !== undefined && !this.placeCheck(opened.fd, rel)) {
      this.close(opened.fd);
      return { ok: false, error: Object.assign(new Error('opened through a link swapped in on the way'), { code: 'ELOOP' }) };
    }
    const first = await this.readFirst(opened.fd, buffer, opened.size);
    if (first.eof) this.close(opened.fd);
    return first;
  }

  /**
   * Fills the buffer from the start of the file, up to its end or the buffer's. Perf: a file whose
   * size (from the open's fstat) has been read is at its end; no second read to learn it. A size of
   * 0 proves nothing (`/proc` files say 0): such a file is read until a read returns nothing.
   */
  private async readFirst(fd: number, buffer: Uint8Array, size: number | undefined): Promise<Extract<First, { ok: true }>> {
    let bytes = 0;
    for (;;) {
      const read = await readChunk(this.fs, fd, buffer, bytes);
      if (!read.ok) return { ok: true, fd, bytes, eof: false, error: read.error };
      if (read.bytes === 0) break;
      bytes += read.bytes;
      if (size !== undefined && size > 0 && bytes === size && bytes < buffer.length) break;
      if (bytes === buffer.length) return { ok: true, fd, bytes, eof: false };
    }
    return { ok: true, fd, bytes, eof: true };
  }
}
