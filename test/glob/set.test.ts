/**
 * A set of globs compiled together (src/glob/set.ts) and one whole-path test (src/glob/path.ts), on
 * what test/patterns.test.ts never gives them: several `*.ext` alternatives at once (the merged
 * suffix test), a suffix of a character other than a literal, an empty base name (`**\/`), undecoded
 * paths against several path globs, and a whole-path test ignoring case (issue 28's survivors).
 */
import { describe, expect, it } from 'vitest';
import { buildPathTest, compilePath } from '../../src/glob/path.js';
import { expandBraces } from '../../src/glob/braces.js';
import { compileSet } from '../../src/glob/set.js';
import { mulberry32 } from '../helpers/prng.js';

const set = (globs: string[], caseSensitive = true) => compileSet(globs, caseSensitive, true, true);

describe('base names: several suffixes, and suffixes that are not plain text', () => {
  it('each of several *.ext alternatives matches its own names, and only names ending so', () => {
    const s = set(['*.ts', '*.js', '*.md']);
    expect(s.name('a.ts')).toBe(true);
    expect(s.name('b.js')).toBe(true);
    expect(s.name('c.md')).toBe(true);
    expect(s.name('ts.c')).toBe(false);
    expect(s.name('a.tsx')).toBe(false);
    // `js.x` starts with a suffix's text but does not end with it.
    expect(s.name('.js.x')).toBe(false);
  });

  it('a star then a non-literal (*?, *[ab]) is no suffix, and still matches', () => {
    expect(set(['*?']).name('ab')).toBe(true);
    expect(set(['*?']).name('')).toBe(false);
    expect(set(['*[ab]']).name('xa')).toBe(true);
    expect(set(['*[ab]']).name('xc')).toBe(false);
  });

  it('**/ (every directory) compiles: its base name is empty, which no file has', () => {
    const s = set(['**/']);
    expect(s.name('a')).toBe(false);
    expect(s.path('a/b')).toBe(false);
  });
});

describe('undecoded paths (U+FFFD) against several path globs', () => {
  it('could match when any one of the globs could', () => {
    const s = set(['d/??.txt', 'e/x']);
    expect(s.couldPath('d/\uFFFD.txt')).toBe(true);
    expect(s.couldPath('e/x')).toBe(true);
    expect(s.couldPath('f/\uFFFD.txt')).toBe(false);
  });
});

describe('a whole-path test ignoring case', () => {
  it('folds on the regex path as on the stepped one', () => {
    const linear = buildPathTest(compilePath('SRC/*.TS', true, 'SRC/*.TS', false), true, false);
    expect(linear('src/a.ts')).toBe(true);
    expect(linear('lib/a.ts')).toBe(false);
    const stepped = buildPathTest(compilePath('**/SRC/**/*.TS', true, '**/SRC/**/*.TS', false), true, false);
    expect(stepped('x/src/y/a.ts')).toBe(true);
    const exact = buildPathTest(compilePath('SRC/*.TS', true, 'SRC/*.TS', true), true, true);
    expect(exact('src/a.ts')).toBe(false);
  });
});

describe('alternatives with two or more `**` ask the last name first (generated)', () => {
  // The gate (set.ts `lastNameFirst`) must never say no where the stepper alone says yes, nor
  // the other way: every alternative is checked against its own stepper on the same paths.
  const random = mulberry32(20261206);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const middles = ['src', 'lib', 's*', '?ib', '[sl]*', '@(src|x)', 'SRC'];
  const lasts = ['*.ts', '*.{ts,tsx}', 'a.ts', '?.js', '[ab]*', '*', '!(*.md)', 'x*y', 'A.TS', '*.T?'];
  const names = ['src', 'lib', 'sx', 'Src', 'x', 'a.ts', 'b.tsx', 'a.js', 'A.TS', 'xay', 'r.md', 'b', 'lib.ts'];
  const cases = Array.from({ length: 300 }, () => {
    const shapes = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
      const middle = Array.from({ length: 1 + Math.floor(random() * 2) }, () => pick(middles)).join('/**/');
      return `${pick(['**/', '', 'a/**/'])}${middle}/**/${pick(lasts)}`;
    });
    const paths = Array.from({ length: 40 }, () => Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(names)).join('/'));
    return { globs: shapes.flatMap((g) => expandBraces(g, true, 'pattern', g)), paths, caseSensitive: random() < 0.6, forFiles: random() < 0.7 };
  });

  it.each(cases.map((c, i) => [i, c] as const))('case %i', (_i, { globs, paths, caseSensitive, forFiles }) => {
    const s = compileSet(globs, caseSensitive, true, forFiles);
    const alone = globs.map((g) => buildPathTest(compilePath(g, true, g, caseSensitive), forFiles, caseSensitive));
    for (const path of paths) expect([path, s.path(path)]).toEqual([path, alone.some((test) => test(path))]);
  });
});
