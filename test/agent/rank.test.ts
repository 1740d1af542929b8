/**
 * The pure parts of the guidance and the relevance order: similarity, literal parts, words, test
 * subjects and the grouping of tests with their code.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupTests, refinePage, relevanceOrder, scorePath, testSubject, wordsOf } from '../../src/agent/rank.js';
import { closestNames, dice, literalOf } from '../../src/agent/similar.js';
import { SCORED_NAME_CHARS, buildSimilarNames } from '../../src/agent/guidance.js';

describe('similar names', () => {
  it('Dice over bigrams forgives a dropped letter and ignores case', () => {
    expect(dice('loginServce.ts', 'loginService.ts')).toBeCloseTo(24 / 27, 6);
    expect(dice('ABC', 'abc')).toBe(1);
    expect(dice('ab', 'cd')).toBe(0);
    expect(dice('a', 'a')).toBe(1);
  });

  it.each([
    ['loginServce.ts', { text: 'loginServce.ts', fragment: false }],
    ['src/**/loginServce.ts', { text: 'loginServce.ts', fragment: false }],
    ['**/*Servce*', { text: 'Servce', fragment: true }],
    ['*.{ts,tsx}', { text: '.ts', fragment: true }],
    ['*.tsx', undefined],
    ['src/*.test.ts', undefined],
    ['login*.ts', { text: 'login.ts', fragment: true }],
    ['src/**', { text: 'src', fragment: false }],
    ['*', undefined],
    ['?', undefined],
  ])('the literal part of %j', (pattern, literal) => expect(literalOf(pattern)).toEqual(literal));

  it('keeps the top 3 above the threshold, best first, ties to the shorter path', () => {
    const pool = ['a/loginService.ts', 'b/loginService.ts', 'deep/er/loginService.ts', 'x/logoutService.ts', 'unrelated.md'];
    expect(closestNames({ text: 'loginServce.ts', fragment: false }, pool)).toEqual(['a/loginService.ts', 'b/loginService.ts', 'deep/er/loginService.ts']);
    expect(closestNames({ text: 'zzzz', fragment: false }, pool)).toEqual([]);
  });
});

describe('similar names: sliding windows scored as they slide', () => {
  /** The reading before: each window's bigrams built anew (a name cost length × 3 × window steps). */
  function naiveClosest(literal: { text: string; fragment: boolean }, paths: readonly string[]): string[] {
    const len = literal.text.length;
    const scored = paths.map((path) => {
      const name = path.slice(path.lastIndexOf('/') + 1);
      let score = dice(literal.text, name);
      if (literal.fragment && name.length > len) {
        for (let w = Math.max(2, len - 1); w <= len + 1; w++) for (let i = 0; i + w <= name.length; i++) score = Math.max(score, dice(literal.text, name.slice(i, i + w)));
      }
      return { path, score };
    });
    const kept = scored.filter((s) => s.score >= 0.5);
    kept.sort((a, b) => b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return kept.slice(0, 3).map((s) => s.path);
  }

  it('gives the answer the window-by-window reading gives, on 300 generated pools', () => {
    const name = fc.stringMatching(/^[abAB.x]{0,24}$/);
    fc.assert(
      fc.property(fc.stringMatching(/^[abAB.x]{1,8}$/), fc.boolean(), fc.array(name, { minLength: 1, maxLength: 30 }), (text, fragment, names) => {
        const paths = names.map((n, i) => `d${i}/${n}`);
        expect(closestNames({ text, fragment }, paths)).toEqual(naiveClosest({ text, fragment }, paths));
      }),
      { numRuns: 300, seed: 20261206 },
    );
  });
});

describe('similar names: a bounded pool', () => {
  const seenOf = (paths: string[]) => ({ paths, special: new Map(), capped: false, rootEntries: undefined, onDirectory: () => {} });

  it('compares at most SCORED_NAME_CHARS characters of names, the first seen, and says it cut (50,000 names of 214 characters froze an MCP server 90 s)', () => {
    const long = Array.from({ length: 50_000 }, (_, i) => `d/${'a'.repeat(200)}${i}.txt`);
    const similar = buildSimilarNames(`*${'a'.repeat(100)}q*`, seenOf(long), (rel) => rel)!;
    const perName = long[0]!.length - 2;
    expect(similar.seen).toBeLessThanOrEqual(Math.ceil(SCORED_NAME_CHARS / perName));
    expect(similar.seen).toBeGreaterThan(Math.floor(SCORED_NAME_CHARS / (perName + 4)) - 1);
    expect(similar.poolCapped).toBe(true);
    // Names of a real tree fit whole: nothing cut, nothing said.
    const short = Array.from({ length: 50_000 }, (_, i) => `src/file${i}.ts`);
    expect(buildSimilarNames('**/fil9999.ts', seenOf(short), (rel) => rel)).toMatchObject({ seen: 50_000, poolCapped: false, paths: ['src/file9999.ts', 'src/file19999.ts', 'src/file29999.ts'] });
  });
});

describe('relevance', () => {
  it('words split at punctuation and camelCase humps', () => {
    expect(wordsOf('src/**/loginService.test.ts')).toEqual(['src', 'login', 'service', 'test', 'ts']);
    expect(wordsOf('parseHTTPRequest')).toEqual(['parse', 'httprequest']);
  });

  it('scores name words, source, build output, vendored and generated files', () => {
    expect(scorePath('src/login.ts', ['login'])).toBe(14);
    expect(scorePath('login/a.ts', ['login'])).toBe(3);
    expect(scorePath('dist/login.js', ['login'])).toBe(-5);
    expect(scorePath('vendor/login.js', ['login'])).toBe(-10);
    expect(scorePath('app.min.js', [])).toBe(-10);
  });

  it.each([
    ['test/auth/loginService.test.ts', 'loginservice'],
    ['pkg/login_service_test.go', 'login_service'],
    ['tests/test_login.py', 'login'],
    ['src/test/java/LoginServiceTest.java', 'loginservice'],
    ['__tests__/login.ts', 'login'],
    ['src/auth/loginService.ts', undefined],
    ['src/contest.ts', undefined],
    ['src/latest.ts', undefined],
  ])('the test subject of %s', (path, subject) => expect(testSubject(path)).toBe(subject));

  it('moves each test after the first file it tests; orphans keep their place', () => {
    expect(groupTests(['a/login.ts', 'b/other.ts', 'c/orphan.test.ts', 'test/login.test.ts', 'b/other.spec.ts'])).toEqual([
      'a/login.ts',
      'test/login.test.ts',
      'b/other.ts',
      'b/other.spec.ts',
      'c/orphan.test.ts',
    ]);
  });

  it('sizes only reorder the page, and an unknown size costs nothing', () => {
    const page = relevanceOrder(['src/a.ts', 'src/b.ts', 'src/c.ts'], ['ts']);
    expect(page).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts']);
    const sizes = new Map([['src/a.ts', 5 * 1024 * 1024], ['src/b.ts', 300 * 1024], ['src/c.ts', undefined]]);
    expect(refinePage(page, ['ts'], sizes)).toEqual(['src/c.ts', 'src/b.ts', 'src/a.ts']);
  });
});
