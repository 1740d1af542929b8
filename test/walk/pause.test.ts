/**
 * The async walk pauses in the middle of a large directory, after about 1M units of matching
 * (src/walk/engine.ts `PAUSED`, drivers.ts `judgeLater`), so the event loop runs: a signal fired
 * by a timer (an MCP cancellation) is heard there, not once the directory is judged (an
 * adversarial run: aborted at 50 ms, answered at 2.7 s). And whatever the pauses, the answer is
 * the sync walk's, which never pauses.
 */
import { describe, expect, it } from 'vitest';
import { findFiles, findFilesStream, findFilesSync, searchContent, type FindOptions } from '../../src/index.js';
import { ONE_THREAD } from '../../src/content/search.js';
import { findAll } from '../helpers/every-form.js';
import { FakeClock, asFs, buildVolume, faultyFs, type Tree } from '../helpers/memfs.js';
import { mulberry32 } from '../helpers/prng.js';

const ROOT = '/root';
const SIZE = 3000;

// An exclusion of 1,000 characters over names of 6-9 characters: a pause every 50-150 entries (a
// cheap pattern alone would never pause in a directory this size).
const costly = `*${'q'.repeat(999)}`;
const big: Tree = {};
for (let i = 0; i < SIZE; i++) big[`f${i}.txt`] = 'x\n';
const bigVolume = buildVolume(big);

/** The options of a walk whose signal is aborted on the turn after the big directory's listing arrives. */
function abortedInTheBigDirectory(): Pick<FindOptions, 'signal' | 'onDirectory'> {
  const controller = new AbortController();
  return {
    signal: controller.signal,
    onDirectory: (_dir, entries) => {
      if (entries.length === SIZE) setImmediate(() => controller.abort());
    },
  };
}

describe('a signal fired by the event loop is heard inside a large directory', () => {
  const base = (): FindOptions => ({ root: ROOT, platform: 'posix', pattern: '*', exclude: [costly], fs: asFs(bigVolume), clock: new FakeClock() });

  it('findFiles: stops at the first pause, with what it found so far', async () => {
    const result = await findFiles({ ...base(), ...abortedInTheBigDirectory() });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
    // Heard at the first pause: the old walk judged all 3,000 first.
    expect(result.stats.entriesSeen).toBeGreaterThanOrEqual(1);
    expect(result.stats.entriesSeen).toBeLessThanOrEqual(2 * 150);
    // Evidence is kept: every entry judged was a match, and each is in the answer.
    expect(result.matches).toHaveLength(result.stats.entriesSeen);
  });

  it('findFilesStream: the same, its paths handed over in order', async () => {
    const stream = findFilesStream({ ...base(), ...abortedInTheBigDirectory() });
    const paths: string[] = [];
    for await (const path of stream) paths.push(path);
    const summary = await stream.summary;
    expect(summary).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
    expect(summary.stats.entriesSeen).toBeLessThanOrEqual(2 * 150);
    expect(paths).toEqual((bigVolume.readdirSync(ROOT) as string[]).slice(0, paths.length));
  });

  it('entries of under 4,096 units each still pause (the 256th entry\'s check had reset the count)', async () => {
    // 151 characters of exclusion (twice: its file and folder forms) over names of 6-9 characters: ~2,700 units an entry.
    const result = await findFiles({ ...base(), exclude: [`*${'q'.repeat(150)}`], ...abortedInTheBigDirectory() });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
    expect(result.stats.entriesSeen).toBeLessThanOrEqual(2 * 400);
  });

  // Both of the pure-TS path's engines: walker.ts (the async walk) and one-thread.ts (the sync walk
  // stepped one directory at a time, the real disk's engine with no budget), which paused only
  // between directories: aborted at 100 ms, it answered at 2.6 s (an adversarial run).
  it.each([false, true])('searchContent (the pure-TS path, one thread: %s): the listing it searches in pauses too', async (oneThread) => {
    Object.assign(ONE_THREAD, { anyFs: oneThread });
    try {
      const result = await searchContent({ root: ROOT, platform: 'posix', query: 'x', exclude: [costly], fs: asFs(bigVolume), clock: new FakeClock(), backend: 'walker', ...abortedInTheBigDirectory() });
      expect(result).toMatchObject({ complete: false, incompleteReason: 'aborted' });
      expect(result.stats.entriesSeen).toBeLessThanOrEqual(2 * 150);
      expect(result.hits.length).toBeLessThanOrEqual(result.stats.entriesSeen);
    } finally {
      Object.assign(ONE_THREAD, { anyFs: false });
    }
  });
});

describe('a directory at the depth limit (listed only to learn whether a match lies beyond) checks and pauses too', () => {
  // With `maxDepth: 1` the big directory is only peeked at; a costly pattern that matches none of
  // it had every entry tried with no check at all: 2,000 long names took 3.9 s under a 50 ms budget.
  const volume = buildVolume({ d: big });
  const options = (): FindOptions => ({ root: ROOT, platform: 'posix', pattern: `**/${costly}`, maxDepth: 1, fs: asFs(volume), clock: new FakeClock() });

  it('the sync walk: the budget is seen inside the peek', () => {
    let now = 0;
    let peeking = false;
    const clock = { now: () => (peeking ? now++ : 0) };
    const fs = faultyFs(asFs(volume), { beforeReaddir: (path) => void (peeking ||= path.endsWith('d/') || path.endsWith('/d')) });
    const result = findFilesSync({ ...options(), fs, clock, timeBudgetMs: 3 });
    expect(result).toMatchObject({ complete: false, incompleteReason: 'time-budget', stats: { dirsPeeked: 1 } });
  });

  it('the async walk: a signal fired by the event loop is heard inside the peek', async () => {
    const controller = new AbortController();
    const fs = faultyFs(asFs(volume), { beforeReaddir: (path) => void (path.includes('/d') && setImmediate(() => controller.abort())) });
    const result = await findFiles({ ...options(), fs, signal: controller.signal });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['aborted'], stats: { dirsPeeked: 1 } });
  });

  it('with no limit in the way the peek still proves the gap', async () => {
    const result = await findAll(() => ({ ...options(), pattern: '**/f2999.txt' }));
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['depth-limit'], matches: [] });
  });
});

describe('the pausing walk answers as the sync walk does (generated trees)', () => {
  // Large directories of files, folders, links and (with `untyped`) entries only an lstat can type:
  // what a listing gathers before a pause (names to lstat, folder candidates, twins) must survive it.
  const cases = Array.from({ length: 24 }, (_, seed) => seed);
  it.each(cases)('seed %i', async (seed) => {
    const random = mulberry32(seed + 1);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const tree: Tree = {};
    const width = 300 + Math.floor(random() * 900);
    for (let i = 0; i < width; i++) {
      const roll = random();
      if (roll < 0.7) tree[`f${i}.${pick(['txt', 'js', 'md'])}`] = '';
      else if (roll < 0.85) tree[`d${i}`] = { [`in${i}.txt`]: '', sub: { 'deep.js': '' } };
      else if (roll < 0.93) tree[`l${i}`] = { link: pick(['d1', 'f0.txt', 'nowhere']) };
      else tree[`.h${i}.txt`] = '';
    }
    tree.d1 = { 'one.txt': '' };
    const untyped = random() < 0.5;
    const fs = faultyFs(asFs(buildVolume(tree)), { untyped, jitter: seed });
    const options: FindOptions = {
      root: ROOT,
      platform: 'posix',
      pattern: pick(['**', '**/*.txt', '*', 'd*/**', '{f,l}*']),
      // The costly half of the exclusion forces a pause every ~100 entries; `f1*` leaves some out.
      exclude: [pick([costly, `**/${costly}`]), 'f1*'],
      type: pick([undefined, 'file', ['file', 'directory', 'symlink']]),
      hidden: random() < 0.5,
      maxResults: random() < 0.3 ? 50 + Math.floor(random() * 400) : undefined,
      maxSize: random() < 0.3 ? 1 : undefined, // a filter: every candidate waits for its lstat
      fs,
      clock: new FakeClock(),
    };
    const make = () => Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as FindOptions;
    const result = await findAll(make);
    expect(result.stats.entriesSeen).toBeGreaterThan(0);
  });
});
