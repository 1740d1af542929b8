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
});

describe('the limit', () => {
  const flavor = { platform: 'posix' as const, caseSensitive: true };
  const refusal = expect.objectContaining({ code: 'FF_PATTERN_TOO_LARGE', message: expect.stringContaining('10,000') });

  it('refuses a set past it, naming the count and the limit, instead of dropping alternatives', () => {
    expect(() => normalizePatternList('{1..100001}.tx[t]', flavor, 'pattern', false)).toThrow(refusal);
    expect(() => normalizePatternList('{a,b}'.repeat(17), flavor, 'pattern', false)).toThrow(expect.objectContaining({ message: expect.stringContaining('131,072') }));
    expect(() => normalizePatternList(`${'p'.repeat(240)}{1..20000}`, flavor, 'pattern', false)).toThrow(refusal);
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
