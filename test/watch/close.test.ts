/**
 * `close()` stops every watch, also when it overtakes a `find()` whose walk is still in flight (an
 * adversarial run: closed at the 100th directory of a `sort: 'mtime'` query, the walk went on and
 * set up 22 watches nobody closed, held for as long as the process lived). Counted through the
 * injected watcher, each watch opened and closed: no sleep, no timing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { IndexPool } from '../../src/watch/pool.js';
import { openIndexWith, type FileIndex } from '../../src/watch/watched-index.js';
import { describeIf, linux } from '../helpers/skip-why.js';
import { FaultyWatcher, closedAfterEach } from './helpers.js';

const { opened, tree } = closedAfterEach();

const DIRS = 40;

/** A tree of `DIRS` directories, each `d<i>/s/f.txt`, and a file made in each `s` once it is indexed (its listing dropped: read from the disk again). */
function busyTree(): { root: string; touch(): void } {
  const root = tree(Array.from({ length: DIRS }, (_, i) => `d${i}/s/f.txt`));
  return { root, touch: () => Array.from({ length: DIRS }, (_, i) => writeFileSync(join(root, `d${i}`, 's', 'new.txt'), 'x')) };
}

/** A query whose walk calls `stop` at its `at`-th directory and counts the directories it reads after. */
function stoppingQuery(at: number, stop: () => void) {
  const seen = { calls: 0, after: 0 };
  // `sort: 'mtime'`: an lstat of every file, each in a directory the walk asks a watch for.
  const query = { pattern: '**', sort: 'mtime' as const, onDirectory: () => (++seen.calls === at ? stop() : seen.calls > at && seen.after++) };
  return { query, seen };
}

describeIf(linux('the index watches with inotify'))('close() during a find(): no watch outlives it', () => {
  // The walk reads the root, the 40 d*/ (directories 1-41), then the 40 d*/s/ (42-81): closed among
  // those, the files' lstats come after, from a walk whose reads were all covered so far.
  it.each([42, 60, 80])('closed at the walk\'s directory %i: the walk ends, and every watch is closed', async (at) => {
    const { root, touch } = busyTree();
    const watcher = new FaultyWatcher();
    const index = await openIndexWith({ root }, { watcher });
    opened.push(index);
    expect(watcher.open).toBeGreaterThan(DIRS);
    touch();
    const { query, seen } = stoppingQuery(at, () => index.close());
    await index.find(query);
    // The walk went on after close(): it read directories a closed index must not watch.
    expect(seen.after).toBeGreaterThan(0);
    expect(watcher.open).toBe(0);
    expect(index.stats()).toMatchObject({ dirsWatched: 0, sentinels: 0 });
  });

  it('the pool closing the index mid-query (as its eviction does: one forget) leaves no watch', async () => {
    const { root, touch } = busyTree();
    const watcher = new FaultyWatcher();
    let opening: Promise<FileIndex> | undefined;
    const pool = new IndexPool({ open: (options, signal) => (opening = openIndexWith(options, { watcher }, signal)) });
    await pool.findFiles({ root, pattern: '**' });
    await opening;
    await new Promise((resolve) => setImmediate(resolve)); // the pool takes the index in a later microtask
    touch();
    const { query, seen } = stoppingQuery(60, () => pool.close());
    const answer = await pool.findFiles({ root, ...query });
    expect(answer.matches.length).toBeGreaterThan(0);
    expect(seen.after).toBeGreaterThan(0);
    expect(watcher.open).toBe(0);
  });
});
