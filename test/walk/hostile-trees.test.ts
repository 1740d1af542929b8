/**
 * Hostile trees (issue 8): huge directories, a tree that changes under the walk, and on the real
 * disk names with newlines and backslashes, 255-byte names, paths longer than PATH_MAX, a FIFO.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles, findFilesSync, type DirentLike, type FsLike } from '../../src/index.js';
import { FakeClock, asFs, buildVolume, faultyFs } from '../helpers/memfs.js';
import { describeIf, posix } from '../helpers/skip-why.js';

function dirent(name: string, kind: 'file' | 'dir'): DirentLike {
  const no = () => false;
  return { name, isFile: () => kind === 'file', isDirectory: () => kind === 'dir', isSymbolicLink: no, isFIFO: no, isSocket: no, isBlockDevice: no, isCharacterDevice: no };
}

/** One directory of `count` files, served without memfs (which is slow at this size). */
function hugeDirFs(count: number): FsLike {
  const entries = Array.from({ length: count }, (_, i) => dirent(`f${i}.txt`, 'file'));
  return {
    readdir: (_p, _o, cb) => setImmediate(() => cb(null, entries)),
    readdirSync: () => entries,
    lstat: () => {
      throw new Error('not needed');
    },
    lstatSync: () => {
      throw new Error('not needed');
    },
  };
}

describe('200,000 entries in one directory', () => {
  const fs = hugeDirFs(200_000);

  it('returns them all when nothing stops it', async () => {
    const result = await findFiles({ root: '/big', platform: 'posix', pattern: '*.txt', fs });
    expect(result).toMatchObject({ matchedCount: 200_000, complete: true, stats: { dirsRead: 1, entriesSeen: 200_000 } });
  });

  it('stops reading it at the result limit: the entry past maxResults is the last one judged', async () => {
    for (const find of [findFiles, async (o: Parameters<typeof findFilesSync>[0]) => findFilesSync(o)]) {
      const result = await find({ root: '/big', platform: 'posix', pattern: '*.txt', fs, maxResults: 10 });
      expect(result).toMatchObject({ matchedCount: 10, complete: false, incompleteReason: 'result-limit' });
      // Ten taken; the eleventh proved the limit and ended the read (entriesSeen counts the ten before it).
      expect(result.stats.entriesSeen).toBe(10);
    }
  });

  it('honours the time budget inside the directory', () => {
    let t = 0;
    const clock = { now: () => (t += 1) }; // every look at the clock costs 1 ms
    const result = findFilesSync({ root: '/big', platform: 'posix', pattern: '*.txt', fs, clock, timeBudgetMs: 50 });
    expect(result).toMatchObject({ complete: false, incompleteReason: 'time-budget' });
    expect(result.stats.entriesSeen).toBeLessThan(200_000);
    expect(result.matchedCount).toBe(result.stats.entriesSeen);
  });

  it('honours an abort that arrives while it is inside the directory', async () => {
    const controller = new AbortController();
    let looks = 0;
    // With a budget the clock is read every 256 entries (with none it is not read at all): abort on
    // the 20th look, in the middle of the directory. The clock stands still: the budget never ends it.
    const clock = { now: () => (++looks === 20 && controller.abort(), 0) };
    const result = await findFiles({ root: '/big', platform: 'posix', pattern: '*.txt', fs, clock, signal: controller.signal, timeBudgetMs: 3_600_000 });
    expect(result).toMatchObject({ complete: false, incompleteReason: 'aborted' });
    expect(result.stats.entriesSeen).toBeLessThan(200_000);
  });
});

describe('a tree that changes during the walk', () => {
  it('keeps the result complete when a listed directory is deleted before its turn, and finds files added ahead of the walk', async () => {
    const vol = buildVolume({ a: { 'a.txt': '' }, b: { 'b.txt': '' }, c: { 'c.txt': '' } });
    const fs = faultyFs(asFs(vol), {
      beforeReaddir: (path) => {
        // The root has been listed (a, b, c seen); as a is read, b disappears and c gains a file.
        if (path !== '/root/a/') return;
        vol.rmSync('/root/b', { recursive: true });
        vol.writeFileSync('/root/c/new.txt', '');
      },
    });
    const result = await findFiles({ root: '/root', platform: 'posix', pattern: '*.txt', fs, clock: new FakeClock(), concurrency: 1 });
    expect(result.skipped).toEqual([{ path: 'b', code: 'ENOENT' }]);
    expect(result.complete).toBe(true);
    expect(result.matches).toEqual(['a/a.txt', 'c/c.txt', 'c/new.txt']);
  });

  it('replacing a directory by a file between listing and reading is ENOTDIR, also not a gap', () => {
    const vol = buildVolume({ a: { 'a.txt': '' }, b: { 'b.txt': '' } });
    const fs = faultyFs(asFs(vol), {
      beforeReaddir: (path) => {
        if (path === '/root/b/') {
          vol.rmSync('/root/b', { recursive: true });
          vol.writeFileSync('/root/b', 'now a file');
        }
      },
    });
    const result = findFilesSync({ root: '/root', platform: 'posix', pattern: '*', fs });
    expect(result).toMatchObject({ matches: ['a/a.txt'], skipped: [{ path: 'b', code: 'ENOTDIR' }], complete: true });
  });
});

describeIf(posix('the hostile names hold characters Windows names cannot'))('(POSIX) hostile names and paths on the real disk', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'find-file-hostile-'));
  });
  // GNU rm walks with openat, so it can remove what is deeper than PATH_MAX; Node's rmSync cannot.
  afterAll(() => void spawnSync('rm', ['-rf', root]));

  it('returns names with newlines, backslashes, quotes and 255 bytes intact', async () => {
    const names = ['new\nline.txt', 'back\\slash.txt', `${'x'.repeat(251)}.txt`, '"quoted" $(x) `y`.txt', '-leading-dash.txt', 'ü'.repeat(125) + '.txt'];
    mkdirSync(join(root, 'names'));
    for (const name of names) writeFileSync(join(root, 'names', name), '');
    const result = await findFiles({ root: join(root, 'names'), pattern: '*.txt' });
    expect(result.matches).toEqual([...names].sort());
    expect(result.complete).toBe(true);
  });

  it('skips a directory whose path is longer than PATH_MAX with ENAMETOOLONG, and goes on', async () => {
    const base = join(root, 'long');
    mkdirSync(base);
    writeFileSync(join(base, 'near.txt'), '');
    // Built from inside, one level at a time, so no single call sees the whole path.
    const segment = 'd'.repeat(200);
    const made = spawnSync(process.execPath, ['-e', `const fs=require('fs');for(let i=0;i<25;i++){fs.mkdirSync(${JSON.stringify(segment)});process.chdir(${JSON.stringify(segment)});}fs.writeFileSync('deep.txt','')`], { cwd: base });
    expect(made.status).toBe(0);
    const result = await findFiles({ root: base, pattern: '*.txt' });
    expect(result.matches).toContain('near.txt');
    expect(result.skipped.length).toBe(1);
    expect(result.skipped[0]!.code).toBe('ENAMETOOLONG');
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['io-error'] });
  });

  it('lists past a FIFO without opening it (nothing blocks)', async () => {
    const dir = join(root, 'fifo');
    mkdirSync(dir);
    writeFileSync(join(dir, 'plain.txt'), '');
    expect(spawnSync('mkfifo', [join(dir, 'pipe.txt')]).status).toBe(0);
    const result = await findFiles({ root: dir, pattern: '*.txt' });
    expect(result).toMatchObject({ matches: ['plain.txt'], complete: true });
  });
});
