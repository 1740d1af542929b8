/**
 * The compiled matchers against minimatch itself: the fast paths (literal names, `*.ext` suffixes,
 * `**\/` prefixes) must answer exactly what minimatch answers, on both path flavours.
 */
import fc from 'fast-check';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { buildExcluder, buildMatcher, normalizePattern } from '../src/patterns.js';

const nameChars = fc.constantFrom('a', 'b', 'A', '.', 'j', 's', 'x', '-', ' ', 'é');
const names = fc.string({ unit: nameChars, minLength: 1, maxLength: 8 }).filter((n) => n !== '.' && n !== '..');
const patterns = fc.oneof(
  names,
  names.map((n) => `*${n}`),
  names.map((n) => `*.${n}`),
  names.map((n) => `${n}*`),
  names.map((n) => `?${n}`),
);

describe('base-name matching', () => {
  it('agrees with minimatch (dot: true) for literal, suffix and general patterns, on posix', () => {
    fc.assert(
      fc.property(patterns, names, (pattern, name) => {
        const expected = minimatch(name, pattern, { dot: true });
        expect(buildMatcher([pattern], 'posix').matches(`dir/${name}`, name)).toBe(expected);
        expect(buildMatcher([`**/${pattern}`], 'posix').matches(`dir/${name}`, name)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with minimatch (nocase) on win32', () => {
    fc.assert(
      fc.property(patterns, names, (pattern, name) => {
        const expected = minimatch(name, pattern, { dot: true, nocase: true });
        expect(buildMatcher([pattern], 'win32').matches(name, name)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('path matching and pruning', () => {
  it('prunes only directories a rooted pattern cannot enter', () => {
    const m = buildMatcher(['src/**/*.ts', 'docs/*.md'], 'posix');
    expect(m.prunes).toBe(true);
    expect(m.couldMatchInside('src')).toBe(true);
    expect(m.couldMatchInside('src/a/b')).toBe(true);
    expect(m.couldMatchInside('docs')).toBe(true);
    expect(m.couldMatchInside('docs/sub')).toBe(false);
    expect(m.couldMatchInside('lib')).toBe(false);
    expect(m.matches('src/a/b.ts', 'b.ts')).toBe(true);
    expect(m.matches('docs/sub/x.md', 'x.md')).toBe(false);
  });

  it('does not let dir/** match a file named dir (regression: minimatch makeRe does, match and rg do not)', () => {
    const m = buildMatcher(['a/**'], 'posix');
    expect(m.matches('a', 'a')).toBe(false);
    expect(m.matches('a/x', 'x')).toBe(true);
  });

  it('never prunes when any pattern matches base names', () => {
    const m = buildMatcher(['src/*.ts', '*.md'], 'posix');
    expect(m.prunes).toBe(false);
    expect(m.couldMatchInside('anything/at/all')).toBe(true);
  });

  it('excludes directories matched by the directory or by everything below it', () => {
    const e = buildExcluder(['dist/**', 'cache/', '*.log'], 'posix');
    expect(e.isExcluded('dist', 'dist', true)).toBe(true);
    expect(e.isExcluded('cache', 'cache', true)).toBe(true);
    expect(e.isExcluded('cache', 'cache', false)).toBe(false);
    expect(e.isExcluded('a/b.log', 'b.log', false)).toBe(true);
    expect(e.isExcluded('src', 'src', true)).toBe(false);
    const nested = buildExcluder(['**/dist/**'], 'posix');
    expect(nested.isExcluded('a/dist', 'dist', true)).toBe(true);
    expect(nested.isExcluded('a/dist', 'dist', false)).toBe(false); // a file named dist is not below dist
    expect(nested.isExcluded('a/dist/x.js', 'x.js', false)).toBe(true);
  });
});

describe('normalizePattern', () => {
  it('turns win32 separators into / and strips ./', () => {
    expect(normalizePattern('.\\src\\*.ts', 'win32', 'pattern')).toBe('src/*.ts');
    expect(normalizePattern('./src/*.ts', 'posix', 'pattern')).toBe('src/*.ts');
  });

  it('keeps a backslash as an escape on posix', () => {
    expect(normalizePattern('a\\*b', 'posix', 'pattern')).toBe('a\\*b');
    expect(buildMatcher(['a\\*b'], 'posix').matches('a*b', 'a*b')).toBe(true);
    expect(buildMatcher(['a\\*b'], 'posix').matches('axb', 'axb')).toBe(false);
  });
});
