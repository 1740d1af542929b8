/**
 * One ignore file's rules (src/walk/gitignore-rules.ts) as units: each row is a rule of ripgrep 13
 * that test/ignore/fixtures.ts pins against the real rg on a real disk, asked here of the parser
 * directly, so a mutation run (issue 28) can afford it: the parity run takes minutes, this one
 * milliseconds.
 */
import { describe, expect, it } from 'vitest';
import { decodeIgnoreFile, testIgnoreRules } from '../../src/walk/gitignore-rules.js';
import { parseIgnoreFile } from '../../src/walk/rule-reader.js';

const verdict = (text: string, path: string, isDirectory = false) => testIgnoreRules(parseIgnoreFile(text), path, isDirectory);

describe('one ignore file, read as ripgrep 13 reads it', () => {
  const rows: [text: string, path: string, isDirectory: boolean, expected: 'ignore' | 'whitelist' | undefined][] = [
    // comments, blank lines, trailing whitespace, escapes of # and !
    ['# a', '# a', false, undefined],
    ['\\#a', '#a', false, 'ignore'],
    ['a.txt  ', 'a.txt', false, 'ignore'],
    ['a.txt\t', 'a.txt', false, 'ignore'],
    ['x\\ ', 'x ', false, 'ignore'],
    ['x\\ ', 'x', false, undefined],
    ['  lead', '  lead', false, 'ignore'],
    ['\\!x', '!x', false, 'ignore'],
    ['*\n!keep', 'keep', false, 'whitelist'],
    ['*\n!keep', 'other', false, 'ignore'],
    ['a\n!', 'a', false, 'whitelist'],
    // anchoring: a leading / or a slash inside anchors; none matches at any depth
    ['/build', 'build', true, 'ignore'],
    ['/build', 'sub/build', true, undefined],
    ['out', 'sub/out', false, 'ignore'],
    ['doc/frotz', 'doc/frotz', false, 'ignore'],
    ['doc/frotz', 'a/doc/frotz', false, undefined],
    ['**/foo', 'foo', false, 'ignore'],
    ['**/foo', 'x/y/foo', false, 'ignore'],
    // directories only
    ['dist/', 'dist', true, 'ignore'],
    ['dist/', 'dist', false, undefined],
    ['cache', 'cache', false, 'ignore'],
    // ** as whole segments, and inside one
    ['a/**/b', 'a/b', false, 'ignore'],
    ['a/**/b', 'a/x/y/b', false, 'ignore'],
    ['foo/**', 'foo/x', false, 'ignore'],
    ['foo/**', 'foo/x/y', false, 'ignore'],
    ['foo/**', 'foo', true, undefined],
    ['a**b', 'axxb', false, 'ignore'],
    ['a**b', 'a/b', false, undefined],
    ['**', 'x/y', false, 'ignore'],
    ['**/', 'x', true, 'ignore'],
    ['x/**/', 'x/a', true, 'ignore'],
    // ? and sets
    ['a?c', 'abc', false, 'ignore'],
    ['a?c', 'a/c', false, undefined],
    ['[ab].txt', 'b.txt', false, 'ignore'],
    ['[ab].txt', 'c.txt', false, undefined],
    ['[!a].txt', 'a.txt', false, undefined],
    ['[!a].txt', 'b.txt', false, 'ignore'],
    ['[^a].txt', 'a.txt', false, undefined],
    ['a[!x]b', 'a/b', false, 'ignore'],
    ['[a-c].txt', 'c.txt', false, 'ignore'],
    ['[a-c].txt', 'd.txt', false, undefined],
    ['[a-a]x', 'ax', false, 'ignore'],
    ['[]a]x', ']x', false, 'ignore'],
    // inside a set `\` is itself (real rg 13: `[\]]x` lists `]x`, ignores `\]x`; `[a-\c]x` is refused)
    ['[\\]]x', ']x', false, undefined],
    ['[\\]]x', '\\]x', false, 'ignore'],
    ['[\\a]x', '\\x', false, 'ignore'],
    ['[a-\\c]x\nd', 'bx', false, undefined],
    ['[a-\\c]x\nd', 'd', false, 'ignore'],
    ['[a-]x', '-x', false, 'ignore'],
    ['[[:alpha:]]', 'a]', false, 'ignore'],
    ['[[:alpha:]]', 'a', false, undefined],
    // braces are alternatives, not nested
    ['{x,y}.txt', 'y.txt', false, 'ignore'],
    ['{x,y}.txt', '{x,y}.txt', false, undefined],
    ['a,b', 'a,b', false, 'ignore'],
    // a `}` with no `{` open closes an empty group (real rg 13: `x}` ignores `x`, lists `x}`)
    ['x}', 'x}', false, undefined],
    ['x}', 'x', false, 'ignore'],
    ['{a}}', 'a', false, 'ignore'],
    ['{a/**,b}', 'a/x', false, 'ignore'], // real rg 13 on {a/**,b}: a/x/y and a/z not listed
    // a line that is no glob is skipped; the others apply
    ['c[\nd', 'c[', false, undefined],
    ['c[\nd', 'd', false, 'ignore'],
    ['[z-a]\nd', 'z', false, undefined],
    ['x\\\nd', 'x', false, undefined],
    ['{a,{b}}\nd', 'a', false, undefined],
    ['{a,b\nd', 'a', false, undefined],
    ['{a,b\nd', 'd', false, 'ignore'],
    // a blank line is no rule (read as one it would be `**/`, everything)
    ['a\n\nb', 'c', false, undefined],
    // a line rg refuses is no rule at all, not one of some other text
    ['{a', 'undefined', false, undefined],
    // ? is one character, an astral one too (the pattern is read by code point)
    ['a?b', 'a\u{1F600}b', false, 'ignore'],
    // ** within a segment is *, never more than one segment (the fixture "rg 13: ** inside a segment is *")
    ['a/**b', 'a/xb', false, 'ignore'],
    ['a/**b', 'a/m/b', false, undefined],
    ['a/x**', 'a/xy', false, 'ignore'],
    ['a/x**', 'a/xy/z', false, undefined],
    // a lone * is one segment, anchored or not
    ['/*', 'x', false, 'ignore'],
    ['/*', 'x/y', false, undefined],
    // sets: ranges, a negated set takes ! as a member of nothing, unclosed sets and ranges refused
    ['x[a-c]', 'xb', false, 'ignore'],
    ['x[a-c]', 'x-', false, undefined],
    ['a[x]', 'aS', false, undefined],
    ['a[!x]b', 'a!b', false, 'ignore'],
    ['[ab', 'a', false, undefined],
    ['[a-', 'a', false, undefined],
    // a BOM is part of the first pattern; CRLF ends lines
    ['\uFEFFa', 'a', false, undefined],
    ['a\r\nb', 'a', false, 'ignore'],
    ['a\r\nb', 'b', false, 'ignore'],
  ];
  it.each(rows)('%j: %j (directory %s) is %s', (text, path, isDirectory, expected) => {
    expect(verdict(text, path, isDirectory)).toBe(expected);
  });

  it('the last rule that matches decides', () => {
    expect(verdict('!a\na', 'a')).toBe('ignore');
    expect(verdict('a\n!a', 'a')).toBe('whitelist');
    expect(verdict('a\n!a/', 'a')).toBe('ignore');
  });
});

describe('decodeIgnoreFile: up to the first line that is not UTF-8', () => {
  const bytes = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));
  it('a whole valid file is its text; a string is taken as it is', () => {
    expect(decodeIgnoreFile(bytes('a\nb\n'))).toBe('a\nb\n');
    expect(decodeIgnoreFile('\uFFFDa')).toBe('\uFFFDa');
  });
  it('stops at the first bad line, keeping the lines before it', () => {
    expect(decodeIgnoreFile(bytes('a\n', [0xff], '\nb\n'))).toBe('a');
    expect(decodeIgnoreFile(bytes('a\nb\n', [0xff]))).toBe('a\nb');
    expect(decodeIgnoreFile(bytes([0xff], '\na'))).toBe('');
  });
});
