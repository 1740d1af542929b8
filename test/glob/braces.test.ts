/**
 * Brace expansion (src/glob/braces.ts) against bash's own, on generated brace syntax; then the
 * limit: a pattern past it is refused before any I/O with FF_PATTERN_TOO_LARGE, never cut short.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFiles } from '../../src/index.js';
import { expandBraces, MAX_BRACE_ALTERNATIVES } from '../../src/glob/braces.js';
import { normalizePatternList } from '../../src/patterns.js';
import { Rng } from '../conformance/generate.js';
import { bashBraceExpand } from '../conformance/oracles.js';
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

describe.skipIf(onWindows)(posixOnly('brace expansion is bash\'s', 'bash is the oracle'), () => {
  it('on 2,000 generated patterns (bash 5, one process)', () => {
    const patterns = generate(2000);
    const bash = bashBraceExpand(patterns);
    const differ: string[] = [];
    patterns.forEach((p, i) => {
      const ours = expandBraces(p, true, 'pattern', p);
      // printf runs its format once when every word expanded to nothing: bash's `[""]` is no word.
      const words = bash[i]!.length === 1 && bash[i]![0] === '' ? [] : bash[i];
      if (JSON.stringify(ours) !== JSON.stringify(words)) differ.push(`${JSON.stringify(p)}: ours ${JSON.stringify(ours)}, bash ${JSON.stringify(words)}`);
    });
    expect(differ.slice(0, 10)).toEqual([]);
  });

  it('on sequences the generated ones rarely draw: padding from either end, negatives, steps, 3 digits', () => {
    const patterns = ['{1..100..33}', '{1..05}', '{1..010}', '{-05..05..5}', '{-2..2}', '{-1..1}', '{3..-03}', '{100..98}', 'a{1..2}{-1..0}'];
    const bash = bashBraceExpand(patterns);
    expect(patterns.map((p) => expandBraces(p, true, 'pattern', p))).toEqual(bash);
  });
});

describe('what bash leaves alone or drops (checked by hand in bash 5: the oracle quotes `$` and a backquote)', () => {
  it('`${` starts no set, and a set inside it is part of it', () => {
    expect(expandBraces('${x{a,b}}', true, 'pattern', 'p')).toEqual(['${x{a,b}}']);
    expect(expandBraces('${x}{a,b}', true, 'pattern', 'p')).toEqual(['${x}a', '${x}b']);
    expect(expandBraces('${a,b}c{d,e}', true, 'pattern', 'p')).toEqual(['${a,b}cd', '${a,b}ce']);
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
    expect(message(() => expandBraces('{1..20}', true, 'pattern[1]', 'x', 10))).toBe(
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
