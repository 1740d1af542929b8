/**
 * The read worker (src/content/read-worker.ts). Its reader runs here on the real disk, the very
 * function the worker runs from its source text: the defences of file-io.ts, answer for answer
 * (a FIFO, a link, a directory on the way swapped for a link, a file that waits for data), the
 * chunks of a long file, the slots of the ring. Then whole searches with the worker taking the
 * reads, against the same searches read on the main thread: the same answer, and no descriptor
 * left open.
 */
import { spawnSync } from 'node:child_process';
import * as nodeFs from 'node:fs';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { OPEN_FLAGS } from '../../src/content/file-io.js';
import { READ_WORKER } from '../../src/content/read-ahead.js';
import { ByteLines } from '../../src/content/byte-lines.js';
import { WorkerReader } from '../../src/content/read-worker.js';
import { HITS_IN_WORKER, SLOTS, SyncReader, TOGETHER, type SyncReaderFs } from '../../src/content/sync-reader.js';
import { READ_CHUNK_BYTES } from '../../src/content/scanner.js';
import { ONE_THREAD } from '../../src/content/search.js';
import { searchContent } from '../../src/index.js';
import { describeIf, linux, posix } from '../helpers/skip-why.js';

const CHUNK = READ_CHUNK_BYTES;

function newReader(fs: SyncReaderFs = nodeFs, slots = SLOTS) {
  const ring = new ArrayBuffer(CHUNK * slots);
  return { reader: new SyncReader(fs, { flags: OPEN_FLAGS, chunkBytes: CHUNK, ring, together: TOGETHER, hitCap: HITS_IN_WORKER }, new ByteLines()), ring: new Uint8Array(ring) };
}

const text = (ring: Uint8Array, slot: number, bytes: number) => Buffer.from(ring.subarray(slot * CHUNK, slot * CHUNK + bytes)).toString('latin1');

/** Descriptors this process has open (Linux: /proc/self/fd). */
const openFds = () => readdirSync('/proc/self/fd').length;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ff-read-worker-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the worker's reader", () => {
  it('a file within one chunk: its bytes in a slot, at its end, closed', () => {
    writeFileSync(join(dir, 'a.txt'), 'needle\n');
    const { reader, ring } = newReader();
    const answer = reader.first(1, join(dir, 'a.txt'), '')!;
    expect(answer).toEqual({ id: 1, slot: expect.any(Number), bytes: 7, eof: true });
    expect(text(ring, answer.slot!, 7)).toBe('needle\n');
    expect(reader.free).toHaveLength(SLOTS - 1);
    expect(reader.more(1)).toMatchObject({ code: 'EBADF' }); // closed at its end
  });

  it('a long file: the first chunk, then TOGETHER chunks a request, an empty chunk at the end, and it is closed there', () => {
    // 2.5 chunks with TOGETHER 2: first chunk, then [chunk, half], then [empty].
    const body = 'a'.repeat(CHUNK) + 'b'.repeat(CHUNK) + 'c'.repeat(CHUNK / 2);
    writeFileSync(join(dir, 'long.txt'), body);
    const ring = new ArrayBuffer(CHUNK * 8);
    const reader = new SyncReader(nodeFs, { flags: OPEN_FLAGS, chunkBytes: CHUNK, ring, together: 2, hitCap: HITS_IN_WORKER }, new ByteLines());
    const view = new Uint8Array(ring);
    const first = reader.first(7, join(dir, 'long.txt'), '')!;
    expect(first).toMatchObject({ id: 7, bytes: CHUNK, eof: false });
    const next = reader.more(7)!;
    expect(next.sizes).toEqual([CHUNK, CHUNK / 2]);
    expect(text(view, next.slots[0]!, 3) + text(view, next.slots[1]!, 3)).toBe('bbbccc');
    expect(reader.more(7)).toMatchObject({ sizes: [0] });
    expect(reader.more(7)).toMatchObject({ code: 'EBADF' });
  });

  it('a file of a known size within a chunk is at its end after that many bytes (no second read)', () => {
    writeFileSync(join(dir, 'a.txt'), 'x'.repeat(100));
    let reads = 0;
    const counting: SyncReaderFs = { ...nodeFs, readSync: (...args: Parameters<SyncReaderFs['readSync']>) => (reads++, nodeFs.readSync(...args)) };
    const { reader } = newReader(counting);
    expect(reader.first(1, join(dir, 'a.txt'), '')).toMatchObject({ bytes: 100, eof: true });
    expect(reads).toBe(1);
  });

  it('an empty file, and one that says size 0 but has bytes (/proc): read until a read returns nothing', () => {
    writeFileSync(join(dir, 'empty'), '');
    const { reader } = newReader();
    expect(reader.first(1, join(dir, 'empty'), '')).toMatchObject({ bytes: 0, eof: true });
    const zeroSized: SyncReaderFs = { ...nodeFs, fstatSync: (fd) => ({ isFile: () => nodeFs.fstatSync(fd).isFile(), size: 0 }) };
    writeFileSync(join(dir, 'proc-like'), 'abc');
    expect(newReader(zeroSized).reader.first(2, join(dir, 'proc-like'), '')).toMatchObject({ bytes: 3, eof: true });
  });

  it('no free slot: no answer (the caller waits); a slot given back lets it read', () => {
    writeFileSync(join(dir, 'a.txt'), 'a');
    writeFileSync(join(dir, 'b.txt'), 'b');
    const { reader } = newReader(nodeFs, 1);
    const first = reader.first(1, join(dir, 'a.txt'), '')!;
    expect(reader.first(2, join(dir, 'b.txt'), '')).toBeUndefined();
    reader.free.push(first.slot!);
    expect(reader.first(2, join(dir, 'b.txt'), '')).toMatchObject({ id: 2, bytes: 1, eof: true });
  });

  it('errors are values: a missing file, and a read that fails after some bytes (the bytes kept, the file closed)', () => {
    const { reader } = newReader();
    expect(reader.first(1, join(dir, 'missing'), '')).toMatchObject({ id: 1, code: 'ENOENT' });
    writeFileSync(join(dir, 'a.txt'), 'x'.repeat(CHUNK * 2));
    let reads = 0;
    let closed = 0;
    const failing: SyncReaderFs = {
      ...nodeFs,
      readSync: (...args: Parameters<SyncReaderFs['readSync']>) => {
        if (reads++ === 1) throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
        return nodeFs.readSync(args[0], args[1], args[2], 10, null);
      },
      closeSync: (fd) => (closed++, nodeFs.closeSync(fd)),
    };
    expect(newReader(failing).reader.first(2, join(dir, 'a.txt'), '')).toMatchObject({ id: 2, bytes: 10, eof: false, code: 'EIO' });
    expect(closed).toBe(1);
  });
});

describe.runIf(posix('mkfifo, symlinks and O_NOFOLLOW')[0])("the worker's reader: what was listed is all it reads (POSIX)", () => {
  it('a FIFO in place of the file: closed unread, EFTYPE, and nothing blocks (O_NONBLOCK)', () => {
    expect(spawnSync('mkfifo', [join(dir, 'f')]).status).toBe(0);
    const { reader } = newReader();
    expect(reader.first(1, join(dir, 'f'), '')).toEqual({ id: 1, code: 'EFTYPE', message: 'not a regular file any more' });
    expect(reader.free).toHaveLength(SLOTS);
  });

  it('a link in place of the file: not followed (ELOOP), the file outside never read', () => {
    writeFileSync(join(dir, 'secret'), 'SECRET');
    symlinkSync(join(dir, 'secret'), join(dir, 'link'));
    expect(newReader().reader.first(1, join(dir, 'link'), '')).toMatchObject({ id: 1, code: 'ELOOP' });
  });
});

describeIf(linux('the place check reads /proc/self/fd'))("the worker's reader: the place check (Linux)", () => {
  it('a directory on the way that is a link: the descriptor is not the listed file, ELOOP; the listed file itself passes', () => {
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'outside', 'z.txt'), 'SECRET');
    mkdirSync(join(dir, 'root'));
    symlinkSync(join(dir, 'outside'), join(dir, 'root', 'y'));
    const { reader, ring } = newReader();
    expect(reader.first(1, join(dir, 'root', 'y', 'z.txt'), `${join(dir, 'root')}/y/z.txt`)).toEqual({ id: 1, code: 'ELOOP', message: 'opened through a link swapped in on the way' });
    expect(reader.free).toHaveLength(SLOTS);
    const real = nodeFs.realpathSync(join(dir, 'outside', 'z.txt'));
    const ok = reader.first(2, join(dir, 'outside', 'z.txt'), real)!;
    expect(text(ring, ok.slot!, ok.bytes!)).toBe('SECRET');
  });

  it.runIf(nodeFs.existsSync('/proc/kmsg'))('/proc/kmsg: an answer at once (EAGAIN for root, EACCES/EPERM otherwise), never a wait', () => {
    const answer = newReader().reader.first(1, '/proc/kmsg', '')!;
    expect(answer.code).toMatch(/^(EAGAIN|EACCES|EPERM)$/);
  });
});

describeIf(linux('descriptors are counted in /proc/self/fd'))('searches with the worker taking the reads (real disk)', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'ff-read-worker-tree-'));
    // Enough files for the worker to start and take over; long files with hits across chunk
    // boundaries and in their last chunk, CRLF, a NUL early (binary) and late, a UTF-16 file, a
    // file of exactly one chunk, empty files.
    for (let d = 0; d < 10; d++) {
      mkdirSync(join(root, `d${d}`));
      for (let f = 0; f < 40; f++) writeFileSync(join(root, `d${d}`, `f${f}.txt`), f % 7 === 0 ? `line one\r\nthe needle ${d}-${f}\r\n` : f % 11 === 0 ? '' : `nothing here ${f}\n`);
    }
    const long = Array.from({ length: 60_000 }, (_, i) => (i % 997 === 0 ? `needle at ${i}` : `filler line ${i}`)).join('\n');
    writeFileSync(join(root, 'd3', 'long.txt'), long);
    writeFileSync(join(root, 'd5', 'straddle.txt'), 'x'.repeat(CHUNK - 3) + 'needle across\n' + 'y'.repeat(CHUNK * 3) + '\nlast needle');
    writeFileSync(join(root, 'd7', 'exact.txt'), 'z'.repeat(CHUNK - 7) + 'needle\n');
    writeFileSync(join(root, 'd1', 'binary.bin'), Buffer.concat([Buffer.from('needle\0'), Buffer.alloc(100)]));
    writeFileSync(join(root, 'd2', 'late-nul.txt'), 'needle early\n' + 'q'.repeat(CHUNK * 2) + '\0needle late\n');
    writeFileSync(join(root, 'd4', 'utf16.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a needle\n', 'utf16le')]));
    // A UTF-8 BOM before a hit (dropped, as the decoder drops it), text beyond ASCII before a hit
    // (the column counts UTF-16 units), and more hits than the worker keeps for one file.
    writeFileSync(join(root, 'd6', 'bom.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('needle first\nthen needle\n')]));
    writeFileSync(join(root, 'd6', 'wide.txt'), 'été 😀 needle\n');
    writeFileSync(join(root, 'd8', 'many.txt'), Array.from({ length: 300 }, (_, i) => `needle ${i}`).join('\n'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const saved = { ...READ_WORKER };
  // walker.ts's paths: with no time budget the real disk is searched by one-thread.ts otherwise.
  beforeEach(() => (ONE_THREAD.enabled = false));
  afterEach(() => {
    Object.assign(READ_WORKER, saved);
    ONE_THREAD.enabled = true;
    vi.restoreAllMocks();
  });
  // The worker takes every read from the first file on (the files wait for it to run).
  const everyReadInTheWorker = () => Object.assign(READ_WORKER, { afterFiles: 0, afterMs: 0, waitUntilReady: true });

  /** A result with its bytes searched (each file counted once, whoever read it), without its time. */
  const withoutElapsed = (result: Awaited<ReturnType<typeof searchContent>>) => ({ ...result, stats: { ...result.stats, elapsedMs: 0 } });

  async function searchBothWays(options: Omit<Parameters<typeof searchContent>[0], 'root'>) {
    Object.assign(READ_WORKER, { afterFiles: Infinity });
    const here = await searchContent({ root, backend: 'walker', ...options });
    everyReadInTheWorker();
    const first = vi.spyOn(WorkerReader.prototype, 'first');
    const viaWorker = await searchContent({ root, backend: 'walker', ...options });
    const workerReads = first.mock.calls.length;
    // And the third engine, one-thread.ts (its own synchronous reads, no worker, no pool).
    ONE_THREAD.enabled = true;
    const oneThread = await searchContent({ root, backend: 'walker', ...options });
    ONE_THREAD.enabled = false;
    expect(first.mock.calls.length).toBe(workerReads);
    return { here, viaWorker, oneThread, workerReads };
  }

  it('byte mode (an exact-case literal): the same hits, skips and verdict as reads on the main thread, every file read by the worker', async () => {
    const { here, viaWorker, oneThread, workerReads } = await searchBothWays({ query: 'needle', caseSensitive: true });
    expect(workerReads).toBe(409);
    expect(withoutElapsed(viaWorker)).toEqual(withoutElapsed(here));
    expect(withoutElapsed(oneThread)).toEqual(withoutElapsed(here));
    expect(here.hits.map((h) => h.path)).toEqual(expect.arrayContaining(['d3/long.txt', 'd5/straddle.txt', 'd7/exact.txt', 'd2/late-nul.txt', 'd4/utf16.txt']));
    expect(here.hits.filter((h) => h.path === 'd3/long.txt')).toHaveLength(61);
    expect(here.hits.filter((h) => h.path === 'd6/bom.txt').map((h) => [h.line, h.column, h.text])).toEqual([[1, 1, 'needle first'], [2, 6, 'then needle']]);
    expect(here.hits.find((h) => h.path === 'd6/wide.txt')).toMatchObject({ column: 8 });
    expect(here.hits.filter((h) => h.path === 'd8/many.txt')).toHaveLength(300);
    // The first hit straddles the first chunk's end (its text is cut at maxLineChars: compared by place).
    expect(here.hits.filter((h) => h.path === 'd5/straddle.txt').map((h) => [h.line, h.column])).toEqual([[1, CHUNK - 2], [3, 6]]);
    expect(here.binarySkipped).toBe(2);
  });

  it('text mode (ignoring case, the default for a lower-case query): the same answer', async () => {
    const { here, viaWorker, oneThread, workerReads } = await searchBothWays({ query: 'needle' });
    expect(workerReads).toBe(409);
    expect(withoutElapsed(viaWorker)).toEqual(withoutElapsed(here));
    expect(withoutElapsed(oneThread)).toEqual(withoutElapsed(here));
    expect(viaWorker.hitCount).toBeGreaterThan(400);
  });

  it('the same in text mode (a regex, with context), where lines are decoded', async () => {
    const { here, viaWorker, oneThread, workerReads } = await searchBothWays({ query: 'need+le', mode: 'regex', contextBefore: 1 });
    expect(workerReads).toBe(409);
    expect(viaWorker.hits).toEqual(here.hits);
    expect(withoutElapsed(oneThread)).toEqual(withoutElapsed(here));
    expect(viaWorker.hitCount).toBeGreaterThan(100);
  });

  it('a worker that ends mid-search: the files it owed are read on the main thread, the same answer', async () => {
    Object.assign(READ_WORKER, { afterFiles: Infinity });
    const here = await searchContent({ root, query: 'needle', backend: 'walker' });
    everyReadInTheWorker();
    const original = WorkerReader.prototype.first;
    let calls = 0;
    vi.spyOn(WorkerReader.prototype, 'first').mockImplementation(function (this: WorkerReader, ...args) {
      if (++calls === 100) void (this as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
      return original.apply(this, args);
    });
    const viaWorker = await searchContent({ root, query: 'needle', backend: 'walker' });
    expect(calls).toBeGreaterThanOrEqual(100);
    expect(calls).toBeLessThan(406);
    expect(withoutElapsed(viaWorker)).toEqual(withoutElapsed(here));
  });

  it('a stop inside a file whose hits the worker found: the same hits kept, the same verdict', async () => {
    const { here, viaWorker, oneThread } = await searchBothWays({ query: 'needle', caseSensitive: true, maxResults: 3 });
    // The files searched and bytes read too: the search stopped where it stops on the main thread.
    // (How far the walk itself got by then, dirsRead and entriesSeen, depends on timing either way.)
    const settled = (r: typeof here) => ({ hits: r.hits, hitCount: r.hitCount, filesSearched: r.filesSearched, binarySkipped: r.binarySkipped, bytes: r.stats.bytesSearched, reasons: r.incompleteReasons, partialFile: r.partialFile });
    expect(settled(viaWorker)).toEqual(settled(here));
    expect(settled(oneThread)).toEqual(settled(here));
    expect(viaWorker).toMatchObject({ hitCount: 3, complete: false, incompleteReasons: ['result-limit'] });
  });

  it('a directory on the way swapped for a link after it was listed: the worker finds its descriptor outside the root, ELOOP, and the file outside is never searched', async () => {
    const base = mkdtempSync(join(tmpdir(), 'ff-read-worker-swap-'));
    try {
      const swapped = join(base, 'root');
      const outside = join(base, 'outside');
      mkdirSync(join(swapped, 'y'), { recursive: true });
      mkdirSync(outside);
      writeFileSync(join(swapped, 'y', 'z.txt'), 'nothing here\n');
      writeFileSync(join(outside, 'z.txt'), 'a needle outside the root\n');
      everyReadInTheWorker();
      const first = vi.spyOn(WorkerReader.prototype, 'first');
      // Once the walk has listed y/ (its z.txt queued, not yet opened), y becomes a link to outside/.
      const swap = (rel: string) => {
        if (rel !== 'y/') return;
        renameSync(join(swapped, 'y'), join(base, 'y-was-here'));
        symlinkSync(outside, join(swapped, 'y'));
      };
      const result = await searchContent({ root: swapped, query: 'needle', backend: 'walker', onDirectory: swap });
      expect(first).toHaveBeenCalledTimes(1);
      expect(result.hits).toEqual([]);
      expect(result.skipped).toEqual([{ path: 'y/z.txt', code: 'ELOOP' }]);
      expect(result.complete).toBe(false);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('a stop mid-search (maxResults) leaves no descriptor open once the worker has ended', async () => {
    const before = openFds();
    everyReadInTheWorker();
    const first = vi.spyOn(WorkerReader.prototype, 'first');
    const result = await searchContent({ root, query: 'needle', maxResults: 30, backend: 'walker' });
    expect(first).toHaveBeenCalled();
    expect(result).toMatchObject({ hitCount: 30, complete: false, incompleteReasons: ['result-limit'] });
    await vi.waitFor(() => expect(openFds()).toBeLessThanOrEqual(before), { timeout: 20_000, interval: 20 });
  });
});
