/**
 * `onDirectory` watches the walk without changing it: the CLI's progress line and the agent's
 * similar names read the walk through it (they used to wrap the fs, which turned `auto` into the
 * walker). Every directory listed is reported once, in queue order, with its entries; peeks at the
 * depth limit and pruned directories are not; the answer is the same with or without a watcher.
 */
import { describe, expect, it } from 'vitest';
import type { DirentLike } from '../../src/fs.js';
import { findFiles, findFilesStream, findFilesSync, searchContent, type FindOptions } from '../../src/index.js';
import { FakeClock, asFs, buildVolume, type Tree } from '../helpers/memfs.js';

const tree: Tree = {
  'a.ts': 'x',
  src: { 'b.ts': 'x', deep: { 'c.ts': 'x', deeper: { 'd.ts': 'needle' } } },
  docs: { 'e.md': 'x' },
};

function watched(extra: Partial<FindOptions> = {}) {
  const seen: { dir: string; names: string[] }[] = [];
  const options: FindOptions = {
    root: '/root',
    pattern: '*.ts',
    fs: asFs(buildVolume(tree)),
    clock: new FakeClock(),
    platform: 'posix',
    onDirectory: (dir: string, entries: readonly DirentLike[]) => seen.push({ dir, names: entries.map((e) => e.name).sort() }),
    ...extra,
  };
  return { options, seen };
}

const ALL = [
  { dir: '', names: ['a.ts', 'docs', 'src'] },
  { dir: 'docs/', names: ['e.md'] },
  { dir: 'src/', names: ['b.ts', 'deep'] },
  { dir: 'src/deep/', names: ['c.ts', 'deeper'] },
  { dir: 'src/deep/deeper/', names: ['d.ts'] },
];

describe('onDirectory', () => {
  it('reports every directory listed, once, in queue order, through the promise, sync and stream forms', async () => {
    const viaPromise = watched();
    const unwatched = await findFiles({ ...viaPromise.options, onDirectory: undefined });
    const result = await findFiles(viaPromise.options);
    expect(viaPromise.seen).toEqual(ALL);
    expect({ ...result, stats: { ...result.stats, elapsedMs: 0 } }).toEqual({ ...unwatched, stats: { ...unwatched.stats, elapsedMs: 0 } });

    const viaSync = watched();
    findFilesSync(viaSync.options);
    expect(viaSync.seen).toEqual(ALL);

    const viaStream = watched();
    const stream = findFilesStream(viaStream.options);
    for await (const _ of stream) void _;
    expect(viaStream.seen).toEqual(ALL);
  });

  it('leaves out a peek at the depth limit and a directory no pattern can match into', async () => {
    const limited = watched({ maxDepth: 2 });
    const result = await findFiles(limited.options);
    expect(result.incompleteReasons).toEqual(['depth-limit']); // src/deep was peeked at, and holds more
    expect(limited.seen.map((s) => s.dir)).toEqual(['', 'docs/', 'src/']);

    const pruned = watched({ pattern: 'src/*.ts' });
    await findFiles(pruned.options);
    expect(pruned.seen.map((s) => s.dir)).toEqual(['', 'src/']);
  });

  it('watches content search\'s walk too', async () => {
    const { options, seen } = watched();
    const { onDirectory, fs, clock } = options;
    const result = await searchContent({ root: '/root', query: 'needle', fs, clock, platform: 'posix', onDirectory });
    expect(result.hitCount).toBe(1);
    expect(seen.map((s) => s.dir)).toEqual(ALL.map((s) => s.dir));
  });

  it('a watcher that throws ends the search with its error (the caller\'s bug); one that is not a function is refused before any I/O', async () => {
    const { options } = watched({ onDirectory: () => { throw new Error('watcher broke'); } });
    await expect(findFiles(options)).rejects.toThrow('watcher broke');
    expect(() => findFilesSync(options)).toThrow('watcher broke');
    const bad = { ...options, onDirectory: 'log' as unknown as FindOptions['onDirectory'] };
    await expect(findFiles(bad)).rejects.toMatchObject({ code: 'FF_INVALID_OPTION', option: 'onDirectory' });
  });
});
