/**
 * Parity with the real ripgrep on a real temp tree: for the same root, query and options, the
 * pure-TS path and `rg --json` return the same hits (path, line, column, text), and `auto` runs
 * ripgrep. The tree holds what tends to break a content search: Chinese and emoji before a match,
 * CRLF files, a binary file (and one whose NUL is past the first chunk), a file without a trailing newline, BOMs (UTF-8, UTF-16), invalid
 * UTF-8, a long line, several matches on one line, hidden and nested files.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { searchContent, type ContentOptions } from '../../src/index.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';

let root: string;

const FILES: Record<string, string | Buffer> = {
  'ascii.txt': 'alpha\nthe needle here\nneedle needle twice\nNeedle capital\nomega\n',
  'chinese.md': '第一行\n中文中文 needle 在这里\n针 needle\n',
  'emoji.txt': '😀😀 needle\n👩‍👩‍👧 family needle\nplain\n',
  'crlf.txt': 'first\r\nsecond needle\r\n\r\nneedle at start\r\n',
  'no-newline.txt': 'line one\nlast needle without newline',
  'binary.bin': Buffer.concat([Buffer.from('needle in a binary\n'), Buffer.from([0, 1, 2]), Buffer.from('needle again\n')]),
  'bom-utf8.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('ab needle\nneedle\n')]),
  'bom-utf16le.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('zz needle\r\n中 needle\r\n', 'utf16le')]),
  'invalid-utf8.txt': Buffer.concat([Buffer.from('ok\n'), Buffer.from([0x61, 0xff, 0xfe, 0x20]), Buffer.from('needle\n')]),
  'long.txt': 'x'.repeat(3000) + ' needle ' + 'y'.repeat(3000) + '\n',
  'multi.txt': 'end\nstart\nmiddle\nend\nstart\n',
  '.hidden/secret.txt': 'hidden needle\n',
  // A NUL past the first 64 KiB, on a line with the text before it: both engines stop before the 64 KiB that holds it (rg's binary_offset).
  'late-nul.log': Buffer.concat([Buffer.from('needle 0\nend\nstart\n'.repeat(6000)), Buffer.from('needle 5\0 needle\nneedle 8\n')]),
  'src/deep/er/code.ts': 'export const needle = "中文";\n// TODO needle\n',
  'src/empty.ts': '',
  'dir with space/file one.txt': 'needle in a spaced path\n',
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-content-parity-'));
  for (const [rel, data] of Object.entries(FILES)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), data);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

requireRipgrepInCi();

const CASES: [string, Partial<ContentOptions>][] = [
  ['a literal, smart case', { query: 'needle' }],
  ['a literal with an upper-case letter (smart: exact case)', { query: 'Needle' }],
  ['ignoring case', { query: 'NEEDLE', caseSensitive: false }],
  ['Chinese', { query: '中文' }],
  ['an emoji', { query: '😀' }],
  ['a regex', { query: 'ne+dle\\s+(twice|here)', mode: 'regex' }],
  ['a multi-line literal', { query: 'end\nstart' }],
  ['a file pattern and an exclude', { query: 'needle', pattern: ['*.txt', '*.ts'], exclude: ['src/deep/'] }],
  ['hidden files left out', { query: 'needle', hidden: false }],
  ['a short maxLineChars', { query: 'needle', maxLineChars: 12 }],
  ['context lines before and after', { query: 'needle', contextBefore: 2, contextAfter: 1 }],
  ['context lines cut by a short maxLineChars', { query: 'needle', contextBefore: 1, contextAfter: 2, maxLineChars: 5 }],
  ['a multi-line literal with context', { query: 'end\nstart', contextBefore: 1, contextAfter: 1 }],
];

describeIf(needsRg)('the pure-TS path and rg --json agree', () => {
  it.each(CASES)('%s', async (_name, options) => {
    const base = { root, rgPath: realRg.path, ...options } as ContentOptions;
    const walker = await searchContent({ ...base, backend: 'walker' });
    const ripgrep = await searchContent({ ...base, backend: 'ripgrep' });
    expect(ripgrep.backend).toBe('ripgrep');
    expect(ripgrep.hits).toEqual(walker.hits);
    expect(ripgrep.hits.length).toBeGreaterThan(0);
    for (const result of [walker, ripgrep]) {
      expect(result).toMatchObject({ complete: true, protocolErrors: 0, hitCount: walker.hits.length, truncated: walker.truncated });
    }
    const auto = await searchContent({ ...base, backend: 'auto' });
    expect(auto.backend).toBe('ripgrep');
    expect(auto.hits).toEqual(walker.hits);
  });

  it('the hits are the ones a reader expects: columns after wide characters, CRLF, BOMs, no binary', async () => {
    const { hits } = await searchContent({ root, query: 'needle', backend: 'ripgrep', rgPath: realRg.path });
    const at = (path: string) => hits.filter((h) => h.path === path).map((h) => [h.line, h.column, h.text]);
    expect(at('chinese.md')).toEqual([[2, 6, '中文中文 needle 在这里'], [3, 3, '针 needle']]);
    expect(at('emoji.txt')).toEqual([[1, 6, '😀😀 needle'], [2, 17, '👩‍👩‍👧 family needle']]);
    expect(at('crlf.txt')).toEqual([[2, 8, 'second needle'], [4, 1, 'needle at start']]);
    expect(at('no-newline.txt')).toEqual([[2, 6, 'last needle without newline']]);
    expect(at('bom-utf8.txt')).toEqual([[1, 4, 'ab needle'], [2, 1, 'needle']]);
    expect(at('bom-utf16le.txt')).toEqual([[1, 4, 'zz needle'], [2, 3, '中 needle']]);
    expect(at('invalid-utf8.txt')).toEqual([[2, 5, 'a\uFFFD\uFFFD needle']]);
    expect(at('binary.bin')).toEqual([]);
    // ripgrep stops before its buffer that holds the NUL: the first 64 KiB here, 3,449 of the 6,001 lines with the text before the NUL.
    expect(at('late-nul.log')).toHaveLength(3449);
    expect(at('late-nul.log').at(-1)).toEqual([10345, 1, 'needle 0']);
    expect(at('long.txt')).toEqual([[1, 3002, 'x'.repeat(500)]]);
    expect(hits.find((h) => h.path === 'long.txt')).toMatchObject({ textTruncated: true });
  });
});
