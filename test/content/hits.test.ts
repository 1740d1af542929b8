/**
 * The hit collector both content engines share (src/content/hits.ts), driven directly: which hits a
 * limit keeps, when the search stops and why, which lines become context, and the small text helpers
 * the CLI and the agent print hits with. Written for the Stryker survivors of issue 28.
 */
import { describe, expect, it } from 'vitest';
import {
  HitCollector,
  breaksGroup,
  decodeUtf8,
  dropCr,
  firstLine,
  shownUpTo,
  utf16IndexOfByteOffset,
  utf16IndexOfByteOffsetIn,
  type HitLimits,
} from '../../src/content/hits.js';
import type { ContentHit } from '../../src/content/types.js';
import { cutText } from '../../src/text-escape.js';

const NO_LIMITS: HitLimits = { maxResults: Infinity, maxLineChars: Infinity, maxOutputBytes: Infinity, perFile: Infinity, before: 0, after: 0 };

function collect(limits: Partial<HitLimits>) {
  const hits: ContentHit[] = [];
  const collector = new HitCollector({ ...NO_LIMITS, ...limits }, (hit) => hits.push(hit));
  return { hits, collector };
}

describe('HitCollector: hits per file (maxHitsPerFile)', () => {
  it('keeps the first N hits of each file, counts the files it cut, and says a file is full once it reaches N', () => {
    const { hits, collector } = collect({ perFile: 2 });
    expect(collector.add('a', 1, 1, 'x')).toBe(true);
    expect(collector.isFull('a')).toBe(false);
    expect(collector.add('a', 2, 1, 'x')).toBe(true);
    expect(collector.isFull('a')).toBe(true);
    // A third is no hit, and no stop: the engine merely reads no further.
    expect(collector.add('a', 3, 1, 'x')).toBe(true);
    expect(collector.add('b', 7, 1, 'x')).toBe(true);
    expect(collector.isFull('a')).toBe(false);
    collector.endFile();
    expect(hits.map((h) => `${h.path}:${h.line}`)).toEqual(['a:1', 'a:2', 'b:7']);
    expect(collector).toMatchObject({ hitCount: 3, filesAtCap: 1, stopReason: undefined });
    expect(collector.capField()).toEqual({ filesAtHitCap: 1 });
    expect(collect({}).collector.capField()).toEqual({});
  });

  it('a capped file\'s later hits are not maxResults\' "one more": the search goes on to the next file', () => {
    const { hits, collector } = collect({ perFile: 1, maxResults: 2 });
    expect([collector.add('a', 1, 1, 'x'), collector.add('a', 2, 1, 'x'), collector.add('b', 1, 1, 'x')]).toEqual([true, true, true]);
    expect(collector.stopReason).toBeUndefined();
    expect(collector.add('c', 1, 1, 'x')).toBe(false);
    expect(collector.stopReason).toBe('result-limit');
    expect(hits.map((h) => h.path)).toEqual(['a', 'b']);
  });

  it('after the Nth hit, its after-context is still taken, a matching line in it as context (as grep -m), and only then is the file full', () => {
    const { hits, collector } = collect({ perFile: 1, after: 2 });
    collector.add('a', 1, 1, 'hit one');
    expect(collector.isFull('a')).toBe(false);
    expect(collector.add('a', 2, 1, 'hit two')).toBe(true);
    expect(collector.isFull('a')).toBe(false);
    collector.context('a', 3, 'plain');
    expect(collector.isFull('a')).toBe(true);
    expect(hits).toEqual([{ path: 'a', line: 1, column: 1, text: 'hit one', after: [{ line: 2, text: 'hit two' }, { line: 3, text: 'plain' }] }]);
    expect(collector.hitCount).toBe(1);
  });

  it('hits a retried run passes over count toward the cap (ripgrep\'s --max-count counts them too)', () => {
    const { hits, collector } = collect({ perFile: 2 });
    collector.passOver('a');
    collector.add('a', 5, 1, 'x');
    expect(collector.isFull('a')).toBe(true);
    collector.add('a', 6, 1, 'x');
    expect(hits.map((h) => h.line)).toEqual([5]);
  });
});

describe('HitCollector limits', () => {
  it('maxResults: takes exactly that many, and stops (result-limit) only on seeing one more', () => {
    const { hits, collector } = collect({ maxResults: 2 });
    expect([collector.add('a', 1, 1, 'x'), collector.add('a', 2, 1, 'x')]).toEqual([true, true]);
    expect(collector.stopReason).toBeUndefined();
    expect(collector.add('b', 1, 1, 'x')).toBe(false);
    expect(collector).toMatchObject({ hitCount: 2, stopReason: 'result-limit', truncated: false });
    expect(hits.map((h) => `${h.path}:${h.line}`)).toEqual(['a:1', 'a:2']);
    // Stopped: nothing more is taken, a context line neither.
    expect([collector.add('b', 2, 1, 'x'), collector.context('b', 3, 'y')]).toEqual([false, false]);
  });

  it('maxOutputBytes counts the path and the text in UTF-8 bytes: a hit that fits exactly is kept, one byte more stops (output-limit)', () => {
    // 'é' is two bytes: path 'p' (1) + 'éé' (4) = 5 bytes per hit.
    const { hits, collector } = collect({ maxOutputBytes: 10 });
    expect([collector.add('p', 1, 1, 'éé'), collector.add('p', 2, 1, 'éé')]).toEqual([true, true]);
    expect(collector.outputBytes).toBe(10);
    expect(collector.add('p', 3, 1, 'x')).toBe(false);
    expect(collector).toMatchObject({ hitCount: 2, stopReason: 'output-limit', truncated: true });
    expect(hits).toHaveLength(2);
  });

  it('once stopped by a hit too big for maxOutputBytes, a small hit that would still fit is not taken either', () => {
    const { hits, collector } = collect({ maxOutputBytes: 10 });
    expect(collector.add('p', 1, 1, 'far too long for ten bytes')).toBe(false);
    expect(collector.add('p', 2, 1, 'x')).toBe(false);
    expect(hits).toEqual([]);
    expect(collector).toMatchObject({ hitCount: 0, outputBytes: 0, stopReason: 'output-limit' });
  });

  it('maxLineChars cuts the text and flags the hit and the search; a line of exactly the limit is not cut', () => {
    const { hits, collector } = collect({ maxLineChars: 3 });
    collector.add('a', 1, 1, 'abc');
    expect(collector.truncated).toBe(false);
    collector.add('a', 2, 1, 'abcd');
    expect(hits).toEqual([
      { path: 'a', line: 1, column: 1, text: 'abc' },
      { path: 'a', line: 2, column: 1, text: 'abc', textTruncated: true },
    ]);
    expect(collector.truncated).toBe(true);
  });

  it('gives a match over several lines its last line, and a one-line match none', () => {
    const { hits, collector } = collect({});
    collector.add('a', 3, 2, 'x', 5);
    collector.add('a', 7, 1, 'y', 7);
    expect(hits).toEqual([
      { path: 'a', line: 3, column: 2, text: 'x', endLine: 5 },
      { path: 'a', line: 7, column: 1, text: 'y' },
    ]);
  });
});

describe('HitCollector context', () => {
  it('before: only the lines within reach of the hit, of its own file, and each shown once', () => {
    const { hits, collector } = collect({ before: 2 });
    for (const n of [1, 2, 3, 4]) collector.context('a', n, `l${n}`);
    collector.add('a', 5, 1, 'hit');
    collector.add('a', 6, 1, 'hit2'); // its before would be line 5: already shown as a hit
    collector.context('a', 7, 'l7');
    collector.add('b', 1, 1, 'other file'); // line 7 of a is not b's context
    expect(hits.map((h) => [h.path, h.line, h.before])).toEqual([
      ['a', 5, [{ line: 3, text: 'l3' }, { line: 4, text: 'l4' }]],
      ['a', 6, []],
      ['b', 1, []],
    ]);
  });

  it('before: a long run of lines between hits keeps the last ones (the held lines are trimmed, never the ones needed)', () => {
    const { hits, collector } = collect({ before: 2 });
    // With before 2 the held lines are trimmed once they pass 20: line 97 is the fifth trim, so the
    // trim itself must keep the newest lines.
    for (let n = 1; n <= 97; n++) collector.context('a', n, `l${n}`);
    collector.add('a', 98, 1, 'hit');
    expect(hits[0]!.before).toEqual([
      { line: 96, text: 'l96' },
      { line: 97, text: 'l97' },
    ]);
  });

  it('before: a cut context line is flagged, and so is the search; its bytes count toward maxOutputBytes', () => {
    // 'a' + 'ok' + 'lo' = 5 bytes: they fit a cap of 5 exactly (a cap of 4 stops the search: below).
    const { hits, collector } = collect({ before: 1, maxLineChars: 2, maxOutputBytes: 5 });
    collector.context('a', 1, 'long');
    expect(collector.add('a', 2, 1, 'ok')).toBe(true);
    expect(hits[0]!.before).toEqual([{ line: 1, text: 'lo', textTruncated: true }]);
    expect(collector.truncated).toBe(true);
    expect(collector.outputBytes).toBe(5);
    // One cut line among several is enough to flag the search.
    const some = collect({ before: 2, maxLineChars: 2 });
    some.collector.context('a', 1, 'long');
    some.collector.context('a', 2, 'ok');
    some.collector.add('a', 3, 1, 'hi');
    expect(some.hits[0]!.before).toEqual([{ line: 1, text: 'lo', textTruncated: true }, { line: 2, text: 'ok' }]);
    expect(some.collector.truncated).toBe(true);
    const tight = collect({ before: 1, maxOutputBytes: 4 });
    tight.collector.context('a', 1, 'lo');
    expect(tight.collector.add('a', 2, 1, 'ok')).toBe(false);
    expect(tight.collector.stopReason).toBe('output-limit');
  });

  it('after: the hit waits for its lines, is handed on at the next hit, at the end of its file, or when the count is reached', () => {
    const { hits, collector } = collect({ after: 2 });
    collector.add('a', 1, 1, 'h1');
    expect(hits).toHaveLength(0);
    collector.context('a', 2, 'c2');
    collector.add('a', 3, 1, 'h2'); // h1 handed on with one line
    expect(hits.map((h) => [h.line, h.after])).toEqual([[1, [{ line: 2, text: 'c2' }]]]);
    collector.context('a', 4, 'c4');
    collector.context('a', 5, 'c5'); // h2 complete
    expect(hits).toHaveLength(2);
    expect(hits[1]!.after).toEqual([
      { line: 4, text: 'c4' },
      { line: 5, text: 'c5' },
    ]);
    collector.context('a', 6, 'c6'); // nobody's after-context
    collector.add('a', 7, 1, 'h3');
    collector.endFile();
    expect(hits.map((h) => [h.line, h.after])).toEqual([
      [1, [{ line: 2, text: 'c2' }]],
      [3, [{ line: 4, text: 'c4' }, { line: 5, text: 'c5' }]],
      [7, []],
    ]);
  });

  it('after: a hit of another file hands the waiting one on without taking that file\'s lines', () => {
    const { hits, collector } = collect({ after: 1 });
    collector.add('a', 1, 1, 'h');
    collector.context('b', 1, 'b1');
    expect(hits).toEqual([{ path: 'a', line: 1, column: 1, text: 'h', after: [] }]);
  });

  it('after: a context line over maxOutputBytes stops the search and still hands on the waiting hit', () => {
    const { hits, collector } = collect({ after: 2, maxOutputBytes: 4, maxLineChars: 5 });
    collector.add('a', 1, 1, 'hh'); // 3 bytes
    expect(collector.context('a', 2, 'c')).toBe(true); // 4 bytes: fits exactly
    expect(collector.context('a', 3, 'c')).toBe(false);
    expect(collector).toMatchObject({ stopReason: 'output-limit', truncated: true, outputBytes: 4 });
    expect(hits).toEqual([{ path: 'a', line: 1, column: 1, text: 'hh', after: [{ line: 2, text: 'c' }] }]);
  });

  it('after: a cut after-line is flagged and so is the search', () => {
    const { hits, collector } = collect({ after: 1, maxLineChars: 1 });
    collector.add('a', 1, 1, 'h');
    collector.context('a', 2, 'long');
    expect(hits[0]!.after).toEqual([{ line: 2, text: 'l', textTruncated: true }]);
    expect(collector.truncated).toBe(true);
  });

  it('passOver: a hit an earlier run handed on ends the waiting one, and the lines before it are not the next hit\'s', () => {
    const { hits, collector } = collect({ before: 2, after: 1 });
    collector.add('a', 1, 1, 'h1');
    collector.passOver('a');
    expect(hits).toHaveLength(1);
    collector.context('a', 3, 'seen with the passed-over hit');
    collector.passOver('a');
    collector.add('a', 4, 1, 'h2');
    collector.endFile();
    expect(hits[1]!.before).toEqual([]);
  });

  it('wants context lines only when before or after is set', () => {
    expect([collect({}).collector.wantsContext, collect({ before: 1 }).collector.wantsContext, collect({ after: 1 }).collector.wantsContext]).toEqual([false, true, true]);
  });
});

describe('text helpers', () => {
  it('cutText never ends on half of a surrogate pair, and cuts nothing that fits', () => {
    expect(cutText('a😀b', 2)).toBe('a');
    expect(cutText('a😀b', 3)).toBe('a😀');
    expect(cutText('abc', 3)).toBe('abc');
    expect(cutText('abc', 0)).toBe('');
    expect(cutText('😀', 1)).toBe('');
    // The first and last high surrogates (U+10000, U+10FFFF) are halves too.
    expect(cutText('\u{10000}x', 1)).toBe('');
    expect(cutText('\u{10FFFF}x', 1)).toBe('');
    // A text within the limit is returned whole, whatever its last unit.
    expect(cutText('a\ud83d', 2)).toBe('a\ud83d');
  });

  it('firstLine shows the first line of a multi-line match, without a CR; dropCr drops only a final CR', () => {
    expect(firstLine('one\r\ntwo')).toBe('one');
    expect(firstLine('only\r')).toBe('only');
    expect(firstLine('a\rb')).toBe('a\rb');
    expect(firstLine('\nsecond')).toBe('');
    expect(dropCr('x\r')).toBe('x');
    expect(dropCr('x\ry')).toBe('x\ry');
  });

  it('utf16IndexOfByteOffset maps ripgrep\'s byte offsets for 1- to 4-byte characters, and refuses one inside a character or past the end', () => {
    const text = 'aé€😀b'; // bytes: 1, 2, 3, 4, 1
    expect([0, 1, 3, 6, 10, 11].map((b) => utf16IndexOfByteOffset(text, b))).toEqual([0, 1, 2, 3, 5, 6]);
    expect([2, 4, 5, 7, 12].map((b) => utf16IndexOfByteOffset(text, b))).toEqual([undefined, undefined, undefined, undefined, undefined]);
    // Past the end by the width a character would have: still no index.
    expect(utf16IndexOfByteOffset('ab', 6)).toBeUndefined();
    // The boundaries of each UTF-8 length: U+007F (1), U+0080 and U+07FF (2), U+0800 and U+FFFF (3), U+10000 (4).
    expect(utf16IndexOfByteOffset('\u007f|', 1)).toBe(1);
    expect(utf16IndexOfByteOffset('\u0080|', 2)).toBe(1);
    expect(utf16IndexOfByteOffset('\u07ff|', 2)).toBe(1);
    expect(utf16IndexOfByteOffset('\u0800|', 3)).toBe(1);
    expect(utf16IndexOfByteOffset('\uffff|', 3)).toBe(1);
    expect(utf16IndexOfByteOffset('\u{10000}|', 4)).toBe(2);
  });

  it('utf16IndexOfByteOffsetIn counts invalid bytes as the decoded line does, and refuses an offset past the end', () => {
    const bytes = Uint8Array.of(0x61, 0xff, 0x62); // 'a', an invalid byte, 'b'
    expect(decodeUtf8(bytes)).toBe('a\ufffdb');
    expect([0, 2, 3].map((b) => utf16IndexOfByteOffsetIn(bytes, b))).toEqual([0, 2, 3]);
    expect(utf16IndexOfByteOffsetIn(bytes, 4)).toBeUndefined();
    expect(decodeUtf8(Uint8Array.of(0xef, 0xbb, 0xbf, 0x78))).toBe('\ufeffx');
  });

  it('shownUpTo is the last line a hit shows; breaksGroup says where rg prints "--"', () => {
    const plain: ContentHit = { path: 'a', line: 3, column: 1, text: 'x' };
    expect(shownUpTo(plain)).toEqual({ path: 'a', lastLine: 3 });
    expect(shownUpTo({ ...plain, endLine: 5 })).toEqual({ path: 'a', lastLine: 5 });
    expect(shownUpTo({ ...plain, endLine: 5, after: [{ line: 6, text: '' }] })).toEqual({ path: 'a', lastLine: 6 });
    expect(shownUpTo({ ...plain, after: [] })).toEqual({ path: 'a', lastLine: 3 });
    const shown = { path: 'a', lastLine: 3 };
    expect(breaksGroup(undefined, plain)).toBe(false);
    expect(breaksGroup(shown, { ...plain, line: 4 })).toBe(false);
    expect(breaksGroup(shown, { ...plain, line: 5 })).toBe(true);
    expect(breaksGroup(shown, { ...plain, line: 6, before: [{ line: 4, text: '' }] })).toBe(false);
    expect(breaksGroup(shown, { ...plain, line: 6, before: [{ line: 5, text: '' }] })).toBe(true);
    expect(breaksGroup(shown, { ...plain, path: 'b', line: 4 })).toBe(true);
    // Context asked for, none before the hit (an empty list): the hit's own line decides.
    expect(breaksGroup(shown, { ...plain, line: 5, before: [] })).toBe(true);
    expect(breaksGroup(shown, { ...plain, line: 4, before: [] })).toBe(false);
  });
});
