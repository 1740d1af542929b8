/**
 * The undecoded check counts toward the walk's budget (src/walk/engine.ts, src/patterns.ts
 * `UNDECODED_COST_FACTOR`). A name holding U+FFFD that misses is judged in every reading of its
 * bytes (src/glob/nfa.ts `couldMatch`), 90-555 ns per unit of pattern cost × path length where a
 * match is 0.1-25: counted as a match, `?`×251 `x` over 1,000 names of 245 U+FFFD ran a 100 ms
 * budget to 320-430 ms (the clock was read every 16 such names, 35 ms each).
 *
 * No wall clock here: the clock advances 1 ms per reading, so the budget is a number of readings,
 * and the walk must read it at least once per 5 ms of checks at the measured worst (555 ns a unit):
 * at most `perRead` names between two readings, so at most budget × `perRead` names seen.
 */
import { describe, expect, it } from 'vitest';
import { findFiles, findFilesSync, type DirentLike, type FsLike } from '../../src/index.js';
import { buildMatcher } from '../../src/patterns.js';
import { buildFindPlan } from '../../src/plan/search-plan.js';
import { AsyncDriver, runSync } from '../../src/walk/drivers.js';
import { Walk } from '../../src/walk/engine.js';
import { FakeClock } from '../helpers/memfs.js';

const FFFD = '\uFFFD';
const WORST_NS_PER_UNIT = 555;
const MS_PER_READ = 5;

function dirent(name: string): DirentLike {
  const no = () => false;
  return { name, isFile: () => true, isDirectory: no, isSymbolicLink: no, isFIFO: no, isSocket: no, isBlockDevice: no, isCharacterDevice: no };
}

/** One directory of these names; an lstat (a name some reading could match) finds it cannot be opened. */
function setup(names: string[]) {
  const entries = names.map(dirent);
  const eilseq = () => Object.assign(new Error('EILSEQ'), { code: 'EILSEQ' });
  const fs: FsLike = {
    readdir: (_p, _o, cb) => setImmediate(() => cb(null, entries)),
    readdirSync: () => entries,
    lstat: (_p, cb) => void setImmediate(() => cb(eilseq(), undefined as never)),
    lstatSync: () => {
      throw eilseq();
    },
  };
  const clock = new FakeClock();
  const ticking = { now: () => (clock.advance(1), clock.now()) };
  return { fs, clock: ticking };
}

// Patterns of several costs and shapes, none matching the names as decoded.
const PATTERNS = ['?'.repeat(251) + 'x', '?'.repeat(60) + 'x', '[a-z]*?'.repeat(8) + 'x', '+(a|b|?)x', '*a*b*c*d*e*x'];
// Names of U+FFFD runs (glibc's one-character readings), U+FFFD among ASCII, short and long.
const NAMES: [string, (i: number) => string][] = [
  ['245 U+FFFD', (i) => FFFD.repeat(245) + i],
  ['60 U+FFFD', (i) => FFFD.repeat(60) + i],
  ['a U+FFFD ×40', (i) => `a${FFFD}`.repeat(40) + i],
];
const COUNT = 600;
const BUDGET = 12;

describe('undecoded checks are counted at their cost: the walk stops within a few ms of checks after the budget', () => {
  for (const pattern of PATTERNS) {
    for (const [shape, name] of NAMES) {
      const units = buildMatcher([pattern], { platform: 'posix', caseSensitive: true }).cost * (name(COUNT).length + 1);
      const perRead = Math.max(1, Math.floor((MS_PER_READ * 1e6) / (WORST_NS_PER_UNIT * units)));
      if (perRead * BUDGET >= COUNT) continue; // too cheap to tell a count from none
      for (const form of ['sync', 'async'] as const) {
        it(`${form}: ${pattern.length > 20 ? pattern.slice(0, 12) + '…(' + pattern.length + ')' : pattern} over ${COUNT} names of ${shape} (${units} units, ≤ ${perRead} a reading)`, async () => {
          const { fs, clock } = setup(Array.from({ length: COUNT }, (_, i) => name(i)));
          const options = { root: '/r', platform: 'posix' as const, pattern, fs, clock, timeBudgetMs: BUDGET };
          const result = form === 'sync' ? findFilesSync(options) : await findFiles(options);
          expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'] });
          expect(result.stats.entriesSeen).toBeLessThanOrEqual(BUDGET * perRead);
        });
      }
    }
  }
});

describe('a name an lstat found real is not checked again (its answer would be unused, and uncounted)', () => {
  // `?`×60 could match 40 U+FFFD read as 1-3 bytes each (and `ab`), never the 42 characters as decoded:
  // each name is lstat'ed; found, it is real and does not match. The check is made once, when counted.
  const names = Array.from({ length: 50 }, (_, i) => FFFD.repeat(40) + String.fromCharCode(97 + (i % 26)) + i);
  const file = { isFile: () => true, isDirectory: () => false, isSymbolicLink: () => false };
  for (const form of ['sync', 'async'] as const) {
    it(form, async () => {
      const { fs: base } = setup(names);
      const fs: FsLike = { ...base, lstat: (_p, cb) => void setImmediate(() => cb(null, file)), lstatSync: () => file };
      const plan = buildFindPlan({ root: '/r', platform: 'posix', pattern: '?'.repeat(60), fs });
      const matcher = plan.scope.matcher;
      const could = matcher.couldMatchUndecoded;
      let checks = 0;
      matcher.couldMatchUndecoded = (rel, name) => (checks++, could(rel, name));
      const walk = new Walk(plan, () => {});
      if (form === 'sync') runSync(walk);
      else await new AsyncDriver(walk).done;
      expect(walk.summary()).toMatchObject({ complete: true, matchedCount: 0, skippedCount: 0 });
      expect(checks).toBe(names.length);
    });
  }
});
