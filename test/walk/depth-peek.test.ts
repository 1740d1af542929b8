/**
 * What a peek past the depth limit proves (src/walk/rules.ts `isBeyondLimit`, issue 28's survivors
 * left in docs/mutation.md): a directory past the limit is a gap when the pattern could still match
 * inside it, even when it holds only another directory, and is no gap when the pattern prunes it.
 */
import { describe, expect, it } from 'vitest';
import { findFiles, findFilesSync } from '../../src/index.js';
import { asFs, buildVolume } from '../helpers/memfs.js';

const ROOT = '/root';

describe('a peek at the depth limit', () => {
  it('a directory holding only a directory, where the pattern could still match: depth-limit, never complete', async () => {
    const fs = asFs(buildVolume({ src: { a: { b: { 'c.ts': 'x' } } } }));
    for (const find of [findFiles, async (o: Parameters<typeof findFilesSync>[0]) => findFilesSync(o)]) {
      const result = await find({ root: ROOT, fs, pattern: 'src/**/*.ts', maxDepth: 2 });
      expect(result).toMatchObject({ matches: [], complete: false, incompleteReasons: ['depth-limit'] });
    }
    // With room for it, the file is there: the gap was real.
    expect((await findFiles({ root: ROOT, fs, pattern: 'src/**/*.ts', maxDepth: 4 })).matches).toEqual(['src/a/b/c.ts']);
  });

  it('the same directory, where the pattern cannot match inside it: complete, and the empty answer proves absence', async () => {
    const fs = asFs(buildVolume({ src: { a: { b: { 'c.ts': 'x' } } } }));
    // src/a is peeked (src/a/*.ts could match there, past the limit); b inside it cannot hold a match.
    for (const find of [findFiles, async (o: Parameters<typeof findFilesSync>[0]) => findFilesSync(o)]) {
      const result = await find({ root: ROOT, fs, pattern: 'src/a/*.ts', maxDepth: 2 });
      expect(result).toMatchObject({ matches: [], complete: true, incompleteReasons: [] });
      expect(result.stats.dirsPeeked).toBe(1);
    }
  });
});
