/**
 * The public search API over the walker: a promise, a stream and a synchronous form, all with the
 * same options, the same walk and the same result.
 */
import { runBackend, walkerOnly } from './backend.js';
import { buildBackendPlan, buildPlan, type FindOptions, type WalkPlan } from './options.js';
import type { FindProgress, FindResult, FindSummary } from './result.js';
import { HandOff } from './stream.js';
import { AsyncDriver, runSync } from './walk/drivers.js';
import { Walk } from './walk/engine.js';
import { buildNativePath } from './paths.js';

/** Root-relative `/` path to what the caller asked for: itself, or a native absolute path. */
export function buildPathFormatter(plan: WalkPlan): (rel: string) => string {
  if (!plan.absolute) return (rel) => rel;
  return buildNativePath(plan.rootPrefix, plan.sep);
}

/** The walk's summary with its paths (the matching links) in the form the caller asked for. */
function summarize(plan: WalkPlan, walk: Walk): FindSummary {
  const summary = walk.summary();
  if (!plan.absolute) return summary;
  return { ...summary, linkMatches: summary.linkMatches.map(buildPathFormatter(plan)) };
}

function toResult(plan: WalkPlan, walk: Walk, rels: string[]): FindResult {
  const format = buildPathFormatter(plan);
  return { matches: plan.absolute ? rels.map(format) : rels, ...summarize(plan, walk) };
}

/**
 * Collects matches and returns them sorted (the same tree gives the same answer, whatever order
 * the reads finished in), without sorting whole paths.
 *
 * Perf: a plain sort of 200k fresh paths cost a tenth of a whole walk, most of it comparing long
 * shared prefixes. Here each directory's names are sorted on their own (short strings), the
 * directories are sorted by path, and one linear pass interleaves a directory's files with its
 * subdirectories' blocks. That equals plain string order because, within a directory, a file `f`
 * sorts before every path under subdirectory `d` exactly when `f < d + '/'`, and all paths under a
 * directory are contiguous in string order.
 */
class SortedCollector {
  private readonly byDir = new Map<string, string[]>();
  private unsorted: string[][] = [];
  private lastDir = '\0';
  private lastNames: string[] = [];

  readonly add = (base: string, name: string): void => {
    if (base !== this.lastDir) {
      this.lastDir = base;
      let names = this.byDir.get(base);
      if (names === undefined) {
        this.byDir.set(base, (names = []));
        this.unsorted.push(names);
      }
      this.lastNames = names;
    }
    this.lastNames.push(name);
  };

  /**
   * Sorts the names of the directories taken since the last call. Perf: the async walk calls this
   * while it waits for reads (a quarter of its time in a profile), so the final pass mostly merges.
   */
  readonly settle = (): void => {
    // Every directory here was taken whole: the walk idles only between directories.
    for (const names of this.unsorted) names.sort();
    this.unsorted = [];
  };

  sorted(): string[] {
    this.settle();
    const out: string[] = [];
    const open: { dir: string; names: string[]; next: number }[] = [];
    // Emits a directory's files that sort before `limit` (all of them when there is none).
    const flush = (frame: (typeof open)[number], limit?: string) => {
      const { dir, names } = frame;
      for (; frame.next < names.length; frame.next++) {
        const rel = dir + names[frame.next];
        if (limit !== undefined && rel > limit) return;
        out.push(rel);
      }
    };
    for (const dir of [...this.byDir.keys()].sort()) {
      while (open.length > 0 && !dir.startsWith(open[open.length - 1]!.dir)) flush(open.pop()!);
      if (open.length > 0) flush(open[open.length - 1]!, dir);
      open.push({ dir, names: this.byDir.get(dir)!, next: 0 });
    }
    while (open.length > 0) flush(open.pop()!);
    return out;
  }
}

/**
 * Finds files under `root` whose root-relative path matches `pattern`. Never rejects for a path
 * it cannot read (that is `skipped` in the result); rejects with a `FindFileError` for bad options
 * (before any I/O) and for a root that does not exist or is not a directory.
 */
export async function findFiles(options: FindOptions): Promise<FindResult> {
  const plan = buildPlan(options);
  return runBackend(plan, buildBackendPlan(options, plan), walkAsync, buildPathFormatter(plan));
}

/** The walker's promise form; `runBackend` calls it for `walker` and for `auto` when it falls back. */
async function walkAsync(plan: WalkPlan): Promise<FindResult> {
  const collector = new SortedCollector();
  const walk = new Walk(plan, collector.add);
  await new AsyncDriver(walk, { onIdle: collector.settle }).done;
  return toResult(plan, walk, collector.sorted());
}

/** `findFiles` without the event loop: the same contract, read by read. Throws where `findFiles` rejects. */
export function findFilesSync(options: FindOptions): FindResult {
  const plan = buildPlan(options);
  const note = walkerOnly(options.backend, 'findFilesSync');
  buildBackendPlan(options, plan); // unused here, but a bad rgPath, env or runner is refused as findFiles refuses it
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
  const plan = buildPlan({ concurrency: STREAM_CONCURRENCY, ...options });
  const note = walkerOnly(options.backend, 'findFilesStream');
  buildBackendPlan(options, plan); // unused here, but a bad rgPath, env or runner is refused as findFiles refuses it
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
