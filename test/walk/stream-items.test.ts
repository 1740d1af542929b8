/**
 * `for await` over a stream (src/stream.ts `HandOff.items`): the iterator is written by hand for
 * speed, so what an async generator gave for free is checked here: the same items in the same
 * order as the batches, calls of `next` that overlap answered in order, a `break` that ends the
 * walk, and a failure that reaches the loop.
 */
import { describe, expect, it } from 'vitest';
import { FindFileError, findFilesStream, type FindOptions } from '../../src/index.js';
import { FakeClock, asFs, buildVolume, type Tree } from '../helpers/memfs.js';

const ROOT = '/root';

/** More files than the stream lets wait for its reader (1,024), over many directories: many batches. */
function wideTree(perDir = 60): Tree {
  const tree: Tree = {};
  for (let i = 0; i < 40; i++) tree[`d${i}`] = Object.fromEntries(Array.from({ length: perDir }, (_, j) => [`f${j}.txt`, '']));
  return tree;
}

function options(tree: Tree, extra: Partial<FindOptions> = {}): FindOptions {
  return { root: ROOT, platform: 'posix', pattern: '**/*', fs: asFs(buildVolume(tree)), clock: new FakeClock(), ...extra };
}

describe('the stream read item by item', () => {
  it('gives exactly the batches, in order, then ends; the summary agrees', async () => {
    const tree = wideTree();
    const batched: string[] = [];
    for await (const batch of findFilesStream(options(tree)).batches()) batched.push(...batch);
    const stream = findFilesStream(options(tree));
    const items: string[] = [];
    for await (const path of stream) items.push(path);
    expect(items).toEqual(batched);
    expect(items).toHaveLength(2400);
    expect(await stream.summary).toMatchObject({ matchedCount: 2400, complete: true });
  });

  it('answers overlapping calls of next in order, and done after the last item', async () => {
    const tree = wideTree();
    const expected: string[] = [];
    for await (const path of findFilesStream(options(tree))) expected.push(path);
    const iterator = findFilesStream(options(tree))[Symbol.asyncIterator]();
    const answers = await Promise.all(Array.from({ length: expected.length + 3 }, () => iterator.next()));
    expect(answers.slice(0, expected.length).map((a) => a.value)).toEqual(expected);
    expect(answers.slice(0, expected.length).every((a) => a.done === false)).toBe(true);
    expect(answers.slice(expected.length).every((a) => a.done === true)).toBe(true);
  });

  it('a break in the middle of a batch ends the walk as aborted', async () => {
    const stream = findFilesStream(options(wideTree()));
    let seen = 0;
    for await (const _ of stream) if (++seen === 10) break;
    expect(seen).toBe(10);
    const summary = await stream.summary;
    expect(summary).toMatchObject({ complete: false, incompleteReason: 'aborted' });
    // "Returned": what the loop took, not what the walk had found and queued for it.
    expect(summary.matchedCount).toBe(10);
  });

  it.each([1, 2, 3])('a reader of batches that leaves after %i batches: the summary counts what they held', async (kept) => {
    // 12,000 files: the walk waits for its reader long before the end, so leaving ends it.
    const stream = findFilesStream(options(wideTree(300)));
    let taken = 0;
    let batches = 0;
    for await (const batch of stream.batches()) {
      taken += batch.length;
      if (++batches === kept) break;
    }
    const summary = await stream.summary;
    expect(summary).toMatchObject({ complete: false, incompleteReason: 'aborted', matchedCount: taken });
  });

  it('a reader that leaves at each point in the first 1,100 items: the summary always counts what it took', async () => {
    const tree = wideTree();
    for (let leaveAt = 1; leaveAt <= 1100; leaveAt += 97) {
      const stream = findFilesStream(options(tree));
      let seen = 0;
      for await (const _ of stream) if (++seen === leaveAt) break;
      expect((await stream.summary).matchedCount).toBe(leaveAt);
    }
  });

  it('a root that is missing throws from the loop, and the summary rejects the same way', async () => {
    const stream = findFilesStream({ ...options({}), root: '/nowhere' });
    const loop = (async () => {
      for await (const _ of stream);
    })();
    await expect(loop).rejects.toBeInstanceOf(FindFileError);
    await expect(stream.summary).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
