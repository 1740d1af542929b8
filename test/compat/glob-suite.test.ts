/**
 * node-glob's bash comparison (isaacs/node-glob test/bash-comparison.ts), ported: each pattern of
 * its stored bash results runs through find-file/glob and through the real node-glob on
 * node-glob's fixture tree, and the sorted arrays must be equal; both must also equal what bash
 * printed, less what bash reached through the tree's one link (`a/symlink/a/b/c -> ../..`): the
 * link is left out of this tree, because node-glob follows it inside a `**` and find-file never
 * follows a link (docs/compat.md). Patterns with a `..` segment or an absolute alternative are
 * refused by find-file (a pattern never leaves its root): pinned as refusals.
 */
import { join } from 'node:path';
import * as peer from 'glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glob, globSync, type GlobOptionsWithFileTypesFalse as GlobOptions } from '../../src/compat/glob.js';
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
      // `..` climbs out of the search's root; an absolute alternative beside a relative one would
      // need answers in two forms from one search (test/compat/absolute-patterns.test.ts has the
      // absolute patterns the adapter answers).
      const code = pattern.includes('..') ? 'FF_PATTERN_OUTSIDE_ROOT' : 'FF_INVALID_PATTERN';
      it(`${pattern}: refused (${code}), never answered from the wrong place`, () => {
        expect(() => globSync(pattern, { cwd: root })).toThrow(expect.objectContaining({ code }));
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

/**
 * node-glob's test/ignore.ts cases as data: [pattern, ignore, cwd (a folder of the fixture), options].
 * Its two cases with an absolute ignore and the one with `..` are left out: find-file refuses
 * them (pinned above for patterns). `deviation`: node-glob's `ignore` leaves out a directory it
 * names and still walks into it; a find-file exclude prunes it (docs/compat.md).
 */
type IgnoreCase = [pattern: string, ignore: string | string[], cwd?: string, options?: GlobOptions, deviation?: string];
const PRUNES = 'an ignore naming a directory without /** prunes it here; node-glob still returns what is below it';
const IGNORE_CASES: IgnoreCase[] = [
  ['*', [], 'a'],
  ['*', ['b'], 'a'],
  ['*', 'b*', 'a'],
  ['b/**', 'b/c/d', 'a'],
  ['b/**', 'd', 'a'],
  ['b/**', 'b/c/**', 'a'],
  ['**/d', 'b/c/d', 'a'],
  ['a/**/[gh]', ['a/abcfed/g/h']],
  ['*', ['c', 'bc', 'symlink', 'abcdef'], 'a'],
  ['**', ['c/**', 'bc/**', 'symlink/**', 'abcdef/**'], 'a'],
  ['a/**', ['a/**']],
  ['a/**', ['a/**/**']],
  ['a/b/**', ['a/b'], undefined, undefined, PRUNES],
  ['**', ['b'], 'a', undefined, PRUNES],
  ['**', ['b', 'c'], 'a', undefined, PRUNES],
  ['**', ['b**'], 'a', undefined, PRUNES],
  ['**', ['b/**'], 'a'],
  ['**', ['b**/**'], 'a'],
  ['**', ['ab**ef/**'], 'a'],
  ['**', ['abc{def,fed}/**'], 'a'],
  ['**', ['abc{def,fed}/*'], 'a', undefined, PRUNES],
  ['c/**', ['c/*'], 'a', undefined, PRUNES],
  ['a/c/**', ['a/c/*'], undefined, undefined, PRUNES],
  ['a/c/**', ['a/c/**', 'a/c/*', 'a/c/*/c']],
  ['a/**/.y', ['a/x/**']],
  ['a/**/.y', ['a/x/**'], undefined, { dot: true }],
  ['a/**/b', ['a/x/**']],
  ['a/**/b', ['a/x/**'], undefined, { dot: true }],
  ['*/.abcdef', 'a/**'],
  ['a/*/.y/b', 'a/x/**'],
  ['./*', '{./,c}b', 'a'],
];

describe("node-glob's ignore cases, through the adapter and node-glob", () => {
  for (const [pattern, ignore, sub, extra, deviation] of IGNORE_CASES) {
    it(`p=${pattern} i=${JSON.stringify(ignore)} cwd=${sub ?? '.'} ${JSON.stringify(extra ?? {})}${deviation ? ' (deviation)' : ''}`, async () => {
      const options = { cwd: sub === undefined ? root : join(root, sub), ignore, ...extra };
      const theirs = sorted(await peer.glob(pattern, options));
      const ours = sorted(await glob(pattern, options));
      expect(sorted(globSync(pattern, options)), 'sync form').toEqual(ours);
      if (deviation === undefined) expect(ours).toEqual(theirs);
      else {
        // Fewer paths, never others: what is left out is below the ignored directory.
        expect(ours).not.toEqual(theirs);
        expect(theirs).toEqual(expect.arrayContaining(ours));
      }
    });
  }
});

/** node-glob's test/nodir.ts and test/max-depth.ts cases as data (max-depth without `follow` and `withFileTypes`, refused here), through the adapter and node-glob. */
const OPTION_CASES: [pattern: string, options: GlobOptions, cwd?: string][] = [
  ['*/**', { nodir: true }, 'a'],
  ['a/*b*/**', { nodir: true }],
  ['a/*b*/**/', { nodir: true }],
  ['*/*', { nodir: true }, 'a'],
  ...[0, 1, 2, 3, 4].map((maxDepth): [string, GlobOptions] => ['{*/*/*/**,*/*/**,**}', { maxDepth }]),
  ...[0, 1, 2, 3].map((maxDepth): [string, GlobOptions] => ['**', { maxDepth, dot: true }]),
];

describe("node-glob's nodir and maxDepth cases, through the adapter and node-glob", () => {
  for (const [pattern, extra, sub] of OPTION_CASES) {
    it(`${pattern} ${JSON.stringify(extra)} cwd=${sub ?? '.'}`, async () => {
      const options = { cwd: sub === undefined ? root : join(root, sub), ...extra };
      const ours = sorted(await glob(pattern, options));
      expect(sorted(globSync(pattern, options)), 'sync form').toEqual(ours);
      expect(ours).toEqual(sorted(await peer.glob(pattern, options)));
    });
  }
});
