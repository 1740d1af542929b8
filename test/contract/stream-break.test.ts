/**
 * A stream's reader that leaves before taking everything gets an incomplete `aborted` summary that
 * counts what it took, whichever ended first: the producer (the walk or ripgrep had found it all,
 * and it waited for the reader) or the reader (docs/contract.md, docs/content-search.md). A reader
 * that took the last item of an ended search and then breaks took everything: complete.
 *
 * The family: every break point across the batch edges, x the producer ended before the reader
 * left or not, x items and batches readers, x both streams and every engine. The producer gives
 * two rounds, the second behind a gate the reader opens when it asks past the first, and its end
 * behind another (a listing with no match, or ripgrep's last lines). No timing: the gates and the
 * moment the hand-off sees the producer end order the two sides. The oracle: what the loop took.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ONE_THREAD } from '../../src/content/search.js';
import { findFilesStream, searchContentStream, type ContentHit, type ContentSummary, type FindSummary } from '../../src/index.js';
import { fileEvents, summaryEvent } from '../helpers/content.js';
import { asFs, buildVolume, FakeClock, type Tree } from '../helpers/memfs.js';
import { FakeRipgrep, useFakeInstall, type Step } from '../helpers/rg-fake.js';
import { gate, gatedFs, watchProducerEnds, type Gate } from '../helpers/stream-end.js';

let rgPath: string;
let rgRoot: string;
useFakeInstall((made) => {
  rgPath = made.rgPath;
  rgRoot = made.root;
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Round one: the root's files; round two: `g/`'s, listed behind gate one; `h/` (no match) holds the end behind gate two. */
const ROUND_ONE = ['r0.txt', 'r1.txt', 'r2.txt'];
const ROUND_TWO = ['g/g0.txt', 'g/g1.txt', 'g/g2.txt'];
const TEXT = 'needle\nneedle\n';
const TREE: Tree = {
  ...Object.fromEntries(ROUND_ONE.map((name) => [name, TEXT])),
  g: Object.fromEntries(ROUND_TWO.map((path) => [path.slice(2), TEXT])),
  h: { 'x.md': 'nothing\n' },
};

type Ordering = 'producer-ended-first' | 'reader-left-first';
type Reader = 'items' | 'batches';

interface Gates {
  roundTwo: Gate;
  end: Gate;
}

interface Readable<T, S> extends AsyncIterable<T> {
  batches(): AsyncIterable<T[]>;
  readonly summary: Promise<S>;
}

/**
 * Takes items until it holds `wanted` (a reader of batches takes whole ones, so perhaps more), then
 * leaves: at once, or after the producer ended. Round two is let out only when asked for.
 */
async function leaveAfter<T, S>(stream: Readable<T, S>, reader: Reader, wanted: number, first: number, gates: Gates, ordering: Ordering, ended: () => Promise<void>): Promise<{ taken: T[]; summary: S }> {
  const taken: T[] = [];
  const source = reader === 'items' ? stream[Symbol.asyncIterator]() : stream.batches()[Symbol.asyncIterator]();
  while (taken.length < wanted) {
    if (taken.length >= first) gates.roundTwo.open();
    const step = await source.next();
    if (step.done === true) throw new Error(`the stream ended at ${taken.length} of ${wanted}`);
    if (reader === 'items') taken.push(step.value as T);
    else taken.push(...(step.value as T[]));
  }
  if (ordering === 'producer-ended-first') {
    gates.roundTwo.open();
    gates.end.open();
    await ended();
  }
  await source.return!(undefined);
  // A producer still running was ended by the leaving; it finishes once its reads are answered.
  gates.roundTwo.open();
  gates.end.open();
  return { taken, summary: await stream.summary };
}

/** The verdict a reader that took `taken` of `total` must get. */
function expectVerdict(summary: FindSummary | ContentSummary, taken: number, total: number, ordering: Ordering): void {
  if (taken === total && ordering === 'producer-ended-first') {
    expect(summary).toMatchObject({ complete: true, incompleteReasons: [] });
  } else {
    expect(summary.complete).toBe(false);
    expect(summary.incompleteReasons).toContain('aborted');
  }
}

const ORDERINGS: Ordering[] = ['producer-ended-first', 'reader-left-first'];
const READERS: Reader[] = ['items', 'batches'];

/** Break points 0..total for items; a `return` before the first `next` is the 0. */
function cases(total: number): [Ordering, Reader, number][] {
  const out: [Ordering, Reader, number][] = [];
  for (const ordering of ORDERINGS) for (const reader of READERS) for (let k = 0; k <= total; k++) out.push([ordering, reader, k]);
  return out;
}

describe('findFilesStream: a reader that leaves early', () => {
  const total = ROUND_ONE.length + ROUND_TWO.length;
  it.each(cases(total))('%s, %s reader, leaving after %i paths: the summary counts what it took', async (ordering, reader, wanted) => {
    const ends = watchProducerEnds();
    const gates = { roundTwo: gate(), end: gate() };
    const fs = asFs(gatedFs(buildVolume(TREE), { '/root/g': gates.roundTwo, '/root/h': gates.end }));
    const stream = findFilesStream({ root: '/root', platform: 'posix', pattern: '**/*.txt', fs, clock: new FakeClock() });
    const { taken, summary } = await leaveAfter(stream, reader, wanted, ROUND_ONE.length, gates, ordering, ends.ended);
    expect(summary.matchedCount).toBe(taken.length);
    expectVerdict(summary, taken.length, total, ordering);
  });
});

/** Two hits a file: a reader can leave in the middle of one. */
const HITS_PER_FILE = 2;
const TOTAL_HITS = (ROUND_ONE.length + ROUND_TWO.length) * HITS_PER_FILE;

function expectHandedOver(summary: ContentSummary, taken: ContentHit[], ordering: Ordering): void {
  expect(summary.hitCount).toBe(taken.length);
  expectVerdict(summary, taken.length, TOTAL_HITS, ordering);
  // The file the reader was in when it left is the one whose hits may be cut short.
  if (!summary.complete) expect(summary.partialFile).toBe(taken.at(-1)?.path);
}

describe.each(['walker.ts', 'one-thread.ts'] as const)('searchContentStream on %s: a reader that leaves early', (engine) => {
  beforeAll(() => Object.assign(ONE_THREAD, { anyFs: engine === 'one-thread.ts' }));
  afterAll(() => Object.assign(ONE_THREAD, { anyFs: false }));
  // one-thread.ts lists and reads without waiting (sync calls): its search has always ended first.
  const orderings = engine === 'one-thread.ts' ? cases(TOTAL_HITS).filter(([o]) => o === 'producer-ended-first') : cases(TOTAL_HITS);
  it.each(orderings)('%s, %s reader, leaving after %i hits: the summary counts what it took', async (ordering, reader, wanted) => {
    const ends = watchProducerEnds();
    const gates = { roundTwo: gate(), end: gate() };
    const fs = gatedFs(buildVolume(TREE), { '/root/g': gates.roundTwo, '/root/h': gates.end });
    const stream = searchContentStream({ root: '/root', platform: 'posix', query: 'needle', fs });
    const { taken, summary } = await leaveAfter(stream, reader, wanted, ROUND_ONE.length * HITS_PER_FILE, gates, ordering, ends.ended);
    expectHandedOver(summary, taken, ordering);
  });
});

/** ripgrep's output for a round: each file's two hits, as `rg --json` prints them. */
function roundEvents(paths: string[]): string {
  return paths.map((path) => fileEvents(path, 'needle', [[1, 'needle'], [2, 'needle']])).join('');
}

describe.each(['ripgrep', 'auto'] as const)('searchContentStream on a fake ripgrep (%s): a reader that leaves early', (backend) => {
  it.each(cases(TOTAL_HITS))('%s, %s reader, leaving after %i hits: the summary counts what it took', async (ordering, reader, wanted) => {
    const ends = watchProducerEnds();
    const gates = { roundTwo: gate(), end: gate() };
    const script: Step[] = [{ stdout: roundEvents(ROUND_ONE) }, { until: gates.roundTwo.opened }, { stdout: roundEvents(ROUND_TWO) }, { until: gates.end.opened }, { stdout: summaryEvent() }, { exit: 0 }];
    const fake = new FakeRipgrep(script);
    const stream = searchContentStream({ root: rgRoot, query: 'needle', backend, rgPath, runner: fake.runner });
    const { taken, summary } = await leaveAfter(stream, reader, wanted, ROUND_ONE.length * HITS_PER_FILE, gates, ordering, ends.ended);
    expect(summary.backend).toBe('ripgrep');
    expectHandedOver(summary, taken, ordering);
  });
});
