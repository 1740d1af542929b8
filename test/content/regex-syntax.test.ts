/**
 * The two rules read from a regex's syntax (src/regex-syntax.ts), on every backend:
 *
 * - a line feed however written turns on multi-line search (`rg -U`'s meaning): never a complete
 *   miss over `foo⏎bar`; a class that only happens to hold a line feed stays within a line, as rg;
 * - smart case reads literal characters only, as `rg -S` does: checked by hand for the issue's
 *   cases and against the real `rg -S` on generated regexes over a small corpus.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRegexSyntax } from '../../src/regex-syntax.js';
import { readQuery } from '../../src/content/query.js';
import { searchContent, type ContentOptions } from '../../src/index.js';
import { pool } from '../helpers/pool.js';
import { hasRg, needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { itIf } from '../helpers/skip-why.js';
import { mulberry32 } from '../helpers/prng.js';

requireRipgrepInCi();

let root: string;
const CORPUS = [
  'foo', 'FOO', 'Foo', 'xine', 'XINE', 'xINE', 'abc', 'ABC', 'Abc', 'aBc', 'a.b', 'A.B', 'name x', 'Name X', 'NAME',
  'foo bar', 'FOO BAR', 'b1', 'B1', 'q z', 'Q Z', 'ab', 'AB', 'fooo', 'FOOO',
];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-regex-syntax-'));
  writeFileSync(join(root, 'split.txt'), 'foo\nbar\n');
  writeFileSync(join(root, 'corpus.txt'), CORPUS.join('\n') + '\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Every way the suite writes a line feed, alone and in the places a regex can hold one. */
const LINE_FEEDS = ['\n', '\\n', '\\x0a', '\\x0A', '\\x{a}', '\\x{0A}', '\\x{000a}', '\\012'];
const WRITTEN = LINE_FEEDS.flatMap((lf) => [lf, `[${lf}]`, `[a${lf}]`, `(?:${lf})`, `(${lf}|x)`, `${lf}+`, `[${lf}-\\r]`]);

describe('a line feed written in a regex turns on multi-line search', () => {
  it.each(WRITTEN)('reads %j as a written line feed', (lf) => {
    expect(readRegexSyntax(`foo${lf}bar`).writesLineFeed).toBe(true);
    expect(readQuery({ query: `foo${lf}bar`, mode: 'regex' }, true).multiline).toBe(true);
  });

  it.each(['\\s', '[^x]', '[\\x00-\\x7f]', '(?s).', '\\x0b', '\\\\n', '[\\\\n]', '\\Q\\n\\E', 'n', '\\N', '\\pN'])('%j only happens to match one, or is no line feed: within a line', (other) => {
    expect(readRegexSyntax(`foo${other}bar`).writesLineFeed).toBe(false);
  });

  const backends = hasRg ? (['walker', 'ripgrep', 'auto'] as const) : (['walker'] as const);
  it.each(backends)('over foo⏎bar, every spelling finds it (%s)', async (backend) => {
    for (const lf of WRITTEN) {
      // Rust's regex has no octal escapes: ripgrep refuses `\012` (FF_INVALID_QUERY: test/content/rg-refused-query.test.ts), auto lets the walker answer.
      const octal = lf.includes('\\012');
      if (octal && backend === 'ripgrep') continue;
      const result = await searchContent({ root, query: `foo${lf}bar`, mode: 'regex', pattern: 'split.txt', backend, rgPath: realRg.path } as ContentOptions);
      expect({ lf, hits: result.hits.map((h) => [h.path, h.line]), complete: result.complete }).toEqual({ lf, hits: [['split.txt', 1]], complete: true });
      if (backend === 'auto') expect(result.backend).toBe(octal ? 'walker' : 'ripgrep');
    }
  });

  it.each(backends)('a class that holds a line feed matches within a line, as rg without -U (%s)', async (backend) => {
    for (const other of ['\\s', '[^x]', '(?s).']) {
      const result = await searchContent({ root, query: `foo${other}bar`, mode: 'regex', pattern: 'split.txt', backend, rgPath: realRg.path } as ContentOptions);
      expect(result.hits).toEqual([]);
    }
  });
});

describe('smart case reads literal characters only, as rg -S', () => {
  const CASES: [string, boolean][] = [
    // [regex, ignores case]
    ['\\pLine', true],
    ['\\p{Lu}', false], // no literal at all: case kept, as rg
    ['\\p{Lu}x', true],
    ['(?P<Name>foo)', true],
    ['(?U)fo+', true],
    ['\\S+x', true],
    ['\\Wx', true],
    ['\\Dx', true],
    ['f\\Boo', true],
    ['\\Qfoo\\E', true],
    ['\\QFoo\\E', false],
    ['\\x41bc', false], // an escaped literal `A` is upper-case
    ['ab\\x{43}', false],
    ['[A-Z]bc', false],
    ['[[:upper:]]bc', true],
    ['xINE', false],
    ['(?i)Foo', false],
    ['a{2}', true],
    ['\\101', false], // RE2's octal `A`
  ];
  it.each(CASES)('%j ignores case: %s', (regex, ignores) => {
    expect(readQuery({ query: regex, mode: 'regex' }, true).ignoreCase).toBe(ignores);
  });

  it('the walker finds what `rg -S` finds for the issue\'s cases', async () => {
    const result = await searchContent({ root, query: '\\pLine', mode: 'regex', pattern: 'corpus.txt', backend: 'walker' });
    expect(result.hits.map((h) => h.text)).toEqual(['xine', 'XINE', 'xINE']);
    const named = await searchContent({ root, query: '(?P<Name>foo)', mode: 'regex', pattern: 'corpus.txt', backend: 'walker' });
    expect(named.hits.map((h) => h.text)).toEqual(['foo', 'FOO', 'Foo', 'foo bar', 'FOO BAR', 'fooo', 'FOOO']);
  });

  /** Atoms both dialects (RE2 and Rust's regex) read alike over an ASCII corpus. */
  const ATOMS = [
    'a', 'b', 'c', 'o', 'x', 'A', 'B', 'O', 'X', 'N', '\\pL', '\\pN', '\\p{Lu}', '\\p{Ll}', '\\PL', '(?P<Name>o)', '(?P<name>O)',
    '(?U)', '\\S', '\\W', '\\D', '\\d', '\\B', '\\b', '\\x41', '\\x{62}', '\\x4F', '[A-C]', '[a-c]', '[[:upper:]]', '[[:lower:]]',
    '.', '\\.', ' ', '(?:fo|BA)', '[^a]', 'i', 'n', 'e', 'E', '\\s',
  ];
  const QUANTIFIERS = ['', '', '', '+', '?', '*', '{1,2}'];



  function generate(count: number): string[] {
    // mulberry32: a failure names a regex that comes back.
    const random = mulberry32(27);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const regexes = new Set<string>();
    while (regexes.size < count) {
      const atoms = 1 + Math.floor(random() * 4);
      let regex = '';
      for (let i = 0; i < atoms; i++) {
        const atom = pick(ATOMS);
        regex += atom + (atom.startsWith('(?U)') || atom === '\\B' || atom === '\\b' ? '' : pick(QUANTIFIERS));
      }
      regexes.add(regex);
    }
    return [...regexes];
  }

  /** The corpus lines `rg -S` finds: the oracle. */
  function rgSmart(regex: string): Promise<string[]> {
    return new Promise((resolve, reject) => {
      execFile(realRg.path!, ['-S', '--no-filename', '--no-line-number', '--no-config', '-e', regex, '--', join(root, 'corpus.txt')], { encoding: 'utf8' }, (error, stdout, stderr) => {
        // Status 1 is "no line matched"; 2 (or a failed start) is an error.
        if (error !== null && error.code !== 1) return reject(new Error(`rg refused ${JSON.stringify(regex)}: ${stderr || error.message}`));
        resolve(stdout.split('\n').filter((l) => l !== ''));
      });
    });
  }

  /** `rgSmart` for each regex, four at a time: most of a run is ripgrep's start-up, which overlaps. */
  async function rgSmartAll(regexes: readonly string[]): Promise<string[][]> {
    const answers: string[][] = new Array(regexes.length);
    await pool([...regexes.keys()], 4, async (i) => {
      answers[i] = await rgSmart(regexes[i]!);
    });
    return answers;
  }

  itIf(needsRg)('the walker picks the case mode `rg -S` picks, on 300 generated regexes', async () => {
    const regexes = generate(300);
    const mismatches: string[] = [];
    const modes = { ignore: 0, keep: 0 };
    const oracle = await rgSmartAll(regexes);
    for (const [i, regex] of regexes.entries()) {
      const expected = oracle[i]!;
      const result = await searchContent({ root, query: regex, mode: 'regex', pattern: 'corpus.txt', backend: 'walker' });
      const found = result.hits.map((h) => h.text);
      if (JSON.stringify(found) !== JSON.stringify(expected)) mismatches.push(`${JSON.stringify(regex)}: walker ${JSON.stringify(found)}, rg -S ${JSON.stringify(expected)}`);
      modes[readQuery({ query: regex, mode: 'regex' }, true).ignoreCase ? 'ignore' : 'keep']++;
    }
    expect(mismatches).toEqual([]);
    // Not vacuous: both case modes were chosen many times.
    expect(modes.ignore).toBeGreaterThan(50);
    expect(modes.keep).toBeGreaterThan(50);
  }, 120_000);
});
