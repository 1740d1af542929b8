/**
 * A cookie whose wait the query's budget ended is *overdue*: if a cookie written after it comes
 * first, it was lost (one queue), and so may have been other events, so everything is dropped.
 * These check the other side: on a tree where nothing changes, no overdue cookie is ever taken for
 * lost. An adversarial run (30 queries at once, one with a 2 ms budget, 600 queries) saw 11-13
 * syncs fail and everything kept dropped 10 times.
 */
import { writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeIf, linux } from '../helpers/skip-why.js';
import { openIndexWith, type FileIndex, type IndexDependencies } from '../../src/watch/watched-index.js';
import { HeldWatcher, closedAfterEach, comparable, expectSameAnswer, makeTree, removeTree } from './helpers.js';
import { findFiles } from '../../src/index.js';

const { opened, roots } = closedAfterEach();

async function open(deps: IndexDependencies): Promise<{ root: string; index: FileIndex }> {
  const root = makeTree(['a/x.ts', 'b/y.ts']);
  roots.push(root);
  // No wait may end by the clock: only the cookie's event (or the query's own budget) ends it.
  const index = await openIndexWith({ root }, { syncWaitMs: 600_000, ...deps });
  opened.push(index);
  return { root, index };
}

const q = { pattern: '**/*.ts' };

describeIf(linux('the index watches with inotify'))('an overdue cookie on a still tree', () => {
  it('is not taken for lost when a concurrent query\'s cookie, written before it, comes first', async () => {
    const watcher = new HeldWatcher();
    const { root, index } = await open({ watcher });
    await expectSameAnswer(index, { root }, q);
    watcher.holding = true;
    const first = index.find(q);
    await watcher.heldAtLeast(1); // the first query's cookie: written, its event queued
    expect(await index.find({ ...q, timeBudgetMs: 1 })).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
    await watcher.release();
    expect(comparable(await first)).toEqual(comparable(await findFiles({ root, ...q })));
    expect(index.stats()).toMatchObject({ syncFailures: 0, rescans: 0 });
  });

  it('is not overdue when its event came after the budget ended the wait but before the sync looked', async () => {
    const watcher = new HeldWatcher();
    let race = false;
    const cookieIo = {
      write: async (path: string) => {
        writeFileSync(path, '', { flag: 'wx' });
        if (!race) return;
        race = false;
        await watcher.heldAtLeast(1);
        // A timer due after the query's 1 ms one: that one has fired (timers run in the order they are due).
        await new Promise((resolve) => setTimeout(resolve, 2));
        await watcher.release(); // the cookie's event, before the write's await returns
      },
      remove: async (path: string) => removeTree(path),
    };
    const { root, index } = await open({ watcher, cookieIo });
    await expectSameAnswer(index, { root }, q);
    race = true;
    watcher.holding = true;
    expect(await index.find({ ...q, timeBudgetMs: 1 })).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
    await expectSameAnswer(index, { root }, q);
    expect(index.stats()).toMatchObject({ syncFailures: 0, rescans: 0 });
  });
});
