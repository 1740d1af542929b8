/**
 * The POSIX class tables (src/glob/posix-classes.ts over the generated posix-class-table.ts). The
 * expected rows are what bash 5.2 answered for `[[ $c == [[:cls:]] ]]` in C.UTF-8 (asked, not
 * guessed; test/conformance/class-sweep.test.ts asks it for every BMP code point).
 */
import { describe, expect, it } from 'vitest';
import { POSIX_CLASS_NAMES, isInPosixClass, isPosixClassName, posixClassRanges } from '../../src/glob/posix-classes.js';

/** The classes bash put each character in (all 14 names asked). */
const BASH_ROWS: [cp: number, classes: string][] = [
  [0x61, 'alnum alpha ascii graph lower print word xdigit'], // a
  [0x41, 'alnum alpha ascii graph print upper word xdigit'], // A
  [0x5f, 'ascii graph print punct word'], // _
  [0x09, 'ascii blank cntrl space'], // tab
  [0x20, 'ascii blank print space'],
  [0xb2, 'graph print punct'], // ² (issue 26: `v[[:punct:]]` over `v²`)
  [0x1c5, 'alnum alpha graph lower print upper word'], // ǅ, titlecase: both lower and upper in glibc
  [0x2003, 'blank print space'], // EM SPACE (issue 26: `a[[:blank:]]b.txt`)
  [0x1f468, 'graph print punct'], // 👨 (issue 26: `+([[:graph:]]).txt` over `👨‍👩.txt`)
  [0x200d, 'graph print punct'], // ZERO WIDTH JOINER
  [0xa0, 'graph print punct'], // NO-BREAK SPACE: not blank, not space
  [0x85, 'cntrl'], // NEXT LINE: not space
  [0x2028, 'cntrl space'], // LINE SEPARATOR
  [0x3000, 'blank print space'], // IDEOGRAPHIC SPACE
  [0x20ac, 'graph print punct'], // €
  [0x663, 'alnum alpha graph print word'], // ARABIC-INDIC DIGIT THREE: alpha, not digit
  [0x216b, 'alnum alpha graph print upper word'], // ROMAN NUMERAL TWELVE
  [0x301, 'graph print punct'], // COMBINING ACUTE ACCENT
];

describe('POSIX classes as bash reads them (glibc C.UTF-8)', () => {
  it('knows the 14 names bash does, and no others', () => {
    expect([...POSIX_CLASS_NAMES].sort()).toEqual(
      ['alnum', 'alpha', 'ascii', 'blank', 'cntrl', 'digit', 'graph', 'lower', 'print', 'punct', 'space', 'upper', 'word', 'xdigit'],
    );
    expect(isPosixClassName('punct')).toBe(true);
    for (const name of ['bogus', 'UPPER', 'Alpha', '', 'toString', '__proto__']) expect(isPosixClassName(name)).toBe(false);
  });

  const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  it.each(BASH_ROWS.map(([cp, classes]) => [hex(cp), cp, classes] as const))('%s is in exactly the classes bash says', (_, cp, classes) => {
    const mine = POSIX_CLASS_NAMES.filter((name) => isInPosixClass(name, cp));
    expect(mine.join(' ')).toBe(classes);
  });

  it('an unknown name has no members, as in bash ([[:bogus:]] matches nothing, [![:bogus:]] anything)', () => {
    for (const name of ['bogus', 'UPPER', 'toString']) {
      expect([0x61, 0x41, 0x3a, 0x5b].some((cp) => isInPosixClass(name, cp))).toBe(false);
      expect(posixClassRanges(name)).toEqual([]);
    }
  });

  it('a class is about the character, not its case: under nocasematch bash keeps [[:upper:]] from matching a', () => {
    // bash tests the unfolded character against the class; folding is the caller's, and must not reach here.
    expect(isInPosixClass('upper', 0x61)).toBe(false);
    expect(isInPosixClass('lower', 0x41)).toBe(false);
    expect(isInPosixClass('lower', 0x1c5)).toBe(true); // ǅ is in both, so it matches either
  });

  it('digit and xdigit are ASCII; ascii is below 0x80; word is alnum plus _', () => {
    expect(posixClassRanges('digit')).toEqual([[0x30, 0x39]]);
    expect(posixClassRanges('xdigit')).toEqual([[0x30, 0x39], [0x41, 0x46], [0x61, 0x66]]);
    expect(posixClassRanges('ascii')).toEqual([[0, 0x7f]]);
    // Compared as ranges, not per code point: a scan of all 0x110000 under Stryker's coverage passes the test timeout.
    const alnum = posixClassRanges('alnum');
    const word = posixClassRanges('word');
    const withUnderscore = [...alnum, [0x5f, 0x5f] as const].sort((a, b) => a[0] - b[0]);
    expect(word).toEqual(withUnderscore); // `_` sits between `Z` and `a`, adjacent to neither: one range more
  });

  it('every table is ascending, disjoint, non-adjacent, inside 0..0x10FFFF and free of surrogates', () => {
    for (const name of POSIX_CLASS_NAMES) {
      const ranges = posixClassRanges(name);
      expect(ranges.length, name).toBeGreaterThan(0);
      let previous = -2;
      for (const [lo, hi] of ranges) {
        expect(lo, name).toBeGreaterThan(previous + 1);
        expect(hi, name).toBeGreaterThanOrEqual(lo);
        expect(hi, name).toBeLessThanOrEqual(0x10ffff);
        expect(lo > 0xdfff || hi < 0xd800, `${name} [${lo}, ${hi}] holds a surrogate`).toBe(true);
        previous = hi;
      }
    }
  });

  it('the binary search agrees with a linear scan of the ranges at each edge', () => {
    for (const name of POSIX_CLASS_NAMES) {
      const ranges = posixClassRanges(name);
      const inRanges = (cp: number) => ranges.some(([lo, hi]) => lo <= cp && cp <= hi);
      for (const [lo, hi] of ranges) {
        for (const cp of [lo - 1, lo, hi, hi + 1]) expect(isInPosixClass(name, cp), `${name} ${cp}`).toBe(inRanges(cp));
      }
      expect(isInPosixClass(name, -1)).toBe(false);
      expect(isInPosixClass(name, 0x110000)).toBe(false);
    }
  });
});
