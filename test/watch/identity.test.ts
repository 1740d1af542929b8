/**
 * The root's path re-pointed without an event on any watch the index holds: a parent renamed, a
 * link retargeted, the root swapped for another directory. Every watch is bound to the inode it
 * was set up on, the cookie is written by path; the index compares the two (dev and inode) at each
 * sync and starts afresh when they differ. Each case found by an adversarial run: a stale complete
 * answer (a false proof of absence) after a re-point and back, or every later sync waiting its
 * full timeout for a cookie written where no watch of the index could see it.
 */
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeIf, linux } from '../helpers/skip-why.js';
import { openIndexWith, type FileIndex, type IndexDependencies } from '../../src/watch/watched-index.js';
import { nodeWatcher, type DirectoryWatcher } from '../../src/watch/watcher.js';
import { closedAfterEach, expectSameAnswer, removeTree } from './helpers.js';

const { opened, tree } = closedAfterEach();

/**
 * Long enough that no sync of a working index on a loaded machine reaches it, short enough that a
 * planted bug (a cookie no watch sees) fails in seconds: `syncFailures: 0` is the verdict.
 */
const SYNC_WAIT_MS = 3_000;

async function open(root: string, deps: IndexDependencies = {}): Promise<FileIndex> {
  const index = await openIndexWith({ root }, { syncWaitMs: SYNC_WAIT_MS, ...deps });
  opened.push(index);
  return index;
}

/** Points the link `at` to `target`, atomically (a deploy's `current`). */
function point(at: string, target: string): void {
  symlinkSync(target, at + '.next');
  renameSync(at + '.next', at);
}

const q = { pattern: '**/*.ts' };

describeIf(linux('the index watches with inotify'))('the root re-pointed under the index', () => {
  it('a root swapped for another directory (mv repo repo-prev; mv repo-next repo): the next sync finds the new .git at once', async () => {
    const base = tree(['repo/.git/', 'repo/src/old.ts', 'repo-next/.git/', 'repo-next/src/new.ts']);
    const root = join(base, 'repo');
    const index = await open(root);
    await expectSameAnswer(index, { root }, q);
    renameSync(root, join(base, 'repo-prev'));
    renameSync(join(base, 'repo-next'), root);
    expect((await expectSameAnswer(index, { root }, q)).matches).toEqual(['src/new.ts']);
    await expectSameAnswer(index, { root }, { ...q, timeBudgetMs: 2_000 });
    writeFileSync(join(root, 'src', 'later.ts'), 'x');
    await expectSameAnswer(index, { root }, q);
    expect(index.stats()).toMatchObject({ syncFailures: 0, restarts: 1 });
  });

  it('a link root retargeted and rolled back (current -> release-1, -> release-2, -> release-1): never the other tree\'s listings', async () => {
    const base = tree(['release-1/src/one.ts', 'release-2/src/two.ts']);
    const root = join(base, 'current');
    point(root, 'release-1');
    const index = await open(root);
    await expectSameAnswer(index, { root }, q);
    point(root, 'release-2');
    expect((await expectSameAnswer(index, { root }, q)).matches).toEqual(['src/two.ts']);
    point(root, 'release-1');
    expect((await expectSameAnswer(index, { root }, q)).matches).toEqual(['src/one.ts']);
    // The false proof of absence the adversarial run got: complete, and empty.
    expect(await index.find({ pattern: 'src/one.ts' })).toMatchObject({ complete: true, matches: ['src/one.ts'] });
    expect(index.stats()).toMatchObject({ syncFailures: 0, restarts: 2 });
  });

  it('the root\'s parent swapped out and back (the root has .git): each tree answered from its own listings', async () => {
    const base = tree(['cur/repo/.git/', 'cur/repo/src/a-only.ts', 'B/repo/.git/', 'B/repo/src/b-only.ts']);
    const root = join(base, 'cur', 'repo');
    const index = await open(root);
    await expectSameAnswer(index, { root }, q);
    renameSync(join(base, 'cur'), join(base, 'A'));
    renameSync(join(base, 'B'), join(base, 'cur'));
    expect((await expectSameAnswer(index, { root }, q)).matches).toEqual(['src/b-only.ts']);
    renameSync(join(base, 'cur'), join(base, 'B'));
    renameSync(join(base, 'A'), join(base, 'cur'));
    expect((await expectSameAnswer(index, { root }, q)).matches).toEqual(['src/a-only.ts']);
    expect(index.stats()).toMatchObject({ syncFailures: 0, restarts: 2 });
  });

  it('re-pointed to a tree whose .git links into the old one: the cookie still syncs there, and the root\'s own identity tells the swap', async () => {
    const base = tree(['release-1/.git/', 'release-1/src/one.ts', 'release-2/src/two.ts']);
    symlinkSync('../release-1/.git', join(base, 'release-2', '.git'));
    const root = join(base, 'current');
    point(root, 'release-1');
    const index = await open(root);
    await expectSameAnswer(index, { root }, q);
    point(root, 'release-2');
    expect((await expectSameAnswer(index, { root }, q)).matches).toEqual(['src/two.ts']);
    expect(index.stats()).toMatchObject({ syncFailures: 0, restarts: 1 });
  });

  it('swapped between the check of the cookie\'s place and the cookie\'s write: that sync fails, the disk answers, and the next syncs at once', async () => {
    const base = tree(['repo/.git/', 'repo/src/old.ts', 'repo-next/.git/', 'repo-next/src/new.ts']);
    const root = join(base, 'repo');
    let swapNow = false;
    const cookieIo = {
      write: async (path: string) => {
        if (swapNow) {
          swapNow = false;
          renameSync(root, join(base, 'repo-prev'));
          renameSync(join(base, 'repo-next'), root);
        }
        writeFileSync(path, '', { flag: 'wx' });
      },
      remove: async (path: string) => removeTree(path),
    };
    // The first query after the swap waits this out (its cookie went where no watch sees it).
    const index = await open(root, { cookieIo, syncWaitMs: 1_000 });
    await expectSameAnswer(index, { root }, q);
    swapNow = true;
    expect(await index.find(q)).toMatchObject({ complete: true, matches: ['src/new.ts'] });
    expect(index.stats().syncFailures).toBe(1);
    mkdirSync(join(root, 'lib'));
    writeFileSync(join(root, 'lib', 'more.ts'), 'x');
    await expectSameAnswer(index, { root }, q);
    expect(index.stats().syncFailures).toBe(1);
  });

  it('closed while a query checks the cookie\'s place: the query says so, and no watch is set up again', async () => {
    let open = 0;
    const inner = nodeWatcher();
    const counting: DirectoryWatcher = {
      watch: (dir, listener) => {
        const handle = inner.watch(dir, listener);
        open++;
        let shut = false;
        return { close: () => (shut ? undefined : ((shut = true), open--, handle.close())) };
      },
      onOverflow: (handler) => inner.onOverflow(handler),
    };
    const root = tree(['.git/', 'src/a.ts']);
    const index = await openIndexWith({ root }, { watcher: counting });
    await expectSameAnswer(index, { root }, q);
    const answer = index.find(q); // now waiting for the stat of the cookie's place
    index.close();
    await expect(answer).rejects.toMatchObject({ code: 'FF_WATCH_UNAVAILABLE' });
    expect(open).toBe(0);
  });
});

/**
 * An adversarial run (C): `find()` planned each query from the root as given, but the view, the
 * cookie and the kept answers were bound to the root resolved at `openIndex`. A root `lnk/..` with
 * `lnk` retargeted, or a relative root with the process's cwd changed, is another directory for a
 * fresh `findFiles`, and the index answered the old one's kept answer, complete.
 */
describeIf(linux('the index watches with inotify'))('a root that resolves to another directory at a later query', () => {
  it('`lnk/..` with `lnk` retargeted (swapped by rename): the next answer is the new directory\'s', async () => {
    const base = tree(['a/sub/', 'a/one.ts', 'b/sub/', 'b/two.ts']);
    point(join(base, 'lnk'), 'a/sub');
    const root = `${base}/lnk/..`; // not join(): it would drop the link by name
    const index = await open(root);
    expect((await expectSameAnswer(index, { root }, q)).matches).toEqual(['one.ts']);
    expect((await expectSameAnswer(index, { root }, q)).matches).toEqual(['one.ts']);
    point(join(base, 'lnk'), 'b/sub');
    expect((await expectSameAnswer(index, { root }, q)).matches).toEqual(['two.ts']);
    writeFileSync(join(base, 'b', 'later.ts'), 'x');
    expect((await expectSameAnswer(index, { root }, { ...q, absolute: true })).matches).toEqual([join(base, 'b', 'later.ts'), join(base, 'b', 'two.ts')]);
    expect(index.stats()).toMatchObject({ syncFailures: 0, restarts: 1 });
  });

  it('a relative root (`.`) and process.chdir(): each answer is the current directory\'s', async () => {
    const base = tree(['a/one.ts', 'b/two.ts']);
    const cwd = process.cwd();
    try {
      process.chdir(join(base, 'a'));
      const index = await open('.');
      expect((await expectSameAnswer(index, { root: '.' }, q)).matches).toEqual(['one.ts']);
      expect((await expectSameAnswer(index, { root: '.' }, q)).matches).toEqual(['one.ts']);
      process.chdir(join(base, 'b'));
      expect((await expectSameAnswer(index, { root: '.' }, q)).matches).toEqual(['two.ts']);
      expect((await expectSameAnswer(index, { root: '.' }, { ...q, absolute: true })).matches).toEqual([join(base, 'b', 'two.ts')]);
      process.chdir(join(base, 'a'));
      writeFileSync(join(base, 'a', 'later.ts'), 'x');
      expect((await expectSameAnswer(index, { root: '.' }, q)).matches).toEqual(['later.ts', 'one.ts']);
      expect(index.stats()).toMatchObject({ syncFailures: 0, restarts: 2 });
    } finally {
      process.chdir(cwd);
    }
  });
});
