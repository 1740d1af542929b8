/**
 * The read-ahead of content search's pure-TS path. Perf: most files fit in one chunk, so a search
 * is mostly open/read/close round trips. Files are opened and their first chunk read `READ_AHEAD`
 * at a time, but searched one at a time, in the walk's order: hits (and which ones a limit keeps)
 * are the same as with no read-ahead.
 *
 * On the real disk, once a search has run a while (`READ_WORKER`), the opens and first reads move
 * to a worker thread (read-worker.ts), synchronous there, and so do the files the worker can decide
 * alone (binary, or without the query's bytes). A short search never pays for starting one; until
 * it runs (and should it end or run out of file handles) the files are read here, as before.
 */
import { defaultFs, type FileReaderFs } from '../fs.js';
import { monotonicClock } from '../plan/clock.js';
import type { Scope } from '../plan/search-plan.js';
import { classifyErrorCode, errorCodeOf } from '../result.js';
import { OPEN_FLAGS, buildCloser, buildPlaceCheck, openListedFile, placePrefix, readChunk } from './file-io.js';
import { READ_CHUNK_BYTES } from './scanner.js';
import { WORKER_GONE, WorkerReader, type ChunkResult, type FirstResult, type Rest } from './read-worker.js';

/**
 * Files opened, with their first chunk read, ahead of the one being searched. Halved (down to 1)
 * each time an open finds the process out of file handles: under a low `ulimit -n` the read-ahead
 * itself held most of them, and its own EMFILEs became gaps in the answer.
 */
const READ_AHEAD = 32;

/**
 * When the read worker starts: once the search has started `afterFiles` files and has run for
 * `afterMs`. Perf: a worker takes 50-60 ms of another core to start here, and the process cannot
 * end while one is starting (a search of 100 small files took 16 ms longer with one, of 1,000
 * files 35 ms); /usr/include's 7,900 files took 1.15 s without it, 0.95 with it from the first
 * file, 1.03 with these thresholds (docs/performance.md, Round 10). So a short search never starts one. A time, not an answer: what the search finds is the same either way.
 * Tests set all three (`waitUntilReady`: the files wait for the worker instead of being read here meanwhile).
 */
export const READ_WORKER = { afterFiles: 64, afterMs: 150, waitUntilReady: false };

/** An open file and its first bytes (`eof` when the file ended within them: it is closed then), or what the worker decided for it. */
export type First = (Extract<FirstResult, { ok: true; verdict?: undefined }> & { rest: Rest }) | Exclude<FirstResult, { ok: true; verdict?: undefined }>;

export interface Ahead {
  rel: string;
  /** This file's read buffer (`READ_CHUNK_BYTES`), from a pool: the reads made on this thread fill it. */
  buffer: Uint8Array;
  first: Promise<First>;
}

const NO_REST: Rest = { read: () => Promise.resolve({ ok: true, data: new Uint8Array(0) }), close: () => {} };

export class ReadAhead {
  private readonly ahead: Ahead[] = [];
  private readonly pool: Uint8Array[] = [];
  /** Files given back (see `outOfHandles`), in walk order: started again before any new file. */
  private readonly retake: string[] = [];
  /** Wanted files whose open waits for a free handle: no new file is started meanwhile. */
  private readonly waitingForHandles = new Set<Ahead>();
  private readonly givenBack = new WeakSet<Ahead>();
  private limit = READ_AHEAD;
  /** What /proc/self/fd names the root's files with (file-io.ts `placePrefix`), where that is checked: here and in the worker. */
  private readonly placePrefix: string | undefined;
  private readonly placeCheck: ((fd: number, rel: string) => boolean) | undefined;
  /** Closes a file the search opened on this thread (file-io.ts `buildCloser`). */
  private readonly close: (fd: number) => void;
  /** The read worker: undefined until started (or on an injected fs: never). */
  private worker: WorkerReader | undefined;
  /** False once the worker found the process out of file handles: the files are read here from then on. */
  private useWorker = true;
  private started = 0;
  private readonly startedAt = monotonicClock.now();
  private disposed = false;

  constructor(
    private readonly fs: FileReaderFs,
    private readonly scope: Scope,
    /** The next file of the walk, or undefined when none is waiting. */
    private readonly takeFile: () => string | undefined,
    /** What the worker may decide: the query's bytes (scanner.ts `buildNeedle`), and whether the scanner's byte mode applies. */
    private readonly judging: { needle?: Uint8Array | undefined; byteMode: boolean } = { byteMode: false },
  ) {
    this.placePrefix = placePrefix(scope.fs, scope.root);
    this.placeCheck = buildPlaceCheck(this.placePrefix);
    this.close = buildCloser(fs);
  }

  /** Starts files until `limit` are ahead or no file waits. */
  fill(): void {
    // Perf: the worker's window is twice as deep (each file waits on a trip between threads, not on
    // the disk), and it is filled in batches of a quarter (a message each way per batch, not per file).
    const window = this.workerReady() ? this.limit * 2 : this.limit;
    if (window > this.limit && this.ahead.length > window - (window >> 2)) return;
    while (this.ahead.length < window && this.waitingForHandles.size === 0) {
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
    void item.first.then((first) => {
      if (!first.ok || first.verdict !== undefined) return;
      first.done?.();
      if (!first.eof) first.rest.close();
    });
  }

  /** The search is over: the files still ahead are abandoned, and the worker (with what it holds open) ends. */
  dispose(): void {
    for (const item of this.ahead) this.abandon(item);
    this.disposed = true;
    this.worker?.dispose();
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

  /** Opens a file and reads its first chunk: in the worker once it runs, here until then. */
  private start(item: Ahead): Promise<First> {
    if (this.worker === undefined && ++this.started > READ_WORKER.afterFiles && monotonicClock.now() - this.startedAt >= READ_WORKER.afterMs) this.startWorker();
    if (READ_WORKER.waitUntilReady && this.worker !== undefined && !this.worker.ready && !this.worker.gone) {
      return this.worker.running.then(() => this.start(item));
    }
    return this.workerReady() ? this.startInWorker(item, this.worker!) : this.startHere(item);
  }

  private workerReady(): boolean {
    return this.useWorker && this.worker?.ready === true;
  }

  private startWorker(): void {
    if (this.fs !== defaultFs || this.disposed || !this.useWorker) return; // the worker reads the real disk only
    try {
      this.worker = new WorkerReader({ flags: OPEN_FLAGS, chunkBytes: READ_CHUNK_BYTES, ...this.judging });
    } catch {
      this.useWorker = false; // no thread to be had (a process limit): the files are read here
    }
  }

  private async startInWorker(item: Ahead, worker: WorkerReader): Promise<First> {
    const prefix = this.placePrefix;
    const first = await worker.first(this.scope.nativePath(item.rel), prefix === undefined ? '' : prefix + item.rel);
    if (first.ok) return first.verdict === undefined ? { ...first, rest: first.rest ?? NO_REST } : first;
    const code = errorCodeOf(first.error);
    // Out of handles: from here on the files are read on this thread, where the read-ahead adapts (`outOfHandles`).
    const outOfHandles = classifyErrorCode(code) === 'retryable';
    if (outOfHandles) this.useWorker = false;
    if ((outOfHandles || code === WORKER_GONE) && !this.disposed) return this.startHere(item);
    return first;
  }

  /**
   * Opens a file and fills its buffer. Reads until the buffer is full or the file ends; a file that
   * ends within it is closed here, so the search of a small file waits on no I/O at all.
   */
  private async startHere(item: Ahead): Promise<First> {
    const { fs } = this;
    const { rel, buffer } = item;
    const opened = await openListedFile(fs, this.scope.nativePath(rel), () => this.outOfHandles(item));
    this.waitingForHandles.delete(item);
    if (!opened.ok) return opened;
    const { fd } = opened;
    if (this.placeCheck !== undefined && !this.placeCheck(fd, rel)) {
      this.close(fd);
      return { ok: false, error: Object.assign(new Error('opened through a link swapped in on the way'), { code: 'ELOOP' }) };
    }
    const first = await this.readFirst(fd, buffer, opened.size);
    if (first.eof) {
      this.close(fd);
      return { ...first, rest: NO_REST };
    }
    const read = async (): Promise<ChunkResult> => {
      const chunk = await readChunk(fs, fd, buffer, 0);
      return chunk.ok ? { ok: true, data: buffer.subarray(0, chunk.bytes) } : chunk;
    };
    return { ...first, rest: { read, close: () => this.close(fd) } };
  }

  /**
   * Fills the buffer from the start of the file, up to its end or the buffer's. Perf: a file whose
   * size (from the open's fstat) has been read is at its end; no second read to learn it. A size of
   * 0 proves nothing (`/proc` files say 0): such a file is read until a read returns nothing.
   */
  private async readFirst(fd: number, buffer: Uint8Array, size: number | undefined): Promise<Extract<FirstResult, { ok: true; verdict?: undefined }>> {
    let bytes = 0;
    for (;;) {
      const read = await readChunk(this.fs, fd, buffer, bytes);
      if (!read.ok) return { ok: true, data: buffer.subarray(0, bytes), eof: false, error: read.error };
      if (read.bytes === 0) break;
      bytes += read.bytes;
      if (size !== undefined && size > 0 && bytes === size && bytes < buffer.length) break;
      if (bytes === buffer.length) return { ok: true, data: buffer, eof: false };
    }
    return { ok: true, data: buffer.subarray(0, bytes), eof: true };
  }
}
