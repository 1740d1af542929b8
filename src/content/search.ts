/**
 * The public content-search API: a promise (`searchContent`, hits sorted) and a stream
 * (`searchContentStream`, hits as found, then the summary). Both check the options once, before any
 * I/O, and choose the engine as `findFiles` does (src/backend.ts): the pure-TS path over the walker,
 * or `rg --json`.
 */
import { chooseBackend } from '../backend.js';
import { defaultFs } from '../fs.js';
import { withAborted } from '../result.js';
import { HandOff, type Taken } from '../stream.js';
import { buildContentPlan, type ContentPlan } from '../plan/content-plan.js';
import { HitCollector } from './hits.js';
import { examineLinks, needsLinkWalk } from './links.js';
import { CONTENT_STOPS } from './stop.js';
import type { ContentHit, ContentOptions, ContentResult, ContentStream, ContentSummary, WaitForReader } from './types.js';

/**
 * Searches file content under `root`. Never rejects for a file or directory it cannot read (that is
 * `skipped`); rejects with a `FindFileError` for bad options (before any I/O) and for a root that
 * does not exist or is not a directory. Only `complete: true` with no hits proves the text is not
 * there; `truncated` is a display cut, not a coverage gap.
 *
 * @throws {FindFileError} For bad options, before any I/O: the codes of `findFiles`, and
 * `FF_MISSING_OPTION` without `query`, `FF_EMPTY_QUERY`, `FF_QUERY_TOO_LONG` (over
 * `MAX_QUERY_BYTES`), `FF_INVALID_QUERY` (a NUL, or an invalid regex in `mode: 'regex'`; with
 * `backend: 'ripgrep'`, one ripgrep refuses, once it has said so);
 * `ENOENT` or `ENOTDIR` for the root itself (docs/errors.md).
 * @example
 * const result = await searchContent({ root: '.', query: 'TODO', pattern: '*.ts', maxResults: 100 });
 * for (const hit of result.hits) console.log(`${hit.path}:${hit.line}: ${hit.text}`);
 * if (!result.complete) console.log('not all searched:', result.incompleteReasons);
 */
export async function searchContent(options: ContentOptions): Promise<ContentResult> {
  const plan = buildContentPlan(options);
  const hits: ContentHit[] = [];
  const summary = await runContentSearch(plan, (hit) => hits.push(hit));
  // Stable: within a file, the engines find hits in line order.
  hits.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { hits, ...summary };
}

/**
 * Tests turn the one-thread engine off (`enabled`) to reach walker.ts's paths on the real disk, or
 * let it search an injected fs (`anyFs`: a memfs volume has the synchronous calls it makes).
 */
export const ONE_THREAD = { enabled: true, anyFs: false };

/**
 * The pure-TS engine for a plan: one-thread.ts on the real disk with no time budget (faster: no
 * hand-offs between threads), walker.ts otherwise: with a budget, its reads wait in other threads
 * so a read that hangs cannot hold the answer past it; an injected fs may have no synchronous
 * file calls.
 */
function oneThreadApplies(plan: ContentPlan): boolean {
  return ONE_THREAD.enabled && (plan.query.reader === defaultFs || ONE_THREAD.anyFs) && plan.limits.timeBudgetMs === Infinity;
}

/** Runs the engine `backend` chooses; each engine gets its own hit budget (a fallback starts afresh). */
async function runContentSearch(plan: ContentPlan, emitHit: (hit: ContentHit) => void, waitForReader?: WaitForReader): Promise<ContentSummary> {
  let lastPath: string | undefined;
  const emit = (hit: ContentHit) => {
    lastPath = hit.path;
    emitHit(hit);
  };
  let summary = await chooseBackend(plan, {
    walker: async (walkerPlan) => {
      lastPath = undefined; // a fallback after ripgrep starts afresh
      // Perf: the pure-TS reader (scanner, decoders) loads only when a content search runs on it, so
      // `import('find-file')` does not pay for it (bench/suites/import.mjs).
      const search = oneThreadApplies(walkerPlan) ? (await import('./one-thread.js')).searchInOneThread : (await import('./walker.js')).searchWithWalker;
      return search(walkerPlan, new HitCollector(plan.query.hits, emit), waitForReader);
    },
    ripgrep: async (rg, deadline) => {
      // Perf: the ripgrep modules load only when ripgrep runs, as for file search (src/backend.ts).
      const [{ searchWithRipgrep }, { spawnRunner }] = await Promise.all([import('./rg.js'), import('../rg/runner.js')]);
      return searchWithRipgrep(plan, { rg, runner: plan.backend.runner ?? spawnRunner, deadline }, new HitCollector(plan.query.hits, emit), waitForReader);
    },
    countOf: (summary) => summary.hitCount,
  });
  // ripgrep cannot see symlinked directories: auto names them for its empty complete answer (links.ts).
  if (needsLinkWalk(plan, summary)) summary = await examineLinks(plan, summary);
  // A stop can end the search inside the file it was reading: that file's count is only "at least".
  const cut = lastPath !== undefined && summary.incompleteReasons.some((r) => CONTENT_STOPS.includes(r));
  return cut ? { ...summary, partialFile: lastPath } : summary;
}

/**
 * The summary of what a reader that left items untaken was handed: hits it never took are not
 * "returned", the search did not end for it (`aborted`, even when the engine had already ended),
 * and the file it was reading when it left is the one whose hits may be cut short.
 */
function handedOver(found: ContentSummary, { dropped, lastTaken }: Taken<ContentHit>): ContentSummary {
  if (dropped === 0) return found;
  const { partialFile: _, ...rest } = found;
  return { ...rest, hitCount: found.hitCount - dropped, ...withAborted(found.incompleteReasons), ...(lastTaken === undefined ? {} : { partialFile: lastTaken.path }) };
}

/** Hits waiting for the reader before the pure-TS search pauses. */
const STREAM_HIGH_WATER = 1024;

/**
 * Yields each hit as it is found (not sorted), then offers the summary. While `STREAM_HIGH_WATER`
 * hits wait for the reader, the pure-TS path pauses and ripgrep's output is not read (ripgrep then
 * waits on its full pipe: src/rg/run.ts), so a slow reader holds the search back, not memory.
 * Breaking out of the loop ends the search (`aborted`).
 * Bad options throw here, at once, with the codes of `searchContent`; a missing root (`ENOENT`,
 * `ENOTDIR`) surfaces from the iteration and `summary`.
 */
export function searchContentStream(options: ContentOptions): ContentStream {
  const plan = buildContentPlan(options);
  const reader = new AbortController();
  const signal = plan.limits.signal === undefined ? reader.signal : AbortSignal.any([plan.limits.signal, reader.signal]);
  const handOff = new HandOff<ContentHit>(STREAM_HIGH_WATER);
  let resumeSearch: (() => void) | undefined;
  const waitForReader: WaitForReader = () => (handOff.isFull ? new Promise<void>((resolve) => (resumeSearch = resolve)) : undefined);
  const resume = () => {
    resumeSearch?.();
    resumeSearch = undefined;
  };
  const summary = handOff.finish(runContentSearch({ ...plan, limits: { ...plan.limits, signal } }, handOff.push, waitForReader), handedOver);
  const endEarly = () => {
    reader.abort();
    resume();
  };
  return { summary, batches: () => handOff.batches(resume, endEarly), [Symbol.asyncIterator]: () => handOff.items(resume, endEarly) };
}
