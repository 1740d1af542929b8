/**
 * A multi-line search and a NUL past the first 64 KiB (src/content/multi-line.ts): ripgrep 13 looks
 * for a NUL in the first 64 KiB only, searches the whole file, and quits it at the first line it
 * would show that holds one (a match's lines, a context line). An adversarial run: the walker
 * stopped at the NUL and answered "complete" without the match after it that `rg -U` found.
 *
 * Oracle: the real ripgrep on generated files (64 KiB of filler, then a tail of short lines, some
 * holding NULs), with and without context: the walker's hits, their lines and context, are rg's.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { searchContent, type ContentOptions, type ContentResult } from '../../src/index.js';
import { mulberry32 } from '../helpers/prng.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';

requireRipgrepInCi();

const FILLER = 'filler\n'.repeat(10_000); // 70,000 bytes: the first 64 KiB hold no NUL
/** `end\\n.` matches an `end` line and any line after it, NUL or not. */
const TAIL_LINES = ['end', 'start', 'x\0', 'end\0', 'st\0art', 'mid', 'filler'];
const FILES = 60;

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-ml-nul-'));
  const dir = join(root, 'files');
  mkdirSync(dir);
  const random = mulberry32(53); // a failure names a file that comes back
  for (let i = 0; i < FILES; i++) {
    const tail = Array.from({ length: 4 + Math.floor(random() * 10) }, () => TAIL_LINES[Math.floor(random() * TAIL_LINES.length)]);
    writeFileSync(join(dir, `f${String(i).padStart(2, '0')}.txt`), `end\nstart\n${FILLER}${tail.join('\n')}\n`);
  }
  // The adversarial run's file: a NUL line, then a match after it.
  writeFileSync(join(dir, 'repro.txt'), `end\nstart\n${'filler\n'.repeat(20_000)}x\0\nend\nstart\n`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const shape = (result: ContentResult) =>
  result.hits
    .map((hit) => ({ path: hit.path, line: hit.line, endLine: hit.endLine, before: hit.before?.map((c) => c.line), after: hit.after?.map((c) => c.line) }))
    .sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);

describeIf(needsRg)('a multi-line search over files with a NUL past the first 64 KiB, against the real rg', () => {
  it.each([
    [0, 0],
    [1, 0],
    [0, 1],
    [2, 2],
  ])('context %i before, %i after: the walker gives rg\'s hits', async (contextBefore, contextAfter) => {
    const options = { root: join(root, 'files'), query: 'end\\n.', mode: 'regex', contextBefore, contextAfter, rgPath: realRg.path } as ContentOptions;
    const [walker, rg] = [await searchContent({ ...options, backend: 'walker' }), await searchContent({ ...options, backend: 'ripgrep' })];
    expect(walker.complete).toBe(true);
    expect(shape(walker)).toEqual(shape(rg));
    // The adversarial run's match after the NUL line is there (with a line of before-context, that line is the NUL's: both quit).
    expect(walker.hits.filter((hit) => hit.path === 'repro.txt').map((hit) => hit.line)).toEqual(contextBefore === 0 ? [1, 20_004] : [1]);
    // Not vacuous: some files were quit at a NUL (binary), some searched past one.
    expect(walker.binarySkipped).toBeGreaterThan(5);
    expect(walker.binarySkipped).toBeLessThan(FILES);
  }, 60_000);
});
