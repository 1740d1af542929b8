/**
 * The regex fast path (src/glob/regex.ts) on the shapes the generated comparison of
 * test/glob/nfa.test.ts rarely draws: which segments it takes (only those a backtracking engine
 * matches in linear time), and classes mixing characters beyond U+FFFF with BMP ones, negated, or
 * holding only reversed ranges. Each answer is checked against the state-set matcher, which takes
 * every shape.
 */
import { describe, expect, it } from 'vitest';
import { compileNfa } from '../../src/glob/nfa.js';
import { parseSegment } from '../../src/glob/parse.js';
import { isLinearInV8, regexSource } from '../../src/glob/regex.js';

const nodes = (glob: string) => parseSegment(glob, true, glob).nodes;
const linear = (glob: string) => isLinearInV8(nodes(glob));
const viaRegex = (glob: string) => {
  const re = new RegExp(`^${regexSource(nodes(glob))}$`);
  return (name: string) => re.test(name);
};
const viaNfa = (glob: string) => compileNfa(nodes(glob), true).matches;

describe('isLinearInV8: which segments take the regex', () => {
  it.each([
    ['*.ts', true],
    ['a?b', true],
    ['[a-z]*', true],
    ['[\uFFF0-\uFFFF]x', true],
    ['[\u{1F600}]', true],
    // two stars backtrack (length² × size on a miss): the state-set matcher takes them
    ['*a*', false],
    ['*.*.*', false],
    ['@(a)', false],
    ['!(a)', false],
    ['[[:alpha:]]', false],
    ['[x[:digit:]]', false],
    ['[[:digit:]x]', false],
    // a range ending beyond U+FFFF cannot be written without the u flag
    ['[a-\u{1F600}]', false],
    ['[x\u{10000}-\u{10FFFF}]', false],
  ])('%j: %s', (glob, expected) => {
    expect(linear(glob)).toBe(expected);
  });

  it('refuses, by name, to write a shape it has no linear regex for', () => {
    expect(() => regexSource(nodes('@(a)'))).toThrow(/^regexSource: group has no linear regex$/);
  });
});

describe('regexSource: classes answer as the state-set matcher does', () => {
  const rows: [string, string, boolean][] = [
    // a BMP character and one beyond U+FFFF in one set
    ['[a\u{1F600}]', 'a', true],
    ['[a\u{1F600}]', '\u{1F600}', true],
    ['[a\u{1F600}]', 'b', false],
    ['[!a\u{1F600}]', 'a', false],
    ['[!a\u{1F600}]', '\u{1F600}', false],
    ['[!a\u{1F600}]', 'b', true],
    ['[!a\u{1F600}]', '\u{1F601}', true],
    // only reversed ranges: nothing matches; negated, any one character does
    ['[b-a]', 'a', false],
    ['[!b-a]', 'x', true],
    ['[!b-a]', '\u{1F600}', true],
    ['[!b-a]', 'xy', false],
    ['[\uFFFF]', '\uFFFF', true],
  ];
  it.each(rows)('%j against %j: %s', (glob, name, expected) => {
    expect(linear(glob)).toBe(true);
    expect(viaNfa(glob)(name)).toBe(expected);
    expect(viaRegex(glob)(name)).toBe(expected);
  });
});
