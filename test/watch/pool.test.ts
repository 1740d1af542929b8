/**
 * IndexPool (src/watch/pool.ts), the routing behind `find-file mcp --watch`, with an injected
 * opener: which searches an index answers (one per root and tree options), which go to findFiles
 * unchanged, and what happens when an index cannot be opened, fails, or is one too many. A tree's
 * first search, and every one until its index is open, is findFiles itself, within its own budget
 * and signal (the index opens in the background, after that first answer). The real index behind
 * it is test/watch/index.test.ts and test/mcp/watch.test.ts.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FindFileError } from '../../src/errors.js';
import { findFiles } from '../../src/index.js';
import type { FindOptions } from '../../src/options.js';
import type { FindResult } from '../../src/result.js';
import { IndexPool } from '../../src/watch/pool.js';
import type { FileIndex, IndexOptions, IndexQuery } from '../../src/watch/watched-index.js';
import { asFs, buildVolume } from '../helpers/memfs.js';
import { comparable, makeTree, removeTree } from './helpers.js';

/** Real roots (a tree's first search walks it): w, a, b, c, each with a.ts and src/b.ts. */
const base = makeTree(['w/a.ts', 'w/src/b.ts', 'a/a.ts', 'b/a.ts', 'c/a.ts']);
const W = join(base, 'w');
const [A, B, C] = ['a', 'b', 'c'].map((name) => join(base, name)) as [string, string, string];
const MISSING = join(base, 'no-such-root');
afterAll(() => removeTree(base));

/** Lets an injected opener's promise settle (it resolves in a microtask or two). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** An opener that records what it opened, and indexes that record what they were asked. */
function recorder(fail?: (tree: IndexOptions) => Error | undefined) {
  const opened: IndexOptions[] = [];
  const closed: string[] = [];
  const asked: { root: string; query: IndexQuery }[] = [];
  let findError: Error | undefined;
  const open = async (tree: IndexOptions): Promise<FileIndex> => {
    const refusal = fail?.(tree);
    if (refusal !== undefined) throw refusal;
    opened.push(tree);
    return {
      find: async (query) => {
        asked.push({ root: tree.root, query });
        if (findError !== undefined) throw findError;
        return { matches: [`from the index of ${tree.root}`] } as FindResult;
      },
      stats: () => ({}) as ReturnType<FileIndex['stats']>,
      close: () => void closed.push(tree.root),
    };
  };
  return { open, opened, closed, asked, failFind: (error: Error | undefined) => (findError = error) };
}

/** The pool's first search of `options`' tree, opened, so that the next is the index's. */
async function warm(pool: IndexPool, options: FindOptions): Promise<void> {
  await pool.findFiles(options);
  await settled();
}

const memfs = asFs(buildVolume({ 'a.ts': 'x' }, '/mem'));

describe('IndexPool routes', () => {
  it('a walker search to the index of its tree: tree options open it, the rest is the query, engine settings are dropped', async () => {
    const r = recorder();
    const pool = new IndexPool({ open: r.open });
    const options: FindOptions = { root: W, pattern: '*.ts', gitignore: true, exclude: ['node_modules/'], maxResults: 5, backend: 'walker', workspace: W, env: {}, timeBudgetMs: 10_000 };
    // The first search walks (and opens the index after its answer); the next one is the index's.
    expect((await pool.findFiles(options)).matches).toEqual(['a.ts', 'src/b.ts']);
    await settled();
    expect((await pool.findFiles(options)).matches).toEqual([`from the index of ${W}`]);
    expect(r.opened).toEqual([{ root: W, gitignore: true, exclude: ['node_modules/'] }]);
    expect(r.asked).toEqual([{ root: W, query: { pattern: '*.ts', maxResults: 5, timeBudgetMs: 10_000 } }]);
  });

  it('one index per tree: the same root and options share it (a relative root too), other options open another', async () => {
    const r = recorder();
    const pool = new IndexPool({ open: r.open });
    await warm(pool, { root: process.cwd(), pattern: 'a', maxDepth: 0 });
    await pool.findFiles({ root: '.', pattern: 'b', maxDepth: 0 });
    await Promise.all([pool.findFiles({ root: W, pattern: 'c' }), pool.findFiles({ root: W, pattern: 'd' })]);
    await warm(pool, { root: W, pattern: 'e', hidden: false });
    expect(r.opened.map((t) => [t.root, t.hidden])).toEqual([[process.cwd(), undefined], [W, undefined], [W, false]]);
    expect(r.asked.map((a) => a.query.pattern)).toEqual(['b']);
    expect(pool.size).toBe(3);
  });

  it('ripgrep, auto, an injected fs or another platform to findFiles itself, opening nothing', async () => {
    const r = recorder();
    const pool = new IndexPool({ open: r.open });
    const viaFs = await pool.findFiles({ root: '/mem', pattern: '*.ts', fs: memfs });
    expect(viaFs.matches).toEqual(['a.ts']);
    // Another platform's paths: findFiles reads them its way (here the root, read as \\mem, is missing).
    const other = process.platform === 'win32' ? 'posix' : 'win32';
    await expect(pool.findFiles({ root: '/no/such/root/anywhere', pattern: '*', platform: other })).rejects.toMatchObject({ code: 'ENOENT' });
    for (const backend of ['ripgrep', 'auto'] as const) {
      // A missing root answers as findFiles answers it (here: rejects with its code), not through an index.
      await expect(pool.findFiles({ root: '/no/such/root/anywhere', pattern: '*', backend })).rejects.toMatchObject({ code: 'ENOENT' });
    }
    expect(r.opened).toEqual([]);
  });

  it('engine settings it drops are checked first, as findFiles checks them: a bad one rejects with findFiles\' code', async () => {
    const r = recorder();
    const pool = new IndexPool({ open: r.open });
    const root = process.platform === 'win32' ? 'C:\\w' : '/w';
    const bad: Partial<FindOptions>[] = [{ workspace: 'relative/ws' }, { rgPath: 'rg' }, { onEvent: 42 as never }, { env: 'x' as never }, { runner: 7 as never }];
    for (const extra of bad) {
      const options = { root, pattern: '*.ts', ...extra } as FindOptions;
      const code = await findFiles(options).then(() => 'answered', (error: FindFileError) => error.code);
      expect(code, JSON.stringify(extra)).toBe('FF_INVALID_OPTION');
      await expect(pool.findFiles(options), JSON.stringify(extra)).rejects.toMatchObject({ code });
    }
    expect(r.opened).toEqual([]);
  });
});

describe('IndexPool when an index cannot answer', () => {
  it('FF_WATCH_UNAVAILABLE: findFiles answers, and that tree is not tried again', async () => {
    let tries = 0;
    const r = recorder(() => (tries++, new FindFileError('FF_WATCH_UNAVAILABLE', 'no watcher here')));
    const pool = new IndexPool({ open: r.open });
    for (let i = 0; i < 3; i++) {
      expect((await pool.findFiles({ root: W, pattern: '*' })).matches).toEqual(['a.ts', 'src/b.ts']);
      await settled();
    }
    expect(tries).toBe(1);
    expect(pool.size).toBe(0);
  });

  it('another opening error (the root gone meanwhile): findFiles answers, and a later search tries to open again', async () => {
    let tries = 0;
    const r = recorder(() => (tries++, Object.assign(new Error('gone'), { code: 'ENOENT' })));
    const pool = new IndexPool({ open: r.open });
    for (let i = 0; i < 2; i++) await warm(pool, { root: W, pattern: '*' });
    expect([tries, pool.size]).toEqual([2, 0]);
  });

  it('a search that cannot run (a missing root): findFiles says why, and no index is opened for it', async () => {
    const r = recorder();
    const pool = new IndexPool({ open: r.open });
    for (let i = 0; i < 2; i++) await expect(pool.findFiles({ root: MISSING, pattern: '*' })).rejects.toMatchObject({ code: 'ENOENT' });
    await settled();
    expect([r.opened, pool.size]).toEqual([[], 0]);
  });

  it('a bad query rejects with its code and keeps the index; the root gone from under an index closes it and findFiles answers', async () => {
    const r = recorder();
    const pool = new IndexPool({ open: r.open });
    await warm(pool, { root: W, pattern: '*' });
    r.failFind(new FindFileError('FF_INVALID_LIMIT', 'maxResults must be a count', 'maxResults'));
    await expect(pool.findFiles({ root: W, pattern: '*', maxResults: -1 })).rejects.toMatchObject({ code: 'FF_INVALID_LIMIT' });
    expect([pool.size, r.closed]).toEqual([1, []]);
    r.failFind(Object.assign(new Error('root gone'), { code: 'ENOENT' }));
    expect((await pool.findFiles({ root: W, pattern: '*' })).matches).toEqual(['a.ts', 'src/b.ts']);
    expect([pool.size, r.closed]).toEqual([0, [W]]);
  });

  it('keeps at most maxIndexes: one more closes the one used longest ago; close() closes them all and later searches walk', async () => {
    const r = recorder();
    const pool = new IndexPool({ open: r.open, maxIndexes: 2 });
    await warm(pool, { root: A, pattern: '*' });
    await warm(pool, { root: B, pattern: '*' });
    await pool.findFiles({ root: A, pattern: '*' }); // A used last: B is the oldest now
    await warm(pool, { root: C, pattern: '*' });
    expect([pool.size, r.closed]).toEqual([2, [B]]);
    pool.close();
    expect(r.closed.sort()).toEqual([A, B, C]);
    expect((await pool.findFiles({ root: A, pattern: '*' })).matches).toEqual(['a.ts']);
    await settled();
    expect(r.opened.map((t) => t.root)).toEqual([A, B, C]);
  });
});

/** An opener whose index never comes (a build that takes forever): the signals it was given, to see them fire. */
function neverOpens() {
  const signals: AbortSignal[] = [];
  const open = (_tree: IndexOptions, signal: AbortSignal) => {
    signals.push(signal);
    return new Promise<FileIndex>(() => {});
  };
  return { open, signals };
}

/** A clock whose first reading starts the search and whose every later one is long past any budget. */
function spentClock() {
  let readings = 0;
  return { now: () => (readings++ === 0 ? 0 : 1e9) };
}

describe('IndexPool: until a tree\'s index is open, its searches are findFiles, within their own budget and signal', () => {
  // Generated shapes: patterns x limits x budget x signal, each the first search of a fresh pool's
  // tree and then a second one while the index is still opening; the oracle is findFiles itself.
  const patterns = ['**', '*.ts', 'src/**', 'nothing-matches'];
  const limits: Partial<FindOptions>[] = [{}, { maxResults: 1 }, { maxDepth: 0 }];
  const stops: { name: string; options: () => Partial<FindOptions> }[] = [
    { name: 'no budget', options: () => ({}) },
    { name: 'budget 0', options: () => ({ timeBudgetMs: 0 }) },
    { name: 'budget spent at once', options: () => ({ timeBudgetMs: 50, clock: spentClock() }) },
    { name: 'aborted', options: () => ({ signal: AbortSignal.abort() }) },
  ];
  const shapes = patterns.flatMap((pattern) => limits.flatMap((limit) => stops.map((stop) => ({ pattern, limit, stop }))));

  it(`${shapes.length} shapes: the answer is findFiles' own, word for word, and the opening is never waited for`, async () => {
    const reasons = new Set<string>();
    for (const { pattern, limit, stop } of shapes) {
      const label = JSON.stringify({ pattern, ...limit, stop: stop.name });
      const opener = neverOpens();
      const pool = new IndexPool({ open: opener.open });
      const options = (): FindOptions => ({ root: W, pattern, gitignore: true, ...limit, ...stop.options() });
      for (const round of ['first', 'second, while opening']) {
        const pooled = comparable(await pool.findFiles(options()));
        const fresh = comparable(await findFiles(options()));
        expect(pooled, `${label} ${round}`).toEqual(fresh);
        for (const reason of pooled.incompleteReasons) reasons.add(reason);
        await settled();
      }
      // One opening, started after the first answer, still in flight; close() abandons it.
      expect([opener.signals.length, pool.size], label).toEqual([1, 1]);
      pool.close();
      expect([opener.signals[0]!.aborted, pool.size], label).toEqual([true, 0]);
    }
    // The family reached every way a search stops early.
    expect([...reasons].sort()).toEqual(['aborted', 'depth-limit', 'result-limit', 'time-budget']);
  });

  it('an index that arrives after close() (an opener that ignored the signal) is closed at once, never asked', async () => {
    let arrive!: (index: FileIndex) => void;
    const closed: string[] = [];
    const pool = new IndexPool({ open: () => new Promise<FileIndex>((resolve) => (arrive = resolve)) });
    await pool.findFiles({ root: W, pattern: '*' });
    pool.close();
    arrive({ find: () => Promise.reject(new Error('asked')), stats: () => ({}) as ReturnType<FileIndex['stats']>, close: () => void closed.push('late') });
    await settled();
    expect(closed).toEqual(['late']);
    expect((await pool.findFiles({ root: W, pattern: '*.ts' })).matches).toEqual(['a.ts', 'src/b.ts']);
  });

  it('an opening evicted past maxIndexes is abandoned (its signal fires), and its tree opens again on its next search', async () => {
    const opener = neverOpens();
    const pool = new IndexPool({ open: opener.open, maxIndexes: 1 });
    await warm(pool, { root: A, pattern: '*' });
    await warm(pool, { root: B, pattern: '*' });
    expect(opener.signals.map((s) => s.aborted)).toEqual([true, false]);
    await warm(pool, { root: A, pattern: '*' });
    expect(opener.signals.map((s) => s.aborted)).toEqual([true, true, false]);
    pool.close();
  });
});
