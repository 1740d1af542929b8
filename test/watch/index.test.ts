/**
 * The index's contract on the real disk: `find()` is word for word a fresh `findFiles` (the
 * walker) after changes, its cookies never show, a sync that cannot complete drops what was kept
 * (the answer is read from the disk, never stale), and an fs no watcher can see is refused with a code.
 */
import { chmodSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { buildVolume } from '../helpers/memfs.js';
import { linux } from '../helpers/skip-why.js';
import { describeIf } from '../helpers/skip-why.js';
import { openIndex, FindFileError } from '../../src/index.js';
import { openIndexWith, type FileIndex } from '../../src/watch/watched-index.js';
import { FaultyWatcher, LateWatcher, closedAfterEach, expectSameAnswer } from './helpers.js';

const { opened, tree } = closedAfterEach();

async function open(root: string, extra: Partial<Parameters<typeof openIndexWith>[0]> = {}, deps: Parameters<typeof openIndexWith>[1] = {}): Promise<FileIndex> {
  const index = await openIndexWith({ root, ...extra }, deps);
  opened.push(index);
  return index;
}

describe('openIndex refuses what no watcher can see', () => {
  it('an injected fs (memfs) is FF_WATCH_UNAVAILABLE, before any I/O', async () => {
    const vol = buildVolume({ 'a.ts': 'x' });
    await expect(openIndex({ root: '/root', fs: vol })).rejects.toMatchObject({ code: 'FF_WATCH_UNAVAILABLE', option: 'fs' });
  });

  it('a query naming a tree option or an engine is FF_INVALID_OPTION', async () => {
    const index = await open(tree(['a.ts']));
    await expect(index.find({ pattern: '*', exclude: ['x'] } as never)).rejects.toMatchObject({ code: 'FF_INVALID_OPTION', option: 'exclude' });
    await expect(index.find({ pattern: '*', backend: 'ripgrep' } as never)).rejects.toMatchObject({ code: 'FF_INVALID_OPTION', option: 'backend' });
  });

  it('a closed index says so with FF_WATCH_UNAVAILABLE', async () => {
    const index = await open(tree(['a.ts']));
    index.close();
    await expect(index.find({ pattern: '*' })).rejects.toBeInstanceOf(FindFileError);
    await expect(index.find({ pattern: '*' })).rejects.toMatchObject({ code: 'FF_WATCH_UNAVAILABLE' });
  });

  it('a missing root rejects as findFiles does (ENOENT)', async () => {
    await expect(openIndex({ root: join(tree([]), 'nope') })).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describeIf(linux('the index watches with inotify'))('find() answers as a fresh walk, after each change', () => {
  it('creates, removes and renames of files and directories are seen at once', async () => {
    const root = tree(['src/a.ts', 'src/lib/b.ts', 'docs/x.md', '.hidden/h.ts']);
    const index = await open(root);
    const queries = [{ pattern: '**/*.ts' }, { pattern: 'src/*' }, { pattern: '**', type: 'any' as const }];
    const check = async () => {
      for (const query of queries) await expectSameAnswer(index, { root }, query);
    };
    await check();
    writeFileSync(join(root, 'src', 'new.ts'), 'x');
    expect((await index.find({ pattern: 'src/new.ts' })).matches).toEqual(['src/new.ts']);
    await check();
    rmSync(join(root, 'src', 'a.ts'));
    await check();
    renameSync(join(root, 'src', 'lib'), join(root, 'docs', 'lib2'));
    expect((await index.find({ pattern: '**/b.ts' })).matches).toEqual(['docs/lib2/b.ts']);
    await check();
    mkdirSync(join(root, 'deep', 'er', 'still'), { recursive: true });
    writeFileSync(join(root, 'deep', 'er', 'still', 'z.ts'), 'x');
    await check();
    symlinkSync('docs', join(root, 'link'));
    await check();
    rmSync(join(root, 'deep'), { recursive: true });
    await check();
  });

  it('a directory renamed in from outside is read whole; one renamed out is forgotten', async () => {
    const root = tree(['in/a.ts']);
    const outside = tree(['moved/one/two.ts', 'moved/three.ts']);
    const index = await open(root);
    renameSync(join(outside, 'moved'), join(root, 'in', 'moved'));
    expect((await index.find({ pattern: '**/*.ts' })).matches).toEqual(['in/a.ts', 'in/moved/one/two.ts', 'in/moved/three.ts']);
    renameSync(join(root, 'in', 'moved'), join(outside, 'back'));
    writeFileSync(join(outside, 'back', 'one', 'four.ts'), 'x');
    await expectSameAnswer(index, { root }, { pattern: '**/*.ts' });
    expect(index.stats().rescans).toBeGreaterThan(0);
  });

  it('the root removed and made again is read again', async () => {
    const root = tree(['a.ts']);
    const index = await open(root);
    rmSync(root, { recursive: true });
    await expect(index.find({ pattern: '*' })).rejects.toMatchObject({ code: 'ENOENT' });
    mkdirSync(root);
    writeFileSync(join(root, 'b.ts'), 'x');
    await expectSameAnswer(index, { root }, { pattern: '*' });
    writeFileSync(join(root, 'c.ts'), 'x');
    expect((await index.find({ pattern: '*' })).matches).toEqual(['b.ts', 'c.ts']);
  });

  it('a link whose target climbs out of another link (`s/../t`): resolved as the kernel does, never by text', async () => {
    // An adversarial run: `s -> outside/deep`, `link -> s/../t` is outside/t for the kernel, but
    // root/t as text: the index watched the wrong place and kept naming the link once outside/t
    // became a file. Such a chain is not covered now: its answer is read afresh.
    const root = tree([]);
    const outside = tree(['deep/keep']);
    mkdirSync(join(outside, 't'));
    symlinkSync(join(outside, 'deep'), join(root, 's'));
    symlinkSync('s/../t', join(root, 'link'));
    const index = await open(root);
    const query = { pattern: 'link/*.ts' };
    expect((await expectSameAnswer(index, { root }, query)).linksOnTheWay).toEqual(['link']);
    rmSync(join(outside, 't'), { recursive: true });
    writeFileSync(join(outside, 't'), 'a file now');
    expect((await expectSameAnswer(index, { root }, query)).linksOnTheWay).toEqual([]);
  });

  it('a link out of the root: its target appearing or going changes the answer, though nothing in the tree changed', async () => {
    const root = tree(['a.ts']);
    const outside = tree([]);
    symlinkSync(join(outside, 'm'), join(root, 'l'));
    const index = await open(root);
    const query = { pattern: '**/*.ts' };
    expect((await index.find(query)).linksOnTheWay).toEqual([]);
    expect((await index.find(query)).linksOnTheWay).toEqual([]);
    mkdirSync(join(outside, 'm'));
    expect((await expectSameAnswer(index, { root }, query)).linksOnTheWay).toEqual(['l']);
    expect((await index.find(query)).linksOnTheWay).toEqual(['l']);
    rmSync(join(outside, 'm'), { recursive: true });
    writeFileSync(join(outside, 'm'), 'a file now');
    expect((await expectSameAnswer(index, { root }, query)).linksOnTheWay).toEqual([]);
    expect(index.stats().answersReused).toBeGreaterThan(0);
  });

  it('an answer is reused after a change where its walk never read, and walked again after one where it did', async () => {
    const root = tree(['src/a.ts', 'test/t.ts']);
    const index = await open(root);
    const query = { pattern: 'src/**/*.ts' };
    await index.find(query);
    const reused = index.stats().answersReused;
    // test/ is never read by src/**/*.ts.
    writeFileSync(join(root, 'test', 'u.ts'), 'x');
    expect((await expectSameAnswer(index, { root }, query)).matches).toEqual(['src/a.ts']);
    expect(index.stats().answersReused).toBe(reused + 1);
    writeFileSync(join(root, 'src', 'b.ts'), 'x');
    expect((await expectSameAnswer(index, { root }, query)).matches).toEqual(['src/a.ts', 'src/b.ts']);
    expect(index.stats().answersReused).toBe(reused + 1);
    // A deeper change, in a directory the walk read below src/.
    mkdirSync(join(root, 'src', 'd'));
    await expectSameAnswer(index, { root }, query);
    writeFileSync(join(root, 'src', 'd', 'c.ts'), 'x');
    expect((await expectSameAnswer(index, { root }, query)).matches).toEqual(['src/a.ts', 'src/b.ts', 'src/d/c.ts']);
  });

  it('a chain of links out of the root is covered hop by hop: answers are reused, and any hop changing changes the answer', async () => {
    const root = tree(['a.ts']);
    const outside = tree(['b/m/x.txt']);
    // root/l -> outside/hop (absolute) -> b/m (relative, from outside/): a directory at the end.
    symlinkSync(join(outside, 'hop'), join(root, 'l'));
    symlinkSync('b/m', join(outside, 'hop'));
    const index = await open(root);
    const query = { pattern: '**/*.ts' };
    expect((await expectSameAnswer(index, { root }, query)).linksOnTheWay).toEqual(['l']);
    const reusedBefore = index.stats().answersReused;
    expect((await index.find(query)).linksOnTheWay).toEqual(['l']);
    expect(index.stats().answersReused).toBe(reusedBefore + 1);
    // The end of the chain, two directories away from the first hop, made a file: nothing in the tree changed, the answer did.
    rmSync(join(outside, 'b', 'm'), { recursive: true });
    writeFileSync(join(outside, 'b', 'm'), 'a file now');
    expect((await expectSameAnswer(index, { root }, query)).linksOnTheWay).toEqual([]);
    expect((await expectSameAnswer(index, { root }, query)).linksOnTheWay).toEqual([]);
    // The middle hop replaced, to a directory.
    rmSync(join(outside, 'hop'));
    symlinkSync('.', join(outside, 'hop'));
    expect((await expectSameAnswer(index, { root }, query)).linksOnTheWay).toEqual(['l']);
  });

  it('a chain of links depends on the one entry of each directory it passes through: a change beside a hop keeps the answer, a hop renamed changes it', async () => {
    const root = tree(['a.ts']);
    const outside = tree(['b/m/x.txt', 'b/side.txt']);
    symlinkSync(join(outside, 'hop'), join(root, 'l'));
    symlinkSync('b/m', join(outside, 'hop'));
    const index = await open(root);
    const query = { pattern: '**/*.ts' };
    expect((await expectSameAnswer(index, { root }, query)).linksOnTheWay).toEqual(['l']);
    await index.find(query);
    const reused = index.stats().answersReused;
    // Beside the hops: in outside/ (beside hop and b) and in outside/b/ (beside m); inside the target itself.
    writeFileSync(join(outside, 'new.txt'), 'x');
    writeFileSync(join(outside, 'b', 'side.txt'), 'changed');
    writeFileSync(join(outside, 'b', 'm', 'y.txt'), 'x');
    expect((await expectSameAnswer(index, { root }, query)).linksOnTheWay).toEqual(['l']);
    expect(index.stats().answersReused).toBe(reused + 1);
    // A directory the chain passes through renamed: the end is gone, though no link changed.
    renameSync(join(outside, 'b'), join(outside, 'c'));
    expect((await expectSameAnswer(index, { root }, query)).linksOnTheWay).toEqual([]);
    // And back, by another name's rename: the entry's count moves again.
    renameSync(join(outside, 'c'), join(outside, 'b'));
    expect((await expectSameAnswer(index, { root }, query)).linksOnTheWay).toEqual(['l']);
  });

  it('a link into a directory that does not exist yet: the answer is reused, and the directory appearing changes it', async () => {
    const root = tree(['a.ts']);
    const outside = tree([]);
    // As /usr/lib/jvm/openjdk-17/src.zip -> lib/src.zip, with no lib/: the kernel stops at lib.
    symlinkSync(join(outside, 'lib', 'deep', 'm'), join(root, 'l'));
    const index = await open(root);
    const query = { pattern: '**/*.ts' };
    expect((await expectSameAnswer(index, { root }, query)).linksOnTheWay).toEqual([]);
    const reused = index.stats().answersReused;
    expect((await index.find(query)).linksOnTheWay).toEqual([]);
    expect(index.stats().answersReused).toBe(reused + 1);
    mkdirSync(join(outside, 'lib', 'deep', 'm'), { recursive: true });
    expect((await expectSameAnswer(index, { root }, query)).linksOnTheWay).toEqual(['l']);
  });

  it('the tree options shape it as they shape a walk (exclude, hidden, gitignore)', async () => {
    const root = tree(['.git/HEAD', '.gitignore', 'out/o.ts', 'src/a.ts', 'node_modules/m/i.ts']);
    writeFileSync(join(root, '.gitignore'), 'out/\n');
    const options = { root, gitignore: true, exclude: ['node_modules'], hidden: true };
    const index = await open(root, options);
    await expectSameAnswer(index, options, { pattern: '**/*.ts' });
    writeFileSync(join(root, '.gitignore'), 'src/\n');
    await expectSameAnswer(index, options, { pattern: '**/*.ts' });
    await expectSameAnswer(index, options, { pattern: '**', type: 'any', stats: true, sort: 'mtime', maxResults: 3 });
  });
});

describeIf(linux('the index watches with inotify'))('ignoreGitDirs (the command\'s default with ignore files)', () => {
  it('leaves .git/ out as a walk does, and still syncs: its cookie goes inside the .git/ the walk never enters', async () => {
    const root = tree(['.git/HEAD', '.git/refs/main', 'sub/.git/HEAD', 'src/a.ts']);
    const options = { root, gitignore: true, ignoreGitDirs: true };
    const index = await open(root, options);
    await expectSameAnswer(index, options, { pattern: '**', type: 'any' });
    writeFileSync(join(root, 'src', 'b.ts'), 'x');
    mkdirSync(join(root, 'new', '.git'), { recursive: true });
    const answer = await expectSameAnswer(index, options, { pattern: '**', type: 'any' });
    expect(answer).toMatchObject({ complete: true, ignoredCount: 3 });
    expect(answer.matches).toEqual(['new', 'src', 'src/a.ts', 'src/b.ts', 'sub']);
  });
});

describeIf(linux('the index watches with inotify'))('the cookie', () => {
  it('is written inside .git/ when there is one, removed after, and never in an answer', async () => {
    const root = tree(['.git/HEAD', 'a.ts']);
    const seen: string[] = [];
    const watcher = new FaultyWatcher();
    watcher.swallow = (name) => {
      if (name?.startsWith('.find-file-cookie-')) seen.push(name);
      return false;
    };
    const index = await open(root, { hidden: true }, { watcher });
    const result = await index.find({ pattern: '**', type: 'any' });
    expect(result.matches).toEqual(['.git', '.git/HEAD', 'a.ts']);
    expect(seen.length).toBeGreaterThan(0);
    expect(readdirSync(join(root, '.git'))).toEqual(['HEAD']);
    expect(readdirSync(root).sort()).toEqual(['.git', 'a.ts']);
  });

  it('in a root without .git: in the root, and still never listed', async () => {
    const root = tree(['a.ts']);
    const index = await open(root, { hidden: true });
    for (let i = 0; i < 5; i++) {
      // Queries at once: each walks while the others' cookies exist, and reads the root again after a change.
      writeFileSync(join(root, `n${i}`), 'x');
      const answers = await Promise.all(Array.from({ length: 6 }, () => index.find({ pattern: '**', type: 'any' })));
      const expected = ['a.ts', ...Array.from({ length: i + 1 }, (_, j) => `n${j}`)];
      for (const answer of answers) expect(answer.matches).toEqual(expected);
    }
    expect(readdirSync(root).sort()).toEqual(['a.ts', 'n0', 'n1', 'n2', 'n3', 'n4']);
  });

  it('left behind (a remove that failed, a crash) is still never listed', async () => {
    const root = tree(['a.ts']);
    const index = await open(root, { hidden: true }, { cookieIo: { write: async (path) => writeFileSync(path, ''), remove: async () => {} } });
    for (let i = 0; i < 3; i++) {
      writeFileSync(join(root, `n${i}`), 'x');
      expect((await index.find({ pattern: '**', type: 'any' })).matches).toEqual(['a.ts', ...Array.from({ length: i + 1 }, (_, j) => `n${j}`)]);
    }
    expect(readdirSync(root).filter((name) => name.startsWith('.find-file-cookie-'))).toHaveLength(3);
  });

  it('that cannot be written anywhere: what was kept is dropped and the disk read, so the answer is exact, never stale', async () => {
    const root = tree(['a/x.ts']);
    const watcher = new FaultyWatcher();
    const failing = { write: () => Promise.reject(Object.assign(new Error('read-only'), { code: 'EROFS' })), remove: async () => {} };
    const index = await open(root, {}, { watcher, cookieIo: failing });
    // A change whose event is lost: only a read of the disk can see it.
    watcher.swallow = (name) => name === 'y.ts';
    writeFileSync(join(root, 'a', 'y.ts'), 'x');
    const result = await expectSameAnswer(index, { root }, { pattern: '**/*.ts' });
    expect(result).toMatchObject({ complete: true, matches: ['a/x.ts', 'a/y.ts'] });
    expect(index.stats().syncFailures).toBe(1);
    expect(index.stats().answersReused).toBe(0);
  });

  it('whose event never comes (lost, and nothing else tells): the same, within the wait; the answer leaves no cookie behind', async () => {
    const root = tree(['a/x.ts']);
    const watcher = new FaultyWatcher();
    // The given-up cookie's removal is slow (a busy disk): the answer still waits for it.
    const cookieIo = { write: (path: string) => writeFile(path, '', { flag: 'wx' }), remove: (path: string) => delay(1000).then(() => rm(path, { force: true })) };
    const index = await open(root, {}, { watcher, syncWaitMs: 200, cookieIo });
    watcher.swallow = (name) => name === 'y.ts' || name?.startsWith('.find-file-cookie-') === true;
    writeFileSync(join(root, 'a', 'y.ts'), 'x');
    expect(await index.find({ pattern: '**/*.ts' })).toMatchObject({ complete: true, matches: ['a/x.ts', 'a/y.ts'] });
    expect(index.stats().syncFailures).toBe(1);
    expect(readdirSync(root)).toEqual(['a']);
  });

  it('whose wait the query\'s budget ends: time-budget; if that cookie never comes, the next sync drops everything', async () => {
    const root = tree(['a/x.ts']);
    const watcher = new FaultyWatcher();
    const index = await open(root, {}, { watcher });
    // The cookie and a change both lost (an overflow): nothing in memory may answer after that.
    watcher.swallow = (name) => name === 'y.ts' || name?.startsWith('.find-file-cookie-') === true;
    writeFileSync(join(root, 'a', 'y.ts'), 'x');
    expect(await index.find({ pattern: '**/*.ts', timeBudgetMs: 200 })).toMatchObject({ complete: false, incompleteReasons: ['time-budget'], matches: [] });
    expect(index.stats().syncFailures).toBe(0);
    watcher.swallow = (name) => name === 'y.ts';
    expect(await index.find({ pattern: '**/*.ts' })).toMatchObject({ complete: true, matches: ['a/x.ts', 'a/y.ts'] });
    expect(index.stats().syncFailures).toBe(1);
  });

  it('whose wait the budget ends but whose event comes later, in order: nothing is dropped', async () => {
    const root = tree(['a/x.ts']);
    const index = await open(root, {}, { watcher: new LateWatcher(250) });
    expect(await index.find({ pattern: '**/*.ts', timeBudgetMs: 50 })).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
    writeFileSync(join(root, 'a', 'y.ts'), 'x');
    await expectSameAnswer(index, { root }, { pattern: '**/*.ts' });
    expect(index.stats()).toMatchObject({ syncFailures: 0, rescans: 0 });
  });

  it('a synced answer is complete: the cookie proves the changes before it were seen', async () => {
    const root = tree(['a.ts']);
    const index = await open(root);
    writeFileSync(join(root, 'b.ts'), 'x');
    const result = await index.find({ pattern: '*' });
    expect(result).toMatchObject({ complete: true, incompleteReasons: [], matches: ['a.ts', 'b.ts'] });
  });

  it('a synced answer with no time left is time-budget, as a walk out of time, even when a kept answer stands', async () => {
    const root = tree(['a.ts']);
    let now = 0;
    const clock = { now: () => now };
    // The sync costs the query's whole budget on its clock (a slow write), and still syncs.
    const cookieIo = { write: async (path: string) => ((now += 1_000), writeFile(path, '', { flag: 'wx' })), remove: (path: string) => rm(path, { force: true }) };
    const index = await open(root, {}, { cookieIo });
    expect(await index.find({ pattern: '*' })).toMatchObject({ complete: true, matches: ['a.ts'] });
    expect(await index.find({ pattern: '*', clock, timeBudgetMs: 1_000 })).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
    expect(index.stats()).toMatchObject({ syncFailures: 0, answersReused: 0 });
  });
});

describeIf(linux('the index watches with inotify'))('the watcher fails', () => {
  it('a watch refused (ENOSPC: the watch limit) leaves that directory read at every query: answers stay exact', async () => {
    const root = tree(['a/x.ts', 'b/y.ts']);
    const watcher = new FaultyWatcher();
    const index = await open(root, {}, { watcher });
    watcher.refuseWith = 'ENOSPC';
    mkdirSync(join(root, 'c'));
    writeFileSync(join(root, 'c', 'z.ts'), 'x');
    await expectSameAnswer(index, { root }, { pattern: '**/*.ts' });
    writeFileSync(join(root, 'c', 'w.ts'), 'x');
    const result = await expectSameAnswer(index, { root }, { pattern: '**/*.ts' });
    expect(result.matches).toContain('c/w.ts');
    expect(index.stats()).toMatchObject({ lastRefusal: 'ENOSPC' });
    expect(index.stats().watchesRefused).toBeGreaterThan(0);
  });

  it('an overflow (events lost) drops every listing: the next answer is a full rescan', async () => {
    const root = tree(['a/x.ts']);
    const watcher = new FaultyWatcher();
    const index = await open(root, {}, { watcher });
    watcher.swallow = (name) => name === 'y.ts';
    writeFileSync(join(root, 'a', 'y.ts'), 'x');
    watcher.fireOverflow();
    watcher.swallow = () => false;
    expect((await index.find({ pattern: '**/*.ts' })).matches).toEqual(['a/x.ts', 'a/y.ts']);
    expect(index.stats().overflows).toBe(1);
  });

  it('an overflow while a query waits for its cookie ends the wait (its event may be lost with the rest): the answer reads the disk at once', async () => {
    const root = tree(['a/x.ts']);
    const watcher = new FaultyWatcher();
    // A wait this long would outlast the test's timeout: only the overflow can end it.
    const index = await open(root, {}, { watcher, syncWaitMs: 600_000 });
    watcher.swallow = (name) => name === 'y.ts' || name?.startsWith('.find-file-cookie-') === true;
    writeFileSync(join(root, 'a', 'y.ts'), 'x');
    const answer = index.find({ pattern: '**/*.ts' });
    watcher.fireOverflow();
    expect(await answer).toMatchObject({ complete: true, matches: ['a/x.ts', 'a/y.ts'] });
    expect(index.stats()).toMatchObject({ overflows: 1, syncFailures: 1 });
  });

  it('a directory renamed away is forgotten by its parent\'s event alone (its own watch, bound to the inode, may say nothing)', async () => {
    const root = tree(['in/sub/x.ts']);
    const outside = tree([]);
    const watcher = new FaultyWatcher();
    const index = await open(root, {}, { watcher });
    watcher.swallowSelf = true;
    renameSync(join(root, 'in', 'sub'), join(outside, 'sub'));
    mkdirSync(join(root, 'in', 'sub'));
    writeFileSync(join(root, 'in', 'sub', 'z.ts'), 'x');
    expect((await index.find({ pattern: '**/*.ts' })).matches).toEqual(['in/sub/z.ts']);
    await expectSameAnswer(index, { root }, { pattern: '**/*.ts' });
  });

  it('a watch lost drops that subtree; it is read and watched again', async () => {
    const root = tree(['a/x.ts']);
    const watcher = new FaultyWatcher();
    const index = await open(root, {}, { watcher });
    watcher.swallow = (name) => name === 'y.ts';
    writeFileSync(join(root, 'a', 'y.ts'), 'x');
    watcher.watched.get(join(root, 'a'))!.lost(new Error('gone'));
    watcher.swallow = () => false;
    expect((await index.find({ pattern: '**/*.ts' })).matches).toEqual(['a/x.ts', 'a/y.ts']);
  });

  it('an unreadable directory is a gap, as in a walk (a root that can read everything proves nothing: see oracle-nobody)', async () => {
    const root = tree(['a/x.ts', 'b/y.ts']);
    const index = await open(root);
    chmodSync(join(root, 'b'), 0o000);
    try {
      await expectSameAnswer(index, { root }, { pattern: '**/*.ts' });
    } finally {
      chmodSync(join(root, 'b'), 0o755);
    }
    await expectSameAnswer(index, { root }, { pattern: '**/*.ts' });
  });
});
