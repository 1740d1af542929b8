/**
 * Brace expansion (src/glob/braces.ts) against bash's own, on generated brace syntax; then the
 * limit: a pattern past it is refused before any I/O with FF_PATTERN_TOO_LARGE, never cut short.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFiles, findFilesSync } from '../../src/index.js';
import { expandBraces, MAX_BRACE_ALTERNATIVES, MAX_BRACE_CHARACTERS, MAX_BRACE_NESTING } from '../../src/glob/braces.js';
import { MAX_PATTERN_LENGTH, normalizePatternList } from '../../src/patterns.js';
import { Rng } from '../conformance/generate.js';
import { bashBraceExpand, bashSync } from '../conformance/oracles.js';
import { onWindows, posixOnly } from '../helpers/skip-why.js';

const TOKENS = ['{', '}', ',', 'a', 'b', '1', '2', '9', '..', '-', '0', 'x', '{1..3}', '{a,b}', '{01..10..3}', '{c..a}', '\\{', '\\,'];

function generate(count: number): string[] {
  const rng = new Rng(20261204);
  const out = new Set<string>();
  while (out.size < count) {
    let text = '';
    const length = rng.range(1, 9);
    for (let i = 0; i < length; i++) text += rng.pick(TOKENS);
    out.add(text);
  }
  return [...out];
}

/** The first ten patterns whose expansion differs from bash's own (one bash process for them all). */
function differencesFromBash(patterns: readonly string[]): string[] {
  const bash = bashBraceExpand(patterns);
  const differ: string[] = [];
  patterns.forEach((p, i) => {
    const ours = expandBraces(p, true, 'pattern', p);
    // printf runs its format once when every word expanded to nothing: bash's `[""]` is no word.
    const words = bash[i]!.length === 1 && bash[i]![0] === '' ? [] : bash[i];
    if (JSON.stringify(ours) !== JSON.stringify(words)) differ.push(`${JSON.stringify(p)}: ours ${JSON.stringify(ours)}, bash ${JSON.stringify(words)}`);
  });
  return differ.slice(0, 10);
}

describe.skipIf(onWindows)(posixOnly('brace expansion is bash\'s', 'bash is the oracle'), () => {
  it('on 2,000 generated patterns (bash 5, one process)', () => {
    expect(differencesFromBash(generate(2000))).toEqual([]);
  });

  it('on sequences the generated ones rarely draw: padding from either end, negatives, steps, 3 digits', () => {
    const patterns = ['{1..100..33}', '{1..05}', '{1..010}', '{-05..05..5}', '{-2..2}', '{-1..1}', '{3..-03}', '{100..98}', 'a{1..2}{-1..0}'];
    const bash = bashBraceExpand(patterns);
    expect(patterns.map((p) => expandBraces(p, true, 'pattern', p))).toEqual(bash);
  });
});

// bash reads a sequence's ends and step as 64-bit integers (intmax_t); find-file read at most 15
// digits and left `x{0000000000000001..0000000000000002}` or `id-{1234567890123456..1234567890123457}`
// as literal text (complete, no match). Two bash 5.2 quirks are not drawn: a zero-padded value is
// printed through a C `int` (`{09999999999999998..09999999999999999}` gives `00000001874919422` ...:
// find-file writes the number), and a step of -2^63 is kept or refused by the ends' order.
describe.skipIf(onWindows)(posixOnly('sequences with long numbers, as bash expands them', 'bash is the oracle'), () => {
  const ANCHORS = [2n ** 53n - 2n, 2n ** 63n - 4n, 2n ** 63n - 1n, 2n ** 63n, 10n ** 15n, 10n ** 16n - 2n, 10n ** 19n, 123456789012345678n, 2n ** 31n - 3n, 7n];
  const STEPS = ['', '', '..1', '..2', '..-3', `..${2n ** 63n - 1n}`, `..-${2n ** 63n - 1n}`, `..${2n ** 63n}`, `..-${2n ** 63n + 1n}`, '..99999999999999999999'];

  /** An integer as written: a sign when negative, and zeros in front now and then (below 2^31: see above). */
  function spell(rng: Rng, value: bigint, pad: boolean): string {
    const digits = String(value < 0n ? -value : value);
    const padded = pad ? '0'.repeat(rng.range(1, 6)) + digits : digits;
    return value < 0n ? `-${padded}` : padded;
  }

  it('on 400 generated sequences of 1 to 26 digits, near 2^31, 2^53, 2^63 and past them, with every step (bash 5, one process)', () => {
    const rng = new Rng(20261207);
    const patterns = new Set<string>();
    while (patterns.size < 400) {
      const sign = rng.chance(0.3) ? -1n : 1n;
      const from = sign * (rng.pick(ANCHORS) + BigInt(rng.range(0, 3)));
      // A short span only: bash would really expand a long one.
      const to = from + BigInt(rng.range(-3, 3));
      const small = (v: bigint) => v < 2n ** 31n - 1n && v > -(2n ** 31n);
      const pad = small(from) && small(to) && rng.chance(0.4);
      const letters = rng.chance(0.15);
      const body = letters ? `${rng.pick(['a', 'c', 'z'])}..${rng.pick(['a', 'e', 'x'])}` : `${spell(rng, from, pad)}..${spell(rng, to, pad && rng.chance(0.5))}`;
      patterns.add(`x{${body}${rng.pick(STEPS)}}y`);
    }
    expect(differencesFromBash([...patterns])).toEqual([]);
    expect(expandBraces('x{09999999999999998..09999999999999999}', true, 'pattern', '')).toEqual(['x09999999999999998', 'x09999999999999999']);
  });
});

// An escaped `$` is a plain character: the set after it expands (only an unescaped `$` makes `${`
// a parameter expansion). It was refused as `${`, and a search for `\${a,b}` said "no match, complete".
describe.skipIf(onWindows)(posixOnly('a set after an escaped `$` expands, as in bash', 'bash is the oracle'), () => {
  // The oracle writes `\$` single-quoted ('\$'), which bash reads as a plain `$` too.
  const DOLLAR_TOKENS = ['\\$', '\\$', '\\\\', '{a,b}', '{a..c}', '{', '}', ',', 'a', 'x', '\\{', '{x,{a,b}}'];

  it('on 1,000 generated patterns around `\\$` (bash 5, one process)', () => {
    const rng = new Rng(20261206);
    const patterns = new Set<string>();
    while (patterns.size < 1000) {
      let text = '';
      for (let i = rng.range(1, 6); i > 0; i--) text += rng.pick(DOLLAR_TOKENS);
      if (text.includes('\\${')) patterns.add(text);
    }
    expect(differencesFromBash([...patterns])).toEqual([]);
  });

  it('finds the files bash globs, sync and async, on a tree of `$` names', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ff-braces-dollar-'));
    try {
      const names = ['$a', '$b', '$c', '$ab', 'x$a', 'x$b', 'a', 'b', 'xa', '$', 'x$'];
      for (const name of names) writeFileSync(join(root, name), '');
      const patterns: string[] = [];
      for (const head of ['', 'x', '?', '*']) {
        for (const body of ['{a,b}', '{a..c}', '{a,{b,c}}', '{a,b}{,b}', '{,a}', '{a,b}*']) patterns.push(`${head}\\$${body}`);
      }
      // Every `$` is escaped, so the pattern can be written into the script as it is.
      const script = ['shopt -s globstar extglob dotglob nullglob', ...patterns.map((p) => `printf 'W%s\\0' ${p}; printf '\\0'`)].join('\n');
      const run = bashSync(['--norc', '--noprofile', '-s'], script + '\n', { cwd: root });
      expect(run.status).toBe(0);
      const groups: string[][] = [[]];
      for (const item of run.stdout.toString('utf8').split('\0').slice(0, -1)) {
        if (item === '') groups.push([]);
        else if (item !== 'W') groups.at(-1)!.push(item.slice(1));
      }
      const differ: string[] = [];
      for (const [i, pattern] of patterns.entries()) {
        // A word with no wildcard is printed whether or not it names a file: only files count.
        const theirs = [...new Set(groups[i])].filter((name) => names.includes(name)).sort();
        const sync = findFilesSync({ root, pattern });
        const async = await findFiles({ root, pattern });
        expect(sync.complete && async.complete).toBe(true);
        if (JSON.stringify(sync.matches) !== JSON.stringify(theirs)) differ.push(`sync ${pattern}: ours ${JSON.stringify(sync.matches)}, bash ${JSON.stringify(theirs)}`);
        if (JSON.stringify(async.matches) !== JSON.stringify(theirs)) differ.push(`async ${pattern}: ours ${JSON.stringify(async.matches)}, bash ${JSON.stringify(theirs)}`);
      }
      expect(differ).toEqual([]);
      expect(groups.flat().length).toBeGreaterThan(patterns.length); // the family finds files, not only absences
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('what bash leaves alone or drops (checked by hand in bash 5: the oracle quotes `$` and a backquote)', () => {
  it('`${` starts no set, and a set inside it is part of it', () => {
    expect(expandBraces('${x{a,b}}', true, 'pattern', 'p')).toEqual(['${x{a,b}}']);
    expect(expandBraces('${x}{a,b}', true, 'pattern', 'p')).toEqual(['${x}a', '${x}b']);
    expect(expandBraces('${a,b}c{d,e}', true, 'pattern', 'p')).toEqual(['${a,b}cd', '${a,b}ce']);
    // Only an unescaped `$` blocks: `\\$` is an escaped backslash, then a `$` of its own (bash: `\\${a,b}` is `\`).
    expect(expandBraces('\\\\${a,b}', true, 'pattern', 'p')).toEqual(['\\\\${a,b}']);
    expect(expandBraces('\\$${a,b}', true, 'pattern', 'p')).toEqual(['\\$${a,b}']);
    expect(expandBraces('$\\{a,b}', true, 'pattern', 'p')).toEqual(['$\\{a,b}']);
    // A backslash is no escape on Windows: there `\\` is a separator and the `$` still blocks.
    expect(expandBraces('x\\${a,b}', false, 'pattern', 'p')).toEqual(['x\\${a,b}']);
  });

  it('a letter sequence through `\\` gives nothing for it (bash: `x{Z..a}` is xZ x[ x x] ...): no glob escaping what follows', () => {
    expect(expandBraces('x{Z..a}', true, 'pattern', 'p')).toEqual(['xZ', 'x[', 'x', 'x]', 'x^', 'x_', 'x`', 'xa']);
  });
});

describe('the limit', () => {
  const flavor = { platform: 'posix' as const, caseSensitive: true };
  const refusal = expect.objectContaining({ code: 'FF_PATTERN_TOO_LARGE', message: expect.stringContaining('10,000') });

  it('refuses a set past it, naming the count and the limit, instead of dropping alternatives', () => {
    expect(() => normalizePatternList('{1..100001}.tx[t]', flavor, 'pattern', false)).toThrow(refusal);
    expect(() => normalizePatternList('{a,b}'.repeat(17), flavor, 'pattern', false)).toThrow(expect.objectContaining({ message: expect.stringContaining('131,072') }));
    expect(() => normalizePatternList(`${'p'.repeat(240)}{1..20000}`, flavor, 'pattern', false)).toThrow(refusal);
  });

  it('says what was refused in words: the pattern (cut past 80 characters), the count, the limit, the advice', () => {
    const message = (run: () => unknown) => {
      try {
        run();
      } catch (e) {
        return (e as Error).message;
      }
      return 'no refusal';
    };
    const eighty = `${'p'.repeat(70)}{1..20000}`;
    expect(eighty).toHaveLength(80);
    expect(message(() => expandBraces(eighty, true, 'pattern', eighty))).toBe(
      `pattern "${eighty}" expands to 20,000 alternatives, over the limit of 10,000: use a shorter range or a glob (e.g. "[0-9]*" for "{1..100000}")`,
    );
    const longer = `q${eighty}`;
    expect(message(() => expandBraces(longer, true, 'pattern', longer))).toContain(`pattern "${longer.slice(0, 77)}..." expands to 20,000 alternatives`);
    const exactly = '{1..1000}'.repeat(5);
    expect(message(() => expandBraces(exactly, true, 'pattern', 'x'))).toContain('expands to 1,000,000,000,000,000 alternatives');
    expect(message(() => expandBraces(exactly + '{1..2}', true, 'pattern', 'x'))).toContain('expands to more than 10^15 alternatives');
    expect(message(() => expandBraces('{1..20}', true, 'pattern[1]', 'x', { alternatives: 10, characters: MAX_BRACE_CHARACTERS }))).toBe(
      'pattern[1] "x" expands to 20 alternatives, over the limit of 10,000 for all patterns together: use a shorter range or a glob (e.g. "[0-9]*" for "{1..100000}")',
    );
  });

  it('counts without expanding: a set of 10^20 alternatives is refused at once', () => {
    expect(() => expandBraces('{1..999999999999999}'.repeat(2), true, 'pattern', 'x')).toThrow(expect.objectContaining({ code: 'FF_PATTERN_TOO_LARGE' }));
  });

  it('keeps every alternative up to it, and holds for a list of patterns together', () => {
    const all = normalizePatternList(`{1..${MAX_BRACE_ALTERNATIVES}}.txt`, flavor, 'pattern', false);
    expect(all).toHaveLength(MAX_BRACE_ALTERNATIVES);
    expect(all[MAX_BRACE_ALTERNATIVES - 1]).toBe(`${MAX_BRACE_ALTERNATIVES}.txt`);
    expect(() => normalizePatternList(['{1..6000}.a', '{1..6000}.b'], flavor, 'pattern', false)).toThrow(expect.objectContaining({ code: 'FF_PATTERN_TOO_LARGE', option: 'pattern[1]' }));
  });

  it('refuses before any I/O: the root is never read', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ff-braces-'));
    try {
      writeFileSync(join(root, '99999.txt'), '');
      writeFileSync(join(root, '100001.txt'), '');
      let reads = 0;
      const fs = await import('node:fs');
      const counting = { ...fs, readdir: (...args: Parameters<typeof fs.readdir>) => (reads++, fs.readdir(...args)) } as unknown as typeof fs;
      await expect(findFiles({ root, pattern: '{1..100001}.tx[t]', fs: counting })).rejects.toThrow(refusal);
      expect(reads).toBe(0);
      // Within the limit, every alternative is there: the last one too.
      expect((await findFiles({ root, pattern: '{99990..100001}.tx[t]' })).matches).toEqual(['100001.txt', '99999.txt']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

// Sets nested about 1,600 deep (a pattern within the length limit) overflowed the stack: a bare
// RangeError from findFilesSync and findFiles, where the contract promises FindFileError only.
describe('sets nested deeper than MAX_BRACE_NESTING are refused, never a stack overflow', () => {
  const TREE = ['a', 'b', 'a1', 'a2', 'c', 'xxb', 'xxx', 'xxxxb'];
  // Each shape nests `depth` sets; `matches`: what it finds in TREE when within the limit.
  const SHAPES = [
    { name: 'nested last', make: (d: number) => '{a,'.repeat(d) + 'b' + '}'.repeat(d), matches: () => ['a', 'b'] },
    { name: 'nested first', make: (d: number) => '{'.repeat(d) + 'b' + ',a}'.repeat(d), matches: () => ['a', 'b'] },
    { name: 'with sequences', make: (d: number) => '{a{1..2},'.repeat(d) + 'b' + '}'.repeat(d), matches: () => ['a1', 'a2', 'b'] },
    // `x{x{b,},}` (depth 2) is `xxb xx x` in bash: x^k for k in 1..d, and x^d b.
    { name: 'after text', make: (d: number) => 'x{'.repeat(d) + 'b' + ',}'.repeat(d), matches: (d: number) => TREE.filter((n) => /^x+$/.test(n) ? n.length <= d : n === 'x'.repeat(d) + 'b').sort() },
  ];
  const DEPTHS = [1, 2, 3, 7, 50, MAX_BRACE_NESTING - 1, MAX_BRACE_NESTING, MAX_BRACE_NESTING + 1, MAX_BRACE_NESTING + 2];
  for (let d = 150; d <= 3000; d += 97) DEPTHS.push(d);
  DEPTHS.push(1599, 1600, 1601, 2399, 2400, 2499, 2500, 3000);

  it(`${SHAPES.length} shapes at ${DEPTHS.length} depths from 1 to 3,000: matched up to the limit, refused past it (sync and async)`, async () => {
    const root = mkdtempSync(join(tmpdir(), 'ff-braces-deep-'));
    try {
      for (const name of TREE) writeFileSync(join(root, name), '');
      const wrong: string[] = [];
      for (const shape of SHAPES) {
        for (const depth of DEPTHS) {
          const pattern = shape.make(depth);
          const tooLong = pattern.length > MAX_PATTERN_LENGTH;
          const why = tooLong ? `over the limit of ${MAX_PATTERN_LENGTH.toLocaleString('en-US')}` : `brace sets nested more than ${MAX_BRACE_NESTING} deep`;
          const answers: [string, () => Promise<unknown>][] = [
            ['sync', async () => findFilesSync({ root, pattern }).matches],
            ['async', async () => (await findFiles({ root, pattern })).matches],
          ];
          for (const [flavour, run] of answers) {
            const seen = await run().then(
              (matches) => JSON.stringify(matches),
              (e: unknown) => `${(e as { code?: string }).code ?? (e as Error).name}: ${(e as Error).message.slice(-60)}`,
            );
            const expected = depth <= MAX_BRACE_NESTING ? JSON.stringify(shape.matches(depth)) : `FF_PATTERN_TOO_LARGE: ${why}`;
            const ok = depth <= MAX_BRACE_NESTING ? seen === expected : seen.startsWith('FF_PATTERN_TOO_LARGE') && seen.includes(why);
            if (!ok) wrong.push(`${shape.name} ${depth} ${flavour}: ${seen}, expected ${expected}`);
          }
        }
      }
      expect(wrong.slice(0, 10)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('names the pattern (cut) and the limit, and counts only sets: literal braces and sibling sets nest nothing', () => {
    const deep = '{a,'.repeat(MAX_BRACE_NESTING + 1) + 'b' + '}'.repeat(MAX_BRACE_NESTING + 1);
    expect(() => expandBraces(deep, true, 'exclude[2]', deep)).toThrow(
      expect.objectContaining({ code: 'FF_PATTERN_TOO_LARGE', option: 'exclude[2]', message: `exclude[2] "${deep.slice(0, 77)}...": brace sets nested more than 100 deep` }),
    );
    const literal = '{'.repeat(2000) + 'a' + '}'.repeat(2000);
    expect(expandBraces(literal, true, 'pattern', 'p')).toEqual([literal]);
    expect(expandBraces('{a,b}'.repeat(13), true, 'pattern', 'p')).toHaveLength(2 ** 13);
  });
});


describe('where `\\` escapes nothing (win32), `[{]`, `[}]` and `[,]` are literal to brace expansion too', () => {
  // bash, which has `\`, expands `[{]a,b[}]` into `[]a]` and `[b[]`: kept off win32 (the generated
  // families above), and the one way to name a file `{a,b}` on win32.
  it.each([
    ['[{]a,b[}]', ['[{]a,b[}]']],
    ['x[{]1..3[}]', ['x[{]1..3[}]']],
    ['{a,[,]}', ['a', '[,]']],
    ['{p,q}[{]a[,]b[}]', ['p[{]a[,]b[}]', 'q[{]a[,]b[}]']],
    ['[{]{a,b}', ['[{]a', '[{]b']],
  ])('%j expands to %j without escapes', (pattern, expected) => {
    expect(expandBraces(pattern, false, 'pattern', pattern)).toEqual(expected);
  });

  it('as bash with escapes (posix)', () => {
    expect(expandBraces('[{]a,b[}]', true, 'pattern', '[{]a,b[}]')).toEqual(['[]a]', '[b[]']);
  });
});
