/**
 * A `/` inside an extglob group, asked of bash's pathname expansion on a real tree: bash reads
 * `@(a/b|c)` as one name pattern (it finds `c`; no name holds the `/` of `a/b`), where find-file
 * once split it into two open groups of plain text and missed `c`, or said "no matching file exists"
 * for `*(a/b|c)`. Every group of two alternatives drawn from names, paths and globs of the tree,
 * in each place a group can stand (at the root, below a folder, before a name), against
 * `shopt -s extglob dotglob nullglob globstar` in C.UTF-8, regular files only.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles } from '../../src/index.js';
import { bashGlobEach, bashVersion } from './oracles.js';

const FILES = ['c', 'c2', 'ab', 'a/b', 'x/c', 'x/a/b', 'd/q', 'e/c/q', 'e/c2'];
const ALTERNATIVES = ['c', 'a/b', 'x/c', 'a', 'b', 'q', 'c*', 'a/*', '*/b', 'x', 'e/c', 'zz', 'a/b/c'];
const FORMS = ['./@(%)', './*(%)', './+(%)', './?(%)', 'x/@(%)', '@(%)/q', 'e/@(%)/q', 'e/*(%)/q'];

/**
 * A group opener left unclosed: bash reads the rest of the pattern, slashes included, as one name
 * pattern (find-file split it at the next `/` and answered for another path: `e/*(c/q` found
 * `e/c/q`). Each opener, after a `*` run and not, at the root, below a folder and before one.
 */
const OPEN_FORMS = ['./@(%', 'x/@(%', 'e/*(%', './*?(%', 'e/c*(%/q', 'e/**(%', '*/?(%', 'x/*!(%', 'e/*!(%/q', 'd/q*+(%', 'e/c?(%/q', 'e/+(%/q'];

const pairs = (forms: string[]) => forms.flatMap((form) => ALTERNATIVES.flatMap((a) => ALTERNATIVES.filter((b) => b !== a).map((b) => form.replace('%', `${a}|${b}`))));
const closedPatterns = pairs(FORMS);
const patterns = [...closedPatterns, ...pairs(OPEN_FORMS)];

/** One bash for every pattern: each pattern's regular files, NUL-separated, then a line feed. */

describe(`a / inside a group, closed or not, as bash ${bashVersion() ?? '(missing: this test needs bash 4+)'} globs it: ${patterns.length} patterns`, () => {
  let root: string;
  let expected: string[][];
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'ff-group-slash-'));
    for (const file of FILES) {
      mkdirSync(join(root, dirname(file)), { recursive: true });
      writeFileSync(join(root, file), '');
    }
    expected = bashGlobEach(root, patterns, ['extglob', 'dotglob', 'nullglob', 'globstar'], true);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds what bash finds, and says complete', async () => {
    expect(expected).toHaveLength(patterns.length);
    const differ: string[] = [];
    for (const [i, pattern] of patterns.entries()) {
      const result = await findFiles({ root, pattern });
      expect(result.complete, pattern).toBe(true);
      const got = [...result.matches].sort();
      if (JSON.stringify(got) !== JSON.stringify(expected[i])) differ.push(`${pattern}: bash ${JSON.stringify(expected[i])}, find-file ${JSON.stringify(got)}`);
    }
    expect(differ.slice(0, 20), `${differ.length} of ${patterns.length} differ`).toEqual([]);
  });

  it('asks the shapes that matter: bash finds something for a group holding a /, and nothing for some', () => {
    const found = (pattern: string) => expected[patterns.indexOf(pattern)];
    expect(found('./@(a/b|c)')).toEqual(['c']);
    expect(found('./*(a/b|c)')).toEqual(['c']);
    expect(found('e/@(a/b|c)/q')).toEqual(['e/c/q']);
    expect(found('x/@(a/b|q)')).toEqual([]);
    expect(found('./*?(c|x/c')).toEqual(['ab', 'c', 'c2']);
    expect(found('e/**(c|a/b')).toEqual(['e/c2']);
    const closed = expected.slice(0, closedPatterns.length);
    const open = expected.slice(closedPatterns.length);
    expect(closed.filter((files) => files.length > 0).length).toBeGreaterThan(closed.length / 4);
    expect(open.filter((files) => files.length > 0).length).toBeGreaterThan(open.length / 10);
  });
});
