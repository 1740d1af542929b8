/**
 * The two drivers (src/walk/drivers.ts) seen from outside: the walk ends, with the right verdict,
 * whatever the fs does with its callbacks (answers inside the call, throws, never answers), reads
 * stay within their bounds (peeks one at a time at first), nothing is read after the answer, the
 * caller's signal keeps no listener, and the EMFILE retry pauses in the sync walk too.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { DirentLike, FsLike, StatsLike } from '../../src/fs.js';
import { findFiles, findFilesSync, searchContent, type FindOptions, type FindResult } from '../../src/index.js';
import { findAll } from '../helpers/every-form.js';
import { FakeClock, asFs, buildVolume, faultyFs, type Tree } from '../helpers/memfs.js';

const ROOT = '/root';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The walk's answer, or 'still running' when it has none within `ms` (a hung walk fails the test, not the run). */
function within<T>(ms: number, walk: Promise<T>): Promise<T | 'still running'> {
  return Promise.race([walk, sleep(ms).then(() => 'still running' as const)]);
}

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

const options = (fs: FsLike, extra: Partial<FindOptions> = {}): FindOptions => ({ root: ROOT, platform: 'posix', pattern: '*', fs, clock: new FakeClock(), ...extra });

describe('an fs that answers in its own way', () => {
  it('an fs that calls back inside the readdir call walks 10,000 directories without growing the stack', async () => {
    // Kills re-entrant pumps not folded into the running one: each answer would nest the walk one level deeper.
    const tree: Tree = {};
    for (let i = 0; i < 10_000; i++) tree[`d${i}`] = {};
    tree.d9999 = { 'last.txt': '' };
    const base = faultyFs(asFs(buildVolume(tree)));
    const fs: FsLike = { ...base, readdir: (path, opts, callback) => callback(null, base.readdirSync(path, opts)) };
    const result = await findFiles(options(fs));
    expect(result).toMatchObject({ matches: ['d9999/last.txt'], complete: true, stats: { dirsRead: 10_001 } });
  });

  it('a readdir that answers no list (null, undefined, an object) is a skipped directory with a code, never a TypeError thrown (an adversary\'s find)', async () => {
    for (const odd of [null, undefined, {}, 'names']) {
      const base = faultyFs(asFs(buildVolume({ bad: { 'b.txt': '' }, ok: { 'a.txt': '' } })));
      const fs: FsLike = {
        ...base,
        readdir: (path, opts, callback) => (path === `${ROOT}/bad/` ? callback(null, odd as unknown as DirentLike[]) : base.readdir(path, opts, callback)),
        readdirSync: (path, opts) => (path === `${ROOT}/bad/` ? (odd as unknown as DirentLike[]) : base.readdirSync(path, opts)),
      };
      for (const result of [await findFiles(options(fs)), findFilesSync(options(fs))]) {
        expect(result, String(odd)).toMatchObject({ matches: ['ok/a.txt'], complete: false, skipped: [{ path: 'bad', code: 'UNKNOWN' }] });
      }
    }
  });

  it('a readdir or an lstat that throws instead of calling back is a skipped entry, not a hung walk', async () => {
    const base = faultyFs(asFs(buildVolume({ bad: { 'b.txt': '' }, ok: { 'a.txt': '', 'odd.txt': '' } })), { untyped: true });
    const fs: FsLike = {
      ...base,
      readdir: (path, opts, callback) => {
        if (path === `${ROOT}/bad/`) throw errno('EACCES');
        base.readdir(path, opts, callback);
      },
      readdirSync: (path, opts) => {
        if (path === `${ROOT}/bad/`) throw errno('EACCES');
        return base.readdirSync(path, opts);
      },
      lstat: (path, callback) => {
        if (path === `${ROOT}/ok/odd.txt`) throw errno('EIO');
        base.lstat(path, callback);
      },
      lstatSync: (path) => {
        if (path === `${ROOT}/ok/odd.txt`) throw errno('EIO');
        return base.lstatSync(path);
      },
    };
    const result = await within(5000, findAll(() => options(fs)));
    expect(result).toMatchObject({
      matches: ['ok/a.txt'],
      skipped: [
        { path: 'bad', code: 'EACCES' },
        { path: 'ok/odd.txt', code: 'EIO' },
      ],
      complete: false,
    });
  });

  it('an injected fs is never asked for bigint times: a time filter over an lstat that takes no options', async () => {
    // Exact (bigint) times are for node's own fs; an injected lstat(path, callback) would get the options as its callback.
    const vol = buildVolume({ 'new.txt': '', 'old.txt': '' });
    vol.utimesSync(`${ROOT}/old.txt`, 10, 10);
    vol.utimesSync(`${ROOT}/new.txt`, 1000, 1000);
    const base = asFs(vol);
    const fs: FsLike = {
      readdir: (path, opts, callback) => base.readdir(path, opts, callback),
      readdirSync: (path, opts) => base.readdirSync(path, opts),
      lstat: (...args: unknown[]) => {
        if (args.length !== 2) throw new TypeError('lstat(path, callback) only');
        base.lstat(args[0] as string, args[1] as (error: NodeJS.ErrnoException | null, stats: StatsLike) => void);
      },
      lstatSync: (...args: unknown[]) => {
        if (args.length !== 1) throw new TypeError('lstatSync(path) only');
        return base.lstatSync(args[0] as string);
      },
    };
    const result = await findAll(() => options(fs, { modifiedAfter: 500_000 }));
    expect(result).toMatchObject({ matches: ['new.txt'], skipped: [], complete: true });
  });
});

describe('the ignore files\' reads (gitignore: true)', () => {
  it('a realpath that fails and an ignore file that cannot be read: the parents are the root\'s as given, the file gives no rules and is a gap', async () => {
    // /repo/.ignore hides p.txt; the root's own .ignore (hiding q.txt) throws when read.
    const vol = buildVolume({ '.ignore': 'p.txt\n', root: { '.ignore': 'q.txt\n', 'p.txt': '', 'q.txt': '' } }, '/repo');
    const base = asFs(vol) as Required<FsLike>;
    const unreadable = '/repo/root/.ignore';
    const fs: FsLike = {
      ...faultyFs(base),
      readFile: (path, callback) => {
        if (path === unreadable) throw errno('EACCES');
        base.readFile(path, callback);
      },
      readFileSync: (path) => {
        if (path === unreadable) throw errno('EACCES');
        return base.readFileSync(path);
      },
      realpath: () => {
        throw errno('EIO');
      },
      realpathSync: () => {
        throw errno('EIO');
      },
    };
    const result = await within(3000, findAll(() => ({ ...options(fs, { pattern: '*.txt', gitignore: true }), root: '/repo/root' })));
    // Not read is not "no rules" (test/ignore/unreadable.test.ts): named, and the answer incomplete.
    expect(result).toMatchObject({ matches: ['q.txt'], ignoredCount: 1, complete: false, skipped: [{ path: '.ignore', code: 'EACCES' }] });
  });

  it('holds a directory\'s entries until its ignore files are read, while other listings come in', async () => {
    // a/.ignore answers 20 ms late; b's listing arrives meanwhile and must not let a's entries through unjudged.
    const vol = buildVolume({ a: { '.ignore': 'x.txt\n', 'x.txt': '', 'y.txt': '' }, b: { 'z.txt': '' } });
    const base = asFs(vol) as Required<FsLike>;
    const fs: FsLike = { ...faultyFs(base), readFile: (path, callback) => setTimeout(() => base.readFile(path, callback), 20), readFileSync: (path) => base.readFileSync(path) };
    const result = await findFiles(options(fs, { pattern: '*.txt', gitignore: true, concurrency: 4 }));
    expect(result).toMatchObject({ matches: ['a/y.txt', 'b/z.txt'], ignoredCount: 1, complete: true });
  });
});

describe('the async walk ends when it must, and reads nothing after', () => {
  it('an abort ends the walk at once, even while a read never answers', async () => {
    const controller = new AbortController();
    const base = faultyFs(asFs(buildVolume({ 'a.txt': '', stuck: { 'b.txt': '' } })));
    const fs: FsLike = {
      ...base,
      readdir: (path, opts, callback) => {
        if (path !== `${ROOT}/stuck/`) return base.readdir(path, opts, callback);
        setTimeout(() => controller.abort(), 1); // and never answer
      },
    };
    const result = await within(3000, findFiles(options(fs, { signal: controller.signal })));
    expect(result).toMatchObject({ matches: ['a.txt'], complete: false, incompleteReasons: ['aborted'] });
  });

  it('a budget spent while the next read is issued ends the walk, though the read before it never answers', async () => {
    // The fake clock arms no timer: only the check after issuing reads can end this walk.
    const clock = new FakeClock();
    const base = faultyFs(asFs(buildVolume({ a: { 'a.txt': '' }, b: { 'b.txt': '' } })));
    const fs: FsLike = {
      ...base,
      readdir: (path, opts, callback) => {
        if (path !== `${ROOT}/a/`) return base.readdir(path, opts, callback);
        clock.advance(100); // and never answer
      },
    };
    const result = await within(3000, findFiles(options(fs, { clock, timeBudgetMs: 50, concurrency: 2 })));
    expect(result).toMatchObject({ matches: [], complete: false, incompleteReasons: ['time-budget'] });
  });

  it('a read waiting to be retried (EMFILE) when the walk is aborted is never issued', async () => {
    const controller = new AbortController();
    const fs = faultyFs(asFs(buildVolume({ a: { 'a.txt': '' }, 'b.txt': '' })), {
      readdir: { [`${ROOT}/a/`]: 'EMFILE' },
      // The first retry waits 10 ms: the abort comes within it.
      beforeReaddir: (path) => void (path === `${ROOT}/a/` && setTimeout(() => controller.abort(), 2)),
    });
    const result = await findFiles(options(fs, { signal: controller.signal }));
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
    await sleep(100); // past the first two pauses (10 and 40 ms)
    expect(fs.calls.filter((c) => c.path === `${ROOT}/a/`)).toHaveLength(1);
  });

  it('leaves no listener on the caller\'s signal once the walk is done', async () => {
    // One signal for many searches: a listener left per search leaks, and node warns past ten.
    const controller = new AbortController();
    const fs = faultyFs(asFs(buildVolume({ 'a.txt': '' })));
    for (let i = 0; i < 3; i++) expect((await findFiles(options(fs, { signal: controller.signal }))).matches).toEqual(['a.txt']);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('a content search stopped while the walk waits for it (its file queue full) still ends', async () => {
    // 600 files in one listing fill the queue (256): the walk is paused when the first hit stops the search.
    const tree: Tree = Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`f${String(i).padStart(3, '0')}.txt`, 'needle\n']));
    const result = await within(5000, searchContent({ root: ROOT, query: 'needle', fs: buildVolume(tree), platform: 'posix', maxResults: 1 }));
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['result-limit'] });
  });
});

describe('peeks at the depth limit', () => {
  it('only the last directory at the limit holds something beyond it: every form still says depth-limit', async () => {
    const make = () => options(faultyFs(asFs(buildVolume({ a: {}, b: {}, c: {}, d: { 'deep.txt': '' } }))), { maxDepth: 1 });
    const result = await findAll(make);
    expect(result).toMatchObject({ matches: [], complete: false, incompleteReasons: ['depth-limit'] });
  });

  it('are issued one at a time at first, then twice as many after each that found nothing, up to the concurrency', async () => {
    const tree: Tree = {};
    for (let i = 0; i < 40; i++) tree[`d${String(i).padStart(2, '0')}`] = {};
    const base = faultyFs(asFs(buildVolume(tree)));
    // Reads answer only when the test says, oldest first; each records how many are in flight with it.
    const waiting: (() => void)[] = [];
    const inFlight: number[] = [];
    const fs: FsLike = {
      ...base,
      readdir: (path, opts, callback) => {
        waiting.push(() => callback(null, base.readdirSync(path, opts)));
        inFlight.push(waiting.length);
      },
    };
    let result: FindResult | undefined;
    const walk = findFiles(options(fs, { maxDepth: 1, concurrency: 8 })).then((r) => (result = r));
    while (result === undefined) {
      await new Promise(setImmediate);
      waiting.shift()?.();
    }
    await walk;
    expect(result).toMatchObject({ complete: true, stats: { dirsRead: 1, dirsPeeked: 40 } });
    // The root, then the peeks: 1; 1, 2; 2, 3, 4 (one of the two still out); then up to 8.
    expect(inFlight.slice(0, 7)).toEqual([1, 1, 1, 2, 2, 3, 4]);
    expect(Math.max(...inFlight)).toBe(8);
  });
});

describe('answers', () => {
  it('the first answer of a read counts: an fs that calls back twice changes nothing', async () => {
    const base = faultyFs(asFs(buildVolume({ a: { 'a.txt': '' }, b: { 'b.txt': '' }, c: { 'c.txt': '' } })));
    const later = (turns: number, then: () => void) => (turns === 0 ? then() : setImmediate(() => later(turns - 1, then)));
    const fs: FsLike = {
      ...base,
      readdir: (path, opts, callback) => {
        const entries = base.readdirSync(path, opts);
        // a/ answers late; b/ answers at once, then again with nothing while it waits behind a/:
        // a walk that took the second answer would lose b/b.txt.
        if (path === `${ROOT}/a/`) return later(4, () => callback(null, entries));
        later(0, () => callback(null, entries));
        later(1, () => callback(null, []));
      },
    };
    const result = await findFiles(options(fs, { pattern: '*.txt', concurrency: 2 }));
    expect(result).toMatchObject({ matches: ['a/a.txt', 'b/b.txt', 'c/c.txt'], complete: true });
  });

  it('a read that ran out of file handles and answers again before its retry: the retry answers', async () => {
    const base = faultyFs(asFs(buildVolume({ a: { 'a.txt': '' }, b: { 'b.txt': '' } })));
    let callsOfB = 0;
    const fs: FsLike = {
      ...base,
      readdir: (path, opts, callback) => {
        if (path === `${ROOT}/b/` && callsOfB++ === 0) {
          callback(errno('EMFILE'), []);
          // Taken as the retry's answer, this empty listing would lose b/b.txt.
          callback(null, []);
          return;
        }
        base.readdir(path, opts, callback);
      },
    };
    const result = await findFiles(options(fs, { pattern: '*.txt' }));
    expect(result).toMatchObject({ matches: ['a/a.txt', 'b/b.txt'], complete: true, skippedCount: 0 });
    expect(callsOfB).toBe(2);
  });

  it('an lstat that calls back twice changes nothing either (entries of no type are lstat\'ed)', async () => {
    const base = faultyFs(asFs(buildVolume({ 'a.txt': '', 'b.txt': '', d: { 'c.txt': '' } })), { untyped: true });
    const fs: FsLike = {
      ...base,
      lstat: (path, callback) =>
        base.lstat(path, (error, stats) => {
          callback(error, stats);
          // Counted as a second name's answer, it would judge a name before its lstat came back.
          callback(error, stats);
        }),
    };
    const result = await findFiles(options(fs, { pattern: '*.txt' }));
    expect(result).toMatchObject({ matches: ['a.txt', 'b.txt', 'd/c.txt'], complete: true, skippedCount: 0 });
  });
});

describe('the sync walk', () => {
  it('pauses before retrying a read that ran out of file handles (10 ms, then 40 ms)', () => {
    const at: number[] = [];
    const fs = faultyFs(asFs(buildVolume({ 'a.txt': '' })), { failFirst: { count: 2, code: 'EMFILE' }, beforeReaddir: () => void at.push(performance.now()) });
    expect(findFilesSync(options(fs))).toMatchObject({ matches: ['a.txt'], complete: true });
    expect(at).toHaveLength(3);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(9);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(39);
  });
});
