/**
 * The pure parts of the guidance and the relevance order: similarity, literal parts, words, test
 * subjects and the grouping of tests with their code.
 */
import { describe, expect, it } from 'vitest';
import { groupTests, refinePage, relevanceOrder, scorePath, testSubject, wordsOf } from '../../src/agent/rank.js';
import { closestNames, dice, literalOf } from '../../src/agent/similar.js';

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
