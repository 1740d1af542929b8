/**
 * The pool's first search of a tree, with the real index behind it (an adversarial run: the
 * pool's first search waited for `openIndex`'s whole walk, 8 s for a 300 ms budget under a parent
 * `.ignore` of 20,000 rules, and past an abort). Now the first search is findFiles within its own
 * budget, the index opens after it in the background, later searches are the index's, and an
 * opening abandoned (close(), an eviction) stops its walk and leaves no watch. The routing itself,
 * with injected openers: test/watch/pool.test.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { findFiles, type FindOptions } from '../../src/index.js';
import { IndexPool } from '../../src/watch/pool.js';
import { openIndexWith, type FileIndex, type IndexOptions } from '../../src/watch/watched-index.js';
import type { WatchListener } from '../../src/watch/watcher.js';
import { describeIf, linux } from '../helpers/skip-why.js';
import { FaultyWatcher, comparable, makeTree, removeTree } from './helpers.js';

const trees: string[] = [];
afterAll(() => trees.forEach(removeTree));

/**
 * A root under a parent `.ignore` of `rules` rules that are slow to compile and to match: every
 * walk of it (the index's first one too) costs about 0.35 ms a rule here.
 */
function heavyTree(rules: number): string {
  const base = makeTree(['root/src/']);
  trees.push(base);
  const lines = Array.from({ length: rules }, (_, i) => `**/${Array.from({ length: 40 }, (_, j) => 'ab*?'[(i * 7 + j * 13 + i * j) % 4]).join('')}/**/x${i}*y*z*`);
  writeFileSync(join(base, '.ignore'), lines.join('\n') + '\n');
  for (let i = 0; i < 50; i++) writeFileSync(join(base, 'root', 'src', `f${i}.txt`), '');
  return join(base, 'root');
}

/** The real opener, with a watcher that counts its open watches, timing each build and keeping what it opened. */
function timedOpener() {
  const watcher = new FaultyWatcher();
  const builds: { ms: number | undefined; done: Promise<FileIndex> }[] = [];
  const open = (tree: IndexOptions, signal: AbortSignal) => {
    const started = performance.now();
    const build: (typeof builds)[number] = { ms: undefined, done: undefined as unknown as Promise<FileIndex> };
    build.done = openIndexWith(tree, { watcher }, signal).then((index) => ((build.ms = performance.now() - started), index));
    builds.push(build);
    return build.done;
  };
  return { open, watcher, builds };
}

describeIf(linux('the index watches with inotify'))('IndexPool with the real index: the first search keeps its own budget', () => {
  it('a first search with timeBudgetMs stops at its budget, not at the end of the index\'s walk; the next search is the index\'s; close() leaves no watch', async () => {
    const root = heavyTree(2000);
    const opener = timedOpener();
    const pool = new IndexPool({ open: opener.open });
    const options: FindOptions = { root, pattern: '**/*.txt', gitignore: true };
    const started = performance.now();
    const first = await pool.findFiles({ ...options, timeBudgetMs: 100 });
    const firstMs = performance.now() - started;
    expect(first).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
    expect(opener.builds).toHaveLength(1);
    const index = await opener.builds[0]!.done;
    await new Promise((resolve) => setImmediate(resolve)); // the pool takes the index in a later microtask
    // 0.1 s against the build's 0.7 s idle; a busy machine slows the build as much as the walk.
    expect(firstMs).toBeLessThan(opener.builds[0]!.ms! / 2);
    const again = comparable(await pool.findFiles(options));
    expect(again).toEqual(comparable(await findFiles(options)));
    expect(again.matches).toHaveLength(50);
    expect(index.stats().queries).toBe(1);
    expect(opener.watcher.watched.size).toBeGreaterThan(0);
    pool.close();
    expect(opener.watcher.watched.size).toBe(0);
  }, 60_000);

  it('close() while the index opens abandons its walk: the opening rejects, and no watch is left', async () => {
    const root = heavyTree(2000);
    const opener = timedOpener();
    const pool = new IndexPool({ open: opener.open });
    await pool.findFiles({ root, pattern: '*.txt', gitignore: true, timeBudgetMs: 50 });
    expect(opener.builds).toHaveLength(1);
    pool.close();
    await expect(opener.builds[0]!.done).rejects.toMatchObject({ name: 'AbortError' });
    expect(opener.watcher.watched.size).toBe(0);
  }, 60_000);
});

/** Node's watcher that aborts `controller` once `after` watches are open (an opening abandoned mid-walk). */
class AbortingWatcher extends FaultyWatcher {
  constructor(
    private readonly controller: AbortController,
    private readonly after: number,
  ) {
    super();
  }

  override watch(dir: string, listener: WatchListener) {
    const handle = super.watch(dir, listener);
    if (this.watched.size >= this.after) this.controller.abort();
    return handle;
  }
}

describeIf(linux('the index watches with inotify'))('openIndex abandoned by its signal', () => {
  it('mid-walk: the walk stops, the opening rejects with the signal\'s reason, and every watch it set is closed', async () => {
    const root = makeTree(Array.from({ length: 40 }, (_, i) => `d${i}/e/f.txt`));
    trees.push(root);
    for (const after of [1, 5, 20]) {
      const controller = new AbortController();
      const watcher = new AbortingWatcher(controller, after);
      await expect(openIndexWith({ root }, { watcher }, controller.signal), `after ${after}`).rejects.toMatchObject({ name: 'AbortError' });
      expect(watcher.watched.size, `after ${after}`).toBe(0);
    }
    // Aborted before it starts: nothing is read or watched.
    const watcher = new FaultyWatcher();
    await expect(openIndexWith({ root }, { watcher }, AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
    expect(watcher.watched.size).toBe(0);
    // Never aborted: the index opens and answers as ever.
    const index = await openIndexWith({ root }, { watcher }, new AbortController().signal);
    expect((await index.find({ pattern: '**/f.txt' })).matches).toHaveLength(40);
    index.close();
    expect(watcher.watched.size).toBe(0);
  });
});
