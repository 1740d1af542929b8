/**
 * The state-set matcher (src/glob/nfa.ts) against V8's regex over the same nodes: where the fast
 * path has source (src/glob/regex.ts), both must answer alike on generated names, both case
 * modes; then what only the state sets can do (extglobs, `!(...)`, hostile shapes) against
 * answers worked out by hand, and the undecoded-name question.
 */
import { describe, expect, it } from 'vitest';
import { compileNfa } from '../../src/glob/nfa.js';
import { parseSegment } from '../../src/glob/parse.js';
import { isLinearInV8, regexSource } from '../../src/glob/regex.js';
import { Rng } from '../conformance/generate.js';

const ALPHABET = ['a', 'b', 'A', 'é', 'É', 'k', 'K', '\u212A', 'ſ', 'S', '😀', '.', '-', ' ', '\n', 'ß', 'ǅ'];
const PIECES = ['a', 'b', 'A', 'é', 'k', 's', '😀', '.', '?', '*', '[ab]', '[!a]', '[a-z]', '[^é-ú]', '[A-Z]', '[😀]', '[]]', '[!]a]', '\\*', '\\[', '[z-a]'];

function randomName(rng: Rng, max: number): string {
  let name = '';
  const length = rng.range(0, max);
  for (let i = 0; i < length; i++) name += rng.pick(ALPHABET);
  return name;
}

function randomLinearGlob(rng: Rng): string {
  let glob = '';
  let stars = 0;
  const length = rng.range(1, 5);
  for (let i = 0; i < length; i++) {
    let piece = rng.pick(PIECES);
    if (piece === '*' && stars++ > 0) piece = '?';
    glob += piece;
  }
  return glob;
}

describe('the state-set matcher answers as the regex fast path does', () => {
  for (const caseSensitive of [true, false]) {
    it(`on 3,000 generated globs and names (${caseSensitive ? 'case-sensitive' : 'ignoring case'})`, () => {
      const rng = new Rng(caseSensitive ? 7 : 8);
      let compared = 0;
      for (let g = 0; g < 3000; g++) {
        const glob = randomLinearGlob(rng);
        const { nodes } = parseSegment(glob, true, glob);
        expect(isLinearInV8(nodes), glob).toBe(true);
        const re = new RegExp(`^${regexSource(nodes)}$`, caseSensitive ? '' : 'i');
        const nfa = compileNfa(nodes, caseSensitive);
        for (let n = 0; n < 8; n++) {
          const name = randomName(rng, 6);
          expect(nfa.matches(name), `${JSON.stringify(glob)} vs ${JSON.stringify(name)}`).toBe(re.test(name));
          compared++;
        }
      }
      expect(compared).toBe(24_000);
    });
  }
});

const nfa = (glob: string, caseSensitive = true) => compileNfa(parseSegment(glob, true, glob).nodes, caseSensitive);

describe('extglobs and !(...)', () => {
  const cases: [string, string, boolean][] = [
    ['+(a|aa)+(a|aa)x', 'aaaaax', true],
    ['+(a|aa)+(a|aa)x', 'ax', false],
    ['*(*(a))x', 'x', true],
    ['*(*(a))x', 'aaax', true],
    ['*(*(a))x', 'aabx', false],
    ['+(a*)x', 'abcx', true],
    ['+(a*)x', 'bx', false],
    ['?(a|b)c', 'c', true],
    ['?(a|b)c', 'abc', false],
    ['@(foo|bar).js', 'bar.js', true],
    ['!(a)', 'b', true],
    ['!(a)', 'a', false],
    ['!(a)', '', true],
    ['*.!(js)', 'a.ts', true],
    ['*.!(js)', 'a.js', false],
    // bash: some split leaves a head matching `*.` and a tail that is not `js`: `a.b.` + `js`? no, `a.` + `b.js` yes.
    ['*.!(js)', 'a.b.js', true],
    ['!(*.ts)', 'x.ts', false],
    ['!(*.ts)', 'x.tsx', true],
    ['+([[:digit:]]).txt', '123.txt', true],
    ['+([[:digit:]]).txt', '12a.txt', false],
  ];
  it.each(cases)('%j against %j is %s', (glob, name, expected) => {
    expect(nfa(glob).matches(name)).toBe(expected);
  });

  it('folds case as the regex does: ASCII both ways, never from non-ASCII to ASCII', () => {
    expect(nfa('+(ab)', false).matches('ABab')).toBe(true);
    expect(nfa('@(k)', false).matches('\u212A')).toBe(false);
    expect(nfa('@([a-z])', false).matches('Q')).toBe(true);
    expect(nfa('@(é)', false).matches('É')).toBe(true);
  });

  it('folds ASCII letters only, both ends of a-z, and never to the first half of a longer upper case', () => {
    // Checked against V8: /^z$/i matches Z; /^`$/i does not match @ (0x60 is not a letter).
    expect(nfa('@(z)', false).matches('Z')).toBe(true);
    expect(nfa('@(`)', false).matches('@')).toBe(false);
    // ŉ upper-cases to two characters (ʼN): it folds to itself, not to ʼ, as /^ŉ$/i does.
    expect(nfa('@(ŉ)', false).matches('ʼ')).toBe(false);
    expect(nfa('@(ŉ)', false).matches('ŉ')).toBe(true);
  });
});

describe('hostile shapes stay bounded', () => {
  // The issue's rows: each took tens of seconds or more with V8's backtracking. Here each is a
  // few thousand state steps; the count of what was answered is what this test asserts.
  const name = 'a'.repeat(250);
  for (const glob of ['*a*a*a*a*x', '*a*a*a*a*a*x', '+(a|aa)+(a|aa)x', '*(*(a))x', '+(a*)x', '*(a|aa)*(a|aa)*(a|aa)!(a)']) {
    it(`${glob} over 250 a's answers (no match)`, () => {
      expect(nfa(glob).matches(name)).toBe(glob.endsWith('!(a)'));
    });
  }
});

describe('nested extglobs compile to a program linear in the pattern', () => {
  // An adversary's `+(+(+(...a)))` 25 deep: `+(..)` compiled its alternatives twice, so the
  // program doubled at each level (a minute, then out of memory). A size, not a time: no clock.
  it('every operator nested up to the parser\'s 100 levels, alternatives beside, `!(...)` around: at most 3 states per pattern character', () => {
    const rng = new Rng(20261206);
    let deepest = 0;
    for (let g = 0; g < 300; g++) {
      let glob = rng.pick(['a', '?', '*', '[ab]', 'ab']);
      // Shallow first: a program that grows too fast fails here at a small depth, never hangs deeper on.
      const depth = 1 + Math.floor(g / 3);
      for (let d = 0; d < depth; d++) {
        const op = rng.pick(['+', '*', '?', '@', '+']);
        glob = `${op}(${glob}${rng.range(0, 3) === 0 ? `|${rng.pick(['a', 'b?', '*b'])}` : ''})`;
      }
      // `!(...)` is taken only at a segment's end, outside other groups: around the whole, at times.
      if (rng.range(0, 2) === 0) glob = `a!(${glob})`;
      const compiled = nfa(glob);
      expect(compiled.states, glob).toBeLessThanOrEqual(3 * glob.length);
      expect(typeof compiled.matches('a'.repeat(40))).toBe('boolean');
      deepest = Math.max(deepest, depth);
    }
    expect(deepest).toBe(100);
  });
});

describe('names that did not decode (U+FFFD): could some reading of their bytes match?', () => {
  it('a U+FFFD may be one to three bytes, each one character for ?', () => {
    // `\xe2\x82.txt` decodes to `\uFFFD.txt`; bash matches `??.txt` against its bytes.
    expect(nfa('??.txt').matches('\uFFFD.txt')).toBe(false);
    expect(nfa('??.txt').couldMatch('\uFFFD.txt')).toBe(true);
    expect(nfa('????.txt').couldMatch('\uFFFD.txt')).toBe(false);
    expect(nfa('a????b').couldMatch('a\uFFFD\uFFFDb')).toBe(true);
  });
  it('an unknown byte matches no literal, and every class', () => {
    expect(nfa('ab.txt').couldMatch('\uFFFD.txt')).toBe(false);
    expect(nfa('[[:alpha:]]?.txt').couldMatch('\uFFFD.txt')).toBe(true);
    expect(nfa('[!x]*').couldMatch('\uFFFD')).toBe(true);
  });
  it('another non-ASCII character of such a name may be its UTF-8 bytes', () => {
    // bash matches a name that is not valid UTF-8 byte by byte: `é` there is two characters.
    expect(nfa('???').couldMatch('é\uFFFD')).toBe(true);
    expect(nfa('é?').couldMatch('é\uFFFD')).toBe(true);
  });
});

describe("names that did not decode: glibc's reading, a run of four to six U+FFFD as one character", () => {
  // glibc decodes `\xf4\x90\x80\x80` (above U+10FFFF: 4 U+FFFD to Node), `\xf8` + 4 and `\xfc` + 5
  // (5 and 6 U+FFFD) as one character each, and bash's `?` takes it whole (adversary J, repro1).
  const fits = (run: number) => Array.from({ length: 3 * run + 2 }, (_, k) => k).filter((k) => k > 0 && nfa(`a_${'?'.repeat(k)}.t`).couldMatch(`a_${'\uFFFD'.repeat(run)}.t`));
  const range = (lo: number, hi: number) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
  it.each([
    // run, the counts of ? that could match: glibc's grouping, then the byte reading's 1 to 3 each.
    [1, range(1, 3)],
    [3, range(3, 9)],
    [4, [1, ...range(4, 12)]],
    [5, range(1, 15)],
    [6, range(1, 18)],
    [8, range(2, 24)],
  ])('a run of %i U+FFFD', (run, expected) => {
    expect(fits(run)).toEqual(expected);
  });
  it('the one character is unknown: every class and ?, never a literal, and the rest of the name still has to match', () => {
    const name = `b_${'\uFFFD'.repeat(4)}.t`;
    expect(nfa('b_[!x].t').couldMatch(name)).toBe(true);
    expect(nfa('b_@(?).t').couldMatch(name)).toBe(true);
    expect(nfa('b_[[:alpha:]].t').couldMatch(name)).toBe(true);
    expect(nfa('b_x.t').couldMatch(name)).toBe(false);
    expect(nfa('b_?.x').couldMatch(name)).toBe(false);
    expect(nfa('?').couldMatch('\uFFFD'.repeat(4))).toBe(true);
    expect(nfa('x?').couldMatch('x' + '\uFFFD'.repeat(6))).toBe(true);
    expect(nfa('x?').couldMatch('x' + '\uFFFD'.repeat(7))).toBe(false);
  });
  it('a long run stays bounded: one more step per U+FFFD, whatever the pattern', () => {
    // NAME_MAX is 255 bytes; 20,000 is far beyond, and each shape answers at once (a grouping tried by
    // backtracking would be exponential in the run: it would fail by the test's timeout, not a timed assertion).
    const run = '\uFFFD'.repeat(20_000);
    for (const glob of ['*a*a*a*a*x', '+(?|??)+(?|??)x', '*(*(?))x', '?'.repeat(50), '*?*?*?*?*?*?*?x']) expect(nfa(glob).couldMatch(run)).toBe(false);
    expect(nfa('*(?)').couldMatch(run)).toBe(true);
  });
});

describe('edges of the state sets (issue 28: each kills a mutant of src/glob/nfa.ts)', () => {
  it('!(...) compares the rest of the name in order, groups inside it too', () => {
    expect(nfa('!(ab)').matches('ab')).toBe(false);
    expect(nfa('!(ab)').matches('ba')).toBe(true);
    expect(nfa('!(@(ab))').matches('ab')).toBe(false);
    expect(nfa('!(@(ab))').matches('ba')).toBe(true);
  });

  it('@(a) is exactly one of its alternatives, not one or more', () => {
    expect(nfa('@(a)').matches('a')).toBe(true);
    expect(nfa('@(a)').matches('aa')).toBe(false);
  });

  it('a literal compares only against literals: a control character is no class by its number', () => {
    // U+0001 equals the index of [a] (classes are compiled last first): only a literal's argument is a character.
    expect(nfa('[a][b]').matches('\u0001b')).toBe(false);
    expect(nfa('[a][b]').matches('ab')).toBe(true);
  });

  it('a name beyond U+FFFF or at U+FFFF is one character for ?', () => {
    expect(nfa('?a').matches('\uFFFFa')).toBe(true);
    expect(nfa('?a').matches('\u{1F600}a')).toBe(true);
    expect(nfa('??a').matches('\u{1F600}a')).toBe(false);
  });
});

describe('names that did not decode: how many bytes each other character may be', () => {
  // `c\uFFFD` against m `?`s: the U+FFFD is one to three bytes, c is itself or its UTF-8 length.
  const widest = (c: string) => {
    let m = 0;
    for (let k = 1; k <= 8; k++) if (nfa('?'.repeat(k)).couldMatch(`${c}\uFFFD`)) m = k;
    return m;
  };
  it.each([
    ['U+0080', '\u0080', 5],
    ['U+07FF', '\u07FF', 5],
    ['U+0800', '\u0800', 6],
    ['U+FFFF', '\uFFFF', 6],
    ['U+10000', '\u{10000}', 7],
  ])('%s is at most its UTF-8 length in bytes', (_, c, m) => {
    expect(widest(c)).toBe(m);
  });
  it('an ASCII character of such a name is only itself', () => {
    expect(widest('a')).toBe(4);
  });
  it('a character beyond U+FFFF is one position: the U+FFFD after it keeps its one to three bytes', () => {
    // 😀 is itself (1) or 4 bytes; the U+FFFD 1, 2 or 3: every sum from 2 to 7. Read as two
    // UTF-16 units, the U+FFFD would take the second unit's reading and lose its 2 (no 3 or 6).
    const fits = [1, 2, 3, 4, 5, 6, 7, 8].filter((k) => nfa('?'.repeat(k)).couldMatch('\u{1F600}\uFFFD'));
    expect(fits).toEqual([2, 3, 4, 5, 6, 7]);
  });
  it('a two-byte character is two unknown bytes, never one', () => {
    // As one byte, [!é] would take it and ? the U+FFFD.
    expect(nfa('[!é]?').couldMatch('é\uFFFD')).toBe(false);
    expect(nfa('[!é]??').couldMatch('é\uFFFD')).toBe(true);
  });
  it('!(...) cannot be judged on unknown bytes: it may match', () => {
    expect(nfa('*.!(js)').couldMatch('a\uFFFD.js')).toBe(true);
    expect(nfa('!(a)').couldMatch('\uFFFD')).toBe(true);
  });
});
