/**
 * What is one-thread.ts's own (its answers are walker.ts's: test/content/walker.test.ts runs every
 * case on both engines, test/content/read-worker.test.ts compares the three on the real disk): when
 * it is chosen, the turns it gives the event loop, and the retry when the process is out of file
 * handles.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SLICE } from '../../src/content/one-thread.js';
import { ONE_THREAD } from '../../src/content/search.js';
import { SyncReader } from '../../src/content/sync-reader.js';
import { searchContent, searchContentStream } from '../../src/index.js';
import { readFaultyFs } from '../helpers/content.js';
import { buildVolume, type Tree } from '../helpers/memfs.js';

/** 200 files of 3 hits each, in walk order f000 ... f199. */
const MANY: Tree = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${String(i).padStart(3, '0')}.txt`, 'needle\n'.repeat(3)]));

describe('which engine searches', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'ff-one-thread-'));
    mkdirSync(join(root, 'd'));
    for (let i = 0; i < 20; i++) writeFileSync(join(root, 'd', `${i}.txt`), `line\nneedle ${i}\n`);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  afterEach(() => vi.restoreAllMocks());

  it('the real disk with no time budget: one-thread.ts, its reader opening every file on this thread', async () => {
    const first = vi.spyOn(SyncReader.prototype, 'first');
    const result = await searchContent({ root, query: 'needle', backend: 'walker' });
    expect(result).toMatchObject({ hitCount: 20, filesSearched: 20, complete: true, backend: 'walker' });
    expect(first).toHaveBeenCalledTimes(20);
  });

  it('with a time budget: walker.ts (a read that hangs there cannot hold the answer past the budget)', async () => {
    const first = vi.spyOn(SyncReader.prototype, 'first');
    const result = await searchContent({ root, query: 'needle', backend: 'walker', timeBudgetMs: 600_000 });
    expect(result).toMatchObject({ hitCount: 20, filesSearched: 20, complete: true });
    expect(first).not.toHaveBeenCalled();
  });

  it('an injected fs: walker.ts (the fs may have no synchronous file calls)', async () => {
    const first = vi.spyOn(SyncReader.prototype, 'first');
    const result = await searchContent({ root: '/root', query: 'needle', fs: buildVolume(MANY), platform: 'posix' });
    expect(result).toMatchObject({ hitCount: 600, complete: true });
    expect(first).not.toHaveBeenCalled();
  });
});

describe('one-thread.ts on memfs', () => {
  beforeAll(() => Object.assign(ONE_THREAD, { anyFs: true }));
  afterAll(() => Object.assign(ONE_THREAD, { anyFs: false }));
  afterEach(() => {
    SLICE.ms = 10;
    vi.restoreAllMocks();
  });

  it('is the engine here', async () => {
    const first = vi.spyOn(SyncReader.prototype, 'first');
    const result = await searchContent({ root: '/root', query: 'needle', fs: buildVolume(MANY), platform: 'posix' });
    expect(result).toMatchObject({ hitCount: 600, filesSearched: 200, complete: true });
    expect(first).toHaveBeenCalledTimes(200);
  });

  it('gives the event loop turns: an abort made by a timer is heard within a slice, not at the end', async () => {
    SLICE.ms = 0; // a turn after every file: where it stops does not depend on the machine's speed
    const controller = new AbortController();
    let reads = 0;
    const fs = readFaultyFs(buildVolume(MANY), {
      // Not aborted here (the search would see it at once): the abort waits for the loop to turn.
      beforeRead: () => void (++reads === 5 && setImmediate(() => controller.abort())),
    });
    const result = await searchContent({ root: '/root', query: 'needle', fs, platform: 'posix', signal: controller.signal });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
    expect(result.filesSearched).toBeGreaterThanOrEqual(5);
    expect(result.filesSearched).toBeLessThanOrEqual(6);
    expect(fs.openFds()).toBe(0);
  });

  it('a stream not read: the search pauses once the stream holds its fill of hits, and goes on when read', async () => {
    SLICE.ms = 0;
    // 200 files of 10 hits: the stream holds 1,024 (search.ts STREAM_HIGH_WATER) before the search waits.
    const tree: Tree = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${String(i).padStart(3, '0')}.txt`, 'needle\n'.repeat(10)]));
    const fs = readFaultyFs(buildVolume(tree));
    const stream = searchContentStream({ root: '/root', query: 'needle', fs, platform: 'posix' });
    const batches = stream.batches()[Symbol.asyncIterator]();
    let seen = (await batches.next()).value!.length;
    // Long enough for the whole search, turn by turn, had it not paused.
    for (let turn = 0; turn < 400; turn++) await new Promise((resolve) => setImmediate(resolve));
    const openedWhilePaused = fs.log.opened.length;
    expect(openedWhilePaused).toBeGreaterThan(100);
    expect(openedWhilePaused).toBeLessThan(110);
    for (let next = await batches.next(); !next.done; next = await batches.next()) seen += next.value.length;
    expect(seen).toBe(2000);
    expect(await stream.summary).toMatchObject({ hitCount: 2000, complete: true });
  });

  it('a stream not read, one long file: the search also waits for its reader between the file\'s chunks', async () => {
    SLICE.ms = 0;
    // 700,000 bytes of one-line hits: eleven 64 KiB chunks of ~9,360 hits each (the stream holds 1,024).
    const fs = readFaultyFs(buildVolume({ 'long.txt': 'needle\n'.repeat(100_000) }));
    const stream = searchContentStream({ root: '/root', query: 'needle', fs, platform: 'posix', maxOutputBytes: Number.MAX_SAFE_INTEGER });
    const batches = stream.batches()[Symbol.asyncIterator]();
    let seen = (await batches.next()).value!.length;
    // Long enough for the whole file, turn by turn, had the search not waited.
    for (let turn = 0; turn < 400; turn++) await new Promise((resolve) => setImmediate(resolve));
    // The first chunk, then one batch of four read ahead: the chunks after the one taken wait.
    expect(fs.log.reads).toBeGreaterThanOrEqual(2);
    expect(fs.log.reads).toBeLessThanOrEqual(5);
    for (let next = await batches.next(); !next.done; next = await batches.next()) seen += next.value.length;
    expect(seen).toBe(100_000);
    expect(await stream.summary).toMatchObject({ hitCount: 100_000, complete: true });
  });

  it('out of file handles for a while (EMFILE): the same file is opened again after a pause, nothing lost', async () => {
    const volume = buildVolume({ 'a.txt': 'needle a\n', 'b.txt': 'needle b\n' });
    let failures = 2;
    const fs = readFaultyFs(volume);
    const openSync = fs.openSync.bind(fs);
    fs.openSync = (path, flags) => {
      if (path === '/root/b.txt' && failures-- > 0) throw Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' });
      return openSync(path, flags);
    };
    const result = await searchContent({ root: '/root', query: 'needle', fs, platform: 'posix' });
    expect(result).toMatchObject({ hitCount: 2, filesSearched: 2, skipped: [], complete: true });
    expect(fs.log.opened).toEqual(['/root/a.txt', '/root/b.txt']); // the failed opens threw before the log
    expect(failures).toBe(-1);
  });

  it('out of file handles for good: after the retries the file is skipped with EMFILE, a gap', async () => {
    const fs = readFaultyFs(buildVolume({ 'a.txt': 'needle a\n', 'b.txt': 'needle b\n' }), { open: { '/root/b.txt': 'EMFILE' } });
    const result = await searchContent({ root: '/root', query: 'needle', fs, platform: 'posix' });
    expect(result).toMatchObject({ hitCount: 1, skipped: [{ path: 'b.txt', code: 'EMFILE' }], complete: false });
    // Once, then once per pause of the retry rule (limits.ts RETRY_DELAYS_MS: four).
    expect(fs.log.opened.filter((path) => path === '/root/b.txt')).toHaveLength(5);
  });
});
