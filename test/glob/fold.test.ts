/**
 * Case folding as a regex with `i` (and no `u`) folds it, for the state-set matcher (src/glob/fold.ts).
 * Each row is checked against V8's own `/^x$/i`, the fast path's answer, so the two paths of a
 * case-insensitive segment (regex when linear, src/glob/nfa.ts otherwise) cannot drift apart.
 */
import { describe, expect, it } from 'vitest';
import { fold, foldEquivalents } from '../../src/glob/fold.js';
import { compileNfa } from '../../src/glob/nfa.js';
import { parseSegment } from '../../src/glob/parse.js';

/** `@(...)` (a character escaped where it would be syntax) keeps the segment off the regex fast path: the state-set matcher answers. */
const nfaIgnoringCase = (glob: string) => compileNfa(parseSegment(`@(${glob})`, true, glob).nodes, false);
const v8IgnoringCase = (char: string, name: string) => new RegExp(`^${char.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}$`, 'i').test(name);

describe('fold: one character compared ignoring case', () => {
  it.each([
    // ASCII past z is not a letter: { | } ~ DEL stay apart from [ \ ] ^ _
    ['{', '['],
    ['|', '\\'],
    ['}', ']'],
    ['~', '^'],
    ['\x7f', '_'],
    // never from a character past ASCII to an ASCII one: KELVIN SIGN is not k, LONG S is not s
    ['\u212a', 'k'],
    ['\u212a', 'K'],
    ['\u017f', 's'],
    // ŉ upper-cases to two characters (ʼN): it folds to itself, not to the first of them
    ['ŉ', 'ʼ'],
    // two characters beyond U+FFFF never fold, to each other or to anything
    ['\u{1F600}', '\u{1F601}'],
    ['\u{10400}', '\u{10428}'],
  ])('%j is not %j', (a, b) => {
    expect(v8IgnoringCase(a, b)).toBe(false);
    expect(fold(a.codePointAt(0)!)).not.toBe(fold(b.codePointAt(0)!));
    expect(nfaIgnoringCase(`\\${a}`).matches(b)).toBe(false);
    expect(nfaIgnoringCase(`\\${a}`).matches(a)).toBe(true);
  });

  it.each([
    // MICRO SIGN and GREEK SMALL MU both upper-case to GREEK CAPITAL MU
    ['µ', 'μ'],
    ['µ', 'Μ'],
    ['é', 'É'],
    ['z', 'Z'],
  ])('%j is %j', (a, b) => {
    expect(v8IgnoringCase(a, b)).toBe(true);
    expect(fold(a.codePointAt(0)!)).toBe(fold(b.codePointAt(0)!));
    expect(nfaIgnoringCase(`\\${a}`).matches(b)).toBe(true);
  });

  it('a character beyond U+FFFF folds to itself', () => {
    expect(fold(0x1f600)).toBe(0x1f600);
    expect(fold(0x10ffff)).toBe(0x10ffff);
  });
});

describe('foldEquivalents: the characters a class tests for one character ignoring case', () => {
  it('a character that folds with no other is its own only equivalent', () => {
    expect(foldEquivalents(0x31)).toEqual([0x31]);
    expect(foldEquivalents(0x1f600)).toEqual([0x1f600]);
  });

  it('MICRO SIGN, GREEK SMALL MU and GREEK CAPITAL MU are one group', () => {
    expect([...foldEquivalents(0xb5)].sort((a, b) => a - b)).toEqual([0xb5, 0x39c, 0x3bc]);
  });

  it('a class ignoring case matches a letter of the other case, and still a digit, a symbol and an astral character (the state-set path)', () => {
    expect(nfaIgnoringCase('[1]').matches('1')).toBe(true);
    expect(nfaIgnoringCase('[#]').matches('#')).toBe(true);
    expect(nfaIgnoringCase('[\u{1F600}]').matches('\u{1F600}')).toBe(true);
    expect(nfaIgnoringCase('[µ]').matches('Μ')).toBe(true);
    expect(nfaIgnoringCase('[1]').matches('2')).toBe(false);
    expect(nfaIgnoringCase('[a]').matches('A')).toBe(true);
    expect(nfaIgnoringCase('[A-C]').matches('b')).toBe(true);
  });
});
