/**
 * Content search through ripgrep judges the paths of its stderr within the budget (src/content/rg-gaps.ts
 * `gapsOf`, through src/rg/stderr.ts `judgeGaps`). Whether such a path is a gap asks, for a name
 * holding U+FFFD, every reading of its bytes (src/glob/nfa.ts: ~10-20 ms a path with `?`×251 `x`),
 * once for the file test and once for the directory one: bounded only by how many paths ripgrep
 * named (up to 10,000 held lines), so a search ran 100-200 s past its budget. Now the budget is read
 * after each such check; once it is spent the paths left are kept unjudged (ripgrep did not read
 * them: never dropped) and the answer says `time-budget` (test/rg/stderr-budget.test.ts: the listing).
 *
 * A fake ripgrep prints every line in one chunk; the clock advances 1 ms per reading, so the budget
 * is a number of readings.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { searchContent } from '../../src/index.js';
import { WalkRules } from '../../src/walk/rules.js';
import { deniedUndecodableLines, FakeRipgrep, tickingClock, useFakeInstall } from '../helpers/rg-fake.js';

let rgPath: string;
let root: string;
useFakeInstall((made) => {
  ({ rgPath, root } = made);
});

const COUNT = 300;
const BUDGET = 30;

const deniedLines = () => deniedUndecodableLines(COUNT);

describe('content search through ripgrep judges the stderr paths holding U+FFFD within the budget', () => {
  // A base-name pattern: every directory is read, so each judged path is a gap as well.
  for (const pattern of ['?'.repeat(251) + 'x', '*a*b*c*d*e*x']) {
    it(`${pattern.slice(0, 12)}…: the paths left unjudged are kept, the answer says time-budget`, async () => {
      const fake = new FakeRipgrep([{ stderr: deniedLines() }, { exit: 2 }]);
      const clock = tickingClock();
      const result = await searchContent({ root, query: 'needle', pattern, backend: 'ripgrep', rgPath, runner: fake.runner, clock, timeBudgetMs: BUDGET });
      expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget', 'permission-denied'], skippedCount: COUNT, hitCount: 0 });
      expect(result.recovery?.failureKind).toBeUndefined();
      expect(clock.reads).toBeLessThan(BUDGET * 2);
    });
  }

  // A path pattern: a judged path is neither a selected file nor a directory the walker reads (no gap).
  for (const pattern of ['?'.repeat(251) + 'x/*', '[a-z]*?'.repeat(8) + 'x/*']) {
    it(`${pattern.slice(0, 12)}…: at most the budget's readings are judged, the rest kept`, async () => {
      const fake = new FakeRipgrep([{ stderr: deniedLines() }, { exit: 2 }]);
      const clock = tickingClock();
      const result = await searchContent({ root, query: 'needle', pattern, backend: 'ripgrep', rgPath, runner: fake.runner, clock, timeBudgetMs: BUDGET });
      expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget', 'permission-denied'], hitCount: 0 });
      expect(result.skippedCount).toBeGreaterThanOrEqual(COUNT - BUDGET);
      expect(result.skippedCount).toBeLessThan(COUNT);
      expect(clock.reads).toBeLessThan(BUDGET * 2);
    });
  }

  it('a run that failed keeps its io-error beside time-budget', async () => {
    // Exit 3 with only path errors: a failure no line explains (src/rg/exit.ts), `exit` with no stop of its own.
    const fake = new FakeRipgrep([{ stderr: deniedLines() }, { exit: 3 }]);
    const clock = tickingClock();
    const result = await searchContent({ root, query: 'needle', pattern: '?'.repeat(251) + 'x', backend: 'ripgrep', rgPath, runner: fake.runner, clock, timeBudgetMs: BUDGET });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget', 'permission-denied', 'io-error'], skippedCount: COUNT, recovery: { failureKind: 'exit' } });
  });

  // Plain names, no U+FFFD: each denied path neither selected nor a directory is an lstat (I/O), and
  // the budget is read after each: files that lstat shows are no directory are no gap once judged.
  it('plain paths held to the disk: the lstats stop at the budget, the paths left kept', async () => {
    const names = Array.from({ length: COUNT }, (_, i) => `plain-${i}.bin`);
    names.forEach((name) => writeFileSync(join(root, name), ''));
    const lines = names.map((name) => `rg: ./${name}: Permission denied (os error 13)\n`).join('');
    const clock = tickingClock();
    const budgeted = await searchContent({ root, query: 'needle', pattern: 'target.cfg', backend: 'ripgrep', rgPath, runner: new FakeRipgrep([{ stderr: lines }, { exit: 2 }]).runner, clock, timeBudgetMs: BUDGET });
    expect(budgeted).toMatchObject({ complete: false, incompleteReasons: ['time-budget', 'permission-denied'] });
    expect(budgeted.skippedCount).toBeGreaterThanOrEqual(COUNT - BUDGET);
    expect(budgeted.skippedCount).toBeLessThan(COUNT);
    const unbounded = await searchContent({ root, query: 'needle', pattern: 'target.cfg', backend: 'ripgrep', rgPath, runner: new FakeRipgrep([{ stderr: lines }, { exit: 2 }]).runner });
    expect(unbounded).toMatchObject({ complete: true, skippedCount: 0 });
  });

  it('with no budget every path is judged, and the clock is not read per path', async () => {
    const fake = new FakeRipgrep([{ stderr: deniedLines() }, { exit: 2 }]);
    const clock = tickingClock();
    const result = await searchContent({ root, query: 'needle', pattern: '*a*b*c*d*e*x/*', backend: 'ripgrep', rgPath, runner: fake.runner, clock });
    expect(result).toMatchObject({ complete: true, skippedCount: 0, hitCount: 0 });
    expect(clock.reads).toBeLessThan(COUNT);
  });
});

describe('content search through ripgrep judges the stderr paths within the caller\'s signal too', () => {
  afterEach(() => vi.restoreAllMocks());

  it('an abort while the first path is judged keeps the rest unjudged, and the answer says aborted', async () => {
    const controller = new AbortController();
    const wouldRead = WalkRules.prototype.wouldRead;
    const judged = vi.spyOn(WalkRules.prototype, 'wouldRead').mockImplementation(function (this: WalkRules, rel: string) {
      controller.abort();
      return wouldRead.call(this, rel);
    });
    const fake = new FakeRipgrep([{ stderr: deniedLines() }, { exit: 2 }]);
    const result = await searchContent({ root, query: 'needle', pattern: '?'.repeat(251) + 'x/*', backend: 'ripgrep', rgPath, runner: fake.runner, signal: controller.signal });
    expect(result).toMatchObject({ complete: false, hitCount: 0 });
    expect(result.incompleteReasons[0]).toBe('aborted');
    // The judged path is no gap (the walker would not read it); every one after it is kept.
    expect(result.skippedCount).toBeGreaterThanOrEqual(COUNT - 2);
    expect(judged.mock.calls.length).toBeLessThan(3);
  });
});
