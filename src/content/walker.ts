/**
 * Content search without ripgrep: the walker's file set, each file read in chunks and searched by
 * `FileScanner`. The walk (src/walk/) runs as `findFiles` runs it, streaming the files it accepts
 * into a short queue; the search takes them one at a time, so memory stays flat: a bounded file
 * queue, one read buffer, one unfinished line.
 *
 * The same reasons, decided the same way: a directory that cannot be read is the walk's `skipped`
 * entry; a file that cannot be opened or read is this module's, with the walker's classification
 * (permission-denied, io-error, and vanished: skipped but no gap). The time budget and the signal
 * are checked before every file and every chunk; with the real clock a timer also ends a search
 * stuck in a hung read. Stops (`result-limit`, `output-limit`, `time-budget`, `aborted`) end the
 * walk too.
 */
import { canReadFiles, type FileReaderFs } from '../fs.js';
import { isDefaultClock } from '../options.js';
import { ReasonLog, classifyErrorCode, errorCodeOf, type IncompleteReason, type SkippedEntry } from '../result.js';
import { AsyncDriver, RETRY_DELAYS_MS } from '../walk/drivers.js';
import { Walk } from '../walk/engine.js';
import type { HitCollector } from './hits.js';
import type { ContentPlan } from './options.js';
import { buildMatcher } from './query.js';
import { FileScanner, READ_CHUNK_BYTES, type ScanState } from './scanner.js';
import type { ContentIncompleteReason, ContentSummary } from './types.js';

/** Files the walk may find ahead of the search before it pauses. */
const FILE_QUEUE = 256;

/** Called before each file and chunk; a promise means "wait: the reader has enough". */
export type WaitForReader = () => Promise<void> | undefined;

type Stop = 'result-limit' | 'output-limit' | 'time-budget' | 'aborted';

export async function searchWithWalker(plan: ContentPlan, hits: HitCollector, waitForReader?: WaitForReader): Promise<ContentSummary> {
  const walkPlan = plan.walk;
  const { clock, signal, timeBudgetMs } = walkPlan;
  if (!canReadFiles(walkPlan.fs)) throw new Error('unreachable: buildContentPlan checks the fs can read files');
  const fs: FileReaderFs = walkPlan.fs;
  const startedAt = clock.now();
  const matcher = buildMatcher(plan.query);
  const own = new ReasonLog<ContentIncompleteReason>();
  const fileSkips: SkippedEntry[] = [];
  let filesSearched = 0;
  let binarySkipped = 0;
  let bytesSearched = 0;

  // The walk: the file set exactly as findFiles would find it (its maxResults counts hits, not files).
  let files: string[] = [];
  let head = 0;
  let wake: (() => void) | undefined;
  const walk = new Walk({ ...walkPlan, maxResults: Infinity }, (base, name) => {
    files.push(base + name);
    wake?.();
  });
  const driver = new AsyncDriver(walk, { isPaused: () => files.length - head >= FILE_QUEUE });
  let walkEnded = false;
  let walkError: unknown;
  const walkDone = driver.done.then(
    () => {},
    (error: unknown) => {
      walkError = error;
    },
  ).finally(() => {
    walkEnded = true;
    wake?.();
  });

  // Stopping: every wait races this promise, so a hung read cannot hold the answer.
  let stopped = false;
  let onStop!: () => void;
  const stoppedPromise = new Promise<undefined>((resolve) => (onStop = () => resolve(undefined)));
  const stop = (reason: Stop): boolean => {
    if (!stopped) {
      stopped = true;
      own.stop(reason);
      walk.abort();
      driver.resume(); // lets the driver see the walk has stopped and settle
      onStop();
    }
    return true;
  };
  const shouldStop = (): boolean => {
    if (stopped) return true;
    if (signal?.aborted) return stop('aborted');
    if (clock.now() - startedAt >= timeBudgetMs) return stop('time-budget');
    return false;
  };
  const onAbort = () => stop('aborted');
  signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  if (Number.isFinite(timeBudgetMs) && isDefaultClock(clock)) timer = setTimeout(() => stop('time-budget'), Math.max(0, timeBudgetMs - (clock.now() - startedAt)));

  /** The I/O result, or undefined when the search stopped first. */
  const race = <T>(io: Promise<T>): Promise<T | undefined> => Promise.race([io, stoppedPromise]);

  const skipFile = (rel: string, code: string) => {
    fileSkips.push({ path: rel, code });
    const kind = classifyErrorCode(code);
    if (kind === 'permission-denied') own.note('permission-denied');
    else if (kind !== 'vanished') own.note('io-error');
  };

  const buffer = new Uint8Array(READ_CHUNK_BYTES);

  async function searchFile(rel: string): Promise<void> {
    const path = walkPlan.sep === '/' ? walkPlan.rootPrefix + rel : walkPlan.rootPrefix + rel.replace(/\//g, walkPlan.sep);
    const opening = openRetrying(fs, path);
    const opened = await race(opening);
    if (opened === undefined) {
      // Stopped while the open was pending: close what it opens, whenever it does.
      void opening.then((late) => late.ok && fs.close(late.fd, () => {}));
      return;
    }
    if (!opened.ok) return skipFile(rel, errorCodeOf(opened.error));
    const fd = opened.fd;
    // The fd is closed once no read is pending on it (closing under a read could hit a reused fd).
    let reading: Promise<unknown> = Promise.resolve();
    try {
      const scanner = new FileScanner(rel, matcher, plan.query.multiline, hits);
      for (let first = true; ; first = false) {
        if (shouldStop()) return;
        const wait = waitForReader?.();
        if (wait !== undefined && (await race(wait.then(() => true))) === undefined) return;
        const pending = readChunk(fs, fd, buffer);
        reading = pending;
        const read = await race(pending);
        if (read === undefined) return;
        if (!read.ok) return skipFile(rel, errorCodeOf(read.error));
        bytesSearched += read.bytes;
        const state: ScanState = read.bytes === 0 ? scanner.finish() : scanner.push(buffer.subarray(0, read.bytes));
        if (first && state !== 'binary') filesSearched++;
        if (state === 'more') continue;
        if (state === 'binary' || state === 'binary-late') binarySkipped++;
        else if (state === 'too-long') skipFile(rel, 'EFBIG');
        else if (state === 'stop') stop(hits.stopReason!);
        return;
      }
    } finally {
      void reading.then(() => fs.close(fd, () => {}));
    }
  }

  try {
    for (;;) {
      if (shouldStop()) break;
      const wait = waitForReader?.();
      if (wait !== undefined) {
        await race(wait);
        continue;
      }
      if (head < files.length) {
        const rel = files[head]!;
        head++;
        if (head === files.length) {
          files = [];
          head = 0;
          driver.resume();
        } else if (files.length - head === FILE_QUEUE / 2) {
          driver.resume();
        }
        await searchFile(rel);
        continue;
      }
      if (walkEnded) break;
      await race(new Promise<void>((resolve) => (wake = resolve)));
      wake = undefined;
    }
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  if (!walkEnded) {
    // Our own stop ended the walk: let the driver settle (it does at once once resumed).
    walk.abort();
    driver.resume();
  }
  await walkDone;
  if (walkError !== undefined && !stopped) throw walkError;

  const walked = walk.summary();
  const reasons = new ReasonLog<ContentIncompleteReason>();
  const ownReasons = own.list();
  // The walk stops only for what this search also checks (the clock, the signal) or because this
  // search stopped it: its own stop reason is never news.
  const walkStop: IncompleteReason | undefined = walk.stopped ? walked.incompleteReasons[0] : undefined;
  if (own.stopped) reasons.stop(ownReasons[0]!);
  else if (walkStop !== undefined) reasons.stop(walkStop);
  for (const reason of walkStop === undefined ? walked.incompleteReasons : walked.incompleteReasons.slice(1)) reasons.note(reason);
  for (const reason of ownReasons) reasons.note(reason);
  const incompleteReasons = reasons.list();
  const skipped = [...walked.skipped, ...fileSkips];
  return {
    hitCount: hits.hitCount,
    filesSearched,
    binarySkipped,
    skipped,
    skippedCount: skipped.length,
    symlinkSkipped: walked.symlinkSkipped,
    excludedCount: walked.excludedCount,
    complete: incompleteReasons.length === 0,
    ...(incompleteReasons.length > 0 ? { incompleteReason: incompleteReasons[0] } : {}),
    incompleteReasons,
    truncated: hits.truncated,
    protocolErrors: 0,
    stats: { dirsRead: walked.stats.dirsRead, entriesSeen: walked.stats.entriesSeen, elapsedMs: clock.now() - startedAt, bytesSearched },
    backend: 'walker',
  };
}

type Opened = { ok: true; fd: number } | { ok: false; error: unknown };

/** `open(path, 'r')`, retried like a directory read when the process is out of file handles. */
async function openRetrying(fs: FileReaderFs, path: string): Promise<Opened> {
  for (let attempt = 0; ; attempt++) {
    const opened = await new Promise<Opened>((resolve) => {
      try {
        fs.open(path, 'r', (error, fd) => resolve(error ? { ok: false, error } : { ok: true, fd }));
      } catch (error) {
        resolve({ ok: false, error });
      }
    });
    const retryable = !opened.ok && classifyErrorCode(errorCodeOf(opened.error)) === 'retryable';
    if (!retryable || attempt >= RETRY_DELAYS_MS.length) return opened;
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
  }
}

type Read = { ok: true; bytes: number } | { ok: false; error: unknown };

function readChunk(fs: FileReaderFs, fd: number, buffer: Uint8Array): Promise<Read> {
  return new Promise((resolve) => {
    try {
      fs.read(fd, buffer, 0, buffer.length, null, (error, bytes) => resolve(error ? { ok: false, error } : { ok: true, bytes }));
    } catch (error) {
      resolve({ ok: false, error });
    }
  });
}
