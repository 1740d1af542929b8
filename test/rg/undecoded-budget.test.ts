/**
 * The ripgrep listing reads the budget while it judges paths holding U+FFFD (src/rg/files.ts
 * `FileCollector`). Each such path that misses is judged in every reading of its bytes (src/glob/nfa.ts
 * `couldMatch`: up to 35 ms a path), and run.ts reads the clock per stdout chunk only: one chunk of
 * 1,000 such paths ran a 100 ms budget to 2-6 s. Now the clock is read after each such check.
 *
 * A fake ripgrep prints every path in one chunk, then exits 0; the clock advances 1 ms per reading,
 * so the budget is a number of readings and at most that many checks are made.
 */
import { describe, expect, it } from 'vitest';
import { findFiles, type FindOptions } from '../../src/index.js';
import { FakeRipgrep, nul, tickingClock, useFakeInstall } from '../helpers/rg-fake.js';

let rgPath: string;
let root: string;
useFakeInstall((made) => {
  ({ rgPath, root } = made);
});

const FFFD = '\uFFFD';
const PATTERNS = ['?'.repeat(251) + 'x', '[a-z]*?'.repeat(8) + 'x', '*a*b*c*d*e*x'];
// U+FFFD in the name, or only in a directory (judged on the per-segment path, with an exclude).
const PATHS: [string, (i: number) => string, Partial<FindOptions>][] = [
  ['names of 245 U+FFFD', (i) => FFFD.repeat(245) + i, {}],
  ['names of a U+FFFD ×40, with an exclude', (i) => `a${FFFD}`.repeat(40) + i, { exclude: ['zz'] }],
  ['a directory of 100 U+FFFD, with an exclude', (i) => `${FFFD.repeat(100)}/${i}`, { exclude: ['zz'] }],
];
const COUNT = 300;
const BUDGET = 30;

describe('the ripgrep listing stops at the budget while it judges paths holding U+FFFD', () => {
  for (const pattern of PATTERNS) {
    for (const [shape, path, extra] of PATHS) {
      it(`${pattern.length > 20 ? pattern.slice(0, 12) + '…(' + pattern.length + ')' : pattern} over ${COUNT} ${shape}`, async () => {
        const paths = Array.from({ length: COUNT }, (_, i) => path(i));
        const fake = new FakeRipgrep([{ stdout: nul(...paths) }, { exit: 0 }]);
        const clock = tickingClock();
        const result = await findFiles({ root, pattern, backend: 'ripgrep', rgPath, runner: fake.runner, clock, timeBudgetMs: BUDGET, ...extra });
        expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'], recovery: { failureKind: 'timeout' } });
        // One reading of the clock after each check: no more checks than the budget has readings.
        expect(result.stats.entriesSeen).toBeLessThanOrEqual(BUDGET);
        expect(fake.calls[0]!.killed).toBe(true);
      });
    }
  }

  it('with no budget every path is judged and the clock is not read per path', async () => {
    const paths = Array.from({ length: COUNT }, (_, i) => `a${FFFD}`.repeat(10) + i);
    const fake = new FakeRipgrep([{ stdout: nul(...paths) }, { exit: 0 }]);
    let reads = 0;
    const result = await findFiles({ root, pattern: '*x', backend: 'ripgrep', rgPath, runner: fake.runner, clock: { now: () => reads++ } });
    expect(result).toMatchObject({ complete: true, matchedCount: 0 });
    expect(result.stats.entriesSeen).toBe(COUNT);
    expect(reads).toBeLessThan(COUNT);
  });
});
