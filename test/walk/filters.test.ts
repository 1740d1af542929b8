/**
 * The metadata filters (`modifiedAfter`, `modifiedBefore`, `minSize`, `maxSize`), `sort: 'mtime'`
 * and `stats`, on memfs with a fake clock. Times are absolute (epoch ms or a Date): the fake clock
 * drives the budget only, and the tests show it never decides what "recent" means.
 */
import { describe, expect, it } from 'vitest';
import { findFiles, findFilesStream, findFilesSync } from '../../src/index.js';
import { asFs, buildVolume, type Tree } from '../helpers/memfs.js';
import { DAY, HOUR, NOW, ROOT, datedVolume, findBoth, findEvery, lstatsOf, overDated } from '../helpers/select.js';

const tree: Tree = {
  'new.log': 'x'.repeat(2000),
  'old.log': 'x'.repeat(10),
  'empty.log': '',
  'notes.txt': 'x'.repeat(500),
  logs: { 'week.log': 'x'.repeat(1500), deep: { 'month.log': 'x'.repeat(5) } },
  link: { link: 'new.log' },
};
const ages = { 'new.log': 1 * HOUR, 'old.log': 10 * DAY, 'empty.log': 3 * HOUR, 'notes.txt': 30 * 60_000, 'logs/week.log': 7 * DAY, 'logs/deep/month.log': 30 * DAY, logs: 2 * DAY, 'logs/deep': 40 * DAY, link: 5 * DAY };
const vol = datedVolume(tree, ages);
const over = (options: Parameters<typeof overDated>[1], faults?: Parameters<typeof overDated>[2], msPerRead?: number) => overDated(vol, options, faults, msPerRead);

describe('modification time', () => {
  it('modifiedAfter keeps what changed after the instant (exclusive), as a Date or epoch ms', async () => {
    const viaDate = await findEvery(over({ pattern: '*.log', modifiedAfter: new Date(NOW - 2 * DAY) }));
    expect(viaDate.matches).toEqual(['empty.log', 'new.log']);
    expect(viaDate).toMatchObject({ complete: true, filteredCount: 3 });
    expect((await findEvery(over({ pattern: '*.log', modifiedAfter: NOW - 2 * DAY }))).matches).toEqual(viaDate.matches);
    expect((await findEvery(over({ pattern: '*.log', modifiedAfter: NOW - 1 * HOUR }))).matches).toEqual([]);
  });

  it('modifiedBefore keeps what changed before it (exclusive); both make a window', async () => {
    expect((await findEvery(over({ pattern: '*.log', modifiedBefore: NOW - 7 * DAY }))).matches).toEqual(['logs/deep/month.log', 'old.log']);
    expect((await findEvery(over({ pattern: '*.log', modifiedAfter: NOW - 8 * DAY, modifiedBefore: NOW - 2 * HOUR }))).matches).toEqual(['empty.log', 'logs/week.log']);
  });

  it('applies to directories and links by their own time (as fd), with type', async () => {
    expect((await findEvery(over({ pattern: '*', type: 'directory', modifiedAfter: NOW - 3 * DAY }))).matches).toEqual(['logs']);
    expect((await findEvery(over({ pattern: '*', type: 'symlink', modifiedAfter: NOW - 6 * DAY }))).matches).toEqual(['link']);
    expect((await findEvery(over({ pattern: '*', type: 'symlink', modifiedAfter: NOW - 4 * DAY }))).matches).toEqual([]);
  });

  it('the fake clock moving (a budget) never changes which files are recent', async () => {
    const still = await findEvery(over({ pattern: '*.log', modifiedAfter: NOW - 2 * DAY }));
    const moving = await findEvery(over({ pattern: '*.log', modifiedAfter: NOW - 2 * DAY }, {}, 10 * DAY));
    expect(moving.matches).toEqual(still.matches);
  });
});

describe('size', () => {
  it('minSize and maxSize are inclusive bounds in bytes', async () => {
    expect((await findEvery(over({ pattern: '*', minSize: 1500 }))).matches).toEqual(['logs/week.log', 'new.log']);
    expect((await findEvery(over({ pattern: '*', maxSize: 10 }))).matches).toEqual(['empty.log', 'logs/deep/month.log', 'old.log']);
    expect((await findEvery(over({ pattern: '*', minSize: 10, maxSize: 500 }))).matches).toEqual(['notes.txt', 'old.log']);
  });

  it('a size bound keeps regular files only (as fd): directories and links never pass it', async () => {
    const result = await findEvery(over({ pattern: '*', type: 'any', minSize: 0 }));
    expect(result.matches).toEqual(['empty.log', 'logs/deep/month.log', 'logs/week.log', 'new.log', 'notes.txt', 'old.log']);
    expect(result.filteredCount).toBe(3);
  });
});

describe('what a filter costs and what it can never do', () => {
  it('an lstat only for entries that already match the pattern, and none without a filter', async () => {
    expect(await lstatsOf(over({ pattern: '*.txt', minSize: 1 }))).toEqual(['notes.txt']);
    expect(await lstatsOf(over({ pattern: 'logs/**/*.log', modifiedAfter: 0 }))).toEqual(['logs/deep/month.log', 'logs/week.log']);
    expect(await lstatsOf(over({ pattern: '*.log' }))).toEqual([]);
  });

  it('a candidate whose lstat is denied is skipped with its code (incomplete); one that vanished is skipped, not a gap', async () => {
    const denied = await findEvery(over({ pattern: '*.log', minSize: 1 }, { lstat: { [`${ROOT}/new.log`]: 'EACCES' } }));
    expect(denied).toMatchObject({ matches: ['logs/deep/month.log', 'logs/week.log', 'old.log'], skipped: [{ path: 'new.log', code: 'EACCES' }], complete: false, incompleteReasons: ['permission-denied'] });
    const io = await findEvery(over({ pattern: '*.log', sort: undefined, modifiedAfter: 0 }, { lstat: { [`${ROOT}/logs/week.log`]: 'EIO' } }));
    expect(io).toMatchObject({ skipped: [{ path: 'logs/week.log', code: 'EIO' }], incompleteReasons: ['io-error'] });
    const gone = await findEvery(over({ pattern: '*.log', minSize: 1 }, { lstat: { [`${ROOT}/new.log`]: 'ENOENT' } }));
    expect(gone).toMatchObject({ skipped: [{ path: 'new.log', code: 'ENOENT' }], complete: true });
  });

  it('an fs whose lstat gives no size or time cannot judge a candidate: a gap, never a silent miss', async () => {
    const base = asFs(buildVolume({ 'a.log': 'x' }));
    const bare = { ...base, lstat: (p: string, cb: Parameters<typeof base.lstat>[1]) => base.lstat(p, (e, s) => cb(e, { isFile: () => s.isFile(), isDirectory: () => s.isDirectory(), isSymbolicLink: () => s.isSymbolicLink() })), readdirSync: base.readdirSync, readdir: base.readdir, lstatSync: base.lstatSync };
    const result = await findFiles({ root: ROOT, platform: 'posix', pattern: '*', fs: bare, minSize: 0 });
    expect(result).toMatchObject({ matches: [], skipped: [{ path: 'a.log', code: 'UNKNOWN' }], complete: false, incompleteReasons: ['io-error'] });
  });

  it('an fs whose lstat gives a NaN or infinite time cannot judge a time filter: a gap, never a silent miss', async () => {
    // Kills a non-finite mtimeMs judged as a time: NaN fails every comparison, so the file would just vanish from a complete answer.
    const base = asFs(buildVolume({ 'a.log': 'x' }));
    for (const mtimeMs of [NaN, Infinity, -Infinity]) {
      const odd = { ...base, lstat: (p: string, cb: Parameters<typeof base.lstat>[1]) => base.lstat(p, (e, s) => cb(e, e ? s : Object.assign(Object.create(s) as typeof s, { mtimeMs }))) };
      for (const filter of [{ modifiedAfter: 0 }, { modifiedBefore: NOW }]) {
        const result = await findFiles({ root: ROOT, platform: 'posix', pattern: '*', fs: odd, ...filter });
        expect(result, `${mtimeMs} ${JSON.stringify(filter)}`).toMatchObject({ matches: [], skipped: [{ path: 'a.log', code: 'UNKNOWN' }], complete: false, incompleteReasons: ['io-error'] });
      }
    }
  });

  it('a filter never makes an incomplete walk complete: a spent budget and a denied directory stay gaps', async () => {
    const budget = await findEvery(over({ pattern: '*.log', modifiedAfter: 0, timeBudgetMs: 5 }, {}, 10));
    expect(budget).toMatchObject({ complete: false, incompleteReason: 'time-budget' });
    const denied = await findEvery(over({ pattern: '*.log', minSize: 1 }, { readdir: { [`${ROOT}/logs/`]: 'EACCES' } }));
    expect(denied).toMatchObject({ matches: ['new.log', 'old.log'], complete: false, incompleteReasons: ['permission-denied'] });
  });

  it('maxResults counts what passed the filters', async () => {
    const result = await findEvery(over({ pattern: '*.log', minSize: 1, maxResults: 2 }));
    expect(result).toMatchObject({ matchedCount: 2, complete: false, incompleteReason: 'result-limit' });
    expect(await findEvery(over({ pattern: '*.log', minSize: 1000, maxResults: 2 }))).toMatchObject({ matchedCount: 2, complete: true });
  });
});

describe("sort: 'mtime'", () => {
  it('newest first, ties by path', async () => {
    const tied = datedVolume({ b: '', a: '', c: '' }, { a: HOUR, b: HOUR, c: 0 });
    expect((await findBoth(overDated(tied, { sort: 'mtime' }))).matches).toEqual(['c', 'a', 'b']);
    expect((await findBoth(over({ pattern: '*.log', sort: 'mtime' }))).matches).toEqual(['new.log', 'empty.log', 'logs/week.log', 'old.log', 'logs/deep/month.log']);
  });

  it('with maxResults: the N newest of the whole tree (not the shallowest), and more than N is still result-limit', async () => {
    const result = await findBoth(over({ pattern: '*', sort: 'mtime', maxResults: 2 }));
    expect(result).toMatchObject({ matches: ['notes.txt', 'new.log'], matchedCount: 2, complete: false, incompleteReasons: ['result-limit'] });
    const deepest = await findBoth(over({ pattern: '*.log', sort: 'mtime', maxResults: 1, modifiedBefore: NOW - 20 * DAY }));
    expect(deepest).toMatchObject({ matches: ['logs/deep/month.log'], complete: true });
    expect(await findBoth(over({ pattern: '*.log', sort: 'mtime', maxResults: 0 }))).toMatchObject({ matches: [], complete: false, incompleteReasons: ['result-limit'] });
  });

  it('keeps the N newest exactly past the trim point (a tree of 3,000 files, N = 5)', async () => {
    const many: Tree = {};
    const manyAges: Record<string, number> = {};
    for (let i = 0; i < 3000; i++) {
      many[`f${i}`] = '';
      manyAges[`f${i}`] = ((i * 7919) % 3000) * 1000;
    }
    const result = await findBoth(overDated(datedVolume(many, manyAges), { sort: 'mtime', maxResults: 5 }));
    const expected = Object.keys(many).sort((a, b) => manyAges[a]! - manyAges[b]! || (a < b ? -1 : 1)).slice(0, 5);
    expect(result.matches).toEqual(expected);
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['result-limit'] });
  });

  it('with a spent budget: the newest of what was seen, incomplete', async () => {
    const result = await findBoth(over({ pattern: '*.log', sort: 'mtime', timeBudgetMs: 5 }, {}, 10));
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
  });

  it('the stream refuses it (it yields as found), before any I/O', () => {
    expect(() => findFilesStream({ root: ROOT, pattern: '*', sort: 'mtime' })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', option: 'sort' }));
  });
});

describe('stats', () => {
  it('entries beside matches, in their order, from the one lstat per match', async () => {
    const result = await findBoth(over({ pattern: 'logs/**', type: 'any', stats: true }));
    expect(result.matches).toEqual(['logs/deep', 'logs/deep/month.log', 'logs/week.log']);
    expect(result.entries).toEqual([
      { path: 'logs/deep', type: 'directory', size: expect.any(Number), mtimeMs: NOW - 40 * DAY },
      { path: 'logs/deep/month.log', type: 'file', size: 5, mtimeMs: NOW - 30 * DAY },
      { path: 'logs/week.log', type: 'file', size: 1500, mtimeMs: NOW - 7 * DAY },
    ]);
  });

  it('with absolute paths and newest first; absent without stats', async () => {
    const result = await findBoth(over({ pattern: '*.txt', stats: true, absolute: true, sort: 'mtime' }));
    expect(result.entries).toEqual([{ path: `${ROOT}/notes.txt`, type: 'file', size: 500, mtimeMs: NOW - 30 * 60_000 }]);
    expect((await findFiles(over({ pattern: '*.txt' })())).entries).toBeUndefined();
  });

  it('the stream refuses it (it yields paths)', () => {
    expect(() => findFilesStream({ root: ROOT, pattern: '*', stats: true })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', option: 'stats' }));
  });
});

describe('refused values', () => {
  const base = { root: ROOT, platform: 'posix' as const, pattern: '*', fs: asFs(vol) };
  const cases: [Record<string, unknown>, string, string][] = [
    [{ modifiedAfter: 'yesterday' }, 'FF_INVALID_OPTION', 'modifiedAfter'],
    [{ modifiedBefore: new Date('nope') }, 'FF_INVALID_OPTION', 'modifiedBefore'],
    [{ modifiedAfter: NaN }, 'FF_INVALID_OPTION', 'modifiedAfter'],
    [{ modifiedAfter: NOW, modifiedBefore: NOW }, 'FF_INVALID_OPTION', 'modifiedAfter'],
    [{ minSize: -1 }, 'FF_INVALID_LIMIT', 'minSize'],
    [{ maxSize: 1.5 }, 'FF_INVALID_LIMIT', 'maxSize'],
    [{ minSize: 10, maxSize: 9 }, 'FF_INVALID_OPTION', 'minSize'],
    [{ sort: 'size' }, 'FF_INVALID_OPTION', 'sort'],
    [{ stats: 'yes' }, 'FF_INVALID_OPTION', 'stats'],
  ];
  it.each(cases)('%o is %s (%s), before any I/O', (extra, code, option) => {
    expect(() => findFilesSync({ ...base, ...extra } as never)).toThrow(expect.objectContaining({ code, option }));
  });

  it('forced ripgrep cannot filter or sort by metadata: refused; auto runs the walker (metadata)', async () => {
    for (const extra of [{ minSize: 1 }, { modifiedAfter: 0 }, { sort: 'mtime' as const }, { stats: true }]) {
      await expect(findFiles({ root: ROOT, pattern: '*', backend: 'ripgrep', ...extra })).rejects.toMatchObject({ code: 'FF_INVALID_OPTION', option: 'backend' });
      expect(await findFiles({ ...base, backend: 'auto', ...extra })).toMatchObject({ backend: 'walker', fallbackReason: 'metadata' });
    }
  });
});
