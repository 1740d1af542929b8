/**
 * A watched index's query is bounded by its budget and signal whatever the file system does (an
 * adversary's find): the sync's cookie (its write, then its removal) and the checks after it (an
 * access and stats of the root) are file system calls, and one that hung held `find` for as long
 * as it hung (20 s for a 300 ms budget; MCP `--watch` too). A family: the cookie's write or its
 * removal hung x a budget or a signal fired at the hung call. The verdict is the answer itself,
 * incomplete and saying why (no clock): before, none came.
 */
import { getEventListeners } from 'node:events';
import { writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { openIndexWith, type IndexDependencies } from '../../src/watch/watched-index.js';
import { describeIf, linux } from '../helpers/skip-why.js';
import { closedAfterEach, removeTree } from './helpers.js';

const trees = closedAfterEach();

/** Cookie I/O that works until `hang` is set; then the step it names never answers, and `onHang` runs. */
function cookieIo(state: { hang?: 'write' | 'remove'; onHang?: () => void }): NonNullable<IndexDependencies['cookieIo']> {
  const hung = () => {
    state.onHang?.();
    return new Promise<void>(() => {});
  };
  return {
    write: async (path) => (state.hang === 'write' ? hung() : writeFileSync(path, '', { flag: 'wx' })),
    remove: async (path) => (state.hang === 'remove' ? hung() : removeTree(path)),
  };
}

describeIf(linux('the index watches with inotify'))('a query whose cookie I/O hangs', () => {
  for (const step of ['write', 'remove'] as const) {
    it(`the cookie's ${step} hangs, a 100 ms budget: answers time-budget`, async () => {
      const root = trees.tree(['a.txt', 'sub/b.txt']);
      const state: { hang?: 'write' | 'remove' } = {};
      const index = await openIndexWith({ root }, { cookieIo: cookieIo(state) });
      trees.opened.push(index);
      expect((await index.find({ pattern: '**/*.txt' })).matches).toEqual(['a.txt', 'sub/b.txt']);
      state.hang = step;
      expect(await index.find({ pattern: '**/*.txt', timeBudgetMs: 100 })).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
    });

    it(`the cookie's ${step} hangs, the signal fired at the hung call: answers aborted`, async () => {
      const root = trees.tree(['a.txt']);
      const controller = new AbortController();
      const state: { hang?: 'write' | 'remove'; onHang?: () => void } = { onHang: () => controller.abort() };
      const index = await openIndexWith({ root }, { cookieIo: cookieIo(state) });
      trees.opened.push(index);
      state.hang = step;
      expect(await index.find({ pattern: '**/*.txt', signal: controller.signal })).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
    });
  }
});

describeIf(linux('the index watches with inotify'))('one signal for many queries', () => {
  it('each query takes its listener off the caller\'s signal when it answers: a host may pass one signal to every query', async () => {
    // Before, each query left a listener on it: the eleventh warned of a leak (MaxListenersExceededWarning).
    const root = trees.tree(['a.txt', 'sub/b.txt']);
    const index = await openIndexWith({ root }, {});
    trees.opened.push(index);
    const controller = new AbortController();
    for (let i = 0; i < 12; i++) {
      expect((await index.find({ pattern: '**/*.txt', signal: controller.signal })).matches).toEqual(['a.txt', 'sub/b.txt']);
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    }
  });
});
