/**
 * RE2 (re2js), loaded the first time something needs a matcher that runs in linear time: a content
 * regex, a name regex, an ignore rule a backtracking regex could take minutes over. Not loaded with
 * the library: most searches never need it, and re2js was most of `import('find-file')`'s time
 * (bench/suites/import.mjs). `require` keeps compiling synchronous (re2js ships a CommonJS build).
 */
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { FindFileError } from './errors.js';

const requireModule = createRequire(import.meta.url);
let re2: typeof RE2JS | undefined;

export function loadRe2(): typeof RE2JS {
  return (re2 ??= (requireModule('re2js') as typeof import('re2js')).RE2JS);
}

/**
 * The most a user regex may expand to, in `re2Size` units (about one RE2 instruction each). RE2
 * refuses a repeat count over 1,000 and nested counts whose product passes 1,000, but not a
 * sequence of counted repeats: `(?:a?){1000}` 600 times (7.2 KB) is 1.2M instructions, and re2js
 * took 1-2 s to compile each such regex, before any budget was counted. At this size a compile
 * measured 0.05-0.5 s by shape (`a{1000}` written out the slowest); it must stay above a query of
 * `MAX_QUERY_BYTES` (64 KiB) of plain characters, which content search accepts.
 */
export const MAX_RE2_SIZE = 100_000;

/**
 * Roughly how many instructions RE2 makes of `source`: every atom one, a group its contents plus
 * one, a quantifier one more, and a counted repeat `{n}`, `{n,}`, `{n,m}` multiplies what it repeats by its largest count
 * (RE2 writes `x{2,5}` out as five copies of `x`). Never less than RE2's count for the shapes that
 * matter; `\Q...\E`, classes and `\p{...}` are read whole so their characters are not taken for syntax.
 */
export function re2Size(source: string): number {
  const frames: { total: number; last: number }[] = [{ total: 0, last: 0 }];
  let top = frames[0]!;
  const atom = (size: number) => {
    top.total += size;
    top.last = size;
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === 'Q') {
        const end = source.indexOf('\\E', i + 2);
        const stop = end === -1 ? source.length : end;
        for (let j = i + 2; j < stop; j++) atom(1);
        i = end === -1 ? source.length : end + 1;
        continue;
      }
      i++;
      if ((next === 'p' || next === 'P' || next === 'x') && source[i + 1] === '{') i = closing(source, i + 1, '}');
      else if (next === 'p' || next === 'P') i++;
      atom(1);
    } else if (c === '[') {
      i = classEnd(source, i);
      atom(1);
    } else if (c === '(') {
      // `(?i)` sets flags and opens nothing; `(?:`, `(?i:` and `(?P<name>` open a group after their mark.
      if (source[i + 1] === '?') {
        const mark = /^\(\?[^:)>]*[:)>]/.exec(source.slice(i, i + 64));
        if (mark !== null) {
          i += mark[0].length - 1;
          if (source[i] === ')') continue;
        }
      }
      top = { total: 0, last: 0 };
      frames.push(top);
    } else if (c === ')' && frames.length > 1) {
      const group = frames.pop()!;
      top = frames[frames.length - 1]!;
      atom(group.total + 1);
    } else if (c === '*' || c === '+' || c === '?') {
      // A quantifier adds one instruction to what it follows (a lazy `?` after it one more).
      top.total += 1;
      top.last += 1;
    } else if (c === '{') {
      const repeat = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i, i + 24));
      if (repeat === null) {
        atom(1);
        continue;
      }
      const count = repeat[2] === undefined ? Number(repeat[1]) : repeat[3] === '' ? Number(repeat[1]) + 1 : Math.max(Number(repeat[1]), Number(repeat[3]));
      top.total += top.last * (count - 1);
      top.last *= count;
      i += repeat[0].length - 1;
    } else atom(1);
  }
  return frames.reduce((sum, frame) => sum + frame.total, 0);
}

/** Where the character class opening at `start` ends (its `]`), or the end of the source. */
function classEnd(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++; // a `]` first is a member
  for (; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '[' && source[i + 1] === ':') i = closing(source, i + 2, ']');
    else if (source[i] === ']') return i;
  }
  return source.length;
}

function closing(source: string, from: number, char: string): number {
  const end = source.indexOf(char, from);
  return end === -1 ? source.length : end;
}

/**
 * Refuses a regex (or regexes together) whose RE2 program would pass `limit` units, before
 * compiling it: the one bound every user regex passes (the content query, `nameRegex`). Returns its size.
 */
export function checkRe2Size(size: number, option: string, code: 'FF_INVALID_QUERY' | 'FF_INVALID_OPTION', limit = MAX_RE2_SIZE): number {
  if (size <= limit) return size;
  throw new FindFileError(
    code,
    `${option} expands to about ${size.toLocaleString('en-US')} regex instructions, over the limit of ${limit.toLocaleString('en-US')}: use fewer or smaller counted repeats (a{1000} is 1,000; x{1000} repeated is 1,000 per copy), or a shorter regex`,
    option,
  );
}
