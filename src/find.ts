/**
 * The public file-search API over the walker: a promise, a stream and a synchronous form, all with
 * the same options, the same plan, the same walk and the same result. The promise form alone can
 * run ripgrep (src/backend.ts).
 */
import { runFileBackend, walkerOnly } from './backend.js';
import type { FindOptions } from './options.js';
import { buildFindPlan, type FindPlan } from './plan/search-plan.js';
import type { FindProgress, FindResult, FindSummary } from './result.js';
import { HandOff } from './stream.js';
import { SortedCollector } from './walk/collector.js';
import { AsyncDriver, runSync } from './walk/drivers.js';
import { Walk } from './walk/engine.js';

/** Root-relative `/` path to what the caller asked for: itself, or a native absolute path. */
export function buildPathFormatter(plan: FindPlan): (rel: string) => string {
  return plan.query.absolute ? plan.scope.nativePath : (rel) => rel;
}

/** The walk's summary with its paths (the matching links) in the form the caller asked for. */
function summarize(plan: FindPlan, walk: Walk): FindSummary {
  const summary = walk.summary();
  if (!plan.query.absolute) return summary;
  return { ...summary, linkMatches: summary.linkMatches.map(plan.scope.nativePath) };
}

function toResult(plan: FindPlan, walk: Walk, rels: string[]): FindResult {
  return { matches: plan.query.absolute ? rels.map(plan.scope.nativePath) : rels, ...summarize(plan, walk) };
}

/**
 * Finds files under `root` whose root-relative path matches `pattern`. Never rejects for a path
 * it cannot read (that is `skipped` in the result); rejects with a `FindFileError` for bad options
 * (before any I/O) and for a root that does not exist or is not a directory.
 */
export async function findFiles(options: FindOptions): Promise<FindResult> {
  const plan = buildFindPlan(options);
  return runFileBackend(plan, walkAsync, buildPathFormatter(plan));
}

/** The walker's promise form; the backend calls it for `walker` and for `auto` when it falls back. */
async function walkAsync(plan: FindPlan): Promise<FindResult> {
  const collector = new SortedCollector();
  const walk = new Walk(plan, collector.add);
  await new AsyncDriver(walk, { onIdle: collector.sortPending }).done;
  return toResult(plan, walk, collector.sorted());
}

/** `findFiles` without the event loop: the same contract, read by read. Throws where `findFiles` rejects. */
export function findFilesSync(options: FindOptions): FindResult {
  const plan = buildFindPlan(options);
  const note = walkerOnly(plan.backend.backend, 'findFilesSync');
  const collector = new SortedCollector();
  const walk = new Walk(plan, collector.add);
  runSync(walk);
  return { ...toResult(plan, walk, collector.sorted()), ...note };
}

/** Matches as they are found, then the summary. */
export interface FindStream extends AsyncIterable<string> {
  /**
   * The summary once the walk has ended. The walk only moves while the stream is read: iterate
   * it to the end (or break out, which ends the walk as `aborted`) before awaiting this.
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
 * A stream's reader sets the pace (it prints), so reads far ahead of it only sit in memory: 64
 * at once printed the 200k-file tree as fast as 256 did, with 15 MiB less peak RSS.
 */
const STREAM_CONCURRENCY = 64;

/**
 * Yields each match as it is found (discovery order, not sorted), holding at most about
 * `STREAM_HIGH_WATER` paths plus one directory's entries, however many matches there are.
 * Bad options throw here, at once; a missing root surfaces from the iteration and `summary`.
 */
export function findFilesStream(options: FindOptions): FindStream {
  const plan = buildFindPlan(options, { concurrency: STREAM_CONCURRENCY });
  const note = walkerOnly(plan.backend.backend, 'findFilesStream');
  const format = buildPathFormatter(plan);
  const handOff = new HandOff<string>(STREAM_HIGH_WATER);
  const walk = new Walk(plan, (base, name) => handOff.push(format(base + name)));
  const driver = new AsyncDriver(walk, { isPaused: () => handOff.isFull });
  const summary = handOff.finish(driver.done.then(() => ({ ...summarize(plan, walk), ...note })));
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
