/**
 * The pure-TS path's per-file search, fed bytes directly: line numbers, columns in UTF-16 units,
 * CRLF, BOMs and UTF-16, invalid UTF-8, binary detection, multi-line grouping (the expected hits
 * are what `rg --json` 13 printed for the same bytes), the held-text cap, and chunks split at every
 * byte offset, inside multi-byte characters too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HitCollector } from '../../src/content/hits.js';
import { buildLineMatcher, readQuery, type Query } from '../../src/content/query.js';
import { FileScanner, MAX_HELD_CHARS, READ_CHUNK_BYTES, buildNeedle, type ScanState } from '../../src/content/scanner.js';
import type { ContentHit } from '../../src/content/types.js';

type Hit = [line: number, column: number, text: string];

function scan(bytes: Uint8Array | string, query: string, options: { chunks?: Uint8Array[]; caseSensitive?: boolean; mode?: 'literal' | 'regex'; maxResults?: number } = {}) {
  const q = readQuery({ query, caseSensitive: options.caseSensitive ?? true, mode: options.mode }, true);
  const data = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  const chunks = options.chunks ?? [data];
  const text = scanWith(q, chunks, options.maxResults, undefined);
  // An exact-case literal is searched in the bytes (byte mode): it must find exactly what the
  // text search finds, in every case of this file.
  const needle = buildNeedle(q);
  if (needle !== undefined) expect(scanWith(q, chunks, options.maxResults, needle), 'byte mode').toEqual(text);
  // And when the reader knows its last chunk is the file's end (a whole file in one chunk: the
  // first look may decide it unread, byte-lines.ts `ByteLines.firstLook`).
  expect(scanWith(q, chunks, options.maxResults, needle, true), 'the end known').toEqual(text);
  return text;
}

function scanWith(q: Query, chunks: Uint8Array[], maxResults = Infinity, needle: Uint8Array | undefined, endKnown = false) {
  const hits: ContentHit[] = [];
  const collector = new HitCollector({ maxResults, maxLineChars: Infinity, maxOutputBytes: Infinity, perFile: Infinity, before: 0, after: 0 }, (h) => hits.push(h));
  const scanner = new FileScanner('f', buildLineMatcher(q), q.multiline, collector, needle);
  let state: ScanState = 'more';
  for (const [i, chunk] of chunks.entries()) {
    state = scanner.push(chunk, endKnown && i === chunks.length - 1);
    if (state !== 'more') break;
  }
  if (state === 'more') state = scanner.finish();
  return { state, hits: hits.map((h): Hit => [h.line, h.column, h.text]) };
}

/** The same bytes cut into two chunks at every offset, and fed one byte at a time. */
function everySplit(bytes: Uint8Array): Uint8Array[][] {
  const splits: Uint8Array[][] = [];
  for (let at = 0; at <= bytes.length; at++) splits.push([bytes.subarray(0, at), bytes.subarray(at)].filter((c) => c.length > 0));
  splits.push([...bytes].map((b) => Uint8Array.of(b)));
  return splits;
}

describe('lines and columns', () => {
  it('reports each matching line once, with the column of its first match, in UTF-16 units', () => {
    const text = 'hello world\n中文 hello 😀 hello\n😀😀hello\nnothing\nno newline hello';
    expect(scan(text, 'hello')).toEqual({
      state: 'done',
      hits: [
        [1, 1, 'hello world'],
        [2, 4, '中文 hello 😀 hello'],
        [3, 5, '😀😀hello'],
        [5, 12, 'no newline hello'],
      ],
    });
  });

  it('gives CRLF files the text and columns of LF files; the \\r is still seen by matching', () => {
    expect(scan('x\r\nab hello\r\n\r\nhello', 'hello').hits).toEqual([
      [2, 4, 'ab hello'],
      [4, 1, 'hello'],
    ]);
    expect(scan('a\r\nb\r\n', 'a\r').hits).toEqual([[1, 1, 'a']]);
  });

  it('finds the same hits whatever the chunking, inside multi-byte characters too', () => {
    const bytes = Buffer.from('a 中文\r\n😀 x 中文 y\nz\n中文', 'utf8');
    const expected = [
      [1, 3, 'a 中文'],
      [2, 6, '😀 x 中文 y'],
      [4, 1, '中文'],
    ];
    for (const chunks of everySplit(bytes)) expect(scan(bytes, '中文', { chunks }).hits).toEqual(expected);
  });

  it('counts lines across blocks: a match in a later chunk has the right line number', () => {
    const filler = 'line\n'.repeat(20_000); // 100 KB: several chunks
    expect(scan(filler + 'x needle\n' + filler + 'needle', 'needle').hits).toEqual([
      [20_001, 3, 'x needle'],
      [40_002, 1, 'needle'],
    ]);
  });

  it('ignores case by Unicode folding, and runs a regex line by line', () => {
    expect(scan('Straße\nSTRAẞE\nstrasse\n', 'straße', { caseSensitive: false }).hits).toEqual([
      [1, 1, 'Straße'],
      [2, 1, 'STRAẞE'],
    ]);
    expect(scan('foo1\nbar22\nfoo\n', '\\d+$', { mode: 'regex' }).hits).toEqual([
      [1, 4, 'foo1'],
      [2, 4, 'bar22'],
    ]);
    expect(scan('ab\nb\n', '^b', { mode: 'regex' }).hits).toEqual([[2, 1, 'b']]);
  });

  it('an empty regex match is a hit at column 1 on every line, as in ripgrep', () => {
    expect(scan('abc\n\nx\n', 'z*', { mode: 'regex' }).hits).toEqual([
      [1, 1, 'abc'],
      [2, 1, ''],
      [3, 1, 'x'],
    ]);
  });

  it('stops at the hit limit', () => {
    expect(scan('a\na\na\n', 'a', { maxResults: 2 })).toEqual({ state: 'stop', hits: [[1, 1, 'a'], [2, 1, 'a']] });
  });
});

describe('encodings', () => {
  it('drops a UTF-8 BOM at the start only: columns count from after it', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('ab hello\n\uFEFFhello\n')]);
    expect(scan(bytes, 'hello').hits).toEqual([
      [1, 4, 'ab hello'],
      [2, 2, '\uFEFFhello'],
    ]);
  });

  it('drops one U+FEFF right after a UTF-16 BOM, as rg --json 13 does (its decoder drops the BOM, then a UTF-8 BOM)', () => {
    const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(scan(utf16('\uFEFFneedle\n'), 'needle').hits).toEqual([[1, 1, 'needle']]);
    expect(scan(utf16('\uFEFFneedle\n'), '\uFEFFneedle').hits).toEqual([]);
    expect(scan(utf16('\uFEFF\uFEFFneedle\n'), 'needle').hits).toEqual([[1, 2, '\uFEFFneedle']]);
    for (const chunks of everySplit(utf16('\uFEFFneedle\n'))) expect(scan(Buffer.concat(chunks), 'needle', { chunks }).hits).toEqual([[1, 1, 'needle']]);
  });

  it('decodes UTF-16 with a BOM (little and big endian), split anywhere', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('zz hello\r\n中 hello\r\n', 'utf16le')]);
    const be = Buffer.from(le);
    be.swap16();
    for (const bytes of [le, be]) {
      for (const chunks of everySplit(bytes)) {
        expect(scan(bytes, 'hello', { chunks }).hits).toEqual([
          [1, 4, 'zz hello'],
          [2, 3, '中 hello'],
        ]);
      }
    }
  });

  it('UTF-16 without a zero byte (every code unit outside Latin-1) is decoded, never judged by its UTF-8 bytes', () => {
    // The query's UTF-8 bytes are not in UTF-16 text: a whole file must not be taken for one without a hit.
    // One line: a line feed is 0A 00 in UTF-16LE.
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('文中文', 'utf16le')]);
    expect(bytes.includes(0)).toBe(false);
    expect(scan(bytes, '中').hits).toEqual([[1, 2, '文中文']]);
  });

  it('files of one and two bytes: the BOM sniff waits for three bytes, or the end', () => {
    expect(scan('a', 'a')).toEqual({ state: 'done', hits: [[1, 1, 'a']] });
    expect(scan('a\n', 'a', { chunks: [Buffer.from('a'), Buffer.from('\n')] })).toEqual({ state: 'done', hits: [[1, 1, 'a']] });
    expect(scan(Buffer.from([0]), 'a').state).toBe('binary');
    expect(scan(Buffer.from([0xff, 0xfe]), '\uFFFD')).toEqual({ state: 'done', hits: [] }); // an empty UTF-16 file
    expect(scan(Buffer.from([0xff, 0x61]), '\uFFFD')).toEqual({ state: 'done', hits: [[1, 1, '\uFFFDa']] });
  });

  it('searches invalid UTF-8 as U+FFFD, columns counted in the decoded line', () => {
    const bytes = Buffer.from([0x61, 0xff, 0xfe, 0xe4, 0xb8, 0x20, 0x68, 0x69, 0x0a]); // a, 2 bad bytes, a cut 3-byte char, " hi"
    expect(scan(bytes, 'hi').hits).toEqual([[1, 6, 'a\uFFFD\uFFFD\uFFFD hi']]);
  });
});

describe('binary files', () => {
  it('a NUL in the first chunk: not searched at all', () => {
    expect(scan('hello\0\nhello\n', 'hello')).toEqual({ state: 'binary', hits: [] });
    const late = Buffer.concat([Buffer.from('hello\n'), Buffer.alloc(READ_CHUNK_BYTES - 7, 0x78), Buffer.from([0])]);
    expect(scan(late, 'hello', { chunks: [late] }).state).toBe('binary');
  });

  it('a NUL in a later chunk: the lines before that chunk are searched, nothing from it on', () => {
    const first = Buffer.from('hello 1\n' + 'x'.repeat(READ_CHUNK_BYTES - 8 - 6) + '\nhel'); // ends mid-line
    const second = Buffer.from('lo 2\nhello 3\n\0hello 4\n');
    expect(scan(Buffer.concat([first, second]), 'hello', { chunks: [first, second] })).toEqual({ state: 'binary-late', hits: [[1, 1, 'hello 1']] });
  });

  it('UTF-16 text is not binary, but a NUL character in it is', () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello\0', 'utf16le')]);
    expect(scan(bytes, 'hello').state).toBe('binary');
  });

  it('a multi-line search reads past a late NUL and quits at the first match whose lines hold one (rg --json 13: line 1 only, both)', () => {
    const first = Buffer.from('a\nb\n' + 'x'.repeat(READ_CHUNK_BYTES) + '\n');
    const second = Buffer.from('a\nb\0a\nb\n');
    expect(scan(Buffer.concat([first, second]), 'a\nb', { chunks: [first, second] })).toEqual({ state: 'binary-late', hits: [[1, 1, 'a']] });
    // Lines 4-5 and 6-7 touch: one match group, lines 4-7, which holds the NUL.
    const third = Buffer.from('a\nb\nc\0a\nb\n');
    expect(scan(Buffer.concat([first, third]), 'a\nb', { chunks: [first, third] })).toEqual({ state: 'binary-late', hits: [[1, 1, 'a']] });
    // A NUL in a line no match reaches: the search goes on past it, as rg's does (binary_offset null).
    const fourth = Buffer.from('c\0\nz\na\nb\n');
    expect(scan(Buffer.concat([first, fourth]), 'a\nb', { chunks: [first, fourth] })).toEqual({ state: 'done', hits: [[1, 1, 'a'], [6, 1, 'a']] });
  });
});

describe('multi-line queries (the hits rg --json 13 reports for the same bytes)', () => {
  it.each([
    ['a\nb\na\nb\n', [[1, 1, 'a']]], // touching matches: one hit
    ['xa\nbya\nbz\n', [[1, 2, 'xa']]], // overlapping lines: one hit
    ['a\nb a\nb\n', [[1, 1, 'a']]],
    ['a\nb\nz\na\nb\n', [[1, 1, 'a'], [4, 1, 'a']]], // a line between: two hits
    ['a\r\nb\n', []], // a CRLF line break is not the query's \n
  ] as [string, Hit[]][])('%j', (text, hits) => {
    expect(scan(text, 'a\nb').hits).toEqual(hits);
  });

  it('a regex with \\n matches across lines; its column and text are the first line\'s', () => {
    expect(scan('a\nb a\nb\n', 'b\\n', { mode: 'regex' }).hits).toEqual([[3, 1, 'b']]);
    expect(scan('x 中文\n1\n', '文\\n\\d', { mode: 'regex' }).hits).toEqual([[1, 4, 'x 中文']]);
  });

  it('finds the same across every chunking', () => {
    const bytes = Buffer.from('q 中\n文 z\n中\n文', 'utf8');
    // The second match starts on the line after the first one ends: touching, one hit (as rg).
    for (const chunks of everySplit(bytes)) expect(scan(bytes, '中\n文', { chunks }).hits).toEqual([[1, 3, 'q 中']]);
  });
});

describe('the held-text cap', () => {
  it('a line longer than MAX_HELD_CHARS gives the file up (too-long), keeping hits before it', () => {
    const chunk = Buffer.alloc(READ_CHUNK_BYTES, 0x78);
    const chunks = [Buffer.from('hit\n'), ...Array.from({ length: Math.ceil(MAX_HELD_CHARS / READ_CHUNK_BYTES) + 1 }, () => chunk)];
    expect(scan(Buffer.alloc(0), 'hit', { chunks })).toEqual({ state: 'too-long', hits: [[1, 1, 'hit']] });
  });

  it('a line over the cap in bytes but not in characters is searched (byte mode hands it to the text search)', () => {
    const chunk = Buffer.from('é'.repeat(READ_CHUNK_BYTES / 2), 'utf8');
    const chunks = [Buffer.from('hit\n'), ...Array.from({ length: Math.ceil(MAX_HELD_CHARS / READ_CHUNK_BYTES) + 4 }, () => chunk), Buffer.from('hit\nhit')];
    const { state, hits } = scan(Buffer.alloc(0), 'hit', { chunks });
    expect(state).toBe('done');
    expect(hits.map(([line, column]) => [line, column])).toEqual([
      [1, 1],
      [2, ((chunks.length - 2) * chunk.length) / 2 + 1],
      [3, 1],
    ]);
  });

  it('a file of many short lines is never too long', () => {
    const line = Buffer.from('y'.repeat(1023) + '\n');
    const chunk = Buffer.concat(Array.from({ length: READ_CHUNK_BYTES / 1024 }, () => line));
    const chunks = Array.from({ length: Math.ceil(MAX_HELD_CHARS / READ_CHUNK_BYTES) + 2 }, () => chunk);
    expect(scan(Buffer.alloc(0), 'z', { chunks }).state).toBe('done');
  });
});

describe('byte mode', () => {
  // Files made of the pieces that make line, column and decoding rules differ: line endings, BOMs
  // (at the start and inside), invalid and cut UTF-8, characters of 2, 3 and 4 bytes, a late NUL.
  const TEXT = ['static', 'sta', 'tic', 'a', 'é', '中文', '😀', ' ', '\n', '\r\n', '\r', '\uFEFF', '\0'].map((piece) => Buffer.from(piece, 'utf8'));
  const RAW = [[0xef, 0xbb, 0xbf], [0xff], [0xc3], [0xe2, 0x82], [0x80], [0xf0, 0x9f, 0x98]].map((bytes) => Buffer.from(bytes));
  const FILE = fc.array(fc.constantFrom(...TEXT, ...RAW), { maxLength: 60 }).map((pieces) => Buffer.concat(pieces));
  const QUERY = fc.constantFrom('static', 'a', 'é', '中文', 'a\r', '😀 ', 'tic', '\uFEFFa');

  it('finds what the text search finds, for any bytes, chunking and hit limit', () => {
    fc.assert(
      fc.property(FILE, QUERY, fc.array(fc.nat(), { maxLength: 5 }), fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }), (file, query, cuts, maxResults) => {
        const offsets = [...new Set(cuts.map((c) => c % (file.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...offsets].map((at, i, all) => file.subarray(at, all[i + 1] ?? file.length)).filter((c) => c.length > 0);
        const q = readQuery({ query, caseSensitive: true }, true);
        expect(scanWith(q, chunks, maxResults, buildNeedle(q))).toEqual(scanWith(q, chunks, maxResults, undefined));
      }),
      { numRuns: 4000, seed: 20261203 },
    );
  });
});
