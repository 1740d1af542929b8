/**
 * Content search without ripgrep: the walker's file set, each file read in chunks and searched by
 * `FileScanner`. The walk (src/walk/) runs as `findFiles` runs it, streaming the files it accepts
 * into a short queue; files are opened and read a few dozen ahead, and searched one at a time in
 * walk order. Memory stays flat: a bounded file queue, the read-ahead buffers, one unfinished line.
 *
 * The same reasons, decided the same way: a directory that cannot be read is the walk's `skipped`
 * entry; a file that cannot be opened or read is this module's, with the walker's classification
 * (permission-denied, io-error, and vanished: skipped but no gap). The time budget and the signal
 * are checked before every file and every chunk; with the real clock a timer also ends a search
 * stuck in a hung read. Stops (`result-limit`, `output-limit`, `time-budget`, `aborted`) end the
 * walk too.
 */
import { constants as fsConstants, existsSync, readlink, realpathSync } from 'node:fs';
import { canReadFiles, defaultFs, type FileReaderFs, type StatsLike } from '../fs.js';
import { isDefaultClock, setBudgetTimer, type BudgetTimer } from '../options.js';
import { ReasonLog, classifyErrorCode, errorCodeOf, verdictFields, type IncompleteReason, type SkippedEntry } from '../result.js';
import { AsyncDriver, RETRY_DELAYS_MS } from '../walk/drivers.js';
import { Walk } from '../walk/engine.js';
import type { HitCollector } from './hits.js';
import type { ContentPlan } from './options.js';
import { buildMatcher } from './query.js';
import { FileScanner, READ_CHUNK_BYTES, buildNeedle, type ScanState } from './scanner.js';
import type { ContentIncompleteReason, ContentSummary } from './types.js';
import { nativePath } from '../paths.js';

/** Files the walk may find ahead of the search before it pauses. */
const FILE_QUEUE = 256;

/**
 * Files opened, with their first chunk read, ahead of the one being searched. Halved (down to 1)
 * each time an open finds the process out of file handles: under a low `ulimit -n` the read-ahead
 * itself held most of them, and its own EMFILEs became gaps in the answer.
 */
const READ_AHEAD = 32;

interface Ahead {
  rel: string;
  /** This file's read buffer (`READ_CHUNK_BYTES`), from a pool. */
  buffer: Uint8Array;
  first: Promise<First>;
}

/** Called before each file and chunk; a promise means "wait: the reader has enough". */
export type WaitForReader = () => Promise<void> | undefined;

type Stop = 'result-limit' | 'output-limit' | 'time-budget' | 'aborted';

export async function searchWithWalker(plan: ContentPlan, hits: HitCollector, waitForReader?: WaitForReader): Promise<ContentSummary> {
  const walkPlan = plan.walk;
  const { clock, signal, timeBudgetMs } = walkPlan;
  if (!canReadFiles(walkPlan.fs)) throw new Error('unreachable: buildContentPlan checks the fs can read files');
  const fs: FileReaderFs = walkPlan.fs;
  const startedAt = clock.now();
  // The budget is asked before every regex search too, so one long file cannot run far past it.
  const matcher = buildMatcher(plan.query, () => clock.now() - startedAt >= timeBudgetMs);
  const needle = buildNeedle(plan.query);
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
  let timer: BudgetTimer | undefined;
  if (isDefaultClock(clock)) timer = setBudgetTimer(timeBudgetMs - (clock.now() - startedAt), () => stop('time-budget'));

  /** The I/O result, or undefined when the search stopped first. */
  const race = <T>(io: Promise<T>): Promise<T | undefined> => Promise.race([io, stoppedPromise]);

  const skipFile = (rel: string, code: string) => {
    fileSkips.push({ path: rel, code });
    own.noteSkipped(code);
  };

  /**
   * Opens a file and fills its buffer: run ahead of the search (`READ_AHEAD` files at once). Reads
   * until the buffer is full or the file ends; a file that ends within it is closed here, so the
   * search of a small file waits on no I/O at all.
   */
  const startFile = async (rel: string, buffer: Uint8Array): Promise<First> => {
    const path = nativePath(walkPlan.rootPrefix, walkPlan.sep, rel);
    const opened = await openRetrying(fs, path, () => (readAhead = Math.max(1, readAhead >> 1)));
    if (!opened.ok) return opened;
    if (placeCheck !== undefined && !(await placeCheck(opened.fd, rel))) {
      fs.close(opened.fd, () => {});
      return { ok: false, error: Object.assign(new Error('opened through a link swapped in on the way'), { code: 'ELOOP' }) };
    }
    let bytes = 0;
    for (;;) {
      const read = await readChunk(fs, opened.fd, buffer, bytes);
      if (!read.ok) return { ok: true, fd: opened.fd, bytes, eof: false, error: read.error };
      if (read.bytes === 0) break;
      bytes += read.bytes;
      if (bytes === buffer.length) return { ok: true, fd: opened.fd, bytes, eof: false };
    }
    fs.close(opened.fd, () => {});
    return { ok: true, fd: opened.fd, bytes, eof: true };
  };
  /** A file the search will not look at (it stopped): close it once its open and reads have settled. */
  const abandon = (item: Ahead) => void item.first.then((first) => first.ok && !first.eof && fs.close(first.fd, () => {}));

  async function searchFile(item: Ahead): Promise<void> {
    const { rel, buffer } = item;
    const first = await race(item.first);
    if (first === undefined) return abandon(item);
    if (!first.ok) return skipFile(rel, errorCodeOf(first.error));
    const { fd, eof } = first;
    // The fd is closed once no read is pending on it (closing under a read could hit a reused fd).
    let reading: Promise<unknown> = Promise.resolve();
    try {
      const scanner = new FileScanner(rel, matcher, plan.query.multiline, hits, needle);
      let bytes = first.bytes;
      let error = first.error;
      for (let isFirst = true; ; isFirst = false) {
        bytesSearched += bytes;
        // The first buffer of a file that ended within it: the end is known, no read needed.
        let state: ScanState = bytes === 0 ? (error === undefined ? scanner.finish() : 'more') : scanner.push(buffer.subarray(0, bytes), isFirst && eof);
        if (isFirst && eof && state === 'more') state = scanner.finish();
        if (isFirst && state !== 'binary' && (bytes > 0 || error === undefined)) filesSearched++;
        // A read error ends the file: the hits of what was read are kept, the file is a gap.
        if (error !== undefined && (state === 'more' || state === 'done')) return skipFile(rel, errorCodeOf(error));
        if (state === 'binary' || state === 'binary-late') binarySkipped++;
        else if (state === 'too-long') skipFile(rel, 'EFBIG');
        else if (state === 'stop') stop(hits.stopReason!);
        if (state !== 'more' || shouldStop()) return;
        const wait = waitForReader?.();
        if (wait !== undefined && (await race(wait.then(() => true))) === undefined) return;
        const pending = readChunk(fs, fd, buffer, 0);
        reading = pending;
        const next = await race(pending);
        if (next === undefined) return;
        bytes = next.ok ? next.bytes : 0;
        error = next.ok ? undefined : next.error;
      }
    } finally {
      if (!eof) void reading.then(() => fs.close(fd, () => {}));
    }
  }

  // Perf: most files fit in one chunk, so a search is mostly open/read/close round trips. Files are
  // opened and their first chunk read `READ_AHEAD` at a time, but searched one at a time, in the
  // walk's order: hits (and which ones a limit keeps) are the same as with no read-ahead.
  const ahead: Ahead[] = [];
  let readAhead = READ_AHEAD;
  const placeCheck = buildPlaceCheck(walkPlan.fs, walkPlan.root);
  const pool: Uint8Array[] = [];
  const takeFile = (): string | undefined => {
    if (head >= files.length) return undefined;
    const rel = files[head++]!;
    if (head === files.length) {
      files = [];
      head = 0;
      driver.resume();
    } else if (files.length - head === FILE_QUEUE / 2) {
      driver.resume();
    }
    return rel;
  };
  const fillAhead = () => {
    while (ahead.length < readAhead) {
      const rel = takeFile();
      if (rel === undefined) return;
      const buffer = pool.pop() ?? new Uint8Array(READ_CHUNK_BYTES);
      ahead.push({ rel, buffer, first: startFile(rel, buffer) });
    }
  };

  try {
    for (;;) {
      if (shouldStop()) break;
      const wait = waitForReader?.();
      if (wait !== undefined) {
        await race(wait);
        continue;
      }
      fillAhead();
      const item = ahead.shift();
      if (item === undefined) {
        if (walkEnded) break;
        await race(new Promise<void>((resolve) => (wake = resolve)));
        wake = undefined;
        continue;
      }
      fillAhead();
      await searchFile(item);
      // A buffer is reused only once nothing can still be reading into it.
      if (!stopped) pool.push(item.buffer);
    }
  } finally {
    timer?.clear();
    signal?.removeEventListener('abort', onAbort);
    for (const item of ahead) abandon(item);
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
    ...verdictFields(incompleteReasons),
    truncated: hits.truncated,
    protocolErrors: 0,
    stats: { dirsRead: walked.stats.dirsRead, entriesSeen: walked.stats.entriesSeen, elapsedMs: clock.now() - startedAt, bytesSearched },
    backend: 'walker',
  };
}

type Opened = { ok: true; fd: number } | { ok: false; error: unknown };
/** An open file and its first buffer: `eof` when the file ended within it (it is closed then). */
type First = { ok: true; fd: number; bytes: number; eof: boolean; error?: unknown } | { ok: false; error: unknown };

/**
 * How a listed file is opened, where the platform has the flags (not Windows). `O_NOFOLLOW`: a file
 * swapped for a link after the walk listed it is not followed (`ELOOP`, a gap), so the search never
 * reads through a link into another tree. `O_NONBLOCK`: a FIFO swapped in, or a file that waits for
 * data (`/proc/kmsg`), cannot hold a libuv thread (and with it the process's exit) forever.
 */
const OPEN_FLAGS: string | number =
  fsConstants.O_NOFOLLOW === undefined || fsConstants.O_NONBLOCK === undefined ? 'r' : fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;

/**
 * Opens a listed file (retried like a directory read when the process is out of file handles) and
 * checks, on the descriptor itself, that it is a regular file: a FIFO, device or directory swapped in
 * since the listing is closed unread and reported as `EFTYPE` (a gap: it is not what was listed).
 */
async function openRetrying(fs: FileReaderFs, path: string, onOutOfHandles: () => void): Promise<Opened> {
  for (let attempt = 0; ; attempt++) {
    const opened = await new Promise<Opened>((resolve) => {
      try {
        fs.open(path, OPEN_FLAGS, (error, fd) => resolve(error ? { ok: false, error } : { ok: true, fd }));
      } catch (error) {
        resolve({ ok: false, error });
      }
    });
    const retryable = !opened.ok && classifyErrorCode(errorCodeOf(opened.error)) === 'retryable';
    if (!retryable || attempt >= RETRY_DELAYS_MS.length) return opened.ok ? checkRegular(fs, opened.fd) : opened;
    onOutOfHandles();
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAYS_MS[attempt]));
  }
}

async function checkRegular(fs: FileReaderFs, fd: number): Promise<Opened> {
  if (fs.fstat === undefined) return { ok: true, fd };
  const stats = await new Promise<StatsLike | undefined>((resolve) => {
    try {
      fs.fstat!(fd, (error, value) => resolve(error ? undefined : value));
    } catch {
      resolve(undefined);
    }
  });
  if (stats === undefined || stats.isFile()) return { ok: true, fd }; // a failed fstat: the read will say
  fs.close(fd, () => {});
  return { ok: false, error: Object.assign(new Error('not a regular file any more'), { code: 'EFTYPE' }) };
}

/**
 * Linux, the real disk: is the opened descriptor the file at root/rel? `O_NOFOLLOW` guards only the
 * last name; a directory on the way swapped for a link after the walk listed it would be followed
 * (Node has no `openat`). `/proc/self/fd/N` names what was really opened, so a file reached through
 * such a link is closed unread (`ELOOP`, a gap), and nothing outside the root is ever searched.
 * Elsewhere (no /proc, an injected fs) undefined: docs/reliability.md says what remains there.
 */
function buildPlaceCheck(fs: unknown, root: string): ((fd: number, rel: string) => Promise<boolean>) | undefined {
  if (process.platform !== 'linux' || fs !== defaultFs || !existsSync('/proc/self/fd')) return undefined;
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch {
    return undefined; // the walk reports the root's own error
  }
  const prefix = realRoot.endsWith('/') ? realRoot : `${realRoot}/`;
  return (fd, rel) =>
    new Promise((resolve) => readlink(`/proc/self/fd/${fd}`, (error, target) => resolve(error === null && target === prefix + rel)));
}

type Read = { ok: true; bytes: number } | { ok: false; error: unknown };

/** Reads into `buffer` from `offset` to its end, at the file's current position. */
function readChunk(fs: FileReaderFs, fd: number, buffer: Uint8Array, offset: number): Promise<Read> {
  return new Promise((resolve) => {
    try {
      fs.read(fd, buffer, offset, buffer.length - offset, null, (error, bytes) => resolve(error ? { ok: false, error } : { ok: true, bytes }));
    } catch (error) {
      resolve({ ok: false, error });
    }
  });
}
