/**
 * The pure-TS content search end to end, on memfs with injected faults and a fake clock: the file
 * set (the walker's), hits and their order, binary files, unreadable files and directories, every
 * budget, cancellation, and the streaming form (hits as found, flat memory, early exit).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ONE_THREAD } from '../../src/content/search.js';
import { FindFileError, searchContent, searchContentStream, type ContentHit, type ContentOptions, type ContentResult } from '../../src/index.js';
import { readFaultyFs } from '../helpers/content.js';
import { watchProducerEnds } from '../helpers/stream-end.js';
import { FakeClock, buildVolume, faultyFs, type Tree } from '../helpers/memfs.js';

const TREE: Tree = {
  'a.txt': 'alpha\nneedle one\n',
  'b.md': 'needle in md\r\nno\r\n',
  'bin.dat': 'needle\0binary',
  src: {
    'x.ts': 'const x = "needle";\n// 中文 needle\n',
    'y.ts': 'nothing here\n',
    deep: { 'z.ts': 'needle' },
  },
  '.hidden': { 'h.txt': 'needle hidden\n' },
  link: { link: '/root/a.txt' },
};

/** 200 files of 500 hits each: more than the stream holds for a slow reader. */
const MANY: Tree = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${String(i).padStart(3, '0')}.txt`, 'needle\n'.repeat(500)]));

const ALL = [
  { path: '.hidden/h.txt', line: 1, column: 1, text: 'needle hidden' },
  { path: 'a.txt', line: 2, column: 1, text: 'needle one' },
  { path: 'b.md', line: 1, column: 1, text: 'needle in md' },
  { path: 'src/deep/z.ts', line: 1, column: 1, text: 'needle' },
  { path: 'src/x.ts', line: 1, column: 12, text: 'const x = "needle";' },
  { path: 'src/x.ts', line: 2, column: 7, text: '// 中文 needle' },
];

function search(options: Partial<ContentOptions> = {}, tree: Tree = TREE): Promise<ContentResult> {
  return searchContent({ root: '/root', query: 'needle', fs: buildVolume(tree), platform: 'posix', ...options });
}

/** Runs the stream form to the end: the hits in the order found, and the summary. */
async function drain(options: ContentOptions): Promise<{ hits: ContentHit[]; summary: Awaited<ReturnType<typeof searchContentStream>['summary']> }> {
  const stream = searchContentStream(options);
  const hits: ContentHit[] = [];
  for await (const hit of stream) hits.push(hit);
  return { hits, summary: await stream.summary };
}

// Every test twice: walker.ts (the thread pool, the read-ahead), and one-thread.ts, which searches
// the real disk when there is no time budget (here on memfs: `ONE_THREAD.anyFs`). A test with a
// budget runs walker.ts both times: one-thread.ts never runs under one.
for (const engine of ['walker.ts', 'one-thread.ts'] as const) {
  describe(engine, () => {
    beforeAll(() => Object.assign(ONE_THREAD, { enabled: engine === 'one-thread.ts', anyFs: engine === 'one-thread.ts' }));
    afterAll(() => Object.assign(ONE_THREAD, { enabled: true, anyFs: false }));

  describe('maxHitsPerFile', () => {
    it('keeps the first N hits of each file and reads no further in it: a 1 MiB file of hits is read one chunk (64 KiB), not whole', async () => {
      const big = 'needle\n'.repeat(150_000); // 1,050,000 bytes, every line a hit
      // late.txt, after the capped big.txt, holds its only hit past its first chunk: read on, as any file.
      const late = 'y\n'.repeat(40_000) + 'needle\n';
      const result = await search({ maxHitsPerFile: 2 }, { 'big.txt': big, 'late.txt': late, 'small.txt': 'needle\nno\nneedle\nneedle\n', 'one.txt': 'needle\n' });
      expect(result.hits.map((h) => `${h.path}:${h.line}`)).toEqual(['big.txt:1', 'big.txt:2', 'late.txt:40001', 'one.txt:1', 'small.txt:1', 'small.txt:3']);
      expect(result).toMatchObject({ complete: true, filesAtHitCap: 2, filesSearched: 4 });
      // One chunk of big.txt; late.txt and the two small files whole.
      expect(result.stats.bytesSearched).toBe(64 * 1024 + late.length + 7 + 24);
      await expect(search({ maxHitsPerFile: 0 })).rejects.toMatchObject({ code: 'FF_INVALID_LIMIT', message: expect.stringContaining('maxHitsPerFile must be at least 1') });
      await expect(search({ maxHitsPerFile: 1.5 })).rejects.toMatchObject({ code: 'FF_INVALID_LIMIT' });
    });
  });

  describe('a complete search', () => {
    it('names a symlinked directory it would have searched in, matching the pattern or not, never a link to a file (issue 27)', async () => {
      const tree: Tree = { 'a.txt': 'no\n', real: { 'r.txt': 'needle\n' }, linked: { link: '/root/real' }, 'file-link': { link: '/root/a.txt' } };
      const result = await search({}, tree);
      // linked/r.txt holds the text but is never read (links are not followed): the answer names the link.
      expect(result).toMatchObject({ hitCount: 1, complete: true, linksOnTheWay: ['linked'], linkOnTheWayCount: 1, linksExamined: true });
      const none = await search({ query: 'absent' }, tree);
      expect(none).toMatchObject({ hitCount: 0, complete: true, linksOnTheWay: ['linked'], linkOnTheWayCount: 1 });
      // A pattern that cannot lead into it: not on the way.
      expect(await search({ query: 'absent', pattern: 'real/*' }, tree)).toMatchObject({ linksOnTheWay: [], linkOnTheWayCount: 0 });
    });

    it('returns every hit, sorted by path then line, with what was searched and skipped by policy', async () => {
      const result = await search();
      expect(result).toEqual({
        hits: ALL,
        hitCount: 6,
        filesSearched: 6,
        binarySkipped: 1,
        binaryCounted: true,
        skipped: [],
        skippedCount: 0,
        symlinkSkipped: 1,
        // link/link leads to a file: not a directory the search would have entered, but a file it
        // would have searched, never opened: named.
        linksOnTheWay: [],
        linkOnTheWayCount: 0,
        linkMatches: ['link'],
        linkMatchedCount: 1,
        specialMatches: [],
        specialMatchedCount: 0,
        linksExamined: true,
        excludedCount: 0,
        ignoredCount: 0,
        complete: true,
        incompleteReasons: [],
        truncated: false,
        protocolErrors: 0,
        stats: { dirsRead: 4, entriesSeen: 11, elapsedMs: expect.any(Number), bytesSearched: expect.any(Number) },
        backend: 'walker',
      });
      expect(result.stats.bytesSearched).toBe(
        ['alpha\nneedle one\n', 'needle in md\r\nno\r\n', 'needle\0binary', 'const x = "needle";\n// 中文 needle\n', 'nothing here\n', 'needle', 'needle hidden\n'].reduce(
          (n, s) => n + Buffer.byteLength(s),
          0,
        ),
      );
    });

    it('searches only the walker\'s file set: pattern, exclude, hidden, maxDepth', async () => {
      expect((await search({ pattern: '*.ts' })).hits.map((h) => h.path)).toEqual(['src/deep/z.ts', 'src/x.ts', 'src/x.ts']);
      expect((await search({ pattern: 'src/*.ts' })).hits.map((h) => h.path)).toEqual(['src/x.ts', 'src/x.ts']);
      const excluded = await search({ exclude: ['src/', '*.md'] });
      expect(excluded.hits.map((h) => h.path)).toEqual(['.hidden/h.txt', 'a.txt']);
      expect(excluded.excludedCount).toBe(2);
      expect((await search({ hidden: false })).hits.map((h) => h.path)).not.toContain('.hidden/h.txt');
      const shallow = await search({ maxDepth: 1 });
      expect(shallow.hits.map((h) => h.path)).toEqual(['a.txt', 'b.md']);
      expect(shallow).toMatchObject({ complete: false, incompleteReasons: ['depth-limit'] });
    });

    it('complete with no hits proves absence', async () => {
      expect(await search({ query: 'absent' })).toMatchObject({ hits: [], hitCount: 0, complete: true, incompleteReasons: [] });
    });

    it('ignores case by the smart rule, or as told', async () => {
      const tree = { 'c.txt': 'Needle\nneedle\nNEEDLE\n' };
      expect((await search({}, tree)).hitCount).toBe(3);
      expect((await search({ query: 'Needle' }, tree)).hits.map((h) => h.line)).toEqual([1]);
      expect((await search({ caseSensitive: true }, tree)).hits.map((h) => h.line)).toEqual([2]);
      expect((await search({ query: 'NEEDLE', caseSensitive: false }, tree)).hitCount).toBe(3);
    });

    it('searches a regex when asked, and only then', async () => {
      const tree = { 'r.txt': 'a.c\nabc\n' };
      expect((await search({ query: 'a.c' }, tree)).hits.map((h) => h.line)).toEqual([1]);
      expect((await search({ query: 'a.c', mode: 'regex' }, tree)).hits.map((h) => h.line)).toEqual([1, 2]);
    });

    it('rejects a root that does not exist or is not a directory', async () => {
      await expect(search({ root: '/nope' })).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(search({ root: '/root/a.txt' })).rejects.toBeInstanceOf(FindFileError);
    });
  });

  describe('files and directories that cannot be read', () => {
    it('a file that cannot be opened is skipped with its code; the search goes on', async () => {
      const fs = readFaultyFs(buildVolume(TREE), { open: { '/root/a.txt': 'EACCES', '/root/src/x.ts': 'EIO' } });
      const result = await search({ fs });
      expect(result.hits.map((h) => h.path)).toEqual(['.hidden/h.txt', 'b.md', 'src/deep/z.ts']);
      expect(result.skipped).toEqual([
        { path: 'a.txt', code: 'EACCES' },
        { path: 'src/x.ts', code: 'EIO' },
      ]);
      expect(result).toMatchObject({ complete: false, incompleteReasons: ['permission-denied', 'io-error'], skippedCount: 2 });
    });

    it('a file gone before it was opened (ENOENT) is skipped but not a gap', async () => {
      const fs = readFaultyFs(buildVolume(TREE), { open: { '/root/a.txt': 'ENOENT' } });
      expect(await search({ fs })).toMatchObject({ complete: true, skipped: [{ path: 'a.txt', code: 'ENOENT' }] });
    });

    it('a read that fails mid-file keeps the hits before it', async () => {
      const big = 'needle first\n' + 'x\n'.repeat(40_000) + 'needle last\n';
      const fs = readFaultyFs(buildVolume({ 'big.txt': big }), { read: { '/root/big.txt': { code: 'EIO', afterBytes: 1 } } });
      const result = await search({ fs });
      expect(result.hits).toEqual([{ path: 'big.txt', line: 1, column: 1, text: 'needle first' }]);
      expect(result).toMatchObject({ complete: false, incompleteReasons: ['io-error'], skipped: [{ path: 'big.txt', code: 'EIO' }] });
    });

    it('a directory that cannot be read is the walk\'s skipped entry, before the files', async () => {
      const vol = buildVolume(TREE);
      const walkFaults = faultyFs(vol as never, { readdir: { '/root/src/': 'EACCES' } });
      const fs = readFaultyFs(Object.assign(Object.create(vol), walkFaults), { open: { '/root/b.md': 'EPERM' } });
      const result = await search({ fs });
      expect(result.skipped).toEqual([
        { path: 'src', code: 'EACCES' },
        { path: 'b.md', code: 'EPERM' },
      ]);
      expect(result.hits.map((h) => h.path)).toEqual(['.hidden/h.txt', 'a.txt']);
      expect(result.incompleteReasons).toEqual(['permission-denied']);
    });

    it('retries an open that ran out of file handles', async () => {
      let failures = 2;
      const vol = buildVolume({ 'a.txt': 'needle\n' });
      const flaky = readFaultyFs(vol);
      const open = flaky.open.bind(flaky);
      flaky.open = (path, flags, cb) => (failures-- > 0 ? setImmediate(() => cb(Object.assign(new Error('EMFILE'), { code: 'EMFILE' }), -1)) : open(path, flags, cb));
      expect(await search({ fs: flaky })).toMatchObject({ hitCount: 1, complete: true });
    });

    it('closes every file it opens', async () => {
      const fs = readFaultyFs(buildVolume(TREE));
      await search({ fs });
      await new Promise((resolve) => setImmediate(resolve));
      expect(fs.log.opened).toHaveLength(7);
      expect(fs.openFds()).toBe(0);
    });
  });

  describe('budgets', () => {
    it('maxResults: exactly that many is complete; one more is result-limit', async () => {
      expect(await search({ maxResults: 6 })).toMatchObject({ hitCount: 6, complete: true });
      const cut = await search({ maxResults: 2 });
      expect(cut).toMatchObject({ hitCount: 2, complete: false, incompleteReasons: ['result-limit'], truncated: false });
      expect(await search({ maxResults: 0 })).toMatchObject({ hits: [], complete: false, incompleteReasons: ['result-limit'] });
    });

    it('maxLineChars cuts a hit\'s text and flags it: truncated, still complete', async () => {
      const result = await search({ maxLineChars: 8 }, { 'a.txt': 'needle needle\nneedle\n😀😀😀😀 needle\n' });
      expect(result.hits).toEqual([
        { path: 'a.txt', line: 1, column: 1, text: 'needle n', textTruncated: true },
        { path: 'a.txt', line: 2, column: 1, text: 'needle' },
        { path: 'a.txt', line: 3, column: 10, text: '😀😀😀😀', textTruncated: true },
      ]);
      expect(result).toMatchObject({ complete: true, truncated: true });
      // Never half a surrogate pair.
      expect((await search({ maxLineChars: 7 }, { 'a.txt': '😀😀😀😀 needle\n' })).hits[0]!.text).toBe('😀😀😀');
    });

    it('maxOutputBytes: the hit that would pass it is dropped and the search stops: output-limit and truncated', async () => {
      const tree = { 'a.txt': 'needle 1\nneedle 2\nneedle 3\n' };
      const perHit = Buffer.byteLength('a.txt') + Buffer.byteLength('needle 1');
      expect(await search({ maxOutputBytes: 3 * perHit }, tree)).toMatchObject({ hitCount: 3, complete: true, truncated: false });
      const cut = await search({ maxOutputBytes: 3 * perHit - 1 }, tree);
      expect(cut).toMatchObject({ hitCount: 2, complete: false, incompleteReason: 'output-limit', incompleteReasons: ['output-limit'], truncated: true });
      expect(await search({ maxOutputBytes: 0 }, tree)).toMatchObject({ hitCount: 0, complete: false, incompleteReasons: ['output-limit'], truncated: true });
    });

    it('a catastrophic regex ((a+)+$, the model writes the query) cannot hold the search past its budget', async () => {
      // V8's backtracking engine takes minutes on one such line; RE2 is linear, and the budget is
      // asked before every line it searches: a clock that moves 1 ms per reading ends it at 50 lines.
      const evil = `${'a'.repeat(5_000)}!\n`.repeat(400);
      let t = 0;
      const clock = { now: () => t++ };
      const result = await searchContent({ root: '/root', query: '(a+)+$', mode: 'regex', fs: buildVolume({ 'evil.txt': evil, 'z.txt': 'aaa\n' }), clock, timeBudgetMs: 50 });
      expect(result).toMatchObject({ hitCount: 0, complete: false, incompleteReasons: ['time-budget'] });
      const unbounded = await searchContent({ root: '/root', query: '(a+)+$', mode: 'regex', fs: buildVolume({ 'evil.txt': evil, 'z.txt': 'aaa\n' }) });
      expect(unbounded).toMatchObject({ hitCount: 1, complete: true, hits: [{ path: 'z.txt', line: 1, column: 1, text: 'aaa' }] });
    });

    it('the time budget, by the injected clock, checked before every file and chunk', async () => {
      const clock = new FakeClock();
      const fs = readFaultyFs(buildVolume(TREE), { beforeRead: () => clock.advance(10) });
      const result = await search({ fs, clock, timeBudgetMs: 25 });
      expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
      expect(result.hitCount).toBeLessThan(6);
    });

    it('the time budget inside a long file: the hits of the chunks searched in time are kept', async () => {
      const clock = new FakeClock();
      const big = 'needle\n'.repeat(30_000); // 210 KB: four chunks, a read each
      const fs = readFaultyFs(buildVolume({ 'big.txt': big }), { beforeRead: () => clock.advance(10) });
      const result = await search({ fs, clock, timeBudgetMs: 25, maxOutputBytes: 1e9 });
      expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
      expect(result.hitCount).toBeGreaterThan(0);
      expect(result.hitCount).toBeLessThan(30_000);
      expect(fs.log.reads).toBe(3);
    });

    it('timeBudgetMs 0 and an aborted signal return at once, without I/O', async () => {
      for (const options of [{ timeBudgetMs: 0 }, { signal: AbortSignal.abort() }]) {
        const fs = readFaultyFs(buildVolume(TREE));
        const result = await search({ fs, ...options });
        expect(result).toMatchObject({ hits: [], complete: false, incompleteReasons: ['timeBudgetMs' in options ? 'time-budget' : 'aborted'] });
        expect(fs.log.opened).toEqual([]);
      }
    });

    it('aborting mid-search keeps what was found: aborted, not time-budget', async () => {
      const controller = new AbortController();
      const stream = searchContentStream({ root: '/root', query: 'needle', fs: buildVolume(MANY), platform: 'posix', signal: controller.signal, maxOutputBytes: 1e9 });
      let seen = 0;
      for await (const _hit of stream) if (++seen === 1) controller.abort();
      const summary = await stream.summary;
      expect(summary).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
      expect(summary.hitCount).toBe(seen);
      expect(seen).toBeGreaterThan(0);
      expect(seen).toBeLessThan(100_000);
    });

    it('with the real clock, a hung read cannot hold the answer past the budget', async () => {
      const fs = readFaultyFs(buildVolume(TREE), { hangRead: '/root/b.md' });
      const started = performance.now();
      const result = await search({ fs, timeBudgetMs: 50 });
      expect(performance.now() - started).toBeLessThan(2000);
      expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
      expect(result.hits.map((h) => h.path)).toEqual(['a.txt']);
    });

    it('a line longer than the held-text cap: the file is skipped as EFBIG, the rest searched', async () => {
      const result = await search({}, { 'huge.txt': 'needle\n' + 'x'.repeat(16 * 1024 * 1024 + 1), 'ok.txt': 'needle\n' });
      expect(result.hits.map((h) => h.path)).toEqual(['huge.txt', 'ok.txt']);
      expect(result).toMatchObject({ complete: false, incompleteReasons: ['io-error'], skipped: [{ path: 'huge.txt', code: 'EFBIG' }] });
    });
  });

  describe('the stream', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    const options = (extra: Partial<ContentOptions> = {}): ContentOptions => ({ root: '/root', query: 'needle', fs: buildVolume(TREE), platform: 'posix', ...extra });

    it('yields the same hits as the promise (in the order found), then the same summary', async () => {
      const { hits, summary } = await drain(options());
      const { hits: sorted, ...promised } = await searchContent(options());
      expect([...hits].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line))).toEqual(sorted);
      expect({ ...summary, stats: { ...summary.stats, elapsedMs: 0 } }).toEqual({ ...promised, stats: { ...promised.stats, elapsedMs: 0 } });
    });

    it('breaking out ends the search, and the summary says aborted', async () => {
      const stream = searchContentStream({ ...options(), fs: buildVolume(MANY), maxOutputBytes: 1e9 });
      for await (const _hit of stream) break;
      expect(await stream.summary).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
    });

    it.each([1, 5, 40])('a reader that leaves after %i hits: the summary counts those, and the file it was in is the partial one', async (kept) => {
      const stream = searchContentStream({ ...options(), fs: buildVolume(MANY), maxOutputBytes: 1e9 });
      const taken: ContentHit[] = [];
      for await (const hit of stream) if (taken.push(hit) === kept) break;
      const summary = await stream.summary;
      expect(summary).toMatchObject({ complete: false, incompleteReasons: ['aborted'], hitCount: kept, partialFile: taken.at(-1)!.path });
    });

    // Once said "complete" with all 6 hits counted, though the reader had taken one (adversary F1).
    it('a search that ended before the reader left: the summary counts the hit it took, aborted', async () => {
      const ends = watchProducerEnds();
      const stream = searchContentStream(options());
      const iterator = stream[Symbol.asyncIterator]();
      const first = await iterator.next();
      expect(first.done).toBe(false);
      await ends.ended(); // 6 hits: all found and waiting
      await iterator.return!(undefined);
      expect(await stream.summary).toMatchObject({ complete: false, incompleteReasons: ['aborted'], hitCount: 1, partialFile: (first.value as ContentHit).path });
    });

    it('a search that ended before the reader took its last hit and broke: complete', async () => {
      const ends = watchProducerEnds();
      const stream = searchContentStream(options());
      const iterator = stream[Symbol.asyncIterator]();
      await iterator.next();
      await ends.ended();
      for (let i = 1; i < 6; i++) expect((await iterator.next()).done).toBe(false);
      await iterator.return!(undefined);
      expect(await stream.summary).toMatchObject({ complete: true, hitCount: 6 });
    });

    it('pauses while the reader is behind: memory does not grow with the number of hits', async () => {
      const fs = readFaultyFs(buildVolume(MANY));
      const stream = searchContentStream({ root: '/root', query: 'needle', fs, platform: 'posix', maxOutputBytes: 1e9 });
      let seen = 0;
      for await (const _hit of stream) {
        if (++seen === 10) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          // 100k hits exist; the search waited for the reader: only the read-ahead (32 files) was opened.
          expect(fs.log.opened.length).toBeLessThanOrEqual(40);
        }
      }
      expect(seen).toBe(100_000);
      expect((await stream.summary).hitCount).toBe(100_000);
    });

    it('a missing root surfaces from the iteration and the summary', async () => {
      const stream = searchContentStream(options({ root: '/nope' }));
      await expect(drain(options({ root: '/nope' }))).rejects.toMatchObject({ code: 'ENOENT' });
      await expect(stream.summary).rejects.toMatchObject({ code: 'ENOENT' });
    });
  });
  });
}
