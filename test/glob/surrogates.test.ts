/**
 * Code points, not UTF-16 units, on the regex fast path (src/glob/regex.ts): a BMP set spanning
 * U+D800-U+DFFF (`[ぁ-ﾟ]`) took the first half of `😀` as a member, and a `*` stopped between the
 * halves of a pair, so `[!ぁ-ﾟ]` missed `😀`, `[ぁ-ﾟ]?` matched it and `*[!😀]` matched `a😀` (an
 * adversary's find: bash 5 in C.UTF-8 and the state-set matcher agreed against it).
 *
 * A generated family of linear segments (at most one `*`) over such sets, astral characters
 * (U+10000, 😀, U+10FFFF) and the characters at the edges of the surrogate block (U+D7FF,
 * U+E000, U+FFFF), each matched against generated names: the regex source alone, the merged
 * set a search compiles (which also answers `*x` by `endsWith`), and the state sets must agree,
 * both case modes, names with lone surrogates too (an injected fs can hold them); and bash must
 * agree on the names a disk can hold, asked as `[[ $name == $pattern ]]`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compileNfa } from '../../src/glob/nfa.js';
import { parseSegment } from '../../src/glob/parse.js';
import { isLinearInV8, regexSource } from '../../src/glob/regex.js';
import { buildMatcher } from '../../src/patterns.js';
import { Rng } from '../conformance/generate.js';
import { bashMatchPairs, bashVersion } from '../conformance/oracles.js';
import { onWindows, posixOnly } from '../helpers/skip-why.js';

const EDGES = ['\uD7FF', '\uE000', '\uFFFF'];
const ASTRAL = ['😀', '\u{10000}', '\u{10FFFF}'];
/** Names hold these: plain, wide (`ｚ` is U+FF5A, inside `[ぁ-ﾟ]`), astral, the edges of the surrogate block. */
const NAME_CHARS = ['a', 'b', '.', 'ぁ', 'ｚ', ...EDGES, ...ASTRAL];
/** Only where no disk name can go: the regex and the state sets must still agree. */
const LONE = ['\uD83D', '\uDE00', '\uDBFF', '\uDC00'];

const PIECES = [
  'a', '.', '?', '?', '*', 'ｚ', ...EDGES, ...ASTRAL,
  // BMP ranges spanning the surrogate block, plain and negated, and ranges ending at its edges
  '[ぁ-ﾟ]', '[!ぁ-ﾟ]', '[^ぁ-ﾟ]', '[\uD7FF-\uE000]', '[!\uD7FF-\uE000]', '[a-\uFFFF]', '[!a-\uFFFF]', '[\uE000-\uFFFF]', '[!\u0100-\uD7FF]',
  // astral single members, alone and beside BMP ones
  '[😀]', '[!😀]', '[a😀]', '[!a😀]', '[\u{10000}\u{10FFFF}]', '[!\u{10FFFF}]', '[ぁ-ﾟ😀]', '[!ぁ-ﾟ\u{10000}]',
];
/** Pieces a pattern given through the API can hold, never a disk name: lone halves. */
const LONE_PIECES = [...LONE, '[\uD83D]', '[!\uDE00]', '[\uDC00-\uDFFF]'];

function randomGlob(rng: Rng, pieces: readonly string[]): string {
  let glob = '';
  let star = false;
  for (let i = rng.range(1, 4); i > 0; i--) {
    let piece = rng.pick(pieces);
    if (piece === '*' && star) piece = '?';
    star ||= piece === '*';
    glob += piece;
  }
  return glob;
}

const randomName = (rng: Rng, chars: readonly string[]) => Array.from({ length: rng.range(0, 4) }, () => rng.pick(chars)).join('');

interface Pair {
  glob: string;
  name: string;
}

function generatePairs(seed: number, pieces: readonly string[], chars: readonly string[], globs: number): Pair[] {
  const rng = new Rng(seed);
  const pairs: Pair[] = [];
  for (let g = 0; g < globs; g++) {
    const glob = randomGlob(rng, pieces);
    for (let n = 0; n < 10; n++) pairs.push({ glob, name: randomName(rng, chars) });
  }
  return pairs;
}

const nodesOf = (glob: string) => parseSegment(glob, true, glob).nodes;
const flags = (caseSensitive: boolean) => (caseSensitive ? '' : 'i');

/** The three compiled forms of one segment: the state sets, the regex source alone, the merged set a search compiles. */
interface Compiled {
  nfa: (name: string) => boolean;
  regex: RegExp;
  set: (name: string) => boolean;
}

/**
 * Each way the fast path answers, and the state sets' answer, for every pair; the pairs where any
 * differ. Perf: each glob compiled once for its names (10 a glob; compiling per pair, with an
 * `expect` each, was most of this file's CPU), so a matcher also answers name after name.
 */
function differences(pairs: readonly Pair[], caseSensitive: boolean): string[] {
  const differ: string[] = [];
  const flavor = { platform: 'posix' as const, caseSensitive };
  const compiled = new Map<string, Compiled>();
  const compile = (glob: string): Compiled => {
    const nodes = nodesOf(glob);
    expect(isLinearInV8(nodes), glob).toBe(true);
    const nfa = compileNfa(nodes, caseSensitive);
    const set = buildMatcher([glob], flavor);
    return { nfa: (name) => nfa.matches(name), regex: new RegExp(`^${regexSource(nodes)}$`, flags(caseSensitive)), set: (name) => set.matches(name, name) };
  };
  for (const { glob, name } of pairs) {
    let forms = compiled.get(glob);
    if (forms === undefined) compiled.set(glob, (forms = compile(glob)));
    const nfa = forms.nfa(name);
    const regex = forms.regex.test(name);
    const set = forms.set(name);
    if (regex !== nfa || set !== nfa) differ.push(`${JSON.stringify(glob)} on ${JSON.stringify(name)}: nfa ${nfa}, regex ${regex}, set ${set}`);
  }
  return differ;
}

describe('the regex fast path answers by code point, as the state sets do', () => {
  for (const caseSensitive of [true, false]) {
    const mode = caseSensitive ? 'case-sensitive' : 'ignoring case';
    it(`on 2,000 generated segments x 10 names a disk can hold (${mode})`, () => {
      const pairs = generatePairs(caseSensitive ? 11 : 12, PIECES, NAME_CHARS, 2000);
      expect(differences(pairs, caseSensitive).slice(0, 10)).toEqual([]);
    });

    it(`on 1,000 segments x 10 names with lone surrogates, in the names and the patterns (${mode})`, () => {
      const pairs = generatePairs(caseSensitive ? 13 : 14, [...PIECES, ...LONE_PIECES], [...NAME_CHARS, ...LONE], 1000);
      expect(differences(pairs, caseSensitive).slice(0, 10)).toEqual([]);
    });
  }

  // Drawn too rarely above: a `*` then a lone second half is a suffix compare (`endsWith`), and a lone
  // first half is a literal that a pair's first half must not pass.
  it.each([
    ['*\uDE00', ['\uDE00', 'a\uDE00']],
    ['a*\uDE00', ['a\uDE00']],
    ['a\uD83D*', ['a\uD83D', 'a\uD83Dx']],
    ['?\uDE00', ['a\uDE00']],
  ])('the lone half in %j is a code point of its own', (glob, expected) => {
    const names = ['😀', 'a😀', '\uDE00', 'a\uDE00', 'a\uD83D', 'a\uD83Dx', 'x'];
    for (const caseSensitive of [true, false]) {
      const matcher = buildMatcher([glob], { platform: 'posix', caseSensitive });
      expect(names.filter((n) => matcher.matches(n, n))).toEqual(expected);
      expect(differences(names.map((name) => ({ glob, name })), caseSensitive)).toEqual([]);
    }
  });

  it('draws the shapes it is about', () => {
    const globs = new Set(generatePairs(11, PIECES, NAME_CHARS, 2000).map((p) => p.glob));
    const has = (re: RegExp) => [...globs].some((g) => re.test(g));
    expect(has(/\*\[!ぁ-ﾟ\]/u), 'a star then a negated set spanning the block').toBe(true);
    expect(has(/\[ぁ-ﾟ\]\?/u), 'a set spanning the block then ?').toBe(true);
    expect(has(/\*\[!😀\]/u), 'a star then a negated astral set').toBe(true);
    expect(has(/\*\?/u), 'a star then ?').toBe(true);
  });
});

// The adversary's rows (repro-surrogate-range.mjs), with bash 5's answers over the same names.
describe("the adversary's rows, as bash answered", () => {
  const names = ['😀', 'a😀', 'x😀', 'x.txt', 'ｚ', 'ab'];
  const rows: [string, string[]][] = [
    ['[!ぁ-ﾟ]', ['😀']],
    ['a[!ぁ-ﾟ]', ['a😀', 'ab']],
    ['*[^ぁ-ﾟ]', ['😀', 'a😀', 'x😀', 'x.txt', 'ab']],
    ['[ぁ-ﾟ]?', []],
    ['a[ぁ-ﾟ]?', []],
    ['*[ぁ-ﾟ]?', []],
    ['*[!😀]', ['x.txt', 'ｚ', 'ab']],
    ['x*[!😀]', ['x.txt']],
  ];
  it.each(rows)('%j', (glob, expected) => {
    const matcher = buildMatcher([glob], { platform: 'posix', caseSensitive: true });
    expect(names.filter((n) => matcher.matches(n, n))).toEqual(expected);
  });
});

const bash = bashVersion();

describe.skipIf(onWindows)(posixOnly('bash 5 in C.UTF-8 is the oracle for names a disk can hold', 'bash is the oracle'), () => {
  const pairs = generatePairs(15, PIECES, NAME_CHARS, 2000);
  let matched: Set<number>;
  let read = -1;
  beforeAll(async () => {
    expect(bash, 'bash 4+ is on PATH').toBeDefined();
    ({ matched, read } = await bashMatchPairs(pairs.map((p) => ({ pattern: p.glob, name: p.name })), true, 'surrogate pairs'));
  }, 60_000);

  it('2,000 generated segments x 10 names: find-file answers as bash', () => {
    expect(read).toBe(pairs.length);
    const flavor = { platform: 'posix' as const, caseSensitive: true };
    // One matcher a glob (10 names each), as above.
    const matchers = new Map<string, ReturnType<typeof buildMatcher>>();
    const matcherOf = (glob: string) => matchers.get(glob) ?? matchers.set(glob, buildMatcher([glob], flavor)).get(glob)!;
    const differ = pairs
      .map((p, i) => ({ ...p, bash: matched.has(i), ours: matcherOf(p.glob).matches(p.name, p.name) }))
      .filter((p) => p.bash !== p.ours)
      .map((p) => `${JSON.stringify(p.glob)} on ${JSON.stringify(p.name)}: bash ${p.bash}, find-file ${p.ours}`);
    expect(differ.slice(0, 10), `${differ.length} of ${pairs.length} differ`).toEqual([]);
    expect(matched.size, 'bash matched some').toBeGreaterThan(1000);
  });
});
