/**
 * Content search without ripgrep: the walker's file set (file-queue.ts), each file opened and read
 * ahead (read-ahead.ts, file-io.ts) and searched by `FileScanner`, one at a time, in walk order.
 * Memory stays flat: a bounded file queue, the read-ahead buffers, one unfinished line.
 *
 * The same reasons, decided the same way: a directory that cannot be read is the walk's `skipped`
 * entry; a file that cannot be opened or read is this module's, with the walker's classification
 * (permission-denied, io-error, and vanished: skipped but no gap). Stops (stop.ts: `result-limit`,
 * `output-limit`, `time-budget`, `aborted`) end the walk too.
 */
import { Deadline } from '../limits.js';
import type { ContentPlan } from '../plan/content-plan.js';
import { errorCodeOf } from '../result.js';
import { FileQueue } from './file-queue.js';
import type { HitCollector } from './hits.js';
import { MatchGate } from './match-gate.js';
import { buildLineMatcher, type Matcher } from './query.js';
import { ReadAhead, type Ahead } from './read-ahead.js';
import { FileScanner, buildNeedle } from './scanner.js';
import { SearchStop } from './stop.js';
import { SearchTally } from './tally.js';
import type { ContentSummary, WaitForReader } from './types.js';

const NO_BYTES = new Uint8Array(0);

export function searchWithWalker(plan: ContentPlan, hits: HitCollector, waitForReader?: WaitForReader): Promise<ContentSummary> {
  return new WalkerContentSearch(plan, hits, waitForReader).run();
}

class WalkerContentSearch {
  private readonly deadline: Deadline;
  private readonly gate: MatchGate;
  private readonly matcher: Matcher;
  private readonly needle: ReturnType<typeof buildNeedle>;
  private readonly files: FileQueue;
  private readonly stop: SearchStop;
  private readonly ahead: ReadAhead;
  private readonly tally: SearchTally;

  constructor(
    private readonly plan: ContentPlan,
    private readonly hits: HitCollector,
    private readonly waitForReader: WaitForReader | undefined,
  ) {
    const { clock, timeBudgetMs, signal } = plan.limits;
    const fs = plan.query.reader;
    this.deadline = new Deadline(clock, timeBudgetMs);
    // Asked before every long matching call, so one long line cannot hold the search past its budget or signal.
    this.gate = new MatchGate(this.deadline, signal !== undefined);
    this.matcher = buildLineMatcher(plan.query.query, this.gate);
    this.needle = buildNeedle(plan.query.query);
    this.files = new FileQueue(plan);
    this.stop = new SearchStop(this.deadline, signal, () => this.files.stop());
    this.tally = new SearchTally(hits, this.stop, this.deadline, this.gate);
    // The scanner's byte mode (scanner.ts `openDecoder`): the read worker finds a whole file's hits then.
    const byteMode = this.needle !== undefined && !plan.query.query.multiline && !hits.wantsContext;
    this.ahead = new ReadAhead(fs, plan.scope, () => this.files.take(), { needle: this.needle, byteMode });
  }

  async run(): Promise<ContentSummary> {
    const { stop, files, ahead } = this;
    try {
      for (;;) {
        if (stop.shouldStop()) break;
        const wait = this.waitForReader?.();
        if (wait !== undefined) {
          await stop.race(wait);
          continue;
        }
        ahead.fill();
        const item = ahead.next();
        if (item === undefined) {
          if (files.ended) break;
          await files.waitForFile((io) => stop.race(io));
          continue;
        }
        ahead.fill();
        await this.searchFile(item);
        // Its last hit may wait for after-context lines: the file has no more.
        this.hits.endFile();
        if (!stop.stopped) ahead.release(item);
      }
    } finally {
      stop.dispose();
      ahead.dispose();
    }
    // Our own stop ended the walk: let the driver settle (it does at once once resumed).
    if (!files.ended) files.stop();
    await files.done;
    if (files.error !== undefined && !stop.stopped) throw files.error;
    return this.tally.summary(files.walk.summary(), files.walk.stopped, files.specials);
  }

  /** One file, chunk by chunk: the first chunk from the read-ahead, the rest as the scanner asks. */
  private async searchFile(item: Ahead): Promise<void> {
    const { rel } = item;
    const { stop } = this;
    const first = await stop.race(item.first);
    if (first === undefined) return this.ahead.abandon(item);
    if (!first.ok) return this.tally.skipFile(rel, errorCodeOf(first.error));
    if (first.verdict !== undefined) return this.tally.takeVerdict(rel, first);
    const { eof, rest } = first;
    // The file is closed once no read is pending on it (closing under a read could hit a reused fd).
    let reading: Promise<unknown> = Promise.resolve();
    try {
      const scanner = new FileScanner(rel, this.matcher, this.plan.query.query.multiline, this.hits, this.needle);
      let data = first.data;
      let done = first.done;
      let error = first.error;
      for (let isFirst = true; ; isFirst = false) {
        if (!this.tally.scanChunk(rel, scanner, data, isFirst, eof, error, done)) return;
        const wait = this.waitForReader?.();
        if (wait !== undefined && (await stop.race(wait.then(() => true))) === undefined) return;
        const pending = rest.read();
        reading = pending;
        const next = await stop.race(pending);
        if (next === undefined) return;
        data = next.ok ? next.data : NO_BYTES;
        done = next.ok ? next.done : undefined;
        error = next.ok ? undefined : next.error;
      }
    } finally {
      if (!eof) void reading.then(() => rest.close());
    }
  }
}
