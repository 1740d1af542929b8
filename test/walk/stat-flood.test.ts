/**
 * One directory whose every entry needs an lstat (a metadata filter, `sort: 'mtime'`, `stats`, or
 * a filesystem that gives no types): the walk keeps a bounded number of lstats in flight, asks its
 * budget and signal between them, and issues none past a bound once stopped; the names it did not
 * lstat are not judged, and the answer says why (time-budget, aborted, result-limit), never
 * complete. An adversary's run: 400k files with `minSize: 0` answered in 4-7 s for an 800 ms
 * budget, the event loop frozen meanwhile, and the sync form said complete after 3-4 s of a 1.2 s one.
 * Counted in lstat calls, never in time.
 */
import { describe, expect, it } from 'vitest';
import type { FsLike, StatsLike } from '../../src/fs.js';
import { findFiles, findFilesStream, findFilesSync, type FindOptions, type FindResult } from '../../src/index.js';
import { FakeClock, asFs, buildVolume, faultyFs, type Tree } from '../helpers/memfs.js';

const ROOT = '/root';
const FILES = 2000;
/** Where the test stops the walk: the lstat call that spends the budget or aborts. */
const STOP_AT = 300;
/** The clock is read before every 128th lstat of a listing (src/walk/drivers.ts `STAT_CHECK_EVERY`). */
const CHECK_EVERY = 128;

const tree: Tree = {};
for (let i = 0; i < FILES; i++) tree[`f${String(i).padStart(4, '0')}.txt`] = '';
const volume = buildVolume(tree, ROOT);

type LstatCallback = (error: NodeJS.ErrnoException | null, stats: StatsLike) => void;

/** The volume, typed or not, with every lstat counted and `onLstat` told its number before it runs. */
function countingFs(untyped: boolean, onLstat: (n: number) => void = () => {}) {
  const base = faultyFs(asFs(volume), { untyped });
  const counter = { lstats: 0, inFlight: 0, maxInFlight: 0 };
  const fs: FsLike = {
    ...base,
    lstat: (path: string, callback: LstatCallback) => {
      onLstat(++counter.lstats);
      counter.maxInFlight = Math.max(counter.maxInFlight, ++counter.inFlight);
      base.lstat(path, (error, stats) => {
        counter.inFlight--;
        callback(error, stats);
      });
    },
    lstatSync: (path: string) => {
      onLstat(++counter.lstats);
      return base.lstatSync(path);
    },
  };
  return { fs, counter };
}

/** What makes every entry wait for its lstat; `untyped` alone is a filesystem that gives no types (DT_UNKNOWN). */
const NEEDS: [string, Partial<FindOptions>, boolean][] = [
  ['minSize', { minSize: 0 }, false],
  ['modifiedAfter', { modifiedAfter: 0 }, false],
  ["sort: 'mtime'", { sort: 'mtime' }, false],
  ['stats', { stats: true }, false],
  ['untyped entries', {}, true],
];

type Form = 'promise' | 'sync' | 'stream';
const FORMS: Form[] = ['promise', 'sync', 'stream'];

async function run(form: Form, options: FindOptions): Promise<Omit<FindResult, 'matches' | 'entries'>> {
  if (form === 'promise') return findFiles(options);
  if (form === 'sync') return findFilesSync(options);
  const stream = findFilesStream(options);
  for await (const _ of stream);
  return stream.summary;
}

/** The stream yields paths in discovery order: it refuses `sort` and `stats`. */
const cases = NEEDS.flatMap(([name, extra, untyped]) => FORMS.filter((form) => form !== 'stream' || !('sort' in extra || 'stats' in extra)).map((form) => [name, form, extra, untyped] as const));

describe(`${FILES} entries in one directory, each waiting for its lstat`, () => {
  it.each(cases)('%s, %s: a budget spent at the 300th lstat: at most 128 more, time-budget', async (_name, form, extra, untyped) => {
    const clock = new FakeClock();
    const { fs, counter } = countingFs(untyped, () => clock.advance(1)); // each lstat costs 1 ms
    const result = await run(form, { root: ROOT, platform: 'posix', pattern: '*.txt', fs, clock, timeBudgetMs: STOP_AT, ...extra });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
    expect(counter.lstats - STOP_AT).toBeLessThanOrEqual(CHECK_EVERY);
    expect(result.matchedCount).toBeLessThan(FILES);
  });

  it.each(cases)('%s, %s: an abort at the 300th lstat: at most 128 more, aborted', async (_name, form, extra, untyped) => {
    const controller = new AbortController();
    const { fs, counter } = countingFs(untyped, (n) => n === STOP_AT && controller.abort());
    const result = await run(form, { root: ROOT, platform: 'posix', pattern: '*.txt', fs, clock: new FakeClock(), signal: controller.signal, ...extra });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
    expect(counter.lstats - STOP_AT).toBeLessThanOrEqual(CHECK_EVERY);
    expect(result.matchedCount).toBeLessThan(FILES);
  });

  it.each(cases.filter(([name]) => name !== "sort: 'mtime'"))('%s, %s: the result limit ends the lstats (maxResults 5: no more than 6 taken, plus those in flight)', async (_name, form, extra, untyped) => {
    // `sort: 'mtime'` reads the whole tree for the N newest (docs/contract.md): not a stop.
    const { fs, counter } = countingFs(untyped);
    const concurrency = 16;
    const result = await run(form, { root: ROOT, platform: 'posix', pattern: '*.txt', fs, clock: new FakeClock(), maxResults: 5, concurrency, ...extra });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['result-limit'], matchedCount: 5 });
    expect(counter.lstats).toBeLessThanOrEqual(6 + (form === 'sync' ? 0 : concurrency));
  });

  it.each(NEEDS)('%s: the async walk keeps at most `concurrency` lstats in flight, and returns them all', async (_name, extra, untyped) => {
    const { fs, counter } = countingFs(untyped);
    const result = await findFiles({ root: ROOT, platform: 'posix', pattern: '*.txt', fs, clock: new FakeClock(), concurrency: 16, ...extra });
    expect(result).toMatchObject({ complete: true, matchedCount: FILES });
    expect(counter.lstats).toBe(FILES);
    expect(counter.maxInFlight).toBeLessThanOrEqual(16);
  });
});

describe('lstat answers in their own way', () => {
  it('answers that come back out of order are taken in order: the async forms return the five the sync form returns', async () => {
    // Later names answer first: taken as they came, the result limit would keep the wrong five.
    const base = faultyFs(asFs(volume));
    const fs: FsLike = { ...base, lstat: (path: string, callback: LstatCallback) => setTimeout(() => base.lstat(path, callback), path.endsWith('0.txt') ? 3 : 0) };
    const options = (): FindOptions => ({ root: ROOT, platform: 'posix', pattern: '*.txt', fs, clock: new FakeClock(), maxResults: 5, concurrency: 16, minSize: 0 });
    const sync = findFilesSync(options());
    expect(sync.matches).toEqual(['f0000.txt', 'f0001.txt', 'f0002.txt', 'f0003.txt', 'f0004.txt']);
    expect(await findFiles(options())).toEqual(sync);
    const streamed: string[] = [];
    for await (const path of findFilesStream(options())) streamed.push(path);
    expect(streamed).toEqual(sync.matches);
  });

  it('an fs that calls back inside the lstat call: 20,000 lstats of one listing without growing the stack', async () => {
    const big: Tree = {};
    for (let i = 0; i < 20_000; i++) big[`f${i}.txt`] = '';
    const base = faultyFs(asFs(buildVolume(big, ROOT)));
    const fs: FsLike = { ...base, lstat: (path: string, callback: LstatCallback) => callback(null, base.lstatSync(path)) };
    const result = await findFiles({ root: ROOT, platform: 'posix', pattern: '*.txt', fs, clock: new FakeClock(), minSize: 0 });
    expect(result).toMatchObject({ complete: true, matchedCount: 20_000 });
  });
});
