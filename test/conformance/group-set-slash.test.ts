/**
 * A set holding a `/` inside an extglob group (the only place one can stand: elsewhere the `/`
 * splits the pattern), asked of bash's pathname expansion on a tree of one-character names (every
 * printable ASCII character but `/` and `.`) and a few longer ones. bash gives up on a set when its
 * scan for a member reaches a one-character member followed by a `/`: `@([xa/])` is `x`,
 * `@([a/b])` matches nothing, `!([a/b])` anything, where find-file read the set `{a,/,b}`. A `/`
 * first, after a range or a class, or escaped is a member like any other (`@([a-c/x])`).
 * Generated sets of members, ranges, classes and slashes, negated or not, in each kind of group.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles } from '../../src/index.js';
import { Rng } from './generate.js';
import { bashGlobEach, bashVersion } from './oracles.js';

const NAMES = [
  ...Array.from({ length: 94 }, (_, k) => String.fromCharCode(33 + k)).filter((c) => c !== '/' && c !== '.'),
  'ab', 'xa', 'ax', 'cc', 'a-', 'x1',
];
const MEMBERS = ['a', 'b', 'x', '/', '/', '/', '\\/', 'a-c', '/-a', '-', '[:digit:]', '\\a', '1'];
const FORMS = ['@(%)', '!(%)', '+(%)', '*(%)', '@(%|c)', '@(x|%*)', '?(%)x', 'a@(%)', '@(%%)'];

function generate(count: number): string[] {
  const rng = new Rng(20261207);
  const out = new Set<string>();
  while (out.size < count) {
    const set = () => `[${rng.chance(0.3) ? '!' : ''}${Array.from({ length: rng.range(1, 4) }, () => rng.pick(MEMBERS)).join('')}]`;
    const pattern = rng.pick(FORMS).replace('%', set()).replace('%', set());
    if (pattern.includes('/')) out.add(pattern);
  }
  return [...out];
}

/** The adversary's shapes first, then generated ones. */
const patterns = [...new Set(['!([a/b])', '+([a/b])', '@([_/]*|c)', '@([xa/])', '@([a-c/x])', ...generate(600)])];

/** One bash for every pattern, read NUL-separated from stdin (never script text): its matches, NUL-separated, then a line feed. */

describe(`a set holding a / inside a group, as bash ${bashVersion() ?? '(missing: this test needs bash 4+)'} globs it: ${patterns.length} patterns`, () => {
  let root: string;
  let expected: string[][];
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'ff-group-set-slash-'));
    for (const name of NAMES) writeFileSync(join(root, name), '');
    expected = bashGlobEach(root, patterns, ['extglob', 'dotglob', 'nullglob']);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('finds what bash finds, and says complete', async () => {
    expect(expected).toHaveLength(patterns.length);
    const differ: string[] = [];
    for (const [i, pattern] of patterns.entries()) {
      let got: string[] | string;
      try {
        const result = await findFiles({ root, pattern });
        expect(result.complete, pattern).toBe(true);
        got = [...result.matches].sort();
      } catch (error) {
        // `!(...)` not at the end of a segment: refused on purpose (docs/contract.md).
        if ((error as { code?: string }).code === 'FF_INVALID_PATTERN' && !/^!\(.*\)$/.test(pattern)) continue;
        throw error;
      }
      if (JSON.stringify(got) !== JSON.stringify(expected[i])) differ.push(`${pattern}: bash ${JSON.stringify(expected[i])}, find-file ${JSON.stringify(got)}`);
    }
    expect(differ.slice(0, 20), `${differ.length} of ${patterns.length} differ`).toEqual([]);
  });

  it('asks the shapes that matter', () => {
    const found = (pattern: string) => expected[patterns.indexOf(pattern)];
    const some = (re: RegExp, hit: boolean) => patterns.some((p, i) => re.test(p) && expected[i]!.length > 0 === hit);
    expect(some(/\[[^\]]*[a-z1]\/[^\]]*\]/, true), 'a member then / that still matches (an earlier member)').toBe(true);
    expect(some(/^!\(\[[^!][^\]]*[a-z1]\/[^\]]*\]\)$/, true), '!( ) around a set bash gives up on').toBe(true);
    expect(some(/\[!/, false), 'a negated set that matches nothing').toBe(true);
    expect(found('!([a/b])')).toEqual([...NAMES].sort());
    expect(found('+([a/b])')).toEqual([]);
    expect(found('@([_/]*|c)')).toEqual(['c']);
    expect(found('@([xa/])')).toEqual(['x']);
    expect(found('@([a-c/x])')).toEqual(['a', 'b', 'c', 'x']);
  });
});
