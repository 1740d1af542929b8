/**
 * Content search through ripgrep reads the budget while it judges paths holding U+FFFD
 * (src/content/rg.ts `fileOf`). A path ripgrep gives as bytes that are not UTF-8 is asked every
 * reading of its bytes (src/glob/nfa.ts `couldMatch`: up to 35 ms a path), and run.ts reads the
 * clock per stdout chunk only: one chunk of such events ran past the budget as the listing did
 * (test/rg/undecoded-budget.test.ts, the fix helper's note). Now the clock is read after each check.
 *
 * A fake ripgrep prints every event in one chunk, then exits 0; the clock advances 1 ms per
 * reading, so the budget is a number of readings.
 */
import { describe, expect, it } from 'vitest';
import { searchContent } from '../../src/index.js';
import { matchEvent } from '../helpers/content.js';
import { FakeRipgrep, tickingClock, useFakeInstall } from '../helpers/rg-fake.js';

let rgPath: string;
let root: string;
useFakeInstall((made) => {
  ({ rgPath, root } = made);
});

const COUNT = 300;
const BUDGET = 30;
/** `./` + 200 bytes 0xF8 (each one U+FFFD decoded) + a number: a name no pattern below matches as decoded. */
const pathBytes = (i: number) => Uint8Array.from([0x2e, 0x2f, ...new Array(200).fill(0xf8), ...Buffer.from(String(i))]);

describe('content search through ripgrep stops at the budget while it judges paths holding U+FFFD', () => {
  for (const pattern of ['?'.repeat(251) + 'x', '*a*b*c*d*e*x']) {
    it(`${pattern.length > 20 ? `?×251 x` : pattern} over ${COUNT} files`, async () => {
      const events = Array.from({ length: COUNT }, (_, i) => matchEvent(pathBytes(i), 'needle\n', 1, 0, 6)).join('');
      const fake = new FakeRipgrep([{ stdout: events }, { exit: 0 }]);
      const clock = tickingClock();
      const result = await searchContent({ root, query: 'needle', pattern, backend: 'ripgrep', rgPath, runner: fake.runner, clock, timeBudgetMs: BUDGET });
      expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'], recovery: { failureKind: 'timeout' } });
      expect(fake.calls[0]!.killed).toBe(true);
      // One reading after each check: the run stops within the budget's readings, not after all of them.
      expect(clock.reads).toBeLessThan(BUDGET * 3);
    });
  }
});
