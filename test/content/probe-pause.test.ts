/**
 * A pause of the thread is not a slow regex (src/content/query.ts, `Re2Matcher.measure`). Before a
 * regex search whose worst case would not fit in the time left, the NFA is measured over the text's
 * start, and the search starts only if the measured cost fits. A pause during a probe (another
 * process on the core, a garbage collection: seen in the suite on a loaded machine) read as a slow
 * regex: a 60 ms pause over a match found at once refused a 256 KiB file and ended the search
 * `time-budget`, its hits lost.
 *
 * Time here is injected, never waited for: `performance.now` (what the probes read) stands still
 * except for the pauses put into chosen calls of re2js's `Matcher.find` (what the probes and the
 * searches run), and the budget runs on a clock that stands still. So the regex is "fast" (a probe
 * takes no time) unless a pause says otherwise, and each verdict is the same on any machine.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { searchContent, type ContentResult } from '../../src/index.js';
import { loadRe2 } from '../../src/re2.js';
import { FakeClock, buildVolume } from '../helpers/memfs.js';

const BUDGET_MS = 200;
/** A line feed in the regex: each file is searched whole, and its rest after a hit by a second search. */
const QUERY = '(?:q{1,60})?z\\n';
const hitsOf = (result: ContentResult) => result.hits.map((hit) => `${hit.path}:${hit.line}`);
/**
 * Without a pause: complete, each file's first match a hit (m.txt's second, at its end, is on the same
 * multi-line hit, as ripgrep's JSON gives it: one event, two submatches).
 */
const EVERY_HIT = ['a.txt:1', 'm.txt:1'];

/** m.txt: a hit at its start, then `restLength` characters and another match at its end. */
const treeOf = (restLength: number) => ({ 'a.txt': 'z\n', 'm.txt': `z\n${'a'.repeat(restLength)}z\n` });

/** A call of re2js's `find`: its text's length and where it starts. */
interface FindCall {
  length: number;
  from: number;
}

/**
 * The clock the probes read, moved only by the pauses that `pauseOf` puts into probes (`find` calls
 * over a cut of m.txt: shorter than it, longer than a.txt); `probes` lists them.
 */
function pauseProbes(restLength: number, pauseOf: (probe: FindCall, index: number) => number): { probes: FindCall[]; paused: () => number } {
  const whole = treeOf(restLength)['m.txt'].length;
  let now = 0;
  let paused = 0;
  const probes: FindCall[] = [];
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  const prototype = Object.getPrototypeOf(loadRe2().compile('x').matcher('')) as { find(from?: number): boolean; inputLength(): number };
  const find = prototype.find;
  vi.spyOn(prototype, 'find').mockImplementation(function (this: typeof prototype, from?: number) {
    const call = { length: this.inputLength(), from: from ?? 0 };
    if (call.length > 2 && call.length < whole) {
      const pause = pauseOf(call, probes.length);
      probes.push(call);
      now += pause;
      paused += pause;
    }
    return find.call(this, from);
  });
  return { probes, paused: () => paused };
}

function search(restLength: number): Promise<ContentResult> {
  return searchContent({ root: '/root', fs: buildVolume(treeOf(restLength)), platform: 'posix', query: QUERY, mode: 'regex', clock: new FakeClock(), timeBudgetMs: BUDGET_MS });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a pause of the thread during a measuring probe', () => {
  // Long enough that the model's worst case (~9 us a character for this regex) does not fit in the
  // 200 ms: m.txt is measured. The real searches are cheap (each thread dies at the first 'a').
  const LENGTHS = [1 << 15, 1 << 16];
  // Up to half the room, so the measurement can be made again in what is left of that half. A pause
  // over the first 4 KiB of a file of n KiB reads as n / 4 times as long for the whole: past the
  // room from 25 ms (32 KiB) or 12.5 ms (64 KiB), where only a second measurement saves the search.
  const PAUSES = [10, 20, 55, 90];
  /** Whether the pause alone made the first measurement say "does not fit" (then it is made again). */
  const measuredAgain = (pause: number, length: number) => (pause * (length + 4)) / 4096 > BUDGET_MS;

  it.each(LENGTHS.map((length) => [length]))('none: every hit of a %i-character file, complete (the reference)', async (length) => {
    const run = pauseProbes(length, () => 0);
    const result = await search(length);
    expect(result).toMatchObject({ complete: true, hitCount: EVERY_HIT.length });
    expect(hitsOf(result)).toEqual(EVERY_HIT);
    // m.txt is searched twice (its start, then the rest after the first match), each measured first
    // by one probe: the pauses below strike them.
    expect(run.probes.map((probe) => probe.from)).toEqual([0, 2]);
  });

  const cases = LENGTHS.flatMap((length) => PAUSES.map((pause) => [pause, length] as const));
  it.each(cases)('of %i ms in the first search\'s probe (a %i-character file): measured again, the same answer as without it', async (pause, length) => {
    const run = pauseProbes(length, (_, index) => (index === 0 ? pause : 0));
    const result = await search(length);
    expect(result).toMatchObject({ complete: true, hitCount: EVERY_HIT.length });
    expect(hitsOf(result)).toEqual(EVERY_HIT);
    expect(run.probes.map((probe) => probe.from)).toEqual(measuredAgain(pause, length) ? [0, 0, 2] : [0, 2]);
    expect(run.paused()).toBe(pause);
  });

  it.each(cases)('of %i ms in the second search\'s probe (a %i-character file): measured again, the same answer as without it', async (pause, length) => {
    const run = pauseProbes(length, (probe) => (probe.from > 0 && run.probes.every((earlier) => earlier.from === 0) ? pause : 0));
    const result = await search(length);
    expect(result).toMatchObject({ complete: true, hitCount: EVERY_HIT.length });
    expect(hitsOf(result)).toEqual(EVERY_HIT);
    expect(run.probes.map((probe) => probe.from)).toEqual(measuredAgain(pause, length) ? [0, 2, 2] : [0, 2]);
    expect(run.paused()).toBe(pause);
  });

  it('in every probe, at a pace under the model\'s (the regex really is slow here): refused after two measurements within half the room, the earlier hits kept', async () => {
    // 3.2 us a character (the model says ~9): 210 ms for the 64 KiB file, past the room. The first
    // measurement probes 4 KiB, then 16 (a quarter of the room spent); measured again within what is
    // left of half the room (4 KiB), the same.
    const msPerChar = 0.0032;
    const run = pauseProbes(1 << 16, (probe) => (probe.length - probe.from) * msPerChar);
    const result = await search(1 << 16);
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'], partialFile: 'a.txt' });
    expect(hitsOf(result)).toEqual(['a.txt:1']);
    expect(run.probes.map((probe) => probe.from)).toEqual([0, 0, 0]);
    const [first, second, again] = run.probes.map((probe) => probe.length);
    expect([first, second]).toEqual([4096, 16384]);
    // Cut to what the model says fits in what is left of half the room.
    expect(again).toBeGreaterThan(1024);
    expect(again).toBeLessThanOrEqual(4096);
    expect(run.paused()).toBeLessThanOrEqual(BUDGET_MS / 2);
  });
});
