/**
 * The bound on what compiling the pattern and exclude alternatives costs together
 * (`MAX_COMPILE_COST`): the alternative count and each pattern's length were bounded on their own,
 * and `{a,b}`×13 + `*(a|b)`×1400 (8,192 alternatives of 8,400 characters, within both) ran the
 * process out of heap. Each shape is taken to the last size within the limit and one step past it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findFiles, findFilesStream, findFilesSync } from '../../src/index.js';
import { checkCompileCost, compileCost, MAX_COMPILE_COST, MAX_PATTERN_LENGTH, normalizePatternList } from '../../src/patterns.js';
import { runFindFile } from '../helpers/cli.js';

const flavor = { platform: 'posix' as const, caseSensitive: true };
const refusal = expect.objectContaining({ code: 'FF_PATTERN_TOO_LARGE', message: expect.stringContaining('over the limit of 500,000') });

/** Shapes: how many patterns, and the piece repeated in each. */
const SHAPES: [number, string][] = [
  [10, '*(a|b)'], [100, '*(a|b)'], [100, '[a-z]'], [100, 'a/'], [10, '**/a'], [100, '@(a|b|c|d)'],
  [100, '*a'], [30, 'a'], [30, '*(*(a|b)|c)'], [100, '[[:alpha:]]'], [3, '{a,b}*(a|b)'],
];

const make = (count: number, piece: string, reps: number) => Array.from({ length: count }, (_, i) => piece.repeat(reps) + 'x' + i);
const costOf = (globs: readonly string[]) => globs.reduce((n, g) => n + compileCost(g), 0);
const alternatives = (raw: string[]) => normalizePatternList(raw, flavor, 'pattern', false);

/** Whether `count` patterns of `piece`×`reps` are within the length, alternative-count and cost limits. */
function fits(count: number, piece: string, reps: number): boolean {
  if (make(1, piece, reps)[0]!.length + String(count).length > MAX_PATTERN_LENGTH) return false;
  try {
    return costOf(alternatives(make(count, piece, reps))) <= MAX_COMPILE_COST;
  } catch {
    return false; // the brace count limit: past it too
  }
}

/**
 * The most repetitions whose alternatives stay within the limit. Perf: searched on one pattern's
 * cost times `count` (the patterns differ only in their `x<i>` suffix), then stepped to the exact
 * edge on the whole list: two or three whole evaluations instead of fourteen.
 */
function largestWithin(count: number, piece: string): number {
  let reps = 0;
  for (let step = 8192; step >= 1; step >>= 1) {
    const next = reps + step;
    if (make(1, piece, next)[0]!.length + String(count).length > MAX_PATTERN_LENGTH) continue;
    try {
      if (costOf(alternatives(make(1, piece, next))) * count <= MAX_COMPILE_COST) reps = next;
    } catch {
      // past the brace count limit
    }
  }
  while (reps > 0 && !fits(count, piece, reps)) reps--;
  while (fits(count, piece, reps + 1)) reps++;
  return reps;
}

describe('the compile-cost limit, shape by shape at its edge', () => {
  for (const [count, piece] of SHAPES) {
    it(`${count} × "${piece}"×n: the last n within the limit passes, the next is refused before any I/O`, () => {
      const reps = largestWithin(count, piece);
      expect(reps).toBeGreaterThan(0);
      expect(() => checkCompileCost(alternatives(make(count, piece, reps)), [])).not.toThrow();
      const over = make(count, piece, reps + 1);
      expect(over[count - 1]!.length).toBeLessThanOrEqual(MAX_PATTERN_LENGTH); // the cost limit, not the length limit, stops it
      expect(() => checkCompileCost(alternatives(over), [])).toThrow(refusal);
      const neverRead = { readdir: () => { throw new Error('read'); }, readdirSync: () => { throw new Error('read'); }, lstat: () => { throw new Error('read'); }, lstatSync: () => { throw new Error('read'); } };
      expect(() => findFilesSync({ root: '/r', platform: 'posix', pattern: over, fs: neverRead as never })).toThrow(refusal);
    });
  }

  it('any single pattern within the length limit is within the cost limit', () => {
    for (const piece of ['[', '(', '**/', '*(', '[[:]@(/', '|', '/', 'a']) {
      const glob = piece.repeat(Math.floor(MAX_PATTERN_LENGTH / piece.length));
      expect(compileCost(glob)).toBeLessThanOrEqual(MAX_COMPILE_COST);
    }
  });

  it('excludes count with the patterns, twice (compiled for files and for directories)', () => {
    const eight = make(8, '*(a|b)', 1000);
    const pattern = make(1, '*(a|b)', 10);
    expect(() => checkCompileCost(alternatives(eight), [])).not.toThrow();
    expect(() => checkCompileCost(alternatives(pattern), alternatives(eight))).toThrow(
      expect.objectContaining({ code: 'FF_PATTERN_TOO_LARGE', option: 'exclude', message: expect.stringContaining('the patterns and excludes') }),
    );
  });
});

describe('the hostile shapes of the adversarial run are refused, on every form', () => {
  // The adversarial shape itself is now refused sooner, by the characters its alternatives hold
  // (test/glob/brace-work.test.ts); 64 alternatives of it hold fewer and still cost too much.
  const braces = '{a,b}'.repeat(6) + '*(a|b)'.repeat(1400) + 'x';
  const many = make(1000, '*(a|b)', 100);

  it('findFiles, findFilesSync and the stream refuse before reading the root', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ff-compile-cost-'));
    try {
      writeFileSync(join(root, 'abax'), '');
      for (const pattern of [[braces], many]) {
        await expect(findFiles({ root, pattern, timeBudgetMs: 500 })).rejects.toThrow(refusal);
        expect(() => findFilesSync({ root, pattern, timeBudgetMs: 500 })).toThrow(refusal);
        expect(() => findFilesStream({ root, pattern, timeBudgetMs: 500 })).toThrow(refusal);
      }
      // Within the limit the search runs.
      expect((await findFiles({ root, pattern: '{a,b}'.repeat(3) + '*(a|b)'.repeat(20) + 'x' })).matches).toEqual(['abax']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('the CLI exits 2 naming the limit and what to do (a child process: before the bound it ran out of heap)', () => {
    const root = mkdtempSync(join(tmpdir(), 'ff-compile-cost-'));
    try {
      const run = runFindFile([braces, root, '--time-budget-ms', '500'], { cwd: root });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('over the limit of 500,000');
      expect(run.stderr).toContain('use fewer brace alternatives or extglob groups');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 30_000);
});
