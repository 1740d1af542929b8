/**
 * node-glob's bash comparison (isaacs/node-glob test/bash-comparison.ts), ported: each pattern of
 * its stored bash results runs through find-file/glob and through the real node-glob on
 * node-glob's fixture tree, and the sorted arrays must be equal; both must also equal what bash
 * printed, less what bash reached through the tree's one link (`a/symlink/a/b/c -> ../..`): the
 * link is left out of this tree, because node-glob follows it inside a `**` and find-file never
 * follows a link (docs/compat.md). Patterns with a `..` segment or an absolute alternative are
 * refused by find-file (a pattern never leaves its root): pinned as refusals.
 */
import * as peer from 'glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glob, globSync } from '../../src/compat/glob.js';
import { bashResults } from './node-glob-bash-results.js';
import { buildTree, removeTree, sorted } from './tree.js';

/** node-glob's test/00-setup.ts tree, without the link `a/symlink/a/b/c`. */
const FIXTURE = [
  'a/.abcdef/x/y/z/a',
  'a/abcdef/g/h',
  'a/abcfed/g/h',
  'a/b/c/d',
  'a/bc/e/f',
  'a/c/d/c/b',
  'a/cb/e/f',
  'a/x/.y/b',
  'a/z/.y/b',
  'a/symlink/a/b/',
];

const LINK = 'a/symlink/a/b/c';

/** As node-glob's suite cleans results before comparing with bash: no trailing `/`, no duplicates. */
function clean(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => p.replace(/\/$/, '')))].sort();
}

function leavesRoot(pattern: string): boolean {
  return /(^|\/)\.\.(\/|$)/.test(pattern) || /^\{?\/|^\{[^}]*,\//.test(pattern);
}

let root: string;
beforeAll(() => {
  root = buildTree(FIXTURE);
});
afterAll(() => removeTree(root));

describe("node-glob's bash results, through the adapter, node-glob and bash", () => {
  for (const [pattern, bash] of Object.entries(bashResults)) {
    if (leavesRoot(pattern)) {
      it(`${pattern}: refused, a pattern never leaves the root`, () => {
        expect(() => globSync(pattern, { cwd: root })).toThrow(expect.objectContaining({ code: 'FF_PATTERN_OUTSIDE_ROOT' }));
      });
      continue;
    }
    it(pattern, async () => {
      const theirs = sorted(await peer.glob(pattern, { cwd: root }));
      const ours = sorted(await glob(pattern, { cwd: root }));
      expect(sorted(globSync(pattern, { cwd: root })), 'sync form').toEqual(ours);
      expect(ours).toEqual(theirs);
      expect(clean(ours)).toEqual(clean(bash.filter((p) => p !== LINK && !p.startsWith(`${LINK}/`))));
    });
  }
});
