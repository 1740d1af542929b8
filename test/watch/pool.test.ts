/**
 * IndexPool (src/watch/pool.ts), the routing behind `find-file mcp --watch`, with an injected
 * opener: which searches an index answers (one per root and tree options), which go to findFiles
 * unchanged, and what happens when an index cannot be opened, fails, or is one too many. The real
 * index behind it is test/watch/index.test.ts and test/mcp/watch.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { FindFileError } from '../../src/errors.js';
import { findFiles } from '../../src/index.js';
import type { FindOptions } from '../../src/options.js';
import type { FindResult } from '../../src/result.js';
import { IndexPool } from '../../src/watch/pool.js';
import type { FileIndex, IndexOptions, IndexQuery } from '../../src/watch/watched-index.js';
import { asFs, buildVolume } from '../helpers/memfs.js';

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

const memfs = asFs(buildVolume({ 'a.ts': 'x' }, '/mem'));

describe('IndexPool routes', () => {
  it('a walker search to the index of its tree: tree options open it, the rest is the query, engine settings are dropped', async () => {
    const r = recorder();
    const pool = new IndexPool({ open: r.open });
    const options: FindOptions = { root: '/w', pattern: '*.ts', gitignore: true, exclude: ['node_modules/'], maxResults: 5, backend: 'walker', workspace: '/w', env: {}, timeBudgetMs: 100 };
    expect((await pool.findFiles(options)).matches).toEqual(['from the index of /w']);
    expect(r.opened).toEqual([{ root: '/w', gitignore: true, exclude: ['node_modules/'] }]);
    expect(r.asked).toEqual([{ root: '/w', query: { pattern: '*.ts', maxResults: 5, timeBudgetMs: 100 } }]);
  });

  it('one index per tree: the same root and options share it (a relative root too), other options open another', async () => {
    const r = recorder();
    const pool = new IndexPool({ open: r.open });
    await pool.findFiles({ root: process.cwd(), pattern: 'a' });
    await pool.findFiles({ root: '.', pattern: 'b' });
    await Promise.all([pool.findFiles({ root: '/w', pattern: 'c' }), pool.findFiles({ root: '/w', pattern: 'd' })]);
    await pool.findFiles({ root: '/w', pattern: 'e', hidden: false });
    expect(r.opened.map((t) => [t.root, t.hidden])).toEqual([[process.cwd(), undefined], ['/w', undefined], ['/w', false]]);
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
    for (let i = 0; i < 3; i++) await expect(pool.findFiles({ root: '/no/such/root/anywhere', pattern: '*' })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(tries).toBe(1);
    expect(pool.size).toBe(0);
  });

  it('another opening error (a missing root): findFiles says why, and a later search tries to open again', async () => {
    let tries = 0;
    const r = recorder(() => (tries++, Object.assign(new Error('gone'), { code: 'ENOENT' })));
    const pool = new IndexPool({ open: r.open });
    for (let i = 0; i < 2; i++) await expect(pool.findFiles({ root: '/no/such/root/anywhere', pattern: '*' })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(tries).toBe(2);
  });

  it('a bad query rejects with its code and keeps the index; the root gone from under an index closes it and findFiles answers', async () => {
    const r = recorder();
    const pool = new IndexPool({ open: r.open });
    await pool.findFiles({ root: '/w', pattern: '*' });
    r.failFind(new FindFileError('FF_INVALID_LIMIT', 'maxResults must be a count', 'maxResults'));
    await expect(pool.findFiles({ root: '/w', pattern: '*', maxResults: -1 })).rejects.toMatchObject({ code: 'FF_INVALID_LIMIT' });
    expect([pool.size, r.closed]).toEqual([1, []]);
    r.failFind(Object.assign(new Error('root gone'), { code: 'ENOENT' }));
    await expect(pool.findFiles({ root: '/w', pattern: '*' })).rejects.toMatchObject({ code: 'ENOENT' });
    await Promise.resolve();
    expect([pool.size, r.closed]).toEqual([0, ['/w']]);
  });

  it('keeps at most maxIndexes: one more closes the one used longest ago; close() closes them all and later searches walk', async () => {
    const r = recorder();
    const pool = new IndexPool({ open: r.open, maxIndexes: 2 });
    await pool.findFiles({ root: '/a', pattern: '*' });
    await pool.findFiles({ root: '/b', pattern: '*' });
    await pool.findFiles({ root: '/a', pattern: '*' }); // /a used last: /b is the oldest now
    await pool.findFiles({ root: '/c', pattern: '*' });
    await Promise.resolve();
    expect([pool.size, r.closed]).toEqual([2, ['/b']]);
    pool.close();
    await Promise.resolve();
    expect(r.closed.sort()).toEqual(['/a', '/b', '/c']);
    await expect(pool.findFiles({ root: '/no/such/root/anywhere', pattern: '*' })).rejects.toMatchObject({ code: 'ENOENT' });
    expect(r.opened.map((t) => t.root)).toEqual(['/a', '/b', '/c']);
  });
});
