/**
 * Content-search options: checked once, before any I/O, with stable codes; and the query compiled
 * into the matcher the pure-TS path runs (literal/regex, the case rules, multi-line detection).
 */
import { describe, expect, it } from 'vitest';
import { FindFileError, MAX_QUERY_BYTES, searchContent, searchContentStream, type ContentOptions } from '../../src/index.js';
import { buildLineMatcher, readQuery, type Query } from '../../src/content/query.js';
import { buildVolume } from '../helpers/memfs.js';
import { listOnlyFs, readFaultyFs } from '../helpers/content.js';

const vol = buildVolume({ 'a.txt': 'hello\n' });

/** The error `searchContent` rejects with, checking the stream form throws the same, and that no file was touched. */
async function refusal(options: Partial<ContentOptions>): Promise<FindFileError> {
  const fs = readFaultyFs(vol);
  const full = { root: '/root', query: 'hello', fs, platform: 'posix' as const, ...options } as ContentOptions;
  const error = await searchContent(full).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FindFileError);
  let thrown: unknown;
  try {
    searchContentStream(full);
  } catch (e) {
    thrown = e;
  }
  expect((thrown as FindFileError).code).toBe((error as FindFileError).code);
  expect(fs.log.opened).toEqual([]);
  return error as FindFileError;
}

describe('the query is refused before any I/O', () => {
  it.each([
    ['missing', { query: undefined }, 'FF_MISSING_OPTION'],
    ['empty', { query: '' }, 'FF_EMPTY_QUERY'],
    ['not a string', { query: 42 }, 'FF_INVALID_QUERY'],
    ['a NUL character', { query: 'a\0b' }, 'FF_INVALID_QUERY'],
    ['an unpaired surrogate', { query: 'a\uD800b' }, 'FF_INVALID_QUERY'],
    ['100 KB', { query: 'x'.repeat(100_000) }, 'FF_QUERY_TOO_LONG'],
    ['one byte over the cap in UTF-8', { query: '中'.repeat(MAX_QUERY_BYTES / 3) + 'xx' }, 'FF_QUERY_TOO_LONG'],
    ['an invalid regex', { query: 'a(b', mode: 'regex' }, 'FF_INVALID_QUERY'],
    ['an unknown mode', { mode: 'glob' }, 'FF_INVALID_OPTION'],
    ['caseSensitive "yes"', { caseSensitive: 'yes' }, 'FF_INVALID_OPTION'],
    ['maxLineChars -1', { maxLineChars: -1 }, 'FF_INVALID_LIMIT'],
    ['maxOutputBytes 1.5', { maxOutputBytes: 1.5 }, 'FF_INVALID_LIMIT'],
    ['maxResults "5"', { maxResults: '5' }, 'FF_INVALID_LIMIT'],
  ] as [string, Record<string, unknown>, string][])('%s', async (_name, options, code) => {
    expect((await refusal(options as Partial<ContentOptions>)).code).toBe(code);
  });

  it('says what is wrong, in words a caller can act on', async () => {
    expect((await refusal({ query: '' })).message).toBe('query is empty: it would match every line; give the text to search for');
    expect((await refusal({ query: 'x'.repeat(100_000) })).message).toBe('query is 100000 bytes long; the limit is 65536 (64 KiB)');
    expect((await refusal({ query: '' })).option).toBe('query');
  });

  it('accepts a query of exactly the cap, and blank or one-character queries', async () => {
    for (const query of ['x'.repeat(MAX_QUERY_BYTES), ' ', '\t', '-', '\n']) {
      await expect(searchContent({ root: '/root', query, fs: vol, platform: 'posix' })).resolves.toMatchObject({ complete: true });
    }
  });

  it('refuses unknown options with a suggestion, and findFiles-only options', async () => {
    const typo = await refusal({ querry: 'x' } as Partial<ContentOptions>);
    expect(typo.code).toBe('FF_UNKNOWN_OPTION');
    expect(typo.message).toBe('unknown option "querry": did you mean "query"?');
    expect((await refusal({ absolute: true } as Partial<ContentOptions>)).code).toBe('FF_UNKNOWN_OPTION');
  });

  it('refuses the file set options findFiles refuses, with the same codes', async () => {
    expect((await refusal({ pattern: '../x' })).code).toBe('FF_PATTERN_OUTSIDE_ROOT');
    expect((await refusal({ pattern: '' })).code).toBe('FF_INVALID_PATTERN');
    expect((await refusal({ exclude: ['/abs'] })).code).toBe('FF_PATTERN_OUTSIDE_ROOT');
    expect((await refusal({ root: '' })).code).toBe('FF_INVALID_ROOT');
    expect((await refusal({ backend: 'fast' as 'auto' })).code).toBe('FF_INVALID_OPTION');
  });

  it('refuses an fs that cannot read files, and ripgrep with an injected fs', async () => {
    const error = await searchContent({ root: '/root', query: 'x', fs: listOnlyFs(vol) }).catch((e: FindFileError) => e);
    expect(error).toMatchObject({ code: 'FF_INVALID_OPTION', option: 'fs' });
    expect((await refusal({ backend: 'ripgrep' })).code).toBe('FF_INVALID_OPTION');
  });

  it('reads a regex as RE2 (ripgrep\'s dialect): inline flags yes, lookaround and backreferences no; left to ripgrep when ripgrep alone runs', () => {
    expect(readQuery({ query: '(?i)abc', mode: 'regex' }, true)).toMatchObject({ mode: 'regex', text: '(?i)abc' });
    expect(() => readQuery({ query: '(?=x)', mode: 'regex' }, true)).toThrow(FindFileError);
    expect(() => readQuery({ query: '(a)\\1', mode: 'regex' }, true)).toThrow(/invalid escape sequence/);
    expect(readQuery({ query: '(?=x)', mode: 'regex' }, false)).toMatchObject({ mode: 'regex', text: '(?=x)' });
  });
});

describe('the case rules', () => {
  const q = (query: string, caseSensitive?: boolean | 'smart', mode: 'literal' | 'regex' = 'literal') => readQuery({ query, caseSensitive, mode }, true);

  it('smart by default: ignore case unless the query holds an upper-case letter', () => {
    expect(q('hello')).toMatchObject({ caseMode: 'smart', ignoreCase: true });
    expect(q('Hello')).toMatchObject({ caseMode: 'smart', ignoreCase: false });
    expect(q('straße')).toMatchObject({ ignoreCase: true });
    expect(q('ÉCOLE')).toMatchObject({ ignoreCase: false });
    expect(q('中文 123')).toMatchObject({ ignoreCase: true });
  });

  it('in regex mode, letters inside escapes do not count as upper case', () => {
    expect(q('\\Sfoo\\W', 'smart', 'regex')).toMatchObject({ ignoreCase: true });
    expect(q('\\p{Lu}x', 'smart', 'regex')).toMatchObject({ ignoreCase: true });
    expect(q('\\sFoo', 'smart', 'regex')).toMatchObject({ ignoreCase: false });
  });

  it('true is exact case, false ignores case, whatever the query', () => {
    expect(q('hello', true)).toMatchObject({ caseMode: 'sensitive', ignoreCase: false });
    expect(q('HELLO', false)).toMatchObject({ caseMode: 'ignore', ignoreCase: true });
  });
});

describe('multi-line detection', () => {
  it('a line break in the query (regex mode: also an unescaped \\n) makes a multi-line search', () => {
    const multi = (query: string, mode: 'literal' | 'regex') => readQuery({ query, mode }, true).multiline;
    expect(multi('a\nb', 'literal')).toBe(true);
    expect(multi('a\\nb', 'literal')).toBe(false); // a literal backslash and n
    expect(multi('a\\nb', 'regex')).toBe(true);
    expect(multi('a\\\\nb', 'regex')).toBe(false); // an escaped backslash, then n
    expect(multi('a\\\\\\nb', 'regex')).toBe(true);
    expect(multi('a\\sb', 'regex')).toBe(false);
  });
});

describe('the matcher', () => {
  const build = (query: string, overrides: Partial<Query> = {}) => buildLineMatcher({ ...readQuery({ query }, true), ...overrides });

  it('finds a literal, special characters and all, from a start index, and reports the end', () => {
    const m = build('a.b(c)*$', { ignoreCase: false });
    expect(m.find('xx a.b(c)*$ a.b(c)*$', 0)).toBe(3);
    expect(m.lastEnd).toBe(11);
    expect(m.find('xx a.b(c)*$ a.b(c)*$', 4)).toBe(12);
    expect(m.find('axb(c)', 0)).toBe(-1);
    expect(m.blockSafe).toBe(true);
  });

  it('ignores case by Unicode simple folding for a literal, escaping what a regex would read', () => {
    const m = build('straße-[x]', { ignoreCase: true });
    expect(m.find('STRASSE-[X] STRAẞE-[X]', 0)).toBe(12); // ß folds to ẞ, never to SS
    expect(m.blockSafe).toBe(true);
    expect(build('k', { ignoreCase: true }).find('\u212A', 0)).toBe(0); // KELVIN SIGN
  });

  it('runs a regex line by line (not block-safe), with `$` at the end of the line only', () => {
    const m = buildLineMatcher(readQuery({ query: 'o+$', mode: 'regex' }, true));
    expect(m.blockSafe).toBe(false);
    expect(m.find('foo', 0)).toBe(1);
    expect(m.lastEnd).toBe(3);
    expect(m.find('foo\r', 0)).toBe(-1); // as ripgrep: the line is `foo\r`
  });
});

describe('long queries', () => {
  it('a 64 KiB literal is found ignoring case (the matcher works in pieces V8 can compile)', () => {
    const query = 'ab'.repeat(MAX_QUERY_BYTES / 2);
    const m = buildLineMatcher(readQuery({ query, caseSensitive: false }, true));
    const text = 'x' + 'Ab'.repeat(MAX_QUERY_BYTES / 2 - 1) + 'A' + ' ' + 'AB'.repeat(MAX_QUERY_BYTES / 2) + 'x';
    expect(m.find(text, 0)).toBe(MAX_QUERY_BYTES + 1);
    expect(m.lastEnd).toBe(2 * MAX_QUERY_BYTES + 1);
  });

  it('a piece boundary never splits a surrogate pair, and candidates that fail later pieces are passed over', () => {
    const query = '😀'.repeat(700) + 'q'; // 1401 units: the first cut would fall inside a pair
    const m = buildLineMatcher(readQuery({ query, caseSensitive: false }, true));
    expect(m.find('😀'.repeat(701) + 'Q', 0)).toBe(2);
    expect(m.find('😀'.repeat(700) + 'r', 0)).toBe(-1);
  });

  it('a 64 KiB case-insensitive regex compiles and matches; a bad one is refused up front with the engine\'s reason', () => {
    const big = buildLineMatcher(readQuery({ query: 'x'.repeat(MAX_QUERY_BYTES), mode: 'regex', caseSensitive: false }, true));
    expect(big.find('a', 0)).toBe(-1);
    const mid = buildLineMatcher(readQuery({ query: 'x'.repeat(1024), mode: 'regex', caseSensitive: false }, true));
    expect(mid.find(`a${'X'.repeat(1024)}`, 0)).toBe(1);
    expect(() => readQuery({ query: 'a(b', mode: 'regex' }, true)).toThrow(/^query is not a valid regex \(RE2 syntax, as ripgrep's\): missing closing \)/);
  });

  it('a bad regex is quoted as typed: never with the (?i) that smart case or -i chose (an adversarial run saw `(?i)a(`)', () => {
    for (const [query, caseSensitive] of [['a(', undefined], ['a(', false], ['A(', false], ['x[b', undefined], ['(?P<n', false]] as const) {
      let message = '';
      try {
        readQuery({ query, mode: 'regex', ...(caseSensitive === undefined ? {} : { caseSensitive }) }, true);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, query).toMatch(/^query is not a valid regex \(RE2 syntax, as ripgrep's\): /);
      expect(message, query).not.toContain('(?i)');
    }
    // A (?i) the user wrote is theirs, and stays in the quote.
    expect(() => readQuery({ query: '(?i)a(', mode: 'regex' }, true)).toThrow(/`\(\?i\)a\(`/);
  });

  it('matches a catastrophic-backtracking regex in linear time: (a+)+$ over 100,000 a\'s and a ! returns at once', () => {
    const m = buildLineMatcher(readQuery({ query: '(a+)+$', mode: 'regex' }, true));
    expect(m.find(`${'a'.repeat(100_000)}!`, 0)).toBe(-1);
    expect(m.find('aaa', 0)).toBe(0);
    expect(m.lastEnd).toBe(3);
  });
});
