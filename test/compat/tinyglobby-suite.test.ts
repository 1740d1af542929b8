/**
 * tinyglobby's own test cases (SuperchupuDev/tinyglobby test/index.test.ts), ported as data: each
 * runs through find-file/tinyglobby and through the real tinyglobby on tinyglobby's fixture tree,
 * and the sorted arrays must be equal. Left out of the port: cases about options the adapter
 * refuses (`fs`, `globstar`, `braceExpansion`, `extglob`, `debug`), `..` and absolute patterns
 * (find-file refuses a pattern outside its root), and links (never followed: docs/compat.md).
 * Cases where the adapter answers otherwise on purpose carry `deviation`, checked to differ as
 * documented, so a fix (or a change in the peer) shows up here.
 */
import { join } from 'node:path';
import * as peer from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glob, globSync, type GlobOptions } from '../../src/compat/tinyglobby.js';
import { buildTree, removeTree, sorted } from './tree.js';

/** tinyglobby's fixture, without its `.symlink` folder. */
const FIXTURE = ['a/a.txt', 'a/b.txt', 'b/a.txt', 'b/b.txt', '.a/a/a.txt', '.[a]/a.txt', '.deep/a/a/a.txt'];

interface Case {
  name: string;
  /** `undefined`: the older call form, `glob(options)`. */
  patterns: string | string[] | undefined;
  options?: GlobOptions;
  /** A folder of the fixture to use as cwd. */
  cwd?: string;
  /** Why the adapter answers otherwise (docs/compat.md), and what it answers. */
  deviation?: { why: string; ours: string[] };
}

const CASES: Case[] = [
  { name: 'directory expansion', patterns: 'a' },
  { name: 'empty array matches nothing', patterns: [] },
  { name: 'empty string matches nothing', patterns: '', options: { expandDirectories: false } },
  { name: 'only double star', patterns: '**' },
  { name: 'no directory expansion if expandDirectories is false', patterns: 'a', options: { expandDirectories: false } },
  { name: 'classic patterns as first argument', patterns: 'a/*.txt' },
  { name: 'negative patterns', patterns: ['**/a.txt', '!b/a.txt'] },
  { name: 'ignore option', patterns: '**/a.txt', options: { ignore: ['b/a.txt'] } },
  { name: 'ignore option as string', patterns: '**/a.txt', options: { ignore: 'b/a.txt' } },
  { name: 'ignore option with an empty string', patterns: '**/a.txt', options: { ignore: '' } },
  { name: 'caseSensitiveMatch', patterns: '**/A.TXT', options: { caseSensitiveMatch: false } },
  { name: 'caseSensitiveMatch (default)', patterns: '**/A.TXT' },
  { name: 'caseSensitiveMatch with ignore', patterns: '**/A.TXT', options: { ignore: 'B/**', caseSensitiveMatch: false } },
  { name: 'onlyDirectories option', patterns: 'a', options: { onlyDirectories: true } },
  { name: 'onlyFiles option', patterns: 'a', options: { onlyFiles: false } },
  { name: 'signal option (already aborted)', patterns: '**', options: { signal: AbortSignal.abort(), expandDirectories: false } },
  { name: 'onlyDirectories has preference over onlyFiles', patterns: 'a', options: { onlyDirectories: true, onlyFiles: true } },
  { name: 'matching only a directory works', patterns: 'a', options: { onlyFiles: false, expandDirectories: false } },
  { name: 'expandDirectories true', patterns: 'a', options: { expandDirectories: true } },
  { name: "no expandDirectories doesn't break common path inferring", patterns: 'a/a.txt', options: { expandDirectories: false } },
  { name: "expandDirectories doesn't break common path inferring either", patterns: 'a/a.txt', options: { expandDirectories: true } },
  { name: 'brace expansion', patterns: 'a/{a,b}.txt' },
  { name: 'dot', patterns: 'a/a.txt', options: { dot: true }, cwd: '.a' },
  { name: 'no common path optimization', patterns: ['.deep/a/a/*.txt', 'a/a.*'] },
  { name: 'deep 3', patterns: '.deep/a/a/*.txt', options: { deep: 3 } },
  { name: 'deep 2', patterns: '.deep/a/a/*.txt', options: { deep: 2 } },
  { name: 'deep 1', patterns: '.deep/a/a/*.txt', options: { deep: 1 } },
  { name: 'deep: 0', patterns: 'a/*.txt', options: { deep: 0 } },
  { name: 'deep: 0 at the top', patterns: '*.txt', options: { deep: 0 }, cwd: 'a' },
  { name: 'absolute', patterns: 'a/a.txt', options: { absolute: true } },
  { name: 'absolute + dot', patterns: 'a/a.txt', options: { dot: true, absolute: true }, cwd: '.a' },
  { name: 'absolute + empty commonPath', patterns: 'a/**.txt', options: { absolute: true, expandDirectories: false } },
  { name: 'no patterns returns everything in cwd', patterns: undefined },
  { name: '**/* works', patterns: '**/*' },
  { name: 'matching files with specific naming pattern', patterns: '**/[a-c].txt' },
  { name: 'dynamic patterns that include slashes inside parts', patterns: '{.a/a,a}/a.txt' },
  { name: 'using extglob patterns', patterns: 'a/+(a|b).txt' },
  { name: 'using negated bracket expression', patterns: '**/[!a].*' },
  { name: 'pattern normalization: a/', patterns: 'a/' },
  { name: 'pattern normalization: ./a', patterns: './a' },
  { name: 'negative patterns in options (b.txt)', patterns: ['**/*.txt', '!**/b.txt'] },
  { name: 'negative patterns in options (a.txt)', patterns: ['**/*.txt', '!**/a.txt'] },
  { name: 'negative patterns in ignore are ignored', patterns: '**/*', options: { ignore: ['**/b.txt', '!a/b.txt'] } },
  { name: 'double negations in patterns are ignored', patterns: ['**/*', '!**/b.txt', '!!a/b.txt'] },
  { name: 'multiple patterns', patterns: ['a/*.txt', 'b/*.txt'] },
  { name: 'no patterns and onlyDirectories', patterns: undefined, options: { onlyDirectories: true } },
  { name: '*', patterns: './*', options: { onlyDirectories: true, expandDirectories: false } },
  { name: '.a/*', patterns: '.a/*', options: { onlyDirectories: true, expandDirectories: false } },
  { name: 'dot names with dot: true, everything', patterns: '**', options: { dot: true, onlyFiles: false } },
];

let root: string;
beforeAll(() => {
  root = buildTree(FIXTURE);
});
afterAll(() => removeTree(root));

function call<T>(run: (p: never, o?: never) => T, c: Case, cwd: string): T {
  const options = { ...c.options, cwd };
  return c.patterns === undefined ? run(options as never) : run(c.patterns as never, options as never);
}

describe("tinyglobby's own cases, through the adapter and through tinyglobby", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const cwd = c.cwd === undefined ? root : join(root, c.cwd);
      const theirs = sorted(await call(peer.glob, c, cwd));
      const ours = sorted(await call(glob, c, cwd));
      expect(sorted(call(globSync, c, cwd)), 'sync form').toEqual(ours);
      if (c.deviation) {
        expect(ours).toEqual(c.deviation.ours);
        expect(ours).not.toEqual(theirs);
      } else expect(ours).toEqual(theirs);
    });
  }
});
