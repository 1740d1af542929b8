/**
 * `maxHitsPerFile` against an oracle we did not write: GNU `grep -m N -B b -A a`, which keeps a
 * file's first N matching lines, then prints the last one's trailing context, a matching line in it
 * shown as context. On random files, our hits read in order (each hit's `before`, the hit, its
 * `after`) must give exactly grep's lines, kinds and texts, file by file, on both paths: the pure-TS
 * one, and ripgrep's (`--max-count`, whose ripgrep 13 sends matching lines in trailing context as
 * matches: the collector must still show them as context). `filesAtHitCap` must be the number of
 * files with at least N matching lines, as `grep -c` counts them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { searchContent } from '../../src/index.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';
import { shownLines, writeLineFiles } from '../helpers/line-files.js';

requireRipgrepInCi();

const scratch = mkdtempSync(join(tmpdir(), 'ff-max-count-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Lines made of a few words, so hits are dense and the cap, the windows and the trailing context meet. */
const LINE = fc.constantFrom('', 'x', 'foo', 'a foo b', 'fo', 'foo foo', 'bar', 'z');
const FILE = fc.record({ lines: fc.array(LINE, { maxLength: 20 }), crlf: fc.boolean(), finalNewline: fc.boolean() });
const QUERIES = [
  { query: 'foo', mode: 'literal' as const, grep: '-F' },
  { query: 'fo+ ?', mode: 'regex' as const, grep: '-E' },
];

/** One shown line: its kind (m: a hit, c: context), number and text. */
type Shown = string;

function grep(dir: string, args: string[]): string[] {
  const run = spawnSync('grep', ['-H', ...args], { cwd: dir, encoding: 'utf8' });
  expect(run.status === 0 || run.status === 1, run.stderr).toBe(true);
  return run.stdout.split('\n').filter((line) => line !== '' && line !== '--');
}

/** What grep prints with -m, file by file: `f0.txt:3:text` a match, `f0.txt-3-text` context. */
function grepLines(dir: string, files: string[], query: (typeof QUERIES)[number], cap: number, before: number, after: number): Map<string, Shown[]> {
  const shown = new Map<string, Shown[]>();
  for (const line of grep(dir, ['-n', query.grep, '-m', String(cap), '-B', String(before), '-A', String(after), '--', query.query, ...files])) {
    const [, path, kind, n, text] = /^(f\d\.txt)([:-])(\d+)[:-](.*)$/s.exec(line)!;
    shown.set(path!, [...(shown.get(path!) ?? []), `${kind === ':' ? 'm' : 'c'}${n}:${text!.replace(/\r$/, '')}`]);
  }
  return shown;
}

/** Files with at least `cap` matching lines, by `grep -c`. */
function filesReachingCap(dir: string, files: string[], query: (typeof QUERIES)[number], cap: number): number {
  return grep(dir, ['-c', query.grep, '--', query.query, ...files]).filter((line) => Number(line.slice(line.lastIndexOf(':') + 1)) >= cap).length;
}

let runs = 0;

describeIf(needsRg)('maxHitsPerFile agrees with grep -m, on both paths', () => {
  it('on random files, with and without context', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(FILE, { minLength: 1, maxLength: 3 }), fc.constantFrom(...QUERIES), fc.integer({ min: 1, max: 3 }), fc.nat(2), fc.nat(2), async (files, query, cap, before, after) => {
        const dir = join(scratch, String(runs++));
        const names = writeLineFiles(dir, files);
        const options = { root: dir, query: query.query, mode: query.mode, caseSensitive: true, maxHitsPerFile: cap, contextBefore: before, contextAfter: after, rgPath: realRg.path };
        const expected = { lines: grepLines(dir, names, query, cap, before, after), atCap: filesReachingCap(dir, names, query, cap) };
        const walker = await searchContent({ ...options, backend: 'walker' });
        expect(walker).toMatchObject({ complete: true, filesAtHitCap: expected.atCap });
        expect(shownLines(walker.hits)).toEqual(expected.lines);
        const ripgrep = await searchContent({ ...options, backend: 'ripgrep' });
        expect(ripgrep).toMatchObject({ backend: 'ripgrep', complete: true, protocolErrors: 0, filesAtHitCap: expected.atCap });
        expect(ripgrep.hits).toEqual(walker.hits);
      }),
      { numRuns: 120, seed: 20261206 },
    );
    // Three processes a case: a ceiling for a hang, sized for a loaded 2-core CI machine.
  }, 120_000);
});
