/**
 * The checks the ripgrep listing makes after its run read the budget (src/rg/stderr.ts `judgeGaps`,
 * src/rg/undecodable.ts `checkUndecodable`). Whether a stderr path is a gap asks, for a name
 * holding U+FFFD, every reading of its bytes (src/glob/nfa.ts: ~10 ms a path with `?`×251 `x/*`),
 * and the listed suspects are each an lstat: bounded only by how many paths ripgrep named, so 10,000
 * held stderr lines ran a budget 100 s over. Now the budget is read after each such check; once it
 * is spent the stderr paths left are kept unjudged (ripgrep did not read them), the suspects left
 * are not returned (unverified), and the answer says `time-budget`.
 *
 * A fake ripgrep prints every line in one chunk; the clock advances 1 ms per reading, so the budget
 * is a number of readings.
 */
import { promises, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findFiles } from '../../src/index.js';
import { WalkRules } from '../../src/walk/rules.js';
import { deniedUndecodableLines, FakeClock, FakeRipgrep, nul, tickingClock, useFakeInstall } from '../helpers/rg-fake.js';

let rgPath: string;
let root: string;
useFakeInstall((made) => {
  ({ rgPath, root } = made);
});

const COUNT = 300;
const BUDGET = 30;
const FFFD = '\uFFFD';

const deniedLines = () => deniedUndecodableLines(COUNT);

describe('the ripgrep listing judges the stderr paths holding U+FFFD within the budget', () => {
  // A base-name pattern: the walker reads every directory, so each judged path is a gap as well.
  for (const pattern of ['?'.repeat(251) + 'x', '*a*b*c*d*e*x']) {
    it(`${pattern.slice(0, 12)}…: the paths left unjudged are kept, the answer says time-budget`, async () => {
      const fake = new FakeRipgrep([{ stderr: deniedLines() }, { exit: 2 }]);
      const clock = tickingClock();
      const result = await findFiles({ root, pattern, backend: 'ripgrep', rgPath, runner: fake.runner, clock, timeBudgetMs: BUDGET });
      expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget', 'permission-denied'], skippedCount: COUNT, matchedCount: 0 });
      expect(clock.reads).toBeLessThan(BUDGET * 2);
    });
  }

  // A path pattern whose first segment such a name may match in some reading: the judgement is the
  // dear one (~10 ms a path), and a judged path the walker would never read is no gap.
  for (const pattern of ['?'.repeat(251) + 'x/*', '[a-z]*?'.repeat(8) + 'x/*']) {
    it(`${pattern.slice(0, 12)}…: at most the budget's readings are judged, the rest kept`, async () => {
      const fake = new FakeRipgrep([{ stderr: deniedLines() }, { exit: 2 }]);
      const clock = tickingClock();
      const result = await findFiles({ root, pattern, backend: 'ripgrep', rgPath, runner: fake.runner, clock, timeBudgetMs: BUDGET });
      expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget', 'permission-denied'], matchedCount: 0 });
      expect(result.skippedCount).toBeGreaterThanOrEqual(COUNT - BUDGET);
      expect(result.skippedCount).toBeLessThan(COUNT);
      expect(clock.reads).toBeLessThan(BUDGET * 2);
    });
  }

  it('with no budget every path is judged, and the clock is not read per path', async () => {
    const fake = new FakeRipgrep([{ stderr: deniedLines() }, { exit: 2 }]);
    const clock = tickingClock();
    const result = await findFiles({ root, pattern: '*a*b*c*d*e*x/*', backend: 'ripgrep', rgPath, runner: fake.runner, clock });
    expect(result).toMatchObject({ complete: true, skippedCount: 0, matchedCount: 0 });
    expect(clock.reads).toBeLessThan(COUNT);
  });
});

describe('the ripgrep listing checks its suspects (listed paths holding U+FFFD) within the budget', () => {
  // Real names holding U+FFFD: each listed one is lstat'ed (and its parent listed) before it is returned.
  const names = Array.from({ length: COUNT }, (_, i) => `${FFFD}${i}x`);
  const made = () => names.forEach((name) => writeFileSync(join(root, name), ''));

  it('the suspects left unchecked are not returned, and the answer says time-budget', async () => {
    made();
    const fake = new FakeRipgrep([{ stdout: nul(...names) }, { exit: 0 }]);
    const clock = tickingClock();
    const result = await findFiles({ root, pattern: '*x', backend: 'ripgrep', rgPath, runner: fake.runner, clock, timeBudgetMs: BUDGET });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'], skippedCount: 0 });
    expect(result.matchedCount).toBeGreaterThan(0);
    expect(result.matchedCount).toBeLessThan(BUDGET);
    expect(clock.reads).toBeLessThan(BUDGET * 2);
  });

  it('with the budget already spent by the run, none is checked nor returned', async () => {
    made();
    const clock = new FakeClock();
    const fake = new FakeRipgrep([{ stdout: nul(...names) }, { run: () => clock.advance(BUDGET) }, { stdout: nul('late.x') }, { exit: 0 }]);
    const result = await findFiles({ root, pattern: '*x', backend: 'ripgrep', rgPath, runner: fake.runner, clock, timeBudgetMs: BUDGET });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'], matchedCount: 0, recovery: { failureKind: 'timeout' } });
  });

  it('with no budget every suspect is checked and returned', async () => {
    made();
    const fake = new FakeRipgrep([{ stdout: nul(...names) }, { exit: 0 }]);
    const result = await findFiles({ root, pattern: '*x', backend: 'ripgrep', rgPath, runner: fake.runner });
    expect(result).toMatchObject({ complete: true, matchedCount: COUNT });
  });
});

describe('the checks after the run read the caller\'s signal too', () => {
  afterEach(() => vi.restoreAllMocks());

  // No budget: only the signal can end them. A cancelled MCP call must not wait out 10,000 checks.
  it('an abort during the judging of the stderr paths keeps the rest unjudged, and the answer says aborted', async () => {
    const controller = new AbortController();
    const wouldRead = WalkRules.prototype.wouldRead;
    const judged = vi.spyOn(WalkRules.prototype, 'wouldRead').mockImplementation(function (this: WalkRules, rel: string) {
      controller.abort(); // the caller cancels while the first path is judged
      return wouldRead.call(this, rel);
    });
    const fake = new FakeRipgrep([{ stderr: deniedLines() }, { exit: 2 }]);
    const result = await findFiles({ root, pattern: '?'.repeat(251) + 'x', backend: 'ripgrep', rgPath, runner: fake.runner, signal: controller.signal });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['aborted', 'permission-denied'], skippedCount: COUNT });
    expect(judged.mock.calls.length).toBeLessThan(3);
  });

  it('an abort during the check of the suspects: those left are not returned, and the answer says aborted', async () => {
    const names = Array.from({ length: COUNT }, (_, i) => `${FFFD}${i}x`);
    names.forEach((name) => writeFileSync(join(root, name), ''));
    const controller = new AbortController();
    const lstat = promises.lstat;
    // The caller cancels while the first suspect is looked at (the run itself ended: exit 0).
    const looked = vi.spyOn(promises, 'lstat').mockImplementation((...args: Parameters<typeof lstat>) => (controller.abort(), lstat(...args)));
    const fake = new FakeRipgrep([{ stdout: nul(...names) }, { exit: 0 }]);
    const result = await findFiles({ root, pattern: '*x', backend: 'ripgrep', rgPath, runner: fake.runner, signal: controller.signal });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
    expect(result.matchedCount).toBeLessThan(3);
    expect(looked.mock.calls.length).toBeLessThan(3);
  });
});
