/**
 * The walker's contract on memfs with a fake clock. Every case runs through the three API flavours
 * (promise, stream, sync), which must agree to the last field. memfs paths are POSIX-flavoured, so
 * these tests say `platform: 'posix'` and run the same on Windows.
 */
import { describe, expect, it } from 'vitest';
import { MAX_LINK_MATCHES, findFiles, findFilesStream, findFilesSync, type FindOptions } from '../../src/index.js';
import { FakeClock, asFs, buildVolume, faultyFs, win32Fs, type FaultOptions, type Tree } from '../helpers/memfs.js';
import { findAll } from '../helpers/every-form.js';

const ROOT = '/root';

/** Options over an inline tree; `faults` go through the fault-injecting fs, reads advance the clock by `msPerRead`. */
function over(tree: Tree, options: Partial<FindOptions> = {}, faults: FaultOptions = {}, msPerRead = 0) {
  const vol = buildVolume(tree);
  return () => {
    const clock = new FakeClock();
    const fs = faultyFs(asFs(vol), {
      ...faults,
      beforeReaddir: (path) => {
        clock.advance(msPerRead);
        faults.beforeReaddir?.(path);
      },
    });
    return { root: ROOT, platform: 'posix', pattern: '*', fs, clock, ...options } as FindOptions;
  };
}

const project: Tree = {
  'README.md': '#',
  '.env': 'x',
  src: { 'index.ts': '', 'util.ts': '', lib: { 'deep.ts': '', 'deep.js': '' } },
  test: { 'index.test.ts': '' },
  '.hidden': { 'secret.ts': '' },
  docs: {},
};

describe('matching', () => {
  it('matches a slash-less pattern against base names at any depth, hidden entries included', async () => {
    const result = await findAll(over(project, { pattern: '*.ts' }));
    expect(result.matches).toEqual(['.hidden/secret.ts', 'src/index.ts', 'src/lib/deep.ts', 'src/util.ts', 'test/index.test.ts']);
    expect(result).toMatchObject({ matchedCount: 5, complete: true, incompleteReasons: [], skipped: [], skippedCount: 0, backend: 'walker' });
    expect(result.incompleteReason).toBeUndefined();
  });

  it('leaves hidden entries out, without entering hidden directories, when hidden is false', async () => {
    const make = over(project, { pattern: '*', hidden: false });
    const result = await findAll(make);
    expect(result.matches).toEqual(['README.md', 'src/index.ts', 'src/lib/deep.js', 'src/lib/deep.ts', 'src/util.ts', 'test/index.test.ts']);
    const options = make();
    await findFiles(options);
    expect((options.fs as ReturnType<typeof faultyFs>).calls.map((c) => c.path)).not.toContain(`${ROOT}/.hidden/`);
  });

  it('returns files only, never directories', async () => {
    const result = await findAll(over(project, { pattern: '*' }));
    expect(result.matches).not.toContain('src');
    expect(result.matches).not.toContain('docs');
    expect(result.matchedCount).toBe(8);
  });

  it('matches path patterns against the root-relative path and prunes directories they cannot enter', async () => {
    const make = over(project, { pattern: 'src/**/*.ts' });
    const result = await findAll(make);
    expect(result.matches).toEqual(['src/index.ts', 'src/lib/deep.ts', 'src/util.ts']);
    expect(result.complete).toBe(true);
    const options = make();
    await findFiles(options);
    const read = (options.fs as ReturnType<typeof faultyFs>).calls.map((c) => c.path);
    expect(read).toEqual([`${ROOT}/`, `${ROOT}/src/`, `${ROOT}/src/lib/`]);
    expect(result.stats.dirsRead).toBe(3);
  });

  it('treats **/x like x, accepts several patterns, brace sets and a leading ./', async () => {
    expect((await findAll(over(project, { pattern: '**/deep.*' }))).matches).toEqual(['src/lib/deep.js', 'src/lib/deep.ts']);
    expect((await findAll(over(project, { pattern: ['README.md', 'test/*.ts'] }))).matches).toEqual(['README.md', 'test/index.test.ts']);
    expect((await findAll(over(project, { pattern: '*.{md,js}' }))).matches).toEqual(['README.md', 'src/lib/deep.js']);
    expect((await findAll(over(project, { pattern: './src/*.ts' }))).matches).toEqual(['src/index.ts', 'src/util.ts']);
  });

  it('matches case-sensitively on posix', async () => {
    expect((await findAll(over(project, { pattern: '*.TS' }))).matches).toEqual([]);
  });

  it('returns native absolute paths with absolute: true', async () => {
    const result = await findAll(over(project, { pattern: 'src/*.ts', absolute: true }));
    expect(result.matches).toEqual([`${ROOT}/src/index.ts`, `${ROOT}/src/util.ts`]);
  });

  it('excludes by base name at any depth, by path, and directories only with a trailing slash, without entering them', async () => {
    const tree: Tree = {
      node_modules: { 'a.js': '' },
      pkg: { node_modules: { 'b.js': '' }, 'c.js': '', 'c.min.js': '' },
      dist: { 'd.js': '', sub: { 'e.js': '' } },
      build: { 'f.js': '' },
      'build.js': '',
    };
    const make = over(tree, { pattern: '*.js', exclude: ['node_modules', 'dist/**', '*.min.js', 'build/'] });
    const result = await findAll(make);
    expect(result.matches).toEqual(['build.js', 'pkg/c.js']);
    expect(result.excludedCount).toBe(5);
    expect(result.complete).toBe(true);
    const options = make();
    await findFiles(options);
    const read = (options.fs as ReturnType<typeof faultyFs>).calls.map((c) => c.path);
    expect(read.some((p) => p.includes('node_modules') || p.includes('dist') || p.endsWith('/build/'))).toBe(false);
  });
});

describe('permission-denied', () => {
  const tree: Tree = { a: { 'keep.txt': '', secret: { 'hidden.txt': '' } }, b: { 'other.txt': '' }, 'top.txt': '' };

  it('skips a denied directory, keeps every other match and marks the result incomplete', async () => {
    for (const code of ['EACCES', 'EPERM']) {
      const result = await findAll(over(tree, { pattern: '*.txt' }, { readdir: { [`${ROOT}/a/secret/`]: code } }));
      expect(result.matches).toEqual(['a/keep.txt', 'b/other.txt', 'top.txt']);
      expect(result.skipped).toEqual([{ path: 'a/secret', code }]);
      expect(result).toMatchObject({ skippedCount: 1, complete: false, incompleteReason: 'permission-denied', incompleteReasons: ['permission-denied'] });
    }
  });

  it('reports a denied root as skipped "." with zero matches, incomplete, not as an error', async () => {
    const result = await findAll(over(tree, {}, { readdir: { [`${ROOT}/`]: 'EACCES' } }));
    expect(result).toMatchObject({ matches: [], matchedCount: 0, skipped: [{ path: '.', code: 'EACCES' }], complete: false, incompleteReason: 'permission-denied' });
  });

  it('does not count a denied directory the pattern could never enter: it is never read', async () => {
    const result = await findAll(over(tree, { pattern: 'b/*.txt' }, { readdir: { [`${ROOT}/a/`]: 'EACCES' } }));
    expect(result).toMatchObject({ matches: ['b/other.txt'], skipped: [], complete: true });
  });
});

describe('root errors', () => {
  it('rejects a missing root with ENOENT and a root that is a file with ENOTDIR', async () => {
    const vol = buildVolume({ 'file.txt': '' });
    const fs = asFs(vol);
    await expect(findFiles({ root: '/nope', platform: 'posix', pattern: '*', fs })).rejects.toMatchObject({ name: 'FindFileError', code: 'ENOENT' });
    await expect(findFiles({ root: `${ROOT}/file.txt`, pattern: '*', fs })).rejects.toMatchObject({ code: 'ENOTDIR' });
    expect(() => findFilesSync({ root: '/nope', platform: 'posix', pattern: '*', fs })).toThrow(/does not exist/);
    const stream = findFilesStream({ root: '/nope', platform: 'posix', pattern: '*', fs });
    await expect(async () => {
      for await (const _ of stream) void _;
    }).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stream.summary).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('opens a root that is itself a symlink to a directory', async () => {
    const vol = buildVolume({ real: { 'a.txt': '' } });
    vol.symlinkSync(`${ROOT}/real`, '/link');
    const result = await findFiles({ root: '/link', platform: 'posix', pattern: '*', fs: asFs(vol), clock: new FakeClock() });
    expect(result).toMatchObject({ matches: ['a.txt'], complete: true, symlinkSkipped: 0 });
  });
});

describe('result-limit', () => {
  const five: Tree = { 'a.txt': '', 'b.txt': '', d: { 'c.txt': '', e: { 'd.txt': '', 'e.txt': '' } } };

  it('returns maxResults matches and stops when it sees one more', async () => {
    const result = await findAll(over(five, { maxResults: 3 }));
    expect(result.matchedCount).toBe(3);
    expect(result.matches).toEqual(['a.txt', 'b.txt', 'd/c.txt']); // breadth first: the shallowest
    expect(result).toMatchObject({ complete: false, incompleteReason: 'result-limit' });
  });

  it('stays complete when exactly maxResults matches exist', async () => {
    const result = await findAll(over(five, { maxResults: 5 }));
    expect(result).toMatchObject({ matchedCount: 5, complete: true, incompleteReasons: [] });
  });

  it('maxResults 0 returns nothing; incomplete only if a match exists', async () => {
    expect(await findAll(over(five, { maxResults: 0 }))).toMatchObject({ matches: [], complete: false, incompleteReason: 'result-limit' });
    expect(await findAll(over(five, { maxResults: 0, pattern: '*.none' }))).toMatchObject({ matches: [], complete: true });
  });

  it('stops reading directories once the limit is passed', async () => {
    const wide: Tree = {};
    for (let i = 0; i < 50; i++) wide[`d${String(i).padStart(2, '0')}`] = { 'x.txt': '', sub: { 'y.txt': '' } };
    const make = over(wide, { maxResults: 10, concurrency: 1 });
    const options = make();
    const result = await findFiles(options);
    expect(result).toMatchObject({ matchedCount: 10, incompleteReason: 'result-limit' });
    // The root, ten directories with one match each, and the eleventh that holds match 11.
    expect((options.fs as ReturnType<typeof faultyFs>).calls.length).toBe(12);
  });
});

describe('time-budget', () => {
  const tree: Tree = { a: { 'a.txt': '', aa: { 'aa.txt': '' } }, b: { 'b.txt': '' }, c: { 'c.txt': '' } };

  it('checks the clock before every directory read and returns what it has', async () => {
    // Each read takes 10 ms: the root (0-10), a (10-20), b (20-30); at 30 the budget of 25 ms is gone.
    // With one read at a time the async walk reads exactly what the sync walk reads.
    const make = over(tree, { timeBudgetMs: 25, concurrency: 1 }, {}, 10);
    const result = await findAll(make);
    expect(result).toMatchObject({ matches: ['a/a.txt', 'b/b.txt'], complete: false, incompleteReason: 'time-budget', incompleteReasons: ['time-budget'] });
    expect(result.stats).toMatchObject({ dirsRead: 3, elapsedMs: 30 });
  });

  it('with the real clock, the budget ends a walk whose read never answers (the timer stops it, not the next read)', async () => {
    // Kills an async driver that never arms the real-clock timer: the stalled read would hold the answer forever.
    const base = faultyFs(asFs(buildVolume({ 'a.txt': '', stuck: { 'b.txt': '' } })));
    const fs: typeof base = { ...base, readdir: (path, options, callback) => (path === `${ROOT}/stuck/` ? undefined : base.readdir(path, options, callback)) };
    const result = await findFiles({ root: ROOT, platform: 'posix', pattern: '*', fs, timeBudgetMs: 200 });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
    // What was found in time is kept; on a loaded machine the root's own read may come after the
    // budget (2 CPU burners beside the suite: no match at 20 ms), so `a.txt` may or may not be in.
    expect(['a.txt']).toEqual(expect.arrayContaining(result.matches));
  }, 10_000);

  it('with reads issued ahead, the async walk stops at the budget too, with what it took in time', async () => {
    // Reads ahead advance the clock early: b and c are issued before the root's entries are taken.
    const result = await findFiles(over(tree, { timeBudgetMs: 25 }, {}, 10)());
    expect(result).toMatchObject({ complete: false, incompleteReason: 'time-budget' });
    expect(result.matches.every((m) => ['a/a.txt', 'b/b.txt', 'c/c.txt'].includes(m))).toBe(true);
    expect(result.stats.elapsedMs).toBeGreaterThanOrEqual(25);
  });

  it('is complete when the walk ends inside the budget', async () => {
    expect(await findAll(over(tree, { timeBudgetMs: 1000 }, {}, 10))).toMatchObject({ complete: true, matchedCount: 4 });
  });

  it('timeBudgetMs 0 returns at once, incomplete, with no read', async () => {
    const make = over(tree, { timeBudgetMs: 0 });
    const result = await findAll(make);
    expect(result).toMatchObject({ matches: [], complete: false, incompleteReason: 'time-budget', stats: { dirsRead: 0 } });
    const options = make();
    await findFiles(options);
    expect((options.fs as ReturnType<typeof faultyFs>).calls).toEqual([]);
  });

  it('checks the clock inside a large directory', async () => {
    const big: Tree = {};
    for (let i = 0; i < 3000; i++) big[`f${i}.txt`] = '';
    const vol = buildVolume(big);
    let reads = 0;
    // A clock that moves 1 ms every time it is read: the walk must look at it while inside the directory.
    const ticking = { now: () => reads++ };
    const result = findFilesSync({ root: ROOT, platform: 'posix', pattern: '*', fs: asFs(vol), clock: ticking, timeBudgetMs: 5 });
    expect(result).toMatchObject({ complete: false, incompleteReason: 'time-budget' });
    expect(result.stats.entriesSeen).toBeLessThan(3000);
    expect(result.matchedCount).toBeGreaterThan(0);
  });
});

describe('depth-limit', () => {
  it('maxDepth 1 examines only the root direct children; a deeper match makes it incomplete', async () => {
    const result = await findAll(over({ 'a.txt': '', d: { 'b.txt': '' } }, { maxDepth: 1 }));
    expect(result).toMatchObject({ matches: ['a.txt'], complete: false, incompleteReason: 'depth-limit' });
  });

  it('a tree no deeper than the limit stays complete, empty directories at the limit included', async () => {
    const tree: Tree = { 'a.txt': '', empty: {}, d: { 'b.txt': '', e: {} } };
    expect(await findAll(over(tree, { maxDepth: 1, pattern: '*.txt' }))).toMatchObject({ matches: ['a.txt'], complete: false });
    expect(await findAll(over(tree, { maxDepth: 2, pattern: '*.txt' }))).toMatchObject({ matches: ['a.txt', 'd/b.txt'], complete: true });
    expect(await findAll(over({ 'a.txt': '', empty: {} }, { maxDepth: 1 }))).toMatchObject({ matches: ['a.txt'], complete: true });
  });

  it('only counts directories beyond the limit where the pattern could still match', async () => {
    const tree: Tree = { 'a.js': '', notes: { 'n.txt': '' }, lib: { 'x.js': '' } };
    // Beyond the limit are notes/n.txt (cannot match *.js) and lib/x.js (could).
    expect(await findAll(over(tree, { maxDepth: 1, pattern: '*.js' }))).toMatchObject({ complete: false, incompleteReason: 'depth-limit' });
    expect(await findAll(over({ 'a.js': '', notes: { 'n.txt': '' } }, { maxDepth: 1, pattern: '*.js' }))).toMatchObject({ matches: ['a.js'], complete: true });
    // A rooted pattern that cannot enter lib: lib is not even looked at.
    expect(await findAll(over(tree, { maxDepth: 1, pattern: 'notes/*.js' }))).toMatchObject({ matches: [], complete: true });
  });

  it('hidden: false at the depth limit: only dot entries past the limit leave the answer complete', async () => {
    // Kills a depth peek that ignores hidden: false: .x.ts and .d/ could never be returned, so they prove no gap.
    const tree: Tree = { 'a.ts': '', src: { '.x.ts': '', '.d': { 'y.ts': '' } } };
    expect(await findAll(over(tree, { maxDepth: 1, pattern: '*.ts', hidden: false }))).toMatchObject({ matches: ['a.ts'], complete: true, incompleteReasons: [] });
    expect(await findAll(over(tree, { maxDepth: 1, pattern: '*.ts' }))).toMatchObject({ matches: ['a.ts'], complete: false, incompleteReasons: ['depth-limit'] });
  });

  it('at the depth limit, only what could be returned proves a gap: an excluded entry, or a directory no pattern enters, does not', async () => {
    // src is peeked (maxDepth 1). A directory in it is proof (it may hold *.ts); excluded, it is not; nor is x.ts once excluded.
    const deep: Tree = { 'a.ts': '', src: { deep: { 'x.ts': '' } } };
    expect(await findAll(over(deep, { maxDepth: 1, pattern: '*.ts' }))).toMatchObject({ matches: ['a.ts'], complete: false, incompleteReasons: ['depth-limit'] });
    expect(await findAll(over(deep, { maxDepth: 1, pattern: '*.ts', exclude: ['deep'] }))).toMatchObject({ matches: ['a.ts'], complete: true, incompleteReasons: [] });
    expect(await findAll(over(deep, { maxDepth: 1, pattern: '*.ts', exclude: ['other'] }))).toMatchObject({ complete: false, incompleteReasons: ['depth-limit'] });
    const file: Tree = { 'a.ts': '', src: { 'x.ts': '' } };
    expect(await findAll(over(file, { maxDepth: 1, pattern: '*.ts', exclude: ['x.ts'] }))).toMatchObject({ matches: ['a.ts'], complete: true, incompleteReasons: [] });
    // src/*.ts reaches into src, but never into src/sub: the peek at src finds nothing it could return.
    expect(await findAll(over({ src: { sub: { 'y.ts': '' } } }, { maxDepth: 1, pattern: 'src/*.ts' }))).toMatchObject({ matches: [], complete: true, incompleteReasons: [] });
  });

  it('stops peeking at the limit once one peek has found something, in the async walk too', async () => {
    const tree: Tree = {};
    for (let i = 0; i < 40; i++) tree[`d${i}`] = { 'x.txt': '' };
    const make = over(tree, { maxDepth: 1 });
    const options = make();
    const result = await findFiles(options);
    expect(result).toMatchObject({ complete: false, incompleteReason: 'depth-limit', stats: { dirsRead: 1, dirsPeeked: 1 } });
    // The root, and the first peek: the other 39 directories at the limit are never listed.
    expect((options.fs as ReturnType<typeof faultyFs>).calls).toHaveLength(2);
  });

  it('maxDepth 0 reads nothing and is incomplete when the root holds something to match', async () => {
    expect(await findAll(over({ 'a.txt': '' }, { maxDepth: 0 }))).toMatchObject({ matches: [], complete: false, incompleteReason: 'depth-limit', stats: { dirsRead: 0 } });
    expect(await findAll(over({}, { maxDepth: 0 }))).toMatchObject({ matches: [], complete: true });
  });

  it('a directory at the limit that cannot be listed counts as depth-limit, not as skipped', async () => {
    const result = await findAll(over({ 'a.txt': '', d: { 'b.txt': '' } }, { maxDepth: 1 }, { readdir: { [`${ROOT}/d/`]: 'EACCES' } }));
    expect(result).toMatchObject({ matches: ['a.txt'], skipped: [], complete: false, incompleteReasons: ['depth-limit'] });
  });
});

describe('aborted', () => {
  it('an abort mid-walk returns the partial result marked aborted', async () => {
    const tree: Tree = { a: { 'a.txt': '' }, b: { 'b.txt': '' }, c: { 'c.txt': '' } };
    const controller = new AbortController();
    const vol = buildVolume(tree);
    let reads = 0;
    const fs = faultyFs(asFs(vol), { beforeReaddir: () => void (++reads === 3 && controller.abort()) });
    const result = await findFiles({ root: ROOT, platform: 'posix', pattern: '*', fs, signal: controller.signal, clock: new FakeClock(), concurrency: 1 });
    expect(result).toMatchObject({ complete: false, incompleteReason: 'aborted' });
    expect(result.matchedCount).toBeLessThan(3);
  });

  it('an already aborted signal returns at once, incomplete, with no read', async () => {
    const make = over({ 'a.txt': '' }, { signal: AbortSignal.abort() });
    const result = await findAll(make);
    expect(result).toMatchObject({ matches: [], complete: false, incompleteReason: 'aborted' });
    const options = make();
    await findFiles(options);
    expect((options.fs as ReturnType<typeof faultyFs>).calls).toEqual([]);
  });

  it('breaking out of the stream ends the walk', async () => {
    // More matches than the stream buffers ahead of its reader, so the walk is still going at the break.
    const tree: Tree = {};
    for (let i = 0; i < 30; i++) tree[`d${i}`] = Object.fromEntries(Array.from({ length: 100 }, (_, j) => [`f${j}.txt`, '']));
    const stream = findFilesStream(over(tree)());
    for await (const _ of stream) break;
    const summary = await stream.summary;
    expect(summary).toMatchObject({ complete: false, incompleteReason: 'aborted' });
    expect(summary.matchedCount).toBeLessThan(3000);
  });
});

describe('other read errors', () => {
  const tree: Tree = { ok: { 'a.txt': '' }, bad: { 'b.txt': '' }, gone: { 'c.txt': '' } };

  it('records EIO, EBUSY, ELOOP and ENAMETOOLONG as skipped with reason io-error', async () => {
    for (const code of ['EIO', 'EBUSY', 'ELOOP', 'ENAMETOOLONG']) {
      const result = await findAll(over(tree, {}, { readdir: { [`${ROOT}/bad/`]: code } }));
      expect(result).toMatchObject({ skipped: [{ path: 'bad', code }], complete: false, incompleteReasons: ['io-error'] });
      expect(result.matches).toEqual(['gone/c.txt', 'ok/a.txt']);
    }
  });

  it('a directory that vanished after it was listed is skipped but keeps the result complete', async () => {
    for (const code of ['ENOENT', 'ENOTDIR']) {
      const result = await findAll(over(tree, {}, { readdir: { [`${ROOT}/gone/`]: code } }));
      expect(result).toMatchObject({ skipped: [{ path: 'gone', code }], complete: true, incompleteReasons: [] });
    }
  });

  it('an undecodable directory whose string opens a twin of another type (ENOTDIR) is a gap (EILSEQ), never vanished', async () => {
    // Kills ENOTDIR left out of the undecodable mapping: `d\xff/` listed, `d\uFFFD` opens a file twin, and lost.txt would vanish from a complete answer.
    for (const code of ['ENOENT', 'ENOTDIR']) {
      const result = await findAll(over({ 'ok.txt': '', 'd\uFFFD': { 'lost.txt': '' } }, {}, { readdir: { [`${ROOT}/d\uFFFD/`]: code } }));
      expect(result, code).toMatchObject({ matches: ['ok.txt'], skipped: [{ path: 'd\uFFFD', code: 'EILSEQ' }], complete: false, incompleteReasons: ['io-error'] });
    }
  });

  it('retries a read that ran out of file handles, then succeeds', async () => {
    const result = await findAll(over(tree, {}, { failFirst: { count: 2, code: 'EMFILE' } }));
    expect(result).toMatchObject({ matchedCount: 3, skipped: [], complete: true });
  });

  it('gives up on a read that keeps failing with EMFILE and records it', async () => {
    const result = await findAll(over(tree, {}, { readdir: { [`${ROOT}/bad/`]: 'EMFILE' } }));
    expect(result).toMatchObject({ skipped: [{ path: 'bad', code: 'EMFILE' }], complete: false, incompleteReasons: ['io-error'] });
  });

  it('lists every reason that applied, the one that stopped the walk first', async () => {
    const wide: Tree = { a: { 'a.txt': '' }, b: { 'b.txt': '' }, c: { 'c1.txt': '', 'c2.txt': '', 'c3.txt': '' } };
    const result = await findAll(over(wide, { maxResults: 2 }, { readdir: { [`${ROOT}/a/`]: 'EACCES', [`${ROOT}/b/`]: 'EIO' } }));
    expect(result.incompleteReasons).toEqual(['result-limit', 'permission-denied', 'io-error']);
    expect(result.incompleteReason).toBe('result-limit');
    expect(result.skipped).toEqual([
      { path: 'a', code: 'EACCES' },
      { path: 'b', code: 'EIO' },
    ]);
  });
});

describe('links and untyped entries', () => {
  it('an untyped entry of an fs whose lstat gives no size nor time is still a match when no filter needs them', async () => {
    // The lstat only types it: size and time are asked for by a filter, sort or stats alone; without one, their absence is no gap.
    const base = faultyFs(asFs(buildVolume({ 'a.txt': '', d: { 'b.txt': '' } })), { untyped: true });
    const bare = (s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }) => ({ isFile: () => s.isFile(), isDirectory: () => s.isDirectory(), isSymbolicLink: () => s.isSymbolicLink() });
    const fs = {
      ...base,
      lstat: (path: string, cb: (e: NodeJS.ErrnoException | null, s: ReturnType<typeof bare>) => void) => base.lstat(path, (e, s) => cb(e, e ? s : bare(s))),
      lstatSync: (path: string) => bare(base.lstatSync(path)),
    };
    const result = await findAll(() => ({ root: ROOT, platform: 'posix', pattern: '*.txt', fs, clock: new FakeClock() }) as FindOptions);
    expect(result).toMatchObject({ matches: ['a.txt', 'd/b.txt'], skipped: [], complete: true });
  });

  it('never follows nor returns symlinks: to files, to directories, to ancestors, dangling', async () => {
    const tree: Tree = {
      'real.txt': '',
      dir: { 'inner.txt': '', up: { link: ROOT }, parent: { link: '..' } },
      'to-file.txt': { link: `${ROOT}/real.txt` },
      'to-dir': { link: `${ROOT}/dir` },
      dangling: { link: '/nowhere' },
    };
    const result = await findAll(over(tree, { pattern: '*' }));
    expect(result.matches).toEqual(['dir/inner.txt', 'real.txt']);
    expect(result).toMatchObject({ symlinkSkipped: 5, complete: true });
  });

  it('falls back to lstat where the filesystem reports no entry type, with the same answer', async () => {
    const tree: Tree = { 'a.ts': '', d: { 'b.ts': '', l: { link: '/root' } }, skip: { 'c.md': '' } };
    const typed = await findAll(over(tree, { pattern: '*.ts' }));
    const make = over(tree, { pattern: '*.ts' }, { untyped: true });
    const untyped = await findAll(make);
    expect(untyped).toEqual(typed);
    expect(untyped).toMatchObject({ matches: ['a.ts', 'd/b.ts'], symlinkSkipped: 1 });
    const options = make();
    await findFiles(options);
    expect((options.fs as ReturnType<typeof faultyFs>).calls.filter((c) => c.call === 'lstat').length).toBe(6);
  });

  it('records an entry whose lstat fails', async () => {
    const result = await findAll(over({ 'a.ts': '', 'b.ts': '' }, { pattern: '*.ts' }, { untyped: true, lstat: { [`${ROOT}/b.ts`]: 'EACCES' } }));
    expect(result).toMatchObject({ matches: ['a.ts'], skipped: [{ path: 'b.ts', code: 'EACCES' }], complete: false, incompleteReason: 'permission-denied' });
  });
});

describe('symlinks whose name matches: named, never matches', () => {
  // /usr/bin in small: python3 links to a file, python3-dir to a directory, python3-gone to nothing.
  const bin: Tree = {
    bin: {
      'python3.11': '',
      python3: { link: 'python3.11' },
      'python3-dir': { link: `${ROOT}/lib` },
      'python3-gone': { link: '/nowhere' },
      env: '',
    },
    lib: { 'os.py': '' },
  };

  it('a link to a file, to a directory and a dangling one: named in linkMatches, sorted, never in matches', async () => {
    const result = await findAll(over(bin, { pattern: 'python3*' }));
    expect(result).toMatchObject({
      matches: ['bin/python3.11'],
      matchedCount: 1,
      linkMatches: ['bin/python3', 'bin/python3-dir', 'bin/python3-gone'],
      linkMatchedCount: 3,
      linksExamined: true,
      symlinkSkipped: 3,
      complete: true,
    });
  });

  it('no regular file matches: still complete, with the link named (the /usr/bin/python3 case)', async () => {
    const result = await findAll(over(bin, { pattern: 'python3' }));
    expect(result).toMatchObject({ matches: [], matchedCount: 0, linkMatches: ['bin/python3'], linkMatchedCount: 1, symlinkSkipped: 3, complete: true, incompleteReasons: [] });
    const none = await findAll(over(bin, { pattern: 'ruby' }));
    expect(none).toMatchObject({ matches: [], linkMatches: [], linkMatchedCount: 0, linksExamined: true, complete: true });
  });

  it('matches links by path too, and through the lstat path when the filesystem gives no types', async () => {
    expect((await findAll(over(bin, { pattern: 'bin/python3-*' }))).linkMatches).toEqual(['bin/python3-dir', 'bin/python3-gone']);
    const untyped = await findAll(over(bin, { pattern: 'python3*' }, { untyped: true }));
    expect(untyped).toMatchObject({ matches: ['bin/python3.11'], linkMatches: ['bin/python3', 'bin/python3-dir', 'bin/python3-gone'], linkMatchedCount: 3 });
  });

  it('an excluded link is counted as excluded, not named', async () => {
    for (const faults of [{}, { untyped: true }]) {
      const result = await findAll(over(bin, { pattern: 'python3*', exclude: ['python3', 'python3-g*'] }, faults));
      expect(result).toMatchObject({ linkMatches: ['bin/python3-dir'], linkMatchedCount: 1, excludedCount: 2, symlinkSkipped: 1 });
    }
  });

  it('a link at the depth limit is not a match (nothing there is returned), typed or not', async () => {
    const tree: Tree = { 'python3.11': '', deep: { python3: { link: '../python3.11' } } };
    for (const faults of [{}, { untyped: true }]) {
      const result = await findAll(over(tree, { pattern: 'python3', maxDepth: 1 }, faults));
      expect(result).toMatchObject({ matches: [], linkMatches: [], linkMatchedCount: 0, stats: { dirsPeeked: 1 } });
    }
    // One level deeper is inside the limit: named.
    expect((await findAll(over(tree, { pattern: 'python3', maxDepth: 2 }))).linkMatches).toEqual(['deep/python3']);
  });

  it('a hidden link is left out with hidden: false, and named otherwise', async () => {
    const tree: Tree = { '.python3': { link: 'x' }, sub: { '.python3': { link: 'y' } } };
    expect(await findAll(over(tree, { pattern: '.python3', hidden: false }))).toMatchObject({ linkMatches: [], linkMatchedCount: 0, symlinkSkipped: 0 });
    expect((await findAll(over(tree, { pattern: '.python3' }))).linkMatches).toEqual(['.python3', 'sub/.python3']);
  });

  it('names them as native absolute paths with absolute: true, on posix and win32', async () => {
    expect((await findAll(over(bin, { pattern: 'python3', absolute: true }))).linkMatches).toEqual([`${ROOT}/bin/python3`]);
    const vol = buildVolume({ Tools: { 'python.exe': { link: 'C:\\Python\\python.exe' } } }, '/C/proj');
    const win = await findAll(() => ({ root: 'C:\\proj', platform: 'win32', fs: win32Fs(asFs(vol)), clock: new FakeClock(), pattern: 'PYTHON.EXE', absolute: true }));
    expect(win).toMatchObject({ matches: [], linkMatches: ['C:\\proj\\Tools\\python.exe'], linkMatchedCount: 1 });
  });

  it('are never limited by maxResults and never make the result incomplete', async () => {
    const result = await findAll(over(bin, { pattern: 'python3*', maxResults: 1 }));
    expect(result).toMatchObject({ matches: ['bin/python3.11'], linkMatchedCount: 3, complete: true });
    expect(await findAll(over(bin, { pattern: 'python3', maxResults: 0 }))).toMatchObject({ matches: [], linkMatches: ['bin/python3'], complete: true });
  });

  it('stores at most MAX_LINK_MATCHES names (the first met, breadth first) and counts them all', async () => {
    const tree: Tree = { deeper: { 'a.lnk': { link: 'x' } } };
    for (let i = 0; i < MAX_LINK_MATCHES + 4; i++) tree[`l${String(i).padStart(4, '0')}.lnk`] = { link: 'x' };
    const result = await findAll(over(tree, { pattern: '*.lnk' }));
    expect(MAX_LINK_MATCHES).toBe(1000);
    expect(result.linkMatchedCount).toBe(MAX_LINK_MATCHES + 5);
    expect(result.linkMatches).toHaveLength(MAX_LINK_MATCHES);
    expect(result.linkMatches).not.toContain('deeper/a.lnk'); // the root's links were met first
    expect(result.linkMatches).toEqual([...result.linkMatches].sort());
    expect(result).toMatchObject({ matchedCount: 0, complete: true });
  });
});

describe('win32 flavour', () => {
  const tree: Tree = { Src: { App: { 'Main.TS': '', 'b.js': '' } }, 'README.md': '' };
  const make = (options: Partial<FindOptions>, faults: FaultOptions = {}) => {
    const vol = buildVolume(tree, '/C/proj');
    return () => ({ root: 'C:\\proj', platform: 'win32', fs: faultyFs(win32Fs(asFs(vol)), faults), clock: new FakeClock(), pattern: '*', ...options }) as FindOptions;
  };

  it('takes a drive-letter root and backslash patterns, and matches case-insensitively', async () => {
    const result = await findAll(make({ pattern: 'src\\**\\*.ts' }));
    expect(result.matches).toEqual(['Src/App/Main.TS']);
    expect((await findAll(make({ pattern: 'readme.MD' }))).matches).toEqual(['README.md']);
  });

  it('returns native absolute paths and reads directories with native separators', async () => {
    const m = make({ pattern: '*.js', absolute: true });
    expect((await findAll(m)).matches).toEqual(['C:\\proj\\Src\\App\\b.js']);
    const options = m();
    await findFiles(options);
    expect((options.fs as ReturnType<typeof faultyFs>).calls.map((c) => c.path)).toEqual(['C:\\proj\\', 'C:\\proj\\Src\\', 'C:\\proj\\Src\\App\\']);
  });

  it('reports a denied directory root-relative with /, as on posix', async () => {
    const result = await findAll(make({}, { readdir: { 'C:\\proj\\Src\\App\\': 'EPERM' } }));
    expect(result).toMatchObject({ matches: ['README.md'], skipped: [{ path: 'Src/App', code: 'EPERM' }], incompleteReason: 'permission-denied' });
  });

  it('rejects drive-letter and rooted patterns', async () => {
    await expect(findFiles(make({ pattern: 'C:\\Windows\\*.exe' })())).rejects.toMatchObject({ code: 'FF_PATTERN_OUTSIDE_ROOT' });
    await expect(findFiles(make({ pattern: '\\Windows\\*.exe' })())).rejects.toMatchObject({ code: 'FF_PATTERN_OUTSIDE_ROOT' });
    await expect(findFiles(make({ pattern: '..\\other\\*' })())).rejects.toMatchObject({ code: 'FF_PATTERN_OUTSIDE_ROOT' });
  });
});

describe('bad options are rejected before any I/O', () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['empty pattern', { pattern: '' }, 'FF_INVALID_PATTERN', /empty/],
    ['blank pattern', { pattern: '   ' }, 'FF_INVALID_PATTERN', /only white space/],
    ['empty pattern list', { pattern: [] }, 'FF_INVALID_PATTERN', /empty list/],
    ['pattern with NUL', { pattern: 'a\0b' }, 'FF_INVALID_PATTERN', /NUL/],
    ['negated pattern', { pattern: '!*.js' }, 'FF_INVALID_PATTERN', /exclude/],
    ['directory pattern', { pattern: 'src/' }, 'FF_INVALID_PATTERN', /src\/\*\*/],
    ['climbing pattern', { pattern: '../*.js' }, 'FF_PATTERN_OUTSIDE_ROOT', /\.\./],
    ['climbing inside braces', { pattern: '{..,a}/x' }, 'FF_PATTERN_OUTSIDE_ROOT', /\.\./],
    ['climbing exclude', { exclude: ['a/../../b'] }, 'FF_PATTERN_OUTSIDE_ROOT', /exclude/],
    ['absolute pattern', { pattern: '/etc/passwd' }, 'FF_PATTERN_OUTSIDE_ROOT', /absolute/],
    ['non-string pattern', { pattern: 5 }, 'FF_INVALID_PATTERN', /string/],
    ['missing pattern', { pattern: undefined }, 'FF_MISSING_OPTION', /pattern is required/],
    ['missing root', { root: undefined }, 'FF_MISSING_OPTION', /root is required/],
    ['root with NUL', { root: '/ro\0ot' }, 'FF_INVALID_ROOT', /NUL/],
    ['empty root', { root: '' }, 'FF_INVALID_ROOT', /non-empty/],
    ['negative maxResults', { maxResults: -1 }, 'FF_INVALID_LIMIT', /maxResults must be a non-negative integer, got -1/],
    ['fractional maxResults', { maxResults: 1.5 }, 'FF_INVALID_LIMIT', /1\.5/],
    ['NaN maxDepth', { maxDepth: NaN }, 'FF_INVALID_LIMIT', /NaN/],
    ['Infinity timeBudgetMs', { timeBudgetMs: Infinity }, 'FF_INVALID_LIMIT', /Infinity/],
    ['string maxResults', { maxResults: '5' }, 'FF_INVALID_LIMIT', /"5"/],
    ['typo in an option name', { maxresult: 5 }, 'FF_UNKNOWN_OPTION', /did you mean "maxResults"/],
    ['unknown option', { follow: true }, 'FF_UNKNOWN_OPTION', /follow/],
    ['hidden not boolean', { hidden: 'yes' }, 'FF_INVALID_OPTION', /hidden/],
    ['unknown platform', { platform: 'darwin' }, 'FF_INVALID_OPTION', /platform/],
    ['unknown backend', { backend: 'fast' }, 'FF_INVALID_OPTION', /backend/],
    ['fs without readdir', { fs: {} }, 'FF_INVALID_OPTION', /fs must be/],
    ['clock without now', { clock: {} }, 'FF_INVALID_OPTION', /clock/],
    ['signal not a signal', { signal: {} }, 'FF_INVALID_OPTION', /AbortSignal/],
  ];

  it.each(cases)('%s', async (_name, bad, code, message) => {
    const fs = faultyFs(asFs(buildVolume({ 'a.js': '' })));
    const options = { root: ROOT, platform: 'posix', pattern: '*', fs, ...bad } as FindOptions;
    await expect(findFiles(options)).rejects.toMatchObject({ name: 'FindFileError', code, message: expect.stringMatching(message) });
    expect(() => findFilesSync(options)).toThrow(message);
    expect(() => findFilesStream(options)).toThrow(message);
    expect(fs.calls).toEqual([]);
  });

  it('rejects a non-object', async () => {
    await expect(findFiles(null as unknown as FindOptions)).rejects.toMatchObject({ code: 'FF_INVALID_OPTION' });
  });
});

describe('shape of the walk', () => {
  it('walks a tree 10,000 directories deep without overflowing the stack', async () => {
    // memfs resolves paths in O(depth), too slow at this depth: a synthetic fs answers by path length.
    const depth = 10_000;
    const entry = (name: string, dir: boolean) => ({
      name, isFile: () => !dir, isDirectory: () => dir, isSymbolicLink: () => false,
      isFIFO: () => false, isSocket: () => false, isBlockDevice: () => false, isCharacterDevice: () => false,
    });
    const list = (path: string) => ((path.length - '/root/'.length) / 2 < depth ? [entry('d', true)] : [entry('bottom.txt', false)]);
    const fs = {
      readdir: (path: string, _o: unknown, cb: (e: null, v: unknown) => void) => setImmediate(() => cb(null, list(path))),
      readdirSync: (path: string) => list(path),
      lstat: () => { throw new Error('not needed'); },
      lstatSync: () => { throw new Error('not needed'); },
    };
    const expected = `${'d/'.repeat(depth)}bottom.txt`;
    expect(findFilesSync({ root: ROOT, platform: 'posix', pattern: '*.txt', fs }).matches).toEqual([expected]);
    const result = await findFiles({ root: ROOT, platform: 'posix', pattern: '*.txt', fs });
    expect(result).toMatchObject({ matches: [expected], complete: true, stats: { dirsRead: depth + 1 } });
  });

  it('gives the same answer at every concurrency', async () => {
    const tree: Tree = {};
    for (let i = 0; i < 30; i++) tree[`d${i}`] = { [`f${i}.txt`]: '', sub: { 'g.txt': '', 'h.md': '' } };
    const base = await findFiles(over(tree, { pattern: '*.txt', maxResults: 37 }, { readdir: { [`${ROOT}/d1/sub/`]: 'EACCES' } })());
    for (const concurrency of [1, 2, 5, 100]) {
      const other = await findFiles(over(tree, { pattern: '*.txt', maxResults: 37, concurrency }, { readdir: { [`${ROOT}/d1/sub/`]: 'EACCES' } })());
      expect(other).toEqual(base);
    }
    expect(base).toMatchObject({ matchedCount: 37, incompleteReasons: ['result-limit', 'permission-denied'] });
  });

  it('the stream reports live progress while it runs', async () => {
    const stream = findFilesStream(over(project, { pattern: '*.ts' }, {}, 1)());
    const seen: number[] = [];
    for await (const _ of stream) seen.push(stream.progress().matchedCount);
    expect(seen.length).toBe(5);
    expect(seen[seen.length - 1]).toBe(5);
    expect(stream.progress()).toEqual({ dirsRead: 6, entriesSeen: 13, matchedCount: 5, elapsedMs: 6 });
  });

  it('the stream also gives its matches in batches, every match once', async () => {
    const stream = findFilesStream(over(project, { pattern: '*.ts' })());
    const batches: string[][] = [];
    for await (const batch of stream.batches()) batches.push(batch);
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.flat().sort()).toEqual(['.hidden/secret.ts', 'src/index.ts', 'src/lib/deep.ts', 'src/util.ts', 'test/index.test.ts']);
    expect(await stream.summary).toMatchObject({ matchedCount: 5, complete: true });
  });

  it('counts its work in stats', async () => {
    const result = await findAll(over(project, { pattern: '*.md' }, {}, 2));
    expect(result.stats).toEqual({ dirsRead: 6, entriesSeen: 13, elapsedMs: 12, dirsPeeked: 0 });
  });
});
