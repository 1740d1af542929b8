/**
 * A regex whose DFA blows up may not run past the budget (src/content/bounded-dfa.ts): re2js's DFA
 * gave up on `[ab]*a[ab]{1000}c` over a 1 MiB line of random `a`/`b` and fell back to its NFA in the
 * same call, 16 s past a 400 ms budget. A family of shapes that blow DFAs up (a counted repeat after
 * a star, alternations of classes, nested counted groups) × line lengths, each line with and without
 * a match at its end, under a budget on a clock that stands still.
 *
 * Work, never time: re2js's own engines are spied on (the NFA's characters times its program, the
 * DFA's characters and the states it builds, each at the cost models' rates), and the work asked of
 * them for one `find` must fit in the room plus one DFA state. A spy throws past twice that, so a
 * regression fails at once instead of running for seconds.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DFA_NS_PER_CHAR, DFA_NS_PER_STATE, DFA_NS_PER_STATE_INSTRUCTION, BoundedDfa } from '../../src/content/bounded-dfa.js';
import { MatchGate } from '../../src/content/match-gate.js';
import { buildLineMatcher, readQuery } from '../../src/content/query.js';
import { Deadline } from '../../src/limits.js';
import { loadRe2 } from '../../src/re2.js';
import { FakeClock } from '../helpers/memfs.js';

/** The repro's budget, and one long enough for a DFA to give up by itself (~0.5-0.8 s of states) before its allowance. */
const BUDGETS_MS = [400, 2000];

/** Deterministic random text over `alphabet` (mulberry32: an LCG's low bits repeat, and a DFA caches a repeat). */
function randomText(length: number, alphabet: string, seed: number): string {
  let x = seed;
  let text = '';
  for (let i = 0; i < length; i++) {
    x = (x + 0x6d2b79f5) | 0;
    let t = Math.imul(x ^ (x >>> 15), 1 | x);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    text += alphabet[((t ^ (t >>> 14)) >>> 0) % alphabet.length];
  }
  return text;
}

/**
 * Perf: each length's line, built once per alphabet (a 1 MiB line took ~110 ms to build, 28 times a
 * run: a quarter of this file's CPU). A line that ends in a match is the start of the same random
 * line, of the same seed, with the match after it: exactly the line `randomText` built for it.
 */
const lines = new Map<string, string>();
function randomLine(length: number, alphabet: string, tail: string): string {
  const key = `${length} ${alphabet}`;
  let text = lines.get(key);
  if (text === undefined) lines.set(key, (text = randomText(length, alphabet, length)));
  return text.slice(0, length - tail.length) + tail;
}

/** A shape: the regex, the alphabet of its hostile line, and a tail that makes the line match. */
const SHAPES: { query: string; alphabet: string; match: string }[] = [
  { query: '[ab]*a[ab]{1000}c', alphabet: 'ab', match: 'a' + 'b'.repeat(1000) + 'c' },
  { query: '[ab]*a[ab]{20}c', alphabet: 'ab', match: 'a' + 'b'.repeat(20) + 'c' },
  { query: '[ab]{0,1000}c', alphabet: 'ab', match: 'c' },
  { query: '(?:a|b|ab|ba)*c[ab]{60}d', alphabet: 'abc', match: 'c' + 'a'.repeat(60) + 'd' },
  { query: '(?:(?:[ab]{0,9}a){3}[ab]){5}c', alphabet: 'ab', match: 'aaaaaaaaaaaaaaaaaaac' },
  // A DFA of two states over a 603-instruction NFA: the DFA finds the match, the NFA's probes are measured.
  { query: '(?:[b-y]?){300}z', alphabet: 'a', match: 'z' },
  // The same with 1,803 instructions: a probe of 4 KiB could cost 0.52 s, past the room.
  { query: '(?:[b-y]?){900}z', alphabet: 'a', match: 'z' },
];
const LENGTHS = [1 << 12, 1 << 16, 1 << 20];

/**
 * Work asked of re2js in one `find`, ns, at the models' rates: the DFA's (its characters, its states,
 * and any NFA run without positions: the fallback this module exists to prevent), charged as it goes
 * and thrown on past `limit`; and each NFA search with positions (the probes, then the search).
 */
const work = { dfa: 0, limit: Infinity, dfaSaid: undefined as boolean | undefined, searches: [] as { chars: number; ns: number }[] };
class OverBudget extends Error {}
const restore: (() => void)[] = [];

function wrap(proto: Record<string, unknown>, name: string, around: (self: any, args: any[], call: () => any) => any): void {
  const original = proto[name] as (...args: unknown[]) => unknown;
  proto[name] = function (this: unknown, ...args: unknown[]) {
    return around(this, args, () => original.apply(this, args));
  };
  restore.push(() => (proto[name] = original));
}

function chargeDfa(ns: number): void {
  work.dfa += ns;
  if (work.dfa > work.limit) throw new OverBudget(`re2js's DFA was asked ${Math.round(work.dfa / 1e6)} ms of work`);
}

const nfaNs = (chars: number, instructions: number) => chars * (200 + 70 * instructions);

beforeAll(() => {
  const probe = loadRe2().compile('a');
  const re2 = Object.getPrototypeOf(probe.re2Input) as Record<string, unknown>;
  const dfa = Object.getPrototypeOf(probe.re2Input.dfa) as Record<string, unknown>;
  wrap(re2, 'doExecuteNFA', (self, [input, pos, , ncap], call) => {
    const chars = input.endPos() - pos;
    const ns = nfaNs(chars, self.prog.numInst());
    if (ncap === 0) chargeDfa(ns); // before it runs: the fallback, planted, fails at once
    else work.searches.push({ chars, ns });
    return call();
  });
  wrap(dfa, 'match', (_self, [input, pos], call) => {
    chargeDfa((input.endPos() - pos) * DFA_NS_PER_CHAR);
    const said = call();
    work.dfaSaid = said ?? undefined;
    return said;
  });
  wrap(dfa, 'makeState', (_self, _args, call) => {
    const state = call();
    chargeDfa(DFA_NS_PER_STATE + (state?.nfaStates.length ?? 0) * DFA_NS_PER_STATE_INSTRUCTION);
    return state;
  });
});
afterAll(() => restore.forEach((undo) => undo()));

/** One DFA state of the largest program here (~2,000 instructions): what the DFA may build past its allowance. */
const ONE_STATE_NS = DFA_NS_PER_STATE + 2_000 * DFA_NS_PER_STATE_INSTRUCTION;

describe('a DFA that blows up is bounded by the room, and never gives a false absence', () => {
  describe.each(SHAPES)('$query', ({ query, alphabet, match }) => {
    const cases = BUDGETS_MS.flatMap((budget) => LENGTHS.flatMap((length) => [false, true].map((matching) => [budget, length, matching] as const)));
    it.each(cases)('budget %i ms, line of %i, ending in a match: %s', (budget, length, matching) => {
      const room = budget * 1e6;
      const gate = new MatchGate(new Deadline(new FakeClock(), budget), false);
      const matcher = buildLineMatcher(readQuery({ query, mode: 'regex' }, true), gate);
      const line = randomLine(length, alphabet, matching ? match : '');
      Object.assign(work, { dfa: 0, limit: room / 2 + ONE_STATE_NS, dfaSaid: undefined, searches: [] });
      const at = matcher.find(line, 0);
      // The DFA: half the room, one state past it at most, and never the NFA without positions.
      expect(work.dfa).toBeLessThanOrEqual(room / 2 + ONE_STATE_NS);
      // The search proper, when the line was answered: the last NFA search over the whole line.
      const answered = !matcher.refused && work.searches.at(-1)?.chars === line.length;
      const search = answered ? work.searches.at(-1)! : undefined;
      const probes = answered ? work.searches.slice(0, -1) : work.searches;
      // Each probe's worst case fits in the room (they stop once a quarter of it is spent: wall time, not asserted).
      for (const probe of probes) expect(probe.ns).toBeLessThanOrEqual(room);
      // Its worst case fits, or the DFA found a match and the NFA was measured on the line.
      if (search !== undefined && search.ns > room) expect(work.dfaSaid).toBe(true);
      if (matcher.refused) {
        expect(gate.take()).toBe('time-budget');
        return;
      }
      // Answered: a line that ends in a match was found to hold one (a false absence is the one wrong answer).
      if (matching) expect(at).toBeGreaterThanOrEqual(0);
    }, 30_000);
  });
});

describe('the hooks hold on the installed re2js', () => {
  beforeEach(() => (work.limit = Infinity));

  it('a DFA that gives up says "cannot say" instead of falling back to the NFA', () => {
    const regex = loadRe2().compile('[ab]*a[ab]{20}c', loadRe2().CASE_INSENSITIVE);
    const dfa = new BoundedDfa(regex);
    // The family's 1 MiB line of random `a`/`b` (built once: ~110 ms), ending in `c`.
    expect(dfa.test(randomLine(1 << 20, 'ab', 'c'), 60_000)).toBeUndefined();
    expect(dfa.test('ab', 60_000)).toBe(false);
    expect(dfa.test('a' + 'b'.repeat(20) + 'c', 60_000)).toBe(true);
  });

  it('a call whose characters alone would pass the room is not started', () => {
    const dfa = new BoundedDfa(loadRe2().compile('x'));
    work.dfa = 0;
    expect(dfa.test('a'.repeat(1_000_000), 100)).toBeUndefined(); // 150 ms of characters
    expect(work.dfa).toBe(0);
  });
});
