/**
 * The work of normalising brace alternatives is bounded before it is paid (`MAX_BRACE_CHARACTERS`,
 * src/glob/braces.ts). Each alternative was split and normalised before the compile cost was known:
 * `{1..9999}` + `@(/`×3,299 (9,999 alternatives of 9,900 characters) was refused after 8-11 s,
 * deaf to the time budget, the signal and Ctrl-C, and `splitSegments` allocated three arrays of
 * the glob's length per alternative (an adversary's find, F11).
 *
 * The work is counted, not timed: every glob handed to `splitSegments` adds its length. A generated
 * family of brace products × group openers × lengths up to the length limit must stay within the
 * limit plus the pattern's own readings, and answer as the code before the limit answered
 * (test/fixtures/brace-work-before.json, recorded from it) wherever that accepted the pattern;
 * the only shapes it accepted that are now refused are those whose alternatives hold more than
 * the limit of characters and normalise into far fewer (duplicates, dropped `./`).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expandBraces, MAX_BRACE_ALTERNATIVES, MAX_BRACE_CHARACTERS } from '../../src/glob/braces.js';
import { splitSegments } from '../../src/glob/parse.js';
import { checkCompileCost, MAX_PATTERN_LENGTH, normalizePatternList } from '../../src/patterns.js';
import { runFindFile } from '../helpers/cli.js';
import { Rng } from '../conformance/generate.js';

const work = vi.hoisted(() => ({ characters: 0, stopAt: Infinity }));

// Every glob split is counted; past `stopAt` the run stops at once (a planted unbounded run would take minutes).
vi.mock('../../src/glob/parse.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/glob/parse.js')>();
  return {
    ...original,
    splitSegments(glob: string, escapes: boolean) {
      work.characters += glob.length;
      if (work.characters > work.stopAt) throw new Error(`unbounded: ${work.characters} characters split`);
      return original.splitSegments(glob, escapes);
    },
  };
});

const flavor = { platform: 'posix' as const, caseSensitive: true };
/** The alternatives' characters, plus the pattern read as itself twice (its literal reading, `literalReading`). */
const BOUND = MAX_BRACE_CHARACTERS + 2 * MAX_PATTERN_LENGTH;

type Recorded = [prefix: string, piece: string, reps: number, tail: string, ...outcome: [number, string] | [string]];
const BEFORE = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/brace-work-before.json'), 'utf8')) as { shapes: Recorded[] };

interface Outcome {
  accepted?: { count: number; sha256: string };
  refused?: { code: string; message: string };
  work: number;
}

function normalise(pattern: string | string[], bound = BOUND): Outcome {
  work.characters = 0;
  work.stopAt = bound;
  try {
    const alternatives = normalizePatternList(pattern, flavor, 'pattern', false);
    checkCompileCost(alternatives, []);
    const sha256 = createHash('sha256').update(JSON.stringify(alternatives)).digest('hex').slice(0, 16);
    return { accepted: { count: alternatives.length, sha256 }, work: work.characters };
  } catch (e) {
    const { code, message } = e as { code?: string; message: string };
    return { refused: { code: code ?? 'thrown', message }, work: work.characters };
  } finally {
    work.stopAt = Infinity;
  }
}

describe('brace products × group openers × lengths (252 shapes, the code before the limit recorded on each)', () => {
  const results = BEFORE.shapes.map(([prefix, piece, reps, tail, ...before]) => {
    const pattern = prefix + piece.repeat(reps) + tail;
    return { shape: `${JSON.stringify(prefix)} + ${JSON.stringify(piece)}×${reps}`, pattern, before, now: normalise(pattern) };
  });

  it('the shapes reach the length limit and past the character limit', () => {
    expect(Math.max(...results.map((r) => r.pattern.length))).toBeGreaterThan(9900);
    expect(Math.max(...results.map((r) => r.pattern.length))).toBeLessThanOrEqual(MAX_PATTERN_LENGTH);
    expect(results.filter((r) => r.now.refused?.message.includes('characters in all')).length).toBeGreaterThan(50);
  });

  it('each is accepted or refused with FF_PATTERN_TOO_LARGE, splitting at most the limit plus two readings of the pattern', () => {
    const over = results.filter((r) => r.now.work > BOUND || (r.now.refused !== undefined && r.now.refused.code !== 'FF_PATTERN_TOO_LARGE'));
    expect(over.map((r) => `${r.shape}: ${r.now.work} characters, ${r.now.refused?.message ?? 'accepted'}`)).toEqual([]);
  });

  it('what the code before accepted, it still accepts with the same alternatives, unless they hold more characters than the limit', () => {
    const accepted = results.filter((r) => r.before.length === 2);
    expect(accepted.length).toBeGreaterThan(100);
    const changed = accepted.filter((r) => {
      const [count, sha256] = r.before as [number, string];
      if (r.now.accepted !== undefined) return r.now.accepted.count !== count || r.now.accepted.sha256 !== sha256;
      return !/expands to [\d,]+ alternatives of [\d,]+ characters in all, over the limit of 1,000,000/.test(r.now.refused!.message);
    });
    expect(changed.map((r) => `${r.shape}: before ${JSON.stringify(r.before)}, now ${JSON.stringify(r.now)}`)).toEqual([]);
    // Refused now and not before: only duplicates or dropped `./` (the alternatives normalise into far fewer characters).
    const newlyRefused = accepted.filter((r) => r.now.refused !== undefined).map((r) => r.shape);
    expect(newlyRefused.every((shape) => shape.includes('{,}') || shape.includes('"./"'))).toBe(true);
    expect(accepted.filter((r) => r.now.accepted !== undefined).length).toBeGreaterThan(120);
  });

  it('what the code before refused, it still refuses', () => {
    const refused = results.filter((r) => r.before.length === 1);
    expect(refused.length).toBeGreaterThan(50);
    expect(refused.filter((r) => r.now.refused?.code !== 'FF_PATTERN_TOO_LARGE').map((r) => r.shape)).toEqual([]);
  });
});

describe('a pattern list spends one budget of characters', () => {
  // Each pattern's alternatives, and each pattern read as itself twice more (here, without braces, the same text).
  const listBound = 3 * MAX_BRACE_CHARACTERS;

  it('200 different patterns of 9,990 characters are refused by pattern 101, before the rest is split', () => {
    const list = Array.from({ length: 200 }, (_, i) => `x${i}` + 'a/'.repeat(4993));
    const outcome = normalise(list, listBound);
    expect(outcome.refused).toEqual({ code: 'FF_PATTERN_TOO_LARGE', message: expect.stringMatching(/^pattern\[100\] .* over the limit of 1,000,000 for all patterns together/) });
    expect(outcome.work).toBeLessThanOrEqual(listBound);
  });

  it('within it, a list is accepted as before', () => {
    const list = Array.from({ length: 50 }, (_, i) => `src/${i}/{a,b}` + '/*.ts');
    expect(normalise(list).accepted?.count).toBe(100);
  });
});

describe('the characters are measured without making the alternatives, exactly', () => {
  const TOKENS = ['{1..9}', '{-12..3..5}', '{05..12}', '{100..-100..7}', '{a..e}', '{Z..a}', '{x,yy,}', '{,}', 'ab', '/', '{1..1000..333}', '{a,{b,cc{1..3}}}'];
  it('on 500 generated patterns (those within the count limit): the limit passes at the exact count and refuses one below it', () => {
    const rng = new Rng(2026);
    let measured = 0;
    for (let i = 0; i < 500; i++) {
      const pattern = Array.from({ length: rng.range(1, 4) }, () => rng.pick(TOKENS)).join('');
      let alternatives: string[];
      try {
        alternatives = expandBraces(pattern, true, 'pattern', pattern);
      } catch {
        continue; // past the count limit
      }
      measured++;
      const total = alternatives.reduce((sum, a) => sum + a.length, 0);
      expect(() => expandBraces(pattern, true, 'pattern', pattern, { alternatives: MAX_BRACE_ALTERNATIVES, characters: total }), pattern).not.toThrow();
      if (total > 0) {
        expect(() => expandBraces(pattern, true, 'pattern', pattern, { alternatives: MAX_BRACE_ALTERNATIVES, characters: total - 1 }), pattern).toThrow(/characters in all/);
      }
    }
    expect(measured).toBeGreaterThan(400);
  });

  it('a thousand sequences in one set are measured by arithmetic: refused on the count, nothing listed', () => {
    const pattern = `{${Array.from({ length: 900 }, () => '{1..99999}').join(',')}}`;
    expect(() => expandBraces(pattern, true, 'pattern', pattern)).toThrow(/expands to 89,999,100 alternatives/);
  });
});

describe('splitSegments allocates nothing per glob', () => {
  const Original = globalThis.Int32Array;
  afterEach(() => {
    globalThis.Int32Array = Original;
  });

  it('1,000 globs with groups and slashes, none longer than the first: no array allocated per glob', () => {
    let made = 0;
    globalThis.Int32Array = class extends Original {
      constructor(...args: ConstructorParameters<Int32ArrayConstructor>) {
        super(...(args as unknown as [number]));
        made++;
      }
    } as Int32ArrayConstructor;
    const longest = '@(/'.repeat(20_000);
    splitSegments(longest, true);
    const afterFirst = made;
    for (let i = 0; i < 1000; i++) splitSegments(`${i}/@(a/b|c)/`.repeat(50) + '@(/'.repeat(i % 100), true);
    expect(afterFirst).toBeLessThanOrEqual(3);
    expect(made - afterFirst).toBe(0);
  });

  it('each glob is read afresh: the same segments after another glob as read alone', () => {
    // An opener never closed holds the rest of the pattern, its slashes too (bash: src/glob/parse.ts splitSegments).
    expect(splitSegments('@(a/b|c)/x/@(/y', true)).toEqual(['@(a/b|c)', 'x', '@(/y']);
    splitSegments('@(/'.repeat(50), true);
    expect(splitSegments('@(a/b|c)/x/@(/y', true)).toEqual(['@(a/b|c)', 'x', '@(/y']);
    expect(splitSegments('a/@(b/c)', true)).toEqual(['a', '@(b/c)']);
  });
});

describe("the adversary's shapes", () => {
  const seq = '{1..9999}' + '@(/'.repeat(3299) + 'y';
  const braces = '{a,b}'.repeat(13) + '@(/'.repeat(3299) + 'y';

  it('are refused naming the characters, having split nothing', () => {
    for (const pattern of [seq, braces]) {
      const outcome = normalise(pattern);
      expect(outcome.refused?.code).toBe('FF_PATTERN_TOO_LARGE');
      expect(outcome.refused?.message).toMatch(/alternatives of [\d,]+ characters in all, over the limit of 1,000,000: use fewer brace alternatives/);
      expect(outcome.work).toBe(0);
    }
  });

  it('the CLI exits 2 with the refusal (it exited after 4.7-9.4 s, past --time-budget-ms 500)', () => {
    const root = mkdtempSync(join(tmpdir(), 'ff-brace-work-'));
    try {
      const run = runFindFile(['--time-budget-ms', '500', '-u', seq, root], { cwd: root });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain('99,008,991 characters in all, over the limit of 1,000,000');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 30_000);
});
