/**
 * Parsing one glob segment (src/glob/parse.ts), seen as a user sees it: which names a segment
 * matches. Each row is bash's answer with `extglob dotglob` on (checked by hand in bash 5); the
 * shapes are the edges the generated comparison of test/glob/nfa.test.ts rarely draws: escapes at
 * the end and before astral characters, unclosed groups and sets, `]` first in a set, ranges with
 * escaped or astral ends, and where `!(...)` is refused.
 */
import { describe, expect, it } from 'vitest';
import { compileSegment } from '../../src/glob/segment.js';
import { MAX_GROUP_NESTING, parseSegment } from '../../src/glob/parse.js';

const matches = (glob: string, name: string, escapes = true) => compileSegment(glob, escapes, glob, true).test(name);

describe('which names a segment matches', () => {
  it.each([
    // escapes
    ['a\\*', 'a*', true],
    ['a\\*', 'ab', false],
    ['a\\', 'a\\', true],
    ['\\\u{1F600}x', '\u{1F600}x', true],
    ['\\\u{1F600}?', '\u{1F600}x', true],
    ['\\\uFFFFx', '\uFFFFx', true],
    ['\uFFFFx', '\uFFFFx', true],
    // astral characters are one character
    ['\u{1F600}?', '\u{1F600}\u{1F601}', true],
    ['?', '\u{1F600}', true],
    // stars, runs of them, and a star before an extglob
    ['a**b', 'axyb', true],
    ['a**(x)b', 'ab', true],
    ['a**(x)b', 'axxb', true],
    ['a**(x)b', 'ayb', true],
    // An opener not closed in its segment makes the rest of the segment plain text, compared as
    // written (bash's EXTMATCH); a star before it is still a star.
    ['*(', '*(', true],
    ['a*(b', 'a*(b', true],
    ['a*(b', 'axx(b', false],
    ['*@(a', 'x@(a', true],
    ['@(a\\*', '@(a\\*', true],
    ['@(a\\*', '@(a*', false],
    // extglobs, closed and not
    ['@(a|b)c', 'bc', true],
    ['@(a|b)c', 'abc', false],
    ['?(a|b)c', 'c', true],
    ['+(ab)', 'ababab', true],
    ['+(ab)', '', false],
    ['@(a|b', '@(a|b', true],
    ['@(a|b', 'a', false],
    ['x@(a', 'x@(a', true],
    ['@(a|@(b|c))', 'c', true],
    ['@(a|@(b|c)', 'c', false],
    ['@(a|@(b|c)', '@(a|b', false],
    ['@(a|@(b|c)', '@(a|@(b|c)', true],
    // where a group ends is bash's scan: plain parentheses nest, `[...]` and `\x` hide `)` and `|`
    ['@(a(b|c))', 'a(b|c)', true],
    ['@(a(b|c))', 'a(b', false],
    ['@(a(b)', '@(a(b)', true],
    ['@(a(b)', 'a(b', false],
    ['@(x(|c)', 'c', false],
    ['@([a|b)', '@([a|b)', true],
    ['@([a|b)', 'b', false],
    ['@([)]|x)', ')', true],
    ['@([])]|1)', ']', true],
    ['@([[:alpha:])]|1)', ')', true],
    ['@(a\\)|b)', 'a)', true],
    ['@(a\\||b)', '|', false],
    ['@(a\\||b)', 'a|', true],
    ['@(a|b)|)', 'a|)', true],
    // a `]` right after the `:` of a `[:` seen before ends no set, also in a later set (bash 5.2)
    ['@([[:a]|[b:]|)]|x)', 'x', true],
    // a `]` first in a set, after `!` or `^`, ends no set
    ['@([!]|)]|1)', 'x', true],
    ['@([[a]|x)', 'x', true],
    ['@([[a]|x)', '[', true],
    ['@([^]|)]|1)', 'x', true],
    // find-file's reading, more than bash's: a set ends within its alternative, so `[[:a]` is the
    // set of `[`, `:` and `a` (bash 5.2 reads on for the `:]` of the next one and matches nothing)
    ['@([[:a]|:]|x)', 'a', true],
    ['@([[:a]|:]|x)', ':]', true],
    ['@([[:a]|[b:]|)]|x)', ':]', false],
    // after a run of `*` and `?`, bash's star reads an open `?(`/`*(` as nothing and takes the rest,
    // an open `!(` also where the name ends, and a closed `!(L)` passes a name that ends there
    ['a**(b', 'axyz', true],
    ['a*?(b', 'azz', true],
    ['a*?(b', 'zzz', false],
    ['a*?*(x)?(b', 'a', false],
    ['a*??(b', 'azz', true],
    ['*?(b', 'zzz', true],
    ['a*b?(c', 'axyz', false],
    ['a*b?(c', 'axb?(c', true],
    ['a*b!(c', 'a', false],
    ['a*b!(c', 'axb!(c', true],
    ['a*+(b', 'axyz', false],
    ['a*+(b', 'ax+(b', true],
    ['a*@(b', 'axyz', false],
    ['a*?!(b', 'a', false],
    ['a*?!(b', 'ax', true],
    ['a*?*!(b', 'axyz', false],
    ['*?*!(b', 'xyz', false],
    ['a*??(b', 'a', false],
    ['a**(x)?(b', 'aq', true],
    ['a@(x)?(b', 'aq', false],
    ['a@(x)?(b', 'ax?(b', true],
    ['a*!(b', 'a', true],
    ['a*!(b', 'ab', false],
    ['a*!(b', 'ax!(b', true],
    ['a*!(b|)', 'a', true],
    ['a*!(b|)', 'ac', true],
    ['a*!(b|)', 'b', false],
    ['*!()', '', true],
    // not after a star, an empty rest is judged as any other: in the alternatives, no match
    ['a!(|b)', 'a', false],
    ['a!(|b)', 'ac', true],
    ['a!(*)', 'a', false],
    ['!(*.js)', 'a.ts', true],
    ['!(*.js)', 'a.js', false],
    ['*.!(js)', 'a.ts', true],
    ['*.!(js)', 'a.js', false],
    ['a|b', 'a|b', true],
    ['a)b', 'a)b', true],
    // sets
    ['[ab]', 'b', true],
    ['[ab]', 'c', false],
    ['[!ab]', 'c', true],
    ['[!ab]', 'a', false],
    ['[!ab]', '!', true],
    ['[x:y:]', 'x', true],
    ['[x:y:]', ':', true],
    ['[[a:]', 'a', true],
    ['[[:]x:]', 'x', false],
    ['[^ab]', 'c', true],
    ['[^ab]', 'b', false],
    ['[]a]', ']', true],
    ['[]a]', 'a', true],
    ['[!]a]', ']', false],
    ['[!]a]', 'b', true],
    ['[a', '[a', true],
    ['[]', '[]', true],
    ['[a-c]', 'b', true],
    ['[a-c]', 'd', false],
    ['[c-a]', 'b', false],
    ['[a-]', '-', true],
    ['[a-]', 'b', false],
    ['[a-\uFFFF]x', 'bx', true],
    ['[a-\u{1F600}-\u{1F6FF}]', '\u{1F601}', false],
    ['[a-\u{1F600}-\u{1F6FF}]', '-', true],
    ['[\u{1F600}-\u{1F602}]', '\uE000', false],
    ['[\\]]', ']', true],
    ['[\\]a]x', ']x', true],
    ['[a\\-c]', '-', true],
    ['[a\\-c]', 'b', false],
    ['[a-\\c]', 'b', true],
    ['[\\a-c]', 'b', true],
    ['[\u{1F600}-\u{1F602}]', '\u{1F601}', true],
    ['[\u{1F600}-\u{1F602}]', '\u{1F603}', false],
    ['[\u{1F600}x]', 'x', true],
    ['[a-\u{1F600}]x', '\u{1F000}x', true],
    ['[a-\u{1F600}]x', 'ax', true],
    // POSIX classes
    ['[[:digit:]]', '7', true],
    ['[[:digit:]]', 'a', false],
    ['[[:digit:]a]', 'a', true],
    ['[[:nope:]]', 'n', false],
    ['[[:nope:]]', ':', false],
    ['[[:nope:]x]', 'x', true],
    ['[[:digit]', ':', true],
    ['[[:digit]', 'd', true],
    ['x[[:alpha:]', 'x[[:alpha:]', false],
  ])('%j on %j: %j', (glob, name, expected) => {
    expect(matches(glob, name)).toBe(expected);
  });

  it('without escapes (win32), a backslash is itself, also in a set', () => {
    expect(matches('a\\', 'a\\', false)).toBe(true);
    expect(matches('[\\]]', '\\]', false)).toBe(true);
    // `\-c` is a range from `\` to `c`
    expect(matches('[a\\-c]', 'b', false)).toBe(true);
    expect(matches('[a\\-c]', '-', false)).toBe(false);
  });
});

describe('the literal a plain segment is compared as', () => {
  it.each([
    ['abc', 'abc'],
    ['a\\*b', 'a*b'],
    ['\u{1F600}b', '\u{1F600}b'],
    ['', ''],
    ['a*', undefined],
    ['a[b]', undefined],
    ['[a', '[a'],
  ])('%j: %j', (glob, literal) => {
    expect(parseSegment(glob, true, glob).literal).toBe(literal);
  });
});

describe('groups nested deeper than MAX_GROUP_NESTING are refused, never a stack overflow', () => {
  const nested = (depth: number) => '@('.repeat(depth) + 'a' + ')'.repeat(depth);
  it('takes 100 levels and matches through them', () => {
    expect(matches(nested(MAX_GROUP_NESTING), 'a')).toBe(true);
    expect(matches(nested(MAX_GROUP_NESTING), 'b')).toBe(false);
  });
  it.each([MAX_GROUP_NESTING + 1, 3000])('refuses %d levels with FF_PATTERN_TOO_LARGE', (depth) => {
    expect(() => parseSegment(nested(depth), true, nested(depth))).toThrow(
      expect.objectContaining({ code: 'FF_PATTERN_TOO_LARGE', option: 'pattern', message: expect.stringContaining(`groups nested more than ${MAX_GROUP_NESTING} deep`) }),
    );
  });
  it('counts only groups: 4,000 plain parentheses in one group, or an open one, are text', () => {
    expect(matches('@(' + '('.repeat(4000) + 'a' + ')'.repeat(4000) + ')', '('.repeat(4000) + 'a' + ')'.repeat(4000))).toBe(true);
    expect(matches('@('.repeat(4000) + 'a', '@('.repeat(4000) + 'a')).toBe(true);
  });
});

describe('a collating symbol or an equivalence class in a set is refused, never misread', () => {
  it.each(['[[.a.]]', '[[=a=]]', '[![.a.]]', 'x[[.space.]]y', '@([[.x.]|)]|1)', '[[.].]]'])('%j', (glob) => {
    expect(() => parseSegment(glob, true, glob)).toThrow(expect.objectContaining({ code: 'FF_INVALID_PATTERN', option: 'pattern', message: expect.stringContaining('collating symbols and equivalence classes') }));
  });
  it('a [. or [= that no .] or =] closes is its characters', () => {
    expect(matches('[[=]x', '=x')).toBe(true);
    expect(matches('[.a.]', 'a')).toBe(true);
  });
});

describe('!(...) anywhere but the end of a segment is refused', () => {
  it.each(['!(a)b', '@(!(a))', '@(x|!(a))b', '!(a)!(b)'])('%j', (glob) => {
    expect(() => parseSegment(glob, true, glob)).toThrow(expect.objectContaining({ code: 'FF_INVALID_PATTERN', option: 'pattern', message: expect.stringContaining(JSON.stringify(glob)) }));
  });
});
