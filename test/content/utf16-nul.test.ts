/**
 * A UTF-16 file with a U+0000 (src/content/scanner.ts `utf16Binary`): ripgrep 13 decodes UTF-16 8 KiB
 * of the file at a time and looks for a NUL in each decoded piece. One in the first 8 KiB: binary,
 * not searched. One later: the lines that end before its piece are searched, then the file is left.
 * An adversarial run: a U+0000 ~12 KB in, `needle` on line 1: ripgrep gave the hit, the pure-TS
 * path (which looked in its first 64 KiB chunk) called the file binary and gave none.
 *
 * Oracle: the real ripgrep on generated UTF-16 files (both byte orders, ASCII and wider text, the
 * NUL anywhere in the first 80 KB): the walker's hits are rg's, line by line, for a line-by-line query.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { searchContent, type ContentResult } from '../../src/index.js';
import { mulberry32 } from '../helpers/prng.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';

requireRipgrepInCi();

const FILES = 80;
let dir: string;

function utf16(text: string, bigEndian: boolean): Buffer {
  const le = Buffer.from(text, 'utf16le');
  if (bigEndian) le.swap16();
  return Buffer.concat([Buffer.from(bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]), le]);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ff-utf16-nul-'));
  mkdirSync(join(dir, 'files'));
  const random = mulberry32(61); // a failure names a file that comes back
  const words = ['needle', 'filler text', 'é needle ü', 'line of words', '中文 needle', 'x'];
  for (let i = 0; i < FILES; i++) {
    const lines: string[] = [];
    for (let units = 0; units < 45_000; ) {
      const line = words[Math.floor(random() * words.length)]!.repeat(1 + Math.floor(random() * 8));
      lines.push(line);
      units += line.length + 1;
    }
    let text = lines.join('\n') + '\n';
    const at = Math.floor(random() * 40_000); // a code unit: bytes 2 + 2 × at
    text = text.slice(0, at) + '\0' + text.slice(at);
    writeFileSync(join(dir, 'files', `f${String(i).padStart(2, '0')}.txt`), utf16(text, i % 2 === 1));
  }
  // The adversarial run's file.
  writeFileSync(join(dir, 'files', 'repro.txt'), utf16('needle first\n' + 'filler line of text\n'.repeat(300) + 'x\0y\nneedle after\n', false));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const lines = (result: ContentResult) => result.hits.map((hit) => `${hit.path}:${hit.line}:${hit.column}`).sort();

describeIf(needsRg)('UTF-16 files with a U+0000, against the real rg', () => {
  it('the walker gives the hits rg gives: those on lines that end before the 8 KiB piece that holds the NUL', async () => {
    const options = { root: join(dir, 'files'), query: 'needle', rgPath: realRg.path };
    const walker = await searchContent({ ...options, backend: 'walker' });
    const rg = await searchContent({ ...options, backend: 'ripgrep' });
    expect(lines(walker)).toEqual(lines(rg));
    expect(walker.hits.filter((hit) => hit.path === 'repro.txt').map((hit) => hit.line)).toEqual([1]);
    // Not vacuous: files binary from their first piece (no hit) and files with hits before the NUL.
    const withHits = new Set(walker.hits.map((hit) => hit.path)).size;
    expect(withHits).toBeGreaterThan(40);
    expect(withHits).toBeLessThan(FILES);
  }, 60_000);
});
