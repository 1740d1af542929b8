/**
 * Content search's pure-TS path in one thread: each directory listed (the sync walk, one step at a
 * time), then its files opened, checked, read and searched one by one, in walk order, with
 * synchronous calls. The same walk, the same defences (sync-reader.ts `SyncReader`: `O_NOFOLLOW |
 * O_NONBLOCK`, a file that is no longer regular closed unread, the `/proc/self/fd` place check),
 * the same scanner and the same bookkeeping (tally.ts) as walker.ts: the same answer.
 *
 * Perf: on this project's two-core machine, walker.ts's hand-offs (the walk's reads through libuv's
 * pool, the files through the read worker, each thread waking the other) cost more than they
 * save: the command over /usr/include's 7,911 files took 651 ms against 1,021 (docs/performance.md,
 * Round 16).
 *
 * When (search.ts `oneThreadApplies`): on the real disk, with no time budget. A read that hangs (a
 * dead network mount, a cloud file being fetched) holds this thread, and so the answer, as it holds
 * ripgrep; with a budget the search runs in walker.ts, whose reads wait in another thread while the
 * budget answers. The search gives the event loop a turn every `SLICE.ms`, and in a large
 * directory's judging where the walk pauses, so the caller's signal, a stream's reader and the
 * command's Ctrl-C are heard that soon, and waits for a stream's reader before each file and chunk,
 * as walker.ts does.
 */
import * as nodeFs from 'node:fs';
import { Deadline, retryDelay } from '../limits.js';
import type { ContentPlan } from '../plan/content-plan.js';
import { monotonicClock } from '../plan/clock.js';
import { startSync, stepSync } from '../walk/drivers.js';
import { Walk } from '../walk/engine.js';
import { byteLines } from './byte-lines.js';
import { OPEN_FLAGS, placePrefix } from './file-io.js';
import type { HitCollector } from './hits.js';
import { MatchGate } from './match-gate.js';
import { buildLineMatcher, type Matcher } from './query.js';
import { FileScanner, READ_CHUNK_BYTES, buildNeedle } from './scanner.js';
import { SearchStop } from './stop.js';
import { HITS_IN_WORKER, SyncReader, type SyncReaderFs } from './sync-reader.js';
import { SearchTally } from './tally.js';
import type { ContentSummary, WaitForReader } from './types.js';
import { SpecialFiles, contentWalkPolicy } from './walk-policy.js';

/** The longest the search runs, in ms, before it lets the event loop turn (tests set 0: a turn after every file). */
export const SLICE = { ms: 10 };

/** Chunks of a long file read at a time (256 KiB): the slice's clock is asked between batches. */
const BATCH = 4;

/** One chunk of a file as the scanner takes it: bytes in a slot, or the end, or the error that ended the reads. */
interface Chunk {
  slot: number | undefined;
  bytes: number;
  error: { code: string; message: string } | undefined;
}

export function searchInOneThread(plan: ContentPlan, hits: HitCollector, waitForReader?: WaitForReader): Promise<ContentSummary> {
  return new OneThreadSearch(plan, hits, waitForReader).run();
}

class OneThreadSearch {
  private readonly deadline: Deadline;
  private readonly gate: MatchGate;
  private readonly matcher: Matcher;
  private readonly needle: Uint8Array | undefined;
  private readonly walk: Walk;
  private readonly specials = new SpecialFiles();
  private readonly stop: SearchStop;
  private readonly tally: SearchTally;
  private readonly reader: SyncReader;
  private readonly ring: Uint8Array;
  /** What /proc/self/fd names the root's files with, where that is checked (file-io.ts `placePrefix`). */
  private readonly placePrefix: string | undefined;
  /** The files of the directory listed last, searched before the next is listed. */
  private files: string[] = [];
  private nextFile = 0;
  private fileId = 0;
  private sliceEnd = 0;
  /** Attempts so far at the file being opened while the process is out of file handles. */
  private retries = 0;

  constructor(
    private readonly plan: ContentPlan,
    private readonly hits: HitCollector,
    private readonly waitForReader: WaitForReader | undefined,
  ) {
    const { clock, timeBudgetMs, signal } = plan.limits;
    this.deadline = new Deadline(clock, timeBudgetMs);
    // Asked before every long matching call, so one long line cannot hold the search past its budget or signal.
    this.gate = new MatchGate(this.deadline, signal !== undefined);
    this.matcher = buildLineMatcher(plan.query.query, this.gate);
    this.needle = buildNeedle(plan.query.query);
    // No match limit: `maxResults` counts hits here. A symlinked directory is named on the way.
    this.walk = new Walk(plan, (base, name) => this.files.push(base + name), contentWalkPolicy(this.specials));
    this.stop = new SearchStop(this.deadline, signal, () => this.walk.abort());
    this.tally = new SearchTally(hits, this.stop, this.deadline, this.gate);
    const byteMode = this.needle !== undefined && !plan.query.query.multiline && !hits.wantsContext;
    const ring = new ArrayBuffer(READ_CHUNK_BYTES * BATCH);
    this.ring = new Uint8Array(ring);
    this.reader = new SyncReader(syncCallsOf(plan.query.reader), { flags: OPEN_FLAGS, chunkBytes: READ_CHUNK_BYTES, ring, together: BATCH, needle: this.needle, byteMode, hitCap: HITS_IN_WORKER }, byteLines);
    this.placePrefix = placePrefix(plan.query.reader, plan.scope.root);
  }

  async run(): Promise<ContentSummary> {
    const { walk, stop } = this;
    try {
      this.sliceEnd = monotonicClock.now() + SLICE.ms;
      startSync(walk);
      for (;;) {
        if (stop.shouldStop()) break;
        const wait = this.waitForReader?.();
        if (wait !== undefined) {
          await stop.race(wait);
          continue;
        }
        if (this.nextFile < this.files.length) {
          const rel = this.files[this.nextFile]!;
          const searching = this.searchFile(rel);
          if (typeof searching === 'number') {
            // Out of file handles: the same file again after the pause (then its error, like any other).
            await stop.race(new Promise((resolve) => setTimeout(resolve, searching)));
            continue;
          }
          this.nextFile++;
          if (searching !== undefined) await searching;
          this.hits.endFile(); // its last hit may wait for after-context lines: the file has no more
        } else {
          this.files = [];
          this.nextFile = 0;
          // A large directory pauses after some matching: the event loop runs (a timer's abort), then it goes on.
          let step = stepSync(walk, true);
          while (typeof step === 'object') {
            await this.turn();
            step = step.resume();
          }
          if (!step) break;
        }
        if (monotonicClock.now() >= this.sliceEnd) await this.turn();
      }
    } finally {
      stop.dispose();
    }
    return this.tally.summary(walk.summary(), walk.stopped, this.specials);
  }

  /** Lets the event loop run: timers, the signal's listeners, a stream's reader, signals. */
  private async turn(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.sliceEnd = monotonicClock.now() + SLICE.ms;
  }

  /**
   * Opens, checks and reads `rel`'s first chunk and searches it. Answers the pause before trying
   * again when the process is out of file handles (limits.ts `retryDelay`), a promise while a
   * longer file's later chunks are searched (turns between them), or nothing when the file is done.
   */
  private searchFile(rel: string): number | Promise<void> | undefined {
    const id = ++this.fileId;
    const first = this.reader.first(id, this.plan.scope.nativePath(rel), this.placePrefix === undefined ? '' : this.placePrefix + rel)!;
    const opened = first.slot !== undefined || first.verdict !== undefined;
    const pause = opened ? undefined : retryDelay(first, this.retries);
    if (pause !== undefined) {
      this.retries++;
      return pause;
    }
    this.retries = 0;
    if (first.slot === undefined) {
      if (first.verdict !== undefined) this.tally.takeVerdict(rel, { bytes: first.bytes!, verdict: first.verdict, hits: first.hits });
      else this.tally.skipFile(rel, first.code!);
      return undefined;
    }
    const scanner = new FileScanner(rel, this.matcher, this.plan.query.query.multiline, this.hits, this.needle);
    const eof = first.eof === true;
    const error = first.code === undefined ? undefined : { code: first.code, message: first.message ?? '' };
    if (!this.take(rel, scanner, { slot: first.slot, bytes: first.bytes!, error }, true, eof) || eof || error !== undefined) {
      this.reader.close(id);
      return undefined;
    }
    return this.searchRest(rel, id, scanner);
  }

  /** A file longer than one chunk: `BATCH` chunks read at a time, each scanned once a stream's reader has room, a turn of the loop between batches once a slice is spent. */
  private async searchRest(rel: string, id: number, scanner: FileScanner): Promise<void> {
    try {
      for (;;) {
        const answer = this.reader.more(id)!;
        const chunks: Chunk[] = answer.slots.map((slot, i) => ({ slot, bytes: answer.sizes[i]!, error: undefined }));
        if (answer.code !== undefined) chunks.push({ slot: undefined, bytes: 0, error: { code: answer.code, message: answer.message ?? '' } });
        let more = true;
        for (const chunk of chunks) {
          // Before each chunk, as walker.ts: a file's hits wait for a slow stream reader too.
          const wait = more ? this.waitForReader?.() : undefined;
          if (wait !== undefined && (await this.stop.race(wait.then(() => true))) === undefined) more = false;
          if (more) more = this.take(rel, scanner, chunk, false, false);
          else if (chunk.slot !== undefined) this.reader.free.push(chunk.slot);
        }
        // An empty chunk is the file's end (the reader has closed it): `take` said no more then.
        if (!more) return;
        if (monotonicClock.now() >= this.sliceEnd) await this.turn();
        if (this.stop.shouldStop()) return;
      }
    } finally {
      this.reader.close(id);
    }
  }

  /** Scans one chunk (tally.ts `scanChunk`: walker.ts's rule); its slot is free again once scanned. True when the file goes on. */
  private take(rel: string, scanner: FileScanner, chunk: Chunk, isFirst: boolean, eof: boolean): boolean {
    const { slot, bytes, error } = chunk;
    const start = (slot ?? 0) * READ_CHUNK_BYTES;
    const release = slot === undefined ? undefined : () => this.reader.free.push(slot);
    return this.tally.scanChunk(rel, scanner, this.ring.subarray(start, start + bytes), isFirst, eof, error, release);
  }
}

/** The reader's synchronous calls on the plan's fs (node:fs on the real disk; a test's memfs volume). */
function syncCallsOf(fs: unknown): SyncReaderFs {
  const calls = fs as SyncReaderFs & Pick<typeof nodeFs, 'close'>;
  return {
    openSync: (path, flags) => calls.openSync(path, flags),
    fstatSync: (fd) => calls.fstatSync(fd),
    readlinkSync: (path) => calls.readlinkSync(path),
    readSync: (fd, buffer, offset, length, position) => calls.readSync(fd, buffer, offset, length, position),
    closeSync: (fd) => calls.closeSync(fd),
    closeNonRegular: (fd) => calls.close(fd, () => {}),
  };
}
