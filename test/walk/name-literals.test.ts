/**
 * The literal name regexes matched without RE2 (src/plan/name-literals.ts) answer as re2js answers
 * the same source, over generated sources in the shapes the command writes (`-F`, several `-F`,
 * `-e`, the hint's escaped text) and names made of the characters where engines part (case
 * partners outside ASCII, the Kelvin sign and the long s, line feeds, surrogates); and the case
 * classes of ASCII are the same in both engines over every code point. The command's shapes are
 * read as literals (else the start-up it saves is not saved), and every other shape is left to RE2.
 */
import { describe, expect, it } from 'vitest';
import { nameOptions } from '../../src/cli/names.js';
import type { CliArgs } from '../../src/cli/args.js';
import { literalNameRegex } from '../../src/plan/name-literals.js';
import { loadRe2 } from '../../src/re2.js';
import { escapeRegex } from '../../src/regex-escape.js';
import { findFiles } from '../../src/index.js';
import { asFs, buildVolume } from '../helpers/memfs.js';
import { mulberry32 } from '../helpers/prng.js';

const RE2 = loadRe2();
const re2Test = (source: string, fold: boolean) => {
  const regex = RE2.compile(source, fold ? RE2.CASE_INSENSITIVE : 0);
  return (name: string) => regex.matcher(name).find();
};

/** A seeded pick in [0, n): the same cases every run. */
function rng(seed: number): (n: number) => number {
  const random = mulberry32(seed);
  return (n) => Math.floor(random() * n);
}

/** Where engines could part: case partners in and out of ASCII, folds into ASCII, syntax, a line feed, astral and lone surrogates. */
const CHARS = [...'aAkKsSzZ09._-/ |\\^$*+?()[]{}', '\n', 'é', 'É', 'ſ', '\u212a', 'ß', '\u1e9e', 'İ', 'ı', 'Σ', 'σ', 'ς', '😀', '\ud83d', '\ude00'];

function text(pick: (n: number) => number, max: number): string {
  let out = '';
  for (let i = 1 + pick(max); i > 0; i--) out += CHARS[pick(CHARS.length)];
  return out;
}

describe('a literal shape answers as re2js', () => {
  const pick = rng(20261207);
  const shapes: { source: string; fold: boolean }[] = [];
  for (let i = 0; i < 1500; i++) {
    const literals = Array.from({ length: 1 + pick(3) }, () => text(pick, 4));
    const fold = pick(2) === 0;
    const kind = pick(4);
    const body = literals.map(escapeRegex).join('|');
    if (kind === 0) shapes.push({ source: body, fold });
    else if (kind === 1) shapes.push({ source: `(?i)${body}`, fold });
    else if (kind === 2) shapes.push({ source: `(?-i)${body}`, fold });
    else shapes.push({ source: `(?is).\\.(?:${body})$`, fold });
  }
  const names = Array.from({ length: 60 }, () => text(pick, 8));

  it('on every generated source and name (the fast path taken for most)', () => {
    let taken = 0;
    let compared = 0;
    for (const { source, fold } of shapes) {
      const literal = literalNameRegex(source, fold);
      if (literal === undefined) continue;
      taken++;
      const expected = re2Test(source, fold);
      // Names that hold the literals themselves, in another case, and the generated ones.
      const own = source.replace(/^\(\?-?i\)|^\(\?is\)\.\\\.\(\?:|\)\$$/g, '').replace(/\\(.)/g, '$1').split('|');
      const candidates = [...names, ...own.flatMap((l) => [l, `x.${l}`, l.toUpperCase(), `.${l.toLowerCase()}`, `ab${l}cd`])];
      for (const name of candidates) {
        compared++;
        expect(literal.test(name), `${JSON.stringify(source)} fold=${fold} over ${JSON.stringify(name)}`).toBe(expected(name));
      }
    }
    expect(taken).toBeGreaterThan(shapes.length / 3);
    expect(compared).toBeGreaterThan(30_000);
  });
});

describe('case classes of ASCII: the same in both engines over every code point', () => {
  it('the code points that fold into ASCII, and what each matches', () => {
    const jsAscii = /^[\x00-\x7f]$/iu;
    const re2Ascii = re2Test('^[\\x00-\\x7f]$', true);
    const folding: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      const ch = String.fromCodePoint(code);
      const js = jsAscii.test(ch);
      if (js !== re2Ascii(ch)) expect.fail(`U+${code.toString(16)}: JavaScript says ${js}`);
      if (js && code > 0x7f) folding.push(ch);
    }
    // The Kelvin sign (k) and the long s (s), and no other.
    expect(folding).toEqual(['ſ', '\u212a']);
    for (let code = 0; code <= 0x7f; code++) {
      const ascii = String.fromCharCode(code);
      const literal = literalNameRegex(escapeRegex(ascii), true)!;
      const expected = re2Test(escapeRegex(ascii), true);
      for (let other = 0; other <= 0x7f; other++) expect(literal.test(String.fromCharCode(other))).toBe(expected(String.fromCharCode(other)));
      for (const ch of folding) expect(literal.test(ch), `${ascii} over ${ch}`).toBe(expected(ch));
    }
  });
});

describe('which shapes are read as literals', () => {
  const args = (extra: Partial<CliArgs>) => ({ _: [], ...extra }) as unknown as CliArgs;

  it.each([
    ['-F make', args({ fixedStrings: true }), ['make']],
    ['-F Make (keeps case)', args({ fixedStrings: true }), ['Make']],
    ['-F a.b -F c|d', args({ fixedStrings: true }), ['a.b', 'c|d']],
    ['-e ts -e d.ts', args({ extension: ['ts', 'd.ts'] }), []],
  ] as const)('the command writes %s as a literal', (_, cliArgs, patterns) => {
    const { nameRegex } = nameOptions(cliArgs, [...patterns]);
    expect(nameRegex).toBeDefined();
    for (const source of nameRegex!) for (const fold of [false, true]) expect(literalNameRegex(source, fold), source).toBeInstanceOf(RegExp);
  });

  it('the hint: any text escaped, ASCII under either case, any text keeping case', () => {
    for (const hint of ['make', 'a.b*c', 'my file (2)', 'x/y', 'a\\b']) expect(literalNameRegex(escapeRegex(hint), true)).toBeInstanceOf(RegExp);
    expect(literalNameRegex('café', false)).toBeInstanceOf(RegExp);
  });

  it.each([
    ['a regex', 'a.b', false],
    ['a repeat', 'ab*', false],
    ['a class', '[ab]', false],
    ['an escape class', '\\d', false],
    ['an anchor', '^make', false],
    ['a group', '(?:a|b)', false],
    ['a bare ]', 'a]', false],
    ['an unknown escape', '\\q', false],
    ['a trailing backslash', 'a\\', false],
    ['a non-ASCII literal folded by the search', 'café', true],
    ['a non-ASCII literal under (?i)', '(?i)café', false],
    ['a non-ASCII extension', '(?is).\\.(?:é)$', false],
    ['a lone surrogate', 'a\ud83d', false],
    ['another flag', '(?s)make', false],
    ['-e with more after it', '(?is).\\.(?:ts)$x', false],
  ] as const)('%s (%s) is left to RE2', (_, source, fold) => {
    expect(literalNameRegex(source, fold)).toBeUndefined();
  });

  it('a long literal is left to RE2: V8 overflows its stack compiling a folded one of ~12,300 characters, at the first test', async () => {
    expect(literalNameRegex('a'.repeat(1_000), true)).toBeInstanceOf(RegExp);
    expect(literalNameRegex('a'.repeat(1_001), false)).toBeUndefined();
    // The adversarial run's command: `-F` of 12,303 `a`s ended with status 1 ("Invalid regular expression: ... Stack overflow").
    for (const fold of [false, true]) {
      const fs = asFs(buildVolume({ [`${'a'.repeat(200)}.txt`]: '', 'b.txt': '' }, '/r'));
      const result = await findFiles({ root: '/r', platform: 'posix', pattern: '*', nameRegex: 'a'.repeat(13_000), caseSensitive: !fold, fs });
      expect(result).toMatchObject({ matches: [], complete: true });
    }
  });
});
