/**
 * The public file-search API over the walker: a promise, a stream and a synchronous form, all with
 * the same options, the same plan, the same walk and the same result. The promise form alone can
 * run ripgrep (src/backend.ts).
 */
import { runFileBackend, walkerOnly } from './backend.js';
import type { FindOptions } from './options.js';
import { FindFileError } from './errors.js';
import { buildFindPlan, type FindPlan } from './plan/search-plan.js';
import type { EntryMeta } from './plan/select.js';
import { withAborted, type FindProgress, type FindResult, type FindSummary, type MatchEntry } from './result.js';
import { HandOff } from './stream.js';
import { NewestCollector, SortedCollector } from './walk/collector.js';
import { AsyncDriver, runSync } from './walk/drivers.js';
import { Walk } from './walk/engine.js';
import { MainThreadDriver } from './walk/main-thread.js';
import type { MatchPolicy, MatchSink } from './walk/rules.js';

/** Root-relative `/` path to what the caller asked for: itself, or a native absolute path. */
export function buildPathFormatter(plan: FindPlan): (rel: string) => string {
  return plan.query.absolute ? plan.scope.nativePath : (rel) => rel;
}

/** The walk's summary with its paths (the matching links) in the form the caller asked for. */
function summarize(plan: FindPlan, walk: Walk): FindSummary {
  const summary = walk.summary();
  if (!plan.query.absolute) return summary;
  return { ...summary, linkMatches: summary.linkMatches.map(plan.scope.nativePath), linksOnTheWay: summary.linksOnTheWay.map(plan.scope.nativePath) };
}

/** The matches a walk collected, in the answer's order, with their metadata when the walk lstat'ed them. */
interface Collected {
  rels: string[];
  metas: EntryMeta[] | undefined;
}

/** Where a promise or sync walk puts its matches: sorted by path, or the newest kept. */
interface Collector {
  add: MatchSink;
  /** Work to do while the async walk waits for reads. */
  onIdle?: () => void;
  collect(): Collected;
}

/**
 * The walk's policy for the answer asked: `sort: 'mtime'` counts on past `maxResults` (the N
 * newest of the whole tree) and lstats every match, as `stats` does.
 */
function policyOf(plan: FindPlan): MatchPolicy {
  const newest = plan.query.sort === 'mtime';
  return { maxMatches: plan.limits.maxResults, atLimit: newest ? 'count' : 'stop', withMeta: newest || plan.query.stats };
}

function buildCollector(plan: FindPlan): Collector {
  if (plan.query.sort === 'mtime') {
    const newest = new NewestCollector(plan.limits.maxResults);
    return {
      add: newest.add,
      collect: () => {
        const kept = newest.sorted();
        return { rels: kept.map((m) => m.rel), metas: kept.map((m) => m.meta) };
      },
    };
  }
  const sorted = new SortedCollector();
  return {
    add: sorted.add,
    onIdle: sorted.sortPending,
    collect: () => {
      const rels = sorted.sorted();
      return { rels, metas: plan.query.stats ? sorted.metasOf(rels) : undefined };
    },
  };
}

function toResult(plan: FindPlan, walk: Walk, { rels, metas }: Collected): FindResult {
  const format = buildPathFormatter(plan);
  const matches = plan.query.absolute ? rels.map(format) : rels;
  const result: FindResult = { matches, ...summarize(plan, walk) };
  // The public fields only: the walk's exact time (`mtimeNs`, a bigint) would make the result
  // unserialisable (`JSON.stringify` throws on a bigint: `--json --stats` with a time filter failed).
  if (plan.query.stats) result.entries = matches.map((path, i) => toEntry(path, metas![i]!));
  return result;
}

function toEntry(path: string, { type, size, mtimeMs }: EntryMeta): MatchEntry {
  return { path, type, size, mtimeMs };
}

/**
 * Finds files under `root` whose root-relative path matches `pattern`. Never rejects for a path
 * it cannot read (that is `skipped` in the result); rejects with a `FindFileError` for bad options
 * (before any I/O) and for a root that does not exist or is not a directory. Only `complete: true`
 * with no matches proves there is no such file; `complete: false` says why in `incompleteReasons`.
 *
 * @throws {FindFileError} For bad options, before any I/O: `FF_MISSING_OPTION`, `FF_UNKNOWN_OPTION`,
 * `FF_INVALID_OPTION`, `FF_INVALID_LIMIT`, `FF_INVALID_PATTERN`, `FF_PATTERN_TOO_LARGE`,
 * `FF_PATTERN_OUTSIDE_ROOT`, `FF_INVALID_ROOT`. `FF_RG_NOT_FOUND` for `backend: 'ripgrep'` with no
 * ripgrep; `FF_IGNORE_FILE` for an `ignoreFiles` entry that cannot be read; `ENOENT` or `ENOTDIR`
 * for the root itself (docs/errors.md).
 * @example
 * const result = await findFiles({ root: 'src', pattern: '*.test.ts', timeBudgetMs: 5000 });
 * if (result.complete && result.matches.length === 0) console.log('there is none');
 * else if (!result.complete) console.log('not all read:', result.incompleteReasons, result.skipped);
 */
export async function findFiles(options: FindOptions): Promise<FindResult> {
  return findFilesWith(options, 'pool');
}

/**
 * Where the walker reads its directories. `pool`: libuv's threads (`AsyncDriver`), so that a read
 * never holds the caller's event loop; what every library form does. `main-thread`: the sync walk
 * in slices (`MainThreadDriver`), for a process that only walks and has no time budget to keep (the
 * command): less CPU and memory, and a read that hangs holds the process.
 */
export type WalkReads = 'pool' | 'main-thread';

/** `findFiles` with the walker's reads chosen (the command's searches; not part of the public API). */
export async function findFilesWith(options: FindOptions, reads: WalkReads): Promise<FindResult> {
  const plan = buildFindPlan(options);
  return runFileBackend(plan, reads === 'main-thread' ? walkOnMainThread : walkAsync, buildPathFormatter(plan));
}

/** The walker's promise form; the backend calls it for `walker` and for `auto` when it falls back. */
export async function walkAsync(plan: FindPlan): Promise<FindResult> {
  const collector = buildCollector(plan);
  const walk = new Walk(plan, collector.add, policyOf(plan));
  await new AsyncDriver(walk, collector.onIdle === undefined ? {} : { onIdle: collector.onIdle }).done;
  return toResult(plan, walk, collector.collect());
}

/** `walkAsync` with the reads on the main thread, in slices (no idle time: the collector sorts at the end). */
async function walkOnMainThread(plan: FindPlan): Promise<FindResult> {
  const collector = buildCollector(plan);
  const walk = new Walk(plan, collector.add, policyOf(plan));
  await new MainThreadDriver(walk).done;
  return toResult(plan, walk, collector.collect());
}

/**
 * `findFiles` without the event loop: the same contract, read by read, always on the walker.
 * Throws where `findFiles` rejects; `FF_INVALID_OPTION` also for `backend: 'ripgrep'`.
 */
export function findFilesSync(options: FindOptions): FindResult {
  const plan = buildFindPlan(options);
  const note = walkerOnly(plan.backend.backend, 'findFilesSync');
  const collector = buildCollector(plan);
  const walk = new Walk(plan, collector.add, policyOf(plan));
  runSync(walk);
  return { ...toResult(plan, walk, collector.collect()), ...note };
}

/** Matches as they are found, then the summary. */
export interface FindStream extends AsyncIterable<string> {
  /**
   * The summary once the walk has ended and the loop has taken every match or left. The walk only
   * moves while the stream is read: iterate it to the end (or break out: `aborted`, counting the
   * matches taken, also when the walk had ended first) before awaiting this.
   */
  readonly summary: Promise<FindSummary>;
  /** Live counters (directories read, matches so far, elapsed), e.g. for a progress line. */
  progress(): FindProgress;
  /**
   * The same matches in batches (all that waits at each turn): one promise per batch, for readers
   * that print many paths. Read either the batches or the stream itself, not both.
   */
  batches(): AsyncIterable<string[]>;
}

/** How many found paths may wait for the reader before the walk pauses. */
const STREAM_HIGH_WATER = 1024;

/**
 * Yields each match as it is found (discovery order, not sorted), holding at most about
 * `STREAM_HIGH_WATER` paths plus one directory's entries, however many matches there are.
 * Bad options throw here, at once (the codes of `findFiles`; `FF_INVALID_OPTION` also for
 * `backend: 'ripgrep'`, `sort: 'mtime'` and `stats`); a missing root (`ENOENT`, `ENOTDIR`)
 * surfaces from the iteration and `summary`. Breaking out of the loop ends the walk (`aborted`).
 */
export function findFilesStream(options: FindOptions): FindStream {
  return streamFiles(options, 'pool');
}

/** `findFilesStream` with its reads chosen (`WalkReads`: the command's listing; not part of the public API). */
export function streamFiles(options: FindOptions, reads: WalkReads): FindStream {
  const plan = buildFindPlan(options);
  const note = walkerOnly(plan.backend.backend, 'findFilesStream');
  // A stream yields in discovery order, paths only: an order or metadata would need the whole walk first.
  if (plan.query.sort === 'mtime') throw new FindFileError('FF_INVALID_OPTION', 'findFilesStream yields matches as found: use findFiles or findFilesSync for sort "mtime"', 'sort');
  if (plan.query.stats) throw new FindFileError('FF_INVALID_OPTION', 'findFilesStream yields paths only: use findFiles or findFilesSync for stats', 'stats');
  const format = buildPathFormatter(plan);
  const handOff = new HandOff<string>(STREAM_HIGH_WATER);
  const walk = new Walk(plan, (base, name) => handOff.push(format(base + name)));
  const flow = { isPaused: () => handOff.isFull };
  const driver = reads === 'main-thread' ? new MainThreadDriver(walk, flow) : new AsyncDriver(walk, flow);
  // A reader that left paths untaken did not get them, even from a walk that had ended: "returned" counts what it took.
  const summary = handOff.finish(
    driver.done.then(() => ({ ...summarize(plan, walk), ...note })),
    (found, { dropped }) => (dropped === 0 ? found : { ...found, matchedCount: found.matchedCount - dropped, ...withAborted(found.incompleteReasons) }),
  );
  const endEarly = () => {
    walk.abort();
    driver.resume();
  };
  const resume = () => driver.resume();
  return {
    summary,
    progress: () => walk.progress(),
    batches: () => handOff.batches(resume, endEarly),
    [Symbol.asyncIterator]: () => handOff.items(resume, endEarly),
  };
}
