/**
 * `pruneDirectory`: the caller's policy leaves a directory's entries unread (node-glob's
 * `childrenIgnored`, which `find-file/glob` carries through it). The directory itself is still an
 * entry; what is below it is neither read nor a gap (`complete` holds, `excludedCount` counts it);
 * the root is never asked; every form of the walk honours it; a throw ends the search; ripgrep
 * cannot honour it, so only the walker runs it.
 */
import { describe, expect, it } from 'vitest';
import type { DirentLike, FsLike } from '../../src/fs.js';
import { findFiles, findFilesStream, findFilesSync, searchContent, type FindOptions, type FindResult } from '../../src/index.js';
import { FakeClock, asFs, buildVolume, type Tree } from '../helpers/memfs.js';

const tree: Tree = {
  'a.ts': 'x',
  node_modules: { 'dep.ts': 'x', inner: { 'deep.ts': 'x' } },
  src: { 'b.ts': 'x', node_modules: { 'c.ts': 'x' }, lib: { 'd.ts': 'x' } },
};

function options(extra: Partial<FindOptions>, read: string[] = []): FindOptions {
  return {
    root: '/root',
    pattern: '**',
    type: 'any',
    fs: asFs(buildVolume(tree)),
    clock: new FakeClock(),
    platform: 'posix',
    onDirectory: (dir: string, _entries: readonly DirentLike[]) => void read.push(dir),
    ...extra,
  };
}

const byName = (name: string) => (dir: string) => dir === `${name}/` || dir.endsWith(`/${name}/`);

async function streamed(o: FindOptions): Promise<{ matches: string[]; summary: Omit<FindResult, 'matches'> }> {
  const stream = findFilesStream(o);
  const matches: string[] = [];
  for await (const path of stream) matches.push(path);
  return { matches: matches.sort(), summary: await stream.summary };
}

describe('pruneDirectory', () => {
  it('leaves every node_modules unread: the folders themselves match, nothing below them; complete, counted as excluded', async () => {
    const read: string[] = [];
    const asked: string[] = [];
    const prune = (dir: string) => (asked.push(dir), byName('node_modules')(dir));
    const result = await findFiles(options({ pruneDirectory: prune }, read));
    expect(result.matches).toEqual(['a.ts', 'node_modules', 'src', 'src/b.ts', 'src/lib', 'src/lib/d.ts', 'src/node_modules']);
    expect(result).toMatchObject({ complete: true, skippedCount: 0, excludedCount: 2 });
    expect(read.sort()).toEqual(['', 'src/', 'src/lib/']);
    // Every directory below the root, once each, never the root itself.
    expect(asked.sort()).toEqual(['node_modules/', 'src/', 'src/lib/', 'src/node_modules/']);
  });

  it('the sync walk and the stream give the same answer', async () => {
    const prune = byName('node_modules');
    const asAsync = await findFiles(options({ pruneDirectory: prune }));
    const asSync = findFilesSync(options({ pruneDirectory: prune }));
    const asStream = await streamed(options({ pruneDirectory: prune }));
    expect(asSync.matches).toEqual(asAsync.matches);
    expect(asStream.matches).toEqual(asAsync.matches);
    expect([asSync.excludedCount, asStream.summary.excludedCount, asStream.summary.complete]).toEqual([2, 2, true]);
  });

  it('the answer is read by truthiness, as node-glob reads childrenIgnored: a match array prunes, null does not', async () => {
    const plain = await findFiles(options({}));
    expect(plain.matches).toContain('node_modules/inner/deep.ts');
    for (const falsy of [false, 0, '', null, undefined]) {
      const never = await findFiles(options({ pruneDirectory: () => falsy }));
      expect([never.matches, never.excludedCount], String(falsy)).toEqual([plain.matches, 0]);
    }
    const idiom = await findFiles(options({ pruneDirectory: (dir) => dir.match(/node_modules\/$/) }));
    expect(idiom).toMatchObject({ complete: true, excludedCount: 2 });
    expect(idiom.matches).not.toContain('node_modules/dep.ts');
  });

  it('a slow callback overruns neither the budget nor the signal by more than one call (it ran 250 calls, 2.5 s, past 100 ms)', async () => {
    const wide: Tree = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`d${i}`, { 'x.ts': 'x' }]));
    for (const form of ['async', 'sync'] as const) {
      const clock = new FakeClock();
      let calls = 0;
      const slow = () => (calls++, clock.advance(10), false);
      const o = { root: '/root', pattern: '**/*.ts', fs: asFs(buildVolume(wide)), clock, platform: 'posix' as const, timeBudgetMs: 100, pruneDirectory: slow };
      const result = form === 'async' ? await findFiles(o) : findFilesSync(o);
      expect(result, form).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
      expect(calls, form).toBeLessThanOrEqual(11);
    }
    const controller = new AbortController();
    let calls = 0;
    const aborting = () => (calls++, controller.abort(), false);
    const aborted = await findFiles({ root: '/root', pattern: '**', fs: asFs(buildVolume(wide)), clock: new FakeClock(), platform: 'posix', signal: controller.signal, pruneDirectory: aborting });
    expect([calls, aborted.incompleteReasons]).toEqual([1, ['aborted']]);
  });

  it('a slow call lets the async walk yield to the event loop, so an abort queued on it is heard at the next entry', async () => {
    const wide: Tree = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`d${i}`, {}]));
    const clock = new FakeClock();
    const controller = new AbortController();
    let calls = 0;
    // The first call queues the abort on the event loop (no wall-clock wait: the next turn runs it);
    // each call takes 5 ms of the fake clock, so the walk yields after each. Without the yield, all
    // 50 entries of the root's listing were judged (50 calls) before the loop turned.
    const prune = () => (calls++ === 0 && setImmediate(() => controller.abort()), clock.advance(5), false);
    const result = await findFiles({ root: '/root', pattern: '**', type: 'any', fs: asFs(buildVolume(wide)), clock, platform: 'posix', signal: controller.signal, pruneDirectory: prune });
    expect(result.incompleteReasons).toEqual(['aborted']);
    expect(calls).toBeLessThan(50);
  });

  it('where the listing gives no kinds (each entry lstat\'ed), a slow callback still stops within a call of the budget (it ran 257 calls)', async () => {
    const wide: Tree = { big: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`d${i}`, { 'x.ts': 'x' }])) };
    // An fs whose listings say no kind (DT_UNKNOWN, as some NFS and FUSE mounts): every entry goes through lstat.
    const untyped = (base: FsLike): FsLike => {
      const blind = (entries: DirentLike[]) => entries.map((e) => ({ name: e.name, isFile: () => false, isDirectory: () => false, isSymbolicLink: () => false }) as DirentLike);
      return {
        readdir: (p, o, cb) => base.readdir(p, o, (error, entries) => cb(error, error ? entries : blind(entries))),
        readdirSync: (p, o) => blind(base.readdirSync(p, o)),
        lstat: (p, cb) => base.lstat(p, cb),
        lstatSync: (p) => base.lstatSync(p),
      };
    };
    for (const form of ['async', 'sync'] as const) {
      const clock = new FakeClock();
      let calls = 0;
      const slow = (dir: string) => (calls++, clock.advance(10), dir !== 'big/');
      const o = { root: '/root', pattern: '**/x', fs: untyped(asFs(buildVolume(wide))), clock, platform: 'posix' as const, timeBudgetMs: 100, pruneDirectory: slow };
      const result = form === 'async' ? await findFiles(o) : findFilesSync(o);
      expect(result, form).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
      expect(calls, form).toBeLessThanOrEqual(11);
    }
  });

  it('a call slow by the real clock yields too, when the search\'s own clock stands still (an injected one)', async () => {
    const wide: Tree = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`d${i}`, {}]));
    const controller = new AbortController();
    let calls = 0;
    // Each call lasts at least a real millisecond (a floor, however loaded the machine); the fake clock never moves.
    const prune = () => {
      if (calls++ === 0) setImmediate(() => controller.abort());
      const until = performance.now() + 1.5;
      while (performance.now() < until);
      return false;
    };
    const result = await findFiles({ root: '/root', pattern: '**', type: 'any', fs: asFs(buildVolume(wide)), clock: new FakeClock(), platform: 'posix', signal: controller.signal, pruneDirectory: prune });
    expect(result.incompleteReasons).toEqual(['aborted']);
    expect(calls).toBeLessThan(50);
  });

  it('a pruned directory at the depth limit is not peeked at: no depth-limit gap where the policy leaves nothing to see', async () => {
    const atLimit = (dir: string) => dir === 'node_modules/inner/' || dir === 'src/lib/' || dir === 'src/node_modules/';
    const limited = await findFiles(options({ maxDepth: 2 }));
    const pruned = await findFiles(options({ maxDepth: 2, pruneDirectory: atLimit }));
    // Without the policy, the peek below the limit finds entries: a gap. With it, nothing is left to see.
    expect(limited).toMatchObject({ complete: false, incompleteReasons: ['depth-limit'] });
    expect(pruned).toMatchObject({ complete: true, excludedCount: 3 });
    expect(pruned.matches).toEqual(limited.matches);
    expect(pruned.matches).toEqual(['a.ts', 'node_modules', 'node_modules/dep.ts', 'node_modules/inner', 'src', 'src/b.ts', 'src/lib', 'src/node_modules']);
  });

  it('a throw ends the search with that error, in every form', async () => {
    const boom = new Error('host bug');
    const prune = () => {
      throw boom;
    };
    await expect(findFiles(options({ pruneDirectory: prune }))).rejects.toBe(boom);
    expect(() => findFilesSync(options({ pruneDirectory: prune }))).toThrow(boom);
    await expect(streamed(options({ pruneDirectory: prune }))).rejects.toBe(boom);
  });

  it('is refused where ripgrep would answer, and where it is not a function', async () => {
    for (const backend of ['ripgrep', 'auto'] as const) {
      await expect(findFiles({ root: '/root', pattern: '**', backend, pruneDirectory: () => true })).rejects.toMatchObject({ code: 'FF_INVALID_OPTION', option: 'pruneDirectory' });
    }
    expect(() => findFilesSync(options({ pruneDirectory: 'node_modules' as unknown as (dir: string) => boolean }))).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', option: 'pruneDirectory' }));
  });

  it('content search does not take it (its walk has no such option)', async () => {
    await expect(searchContent({ root: '/root', query: 'x', fs: asFs(buildVolume(tree)), pruneDirectory: () => true } as never)).rejects.toMatchObject({ code: 'FF_UNKNOWN_OPTION', option: 'pruneDirectory' });
  });
});
