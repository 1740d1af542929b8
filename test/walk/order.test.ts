/**
 * `matches` is in plain string order however the tree is shaped. The collector builds that order
 * from per-directory sorts (src/find.ts); this checks it against a plain sort on random trees whose
 * names hold the characters that sort around `/` (`-`, `.`, ` `, `0`, `~`, non-ASCII).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findFiles, findFilesSync } from '../../src/index.js';
import { asFs, buildVolume, type Tree } from '../helpers/memfs.js';

const name = fc.string({ unit: fc.constantFrom('a', 'b', '-', '.', ' ', '0', '~', 'é', '文'), minLength: 1, maxLength: 4 }).filter((n) => n !== '.' && n !== '..');

const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.dictionary(name, fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant(''), tie('tree')), { maxKeys: 6 }),
})).tree;

function filesOf(node: Tree, prefix = ''): string[] {
  return Object.entries(node).flatMap(([n, v]) => (typeof v === 'string' ? [prefix + n] : filesOf(v as Tree, `${prefix}${n}/`)));
}

describe('match order', () => {
  it('equals a plain sort of every file, for random trees', async () => {
    await fc.assert(
      fc.asyncProperty(tree, async (t) => {
        const fs = asFs(buildVolume(t));
        const expected = filesOf(t).sort();
        expect((await findFiles({ root: '/root', platform: 'posix', pattern: '*', fs })).matches).toEqual(expected);
        expect(findFilesSync({ root: '/root', platform: 'posix', pattern: '*', fs }).matches).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
