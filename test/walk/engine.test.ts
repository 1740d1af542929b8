/**
 * The engine's own checks (src/walk/engine.ts), seen from outside: how often a large directory
 * looks at the clock as one match costs more (the pattern's or the exclusion's), and a signal
 * aborted in the middle of the sync walk.
 */
import { describe, expect, it } from 'vitest';
import { findFilesSync, type FindOptions } from '../../src/index.js';
import { FakeClock, asFs, buildVolume, faultyFs, type Tree } from '../helpers/memfs.js';

const ROOT = '/root';

const big: Tree = {};
for (let i = 0; i < 3000; i++) big[`f${i}.txt`] = '';
const bigVolume = buildVolume(big);

/** Entries seen before a budget of 3 looks at a clock that moves 1 ms per look: about two checks' worth. */
function entriesSeenWithin3Looks(extra: Partial<FindOptions>): number {
  let now = 0;
  const clock = { now: () => now++ };
  const result = findFilesSync({ root: ROOT, platform: 'posix', pattern: '*', fs: asFs(bigVolume), clock, timeBudgetMs: 3, ...extra });
  expect(result).toMatchObject({ complete: false, incompleteReason: 'time-budget' });
  return result.stats.entriesSeen;
}

describe('a large directory looks at the clock as often as one match costs', () => {
  // A glob of 1,000 characters costs 1,000: the clock every floor(65,536 / 1,000) = 65 entries, not 256.
  const costly = `*${'q'.repeat(999)}`;

  it('a plain pattern: every 256 entries', () => {
    const seen = entriesSeenWithin3Looks({ pattern: '*.none' });
    expect(seen).toBeGreaterThanOrEqual(256);
    expect(seen).toBeLessThanOrEqual(2 * 256);
  });

  it('a costly pattern: every 65 entries', () => {
    const seen = entriesSeenWithin3Looks({ pattern: costly });
    expect(seen).toBeGreaterThanOrEqual(65);
    expect(seen).toBeLessThanOrEqual(2 * 65);
  });

  it('a costly exclusion with a cheap pattern: every 65 entries or fewer (the two costs add up)', () => {
    const seen = entriesSeenWithin3Looks({ pattern: '*', exclude: [costly] });
    expect(seen).toBeGreaterThanOrEqual(1);
    expect(seen).toBeLessThanOrEqual(2 * 65);
  });
});

describe('the signal in the sync walk', () => {
  it('a signal aborted during the sync walk (here by the fs) stops it before the next read', () => {
    const controller = new AbortController();
    const tree: Tree = { a: { 'a.txt': '' }, b: { 'b.txt': '' }, c: { 'c.txt': '' } };
    let reads = 0;
    const fs = faultyFs(asFs(buildVolume(tree)), { beforeReaddir: () => void (++reads === 2 && controller.abort()) });
    const result = findFilesSync({ root: ROOT, platform: 'posix', pattern: '*', fs, signal: controller.signal, clock: new FakeClock() });
    expect(result).toMatchObject({ matches: ['a/a.txt'], complete: false, incompleteReasons: ['aborted'] });
    expect(fs.calls.filter((c) => c.call === 'readdir')).toHaveLength(2);
  });
});
