/**
 * The walk's sorted answer (src/walk/collector.ts): a directory's names arrive in whatever order the
 * filesystem lists them (ext4 lists by hash, NTFS by name, memfs sorted), and the answer is plain
 * string order all the same; newest first breaks equal times by path. Units, then through the walk
 * over an fs that lists every directory backwards (the memfs-only suites never showed an unsorted
 * listing: Stryker's survivors of issue 28).
 */
import { describe, expect, it } from 'vitest';
import type { FsLike } from '../../src/fs.js';
import { findFiles, findFilesSync } from '../../src/index.js';
import type { EntryMeta } from '../../src/plan/select.js';
import { NewestCollector, SortedCollector } from '../../src/walk/collector.js';
import { FakeClock, asFs, buildVolume } from '../helpers/memfs.js';

const meta = (mtimeMs: number): EntryMeta => ({ type: 'file', size: 0, mtimeMs });

describe('SortedCollector', () => {
  it('sorts the names of each directory, however they were added, and puts each subdirectory\'s paths where they sort', () => {
    const c = new SortedCollector();
    for (const name of ['z.ts', 'b.ts', 'a-b', 'a']) c.add('', name);
    for (const name of ['y', 'x']) c.add('a/', name);
    c.sortPending(); // a pass while the walk waited: later names still sort
    for (const name of ['2', '1']) c.add('a/b/', name);
    c.add('a-/', 'q');
    expect(c.sorted()).toEqual(['a', 'a-/q', 'a-b', 'a/b/1', 'a/b/2', 'a/x', 'a/y', 'b.ts', 'z.ts']);
    expect(c.sorted()).toEqual([...c.sorted()].sort());
  });
});

describe('NewestCollector', () => {
  it('newest first; equal times by path, whatever order they came in; cut to the limit', () => {
    const c = new NewestCollector(3);
    c.add('', 'c', meta(5));
    c.add('', 'b', meta(5));
    c.add('', 'old', meta(1));
    c.add('', 'new', meta(9));
    c.add('', 'a', meta(5));
    expect(c.sorted().map((m) => m.rel)).toEqual(['new', 'a', 'b']);
    const all = new NewestCollector(10);
    for (const name of ['d', 'b', 'c', 'a']) all.add('', name, meta(7));
    expect(all.sorted().map((m) => m.rel)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('through the walk, over an fs that lists backwards', () => {
  const vol = buildVolume({ 'b.ts': '', 'a.ts': '', 'a-b.ts': '', a: { 'z.ts': '', 'y.ts': '' }, c: { d: { 'e.ts': '' } } }, '/r');
  const base = asFs(vol);
  const backwards = new Proxy(base, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key === 'readdirSync') return (...args: unknown[]) => ((value as (...a: unknown[]) => unknown[]).apply(target, args)).reverse();
      if (key === 'readdir') {
        return (path: string, options: unknown, callback: (error: unknown, entries?: unknown[]) => void) =>
          (value as (...a: unknown[]) => void).call(target, path, options, (error: unknown, entries?: unknown[]) => callback(error, entries?.reverse()));
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as FsLike;

  it('findFiles and findFilesSync answer in path order', async () => {
    const expected = ['a-b.ts', 'a.ts', 'a/y.ts', 'a/z.ts', 'b.ts', 'c/d/e.ts'];
    const options = { root: '/r', pattern: '**/*.ts', fs: backwards, clock: new FakeClock(), platform: 'posix' as const };
    expect((await findFiles(options)).matches).toEqual(expected);
    expect(findFilesSync(options).matches).toEqual(expected);
  });
});
