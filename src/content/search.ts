/**
 * The public content-search API: a promise (`searchContent`, hits sorted) and a stream
 * (`searchContentStream`, hits as found, then the summary). Both check the options once, before any
 * I/O, and choose the engine as `findFiles` does (src/backend.ts): the pure-TS path over the walker,
 * or `rg --json`.
 */
import { chooseBackend } from '../backend.js';
import { spawnRunner } from '../rg/runner.js';
import { HandOff } from '../stream.js';
import { HitCollector } from './hits.js';
import { buildContentPlan, type ContentPlan } from './options.js';
import { searchWithRipgrep } from './rg.js';
import type { ContentHit, ContentOptions, ContentResult, ContentStream, ContentSummary } from './types.js';
import { searchWithWalker, type WaitForReader } from './walker.js';

/**
 * Searches file content under `root`. Never rejects for a file or directory it cannot read (that is
 * `skipped`); rejects with a `FindFileError` for bad options (before any I/O) and for a root that
 * does not exist or is not a directory.
 */
export async function searchContent(options: ContentOptions): Promise<ContentResult> {
  const plan = buildContentPlan(options);
  const hits: ContentHit[] = [];
  const summary = await runSearch(plan, (hit) => hits.push(hit));
  // Stable: within a file, the engines find hits in line order.
  hits.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { hits, ...summary };
}

/** Runs the engine `backend` chooses; each engine gets its own hit budget (a fallback starts afresh). */
function runSearch(plan: ContentPlan, emit: (hit: ContentHit) => void, waitForReader?: WaitForReader): Promise<ContentSummary> {
  const { walk, backend } = plan;
  return chooseBackend(walk, backend, {
    walker: (walkPlan) => searchWithWalker({ ...plan, walk: walkPlan }, new HitCollector(plan.limits, emit), waitForReader),
    ripgrep: (rg, startedAt) =>
      searchWithRipgrep(
        plan,
        { rg, runner: backend.runner ?? spawnRunner, env: backend.env, patterns: backend.patterns, excludes: backend.excludes, startedAt },
        new HitCollector(plan.limits, emit),
      ),
    countOf: (summary) => summary.hitCount,
  });
}

/** Hits waiting for the reader before the pure-TS search pauses. */
const STREAM_HIGH_WATER = 1024;

/**
 * Yields each hit as it is found (not sorted), then offers the summary. The pure-TS path pauses
 * while `STREAM_HIGH_WATER` hits wait for the reader; ripgrep cannot be paused, so its hits wait
 * in memory, bounded by `maxOutputBytes`. Breaking out of the loop ends the search (`aborted`).
 * Bad options throw here, at once; a missing root surfaces from the iteration and `summary`.
 */
export function searchContentStream(options: ContentOptions): ContentStream {
  const plan = buildContentPlan(options);
  const reader = new AbortController();
  const signal = plan.walk.signal === undefined ? reader.signal : AbortSignal.any([plan.walk.signal, reader.signal]);
  const handOff = new HandOff<ContentHit>(STREAM_HIGH_WATER);
  let resumeSearch: (() => void) | undefined;
  const waitForReader: WaitForReader = () => (handOff.isFull ? new Promise<void>((resolve) => (resumeSearch = resolve)) : undefined);
  const resume = () => {
    resumeSearch?.();
    resumeSearch = undefined;
  };
  const summary = handOff.finish(runSearch({ ...plan, walk: { ...plan.walk, signal } }, handOff.push, waitForReader));
  const endEarly = () => {
    reader.abort();
    resume();
  };
  return { summary, batches: () => handOff.batches(resume, endEarly), [Symbol.asyncIterator]: () => handOff.items(resume, endEarly) };
}
