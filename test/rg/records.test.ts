/**
 * The stream splitter under ripgrep's output: records must come out whole whatever the chunking,
 * including chunks that end inside a multi-byte UTF-8 character, and memory must stay capped.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordSplitter } from '../../src/rg/records.js';

const NAMES = ['a/ü.ts', '日本/語.ts', '😀 smile.ts', 'new\nline.ts', 'plain.txt'];
const STREAM = Buffer.from(NAMES.map((n) => n + '\0').join('') + 'cut-sh', 'utf8');

function splitAll(chunks: Uint8Array[], cap = 1 << 20): { records: string[]; rest: string | undefined; results: string[] } {
  const splitter = new RecordSplitter(0, cap);
  const records: string[] = [];
  const results = chunks.map((c) => splitter.push(c, (r) => (records.push(r), true)));
  return { records, rest: splitter.rest(), results };
}

describe('RecordSplitter', () => {
  it('splits NUL-terminated records and holds back an unterminated tail', () => {
    const { records, rest } = splitAll([STREAM]);
    expect(records).toEqual(NAMES);
    expect(rest).toBe('cut-sh');
  });

  it('gives the same records for a split at every byte offset, inside multi-byte characters too', () => {
    // The stream holds 2-, 3- and 4-byte characters: most offsets near them land mid-character.
    expect(STREAM.length).toBeGreaterThan(NAMES.join('').length);
    for (let at = 0; at <= STREAM.length; at++) {
      const { records, rest } = splitAll([STREAM.subarray(0, at), STREAM.subarray(at)]);
      expect(records, `split at byte ${at}`).toEqual(NAMES);
      expect(rest).toBe('cut-sh');
    }
  });

  it('gives the same records fed one byte at a time, and from three-way splits', () => {
    expect(splitAll([...STREAM].map((b) => Uint8Array.of(b))).records).toEqual(NAMES);
    for (let i = 0; i < STREAM.length; i += 3) {
      for (let j = i; j < STREAM.length; j += 5) {
        const chunks = [STREAM.subarray(0, i), STREAM.subarray(i, j), STREAM.subarray(j)];
        expect(splitAll(chunks).records).toEqual(NAMES);
      }
    }
  });

  it('does not keep a reference to a chunk the caller may reuse', () => {
    const splitter = new RecordSplitter(0, 100);
    const chunk = Buffer.from('abc');
    splitter.push(chunk, () => true);
    chunk.fill(0x78); // "xxx"
    const records: string[] = [];
    splitter.push(Buffer.from('def\0'), (r) => (records.push(r), true));
    expect(records).toEqual(['abcdef']);
  });

  it('stops at the record the consumer refuses and reads nothing after it', () => {
    const splitter = new RecordSplitter(0, 100);
    const seen: string[] = [];
    const result = splitter.push(Buffer.from('a\0b\0c\0'), (r) => (seen.push(r), r !== 'b'));
    expect(result).toBe('stopped');
    expect(seen).toEqual(['a', 'b']);
  });

  it('reports overflow when an unfinished record outgrows the cap, across chunks or within one', () => {
    const across = new RecordSplitter(0, 8);
    expect(across.push(Buffer.from('12345'), () => true)).toBe('ok');
    expect(across.push(Buffer.from('6789'), () => true)).toBe('overflow');
    const within = new RecordSplitter(0, 8);
    expect(within.push(Buffer.from('ok\x00123456789\x00'), () => true)).toBe('overflow');
    // A record of exactly the cap is fine.
    expect(new RecordSplitter(0, 8).push(Buffer.from('12345678\0'), () => true)).toBe('ok');
  });

  it('splits lines for stderr and --json with the newline delimiter', () => {
    const splitter = new RecordSplitter(10, 100);
    const lines: string[] = [];
    splitter.push(Buffer.from('one\ntw'), (l) => (lines.push(l), true));
    splitter.push(Buffer.from('o\nthree'), (l) => (lines.push(l), true));
    expect(lines).toEqual(['one', 'two']);
    expect(splitter.rest()).toBe('three');
    expect(splitter.rest()).toBeUndefined();
  });

  it('keeps a BOM that starts a record: it is part of the name', () => {
    const { records } = splitAll([Buffer.from('\uFEFFbom.ts\0\uFEFF\0x\0', 'utf8')]);
    expect(records).toEqual(['\uFEFFbom.ts', '\uFEFF', 'x']);
  });

  // The reference: the whole stream cut at each delimiter, each record decoded on its own, taken
  // up to the first one over the cap. Any chunking must give exactly that, invalid UTF-8 included.
  const BYTES = fc.array(fc.oneof(fc.constantFrom(0, 10, 0xef, 0xbb, 0xbf, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80, 0xc3, 0xa9, 0x80, 0xff), fc.integer({ min: 0, max: 255 })), { maxLength: 120 });
  it('matches a per-record decode of the whole stream for any bytes and any chunking', () => {
    fc.assert(
      fc.property(BYTES, fc.array(fc.nat(), { maxLength: 8 }), fc.constantFrom(0, 10), fc.integer({ min: 1, max: 40 }), (bytes, cuts, delimiter, cap) => {
        const stream = Uint8Array.from(bytes);
        const expected: string[] = [];
        let overflow = false;
        let start = 0;
        for (let end = stream.indexOf(delimiter); end >= 0; end = stream.indexOf(delimiter, start)) {
          if (end - start > cap) {
            overflow = true;
            break;
          }
          expected.push(new TextDecoder('utf-8', { ignoreBOM: true }).decode(stream.subarray(start, end)));
          start = end + 1;
        }
        const tailTooLong = !overflow && stream.length - start > cap;
        const offsets = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...offsets].map((at, i, all) => stream.subarray(at, all[i + 1] ?? stream.length));
        const splitter = new RecordSplitter(delimiter, cap);
        const records: string[] = [];
        let result = 'ok';
        for (const chunk of chunks) {
          result = splitter.push(chunk, (r) => (records.push(r), true));
          if (result !== 'ok') break;
        }
        expect(records).toEqual(expected);
        expect(result === 'overflow').toBe(overflow || tailTooLong);
        if (result === 'ok') {
          const tail = stream.subarray(start);
          expect(splitter.rest()).toBe(tail.length === 0 ? undefined : new TextDecoder('utf-8', { ignoreBOM: true }).decode(tail));
        }
      }),
      { numRuns: 3000, seed: 20261203 },
    );
  });
});
