/**
 * A slow match is a failure, not a wait: no single matching call may hold a content search far past
 * its time budget or its signal (src/content/match-gate.ts). Families over line lengths × query
 * shapes (a regex whose NFA costs its size times the line, a long case-insensitive literal that V8
 * tries at every position, the ripgrep path's column for a zero-width match at the end of a file
 * with no last line break) × the forms that can stop a search (a budget, a signal, neither).
 *
 * Verdicts only, never timings: `time-budget` with the hits before kept and `partialFile`, or the
 * file skipped `EFBIG` and the search going on. And ordinary searches lose nothing: a normal regex
 * or literal over long minified lines finds every hit. The largest shapes (those of the adversarial
 * run) run in a child process, with a deadline that only catches a hang.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchContent, type ContentOptions, type ContentResult } from '../../src/index.js';
import { FakeClock, buildVolume, type Tree } from '../helpers/memfs.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';

requireRipgrepInCi();

const scratch = mkdtempSync(join(tmpdir(), 'ff-bounded-match-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A line the shape matches at once, a long line it is costly on, the same short line again. */
interface Shape {
  name: string;
  options: Partial<ContentOptions>;
  short: string;
  long: (length: number) => string;
  /** Whether the long line holds a match (found when its search fits). */
  longHits: boolean;
}

const SHAPES: Shape[] = [
  // re2js's NFA: 603 instructions at every character of the line; its DFA sees the final z.
  { name: 'regex (?:[b-y]?){300}z', options: { query: '(?:[b-y]?){300}z', mode: 'regex' }, short: 'z', long: (n) => 'a'.repeat(n) + 'z', longHits: true },
  // Smart case: a lower-case literal ignores case; V8 tries it at every `a`.
  { name: 'literal a×1023 b, ignoring case', options: { query: 'a'.repeat(1023) + 'b' }, short: 'a'.repeat(1023) + 'b', long: (n) => 'a'.repeat(n) + 'z', longHits: false },
];

const LENGTHS = [1 << 16, 1 << 18, 1 << 20];

/** `a.txt` (a hit), `hostile.txt` (short, long, short lines), `z.txt` (a hit): the walk's order. */
function treeOf(shape: Shape, length: number): Tree {
  return { 'a.txt': `${shape.short}\n`, 'hostile.txt': `${shape.short}\n${shape.long(length)}\n${shape.short}\n`, 'z.txt': `${shape.short}\n` };
}

function search(shape: Shape, tree: Tree, options: Partial<ContentOptions>): Promise<ContentResult> {
  return searchContent({ root: '/root', fs: buildVolume(tree), platform: 'posix', ...shape.options, ...options } as ContentOptions);
}

/**
 * The search with a signal and no budget, once per shape and length: the family below and the
 * refusal test of the regex on long lines check the same answer. Perf: the regex's search on a
 * long line is ~0.4 s of CPU (its measuring probes), and was made twice for each of two lengths.
 */
const signalAnswers = new Map<string, Promise<ContentResult>>();
function signalSearch(shape: Shape, length: number): Promise<ContentResult> {
  const key = `${shape.name} ${length}`;
  let answer = signalAnswers.get(key);
  if (answer === undefined) signalAnswers.set(key, (answer = search(shape, treeOf(shape, length), { signal: new AbortController().signal })));
  return answer;
}

const hitsOf = (result: ContentResult) => result.hits.map((hit) => `${hit.path}:${hit.line}`);
/** Every hit, for a search that could afford the long line (the estimate is measured: a fast machine may). */
const allHits = (shape: Shape) => ['a.txt:1', 'hostile.txt:1', ...(shape.longHits ? ['hostile.txt:2'] : []), 'hostile.txt:3', 'z.txt:1'];

describe('a matching call that would overrun is not started', () => {
  describe.each(SHAPES)('$name', (shape) => {
    it.each(LENGTHS)('a time budget (fake clock, moving 1 ms per reading), line of %i: time-budget, the hits before kept, or the whole answer', async (length) => {
      let t = 0;
      const result = await search(shape, treeOf(shape, length), { clock: { now: () => t++ }, timeBudgetMs: 200 });
      if (result.complete) {
        // A line cheap enough to search within the budget: every hit, nothing cut.
        expect(hitsOf(result)).toEqual(allHits(shape));
        return;
      }
      expect(result.incompleteReasons[0]).toBe('time-budget');
      // The long line's own hit is there when its search fit and the room ran out after it (timing).
      expect(hitsOf(result).filter((hit) => hit !== 'hostile.txt:2')).toEqual(['a.txt:1', 'hostile.txt:1']);
      expect(result.partialFile).toBe('hostile.txt');
      expect(result.skipped).toEqual([]);
    }, 60_000);

    it.each(LENGTHS)('a signal and no budget, line of %i: the file is skipped EFBIG from that line on and the search goes on, or the whole answer', async (length) => {
      const result = await signalSearch(shape, length);
      if (result.complete) {
        expect(hitsOf(result)).toEqual(allHits(shape));
        return;
      }
      expect(result.incompleteReasons).toEqual(['io-error']);
      expect(result.skipped).toEqual([{ path: 'hostile.txt', code: 'EFBIG' }]);
      // As above: the long line's hit when it fit in the step and the line after it did not (timing).
      expect(hitsOf(result).filter((hit) => hit !== 'hostile.txt:2')).toEqual(['a.txt:1', 'hostile.txt:1', 'z.txt:1']);
    }, 60_000);
  });

  // 256 KiB and more of this regex cost seconds (12-36 us a character): far past 200 ms and the 1 s cap on any machine.
  it.each(LENGTHS.slice(1))('the regex is refused on long lines (its measured cost is past 200 ms of budget and past the step cap): line of %i', async (length) => {
    const shape = SHAPES[0]!;
    const clock = new FakeClock();
    const budget = await search(shape, treeOf(shape, length), { clock, timeBudgetMs: 200 });
    expect(budget).toMatchObject({ complete: false, incompleteReasons: ['time-budget'], partialFile: 'hostile.txt' });
    expect(hitsOf(budget)).toEqual(['a.txt:1', 'hostile.txt:1']);
    const signal = await signalSearch(shape, length);
    expect(signal).toMatchObject({ complete: false, incompleteReasons: ['io-error'], skipped: [{ path: 'hostile.txt', code: 'EFBIG' }] });
  }, 60_000);

  it('the literal is refused on a 1 MiB line under a fake-clock budget (its checks read the clock)', async () => {
    const shape = SHAPES[1]!;
    let t = 0;
    const result = await search(shape, treeOf(shape, 1 << 20), { clock: { now: () => t++ }, timeBudgetMs: 200 });
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'], partialFile: 'hostile.txt' });
  }, 60_000);

  it('a multi-line regex (whole-file search): refused on the long file, the earlier file\'s hit kept', async () => {
    // `(?:[b-y]?){300}z\n` holds a line feed: each file is searched whole, the first call over all of it.
    const tree = { 'a.txt': 'z\n', 'm.txt': `z\n${'a'.repeat(1 << 18)}z\n` };
    const result = await searchContent({ root: '/root', fs: buildVolume(tree), platform: 'posix', query: '(?:[b-y]?){300}z\\n', mode: 'regex', clock: new FakeClock(), timeBudgetMs: 200 });
    // m.txt's first match is at its start: found at once (its search ends there); the next search, over the long rest, is refused.
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'], partialFile: 'm.txt' });
    expect(hitsOf(result)).toEqual(['a.txt:1', 'm.txt:1']);
  }, 60_000);
});

describe('ordinary searches over long minified lines lose nothing', () => {
  /** Three minified lines of `size` characters, `function name(` at known places. */
  function minified(size: number): { text: string; lines: string[] } {
    const lines = [0, 1, 2].map((i) => {
      const filler = 'var a=b+1;c(d,e);'.repeat(Math.ceil(size / 17)).slice(0, size);
      const at = Math.floor((size * (i + 1)) / 4);
      return `${filler.slice(0, at)}function f${i}(x){return x}${filler.slice(at)}`;
    });
    return { text: lines.join('\n') + '\n', lines };
  }

  const FORMS: [string, Partial<ContentOptions>][] = [
    ['a time budget', { clock: new FakeClock(), timeBudgetMs: 60_000 }],
    ['a signal', { signal: new AbortController().signal }],
    ['neither', {}],
  ];
  const QUERIES: [string, Partial<ContentOptions>, RegExp][] = [
    ['regex function\\s+(\\w+)', { query: 'function\\s+(\\w+)', mode: 'regex' }, /function\s+(\w+)/],
    ['literal "function f", ignoring case', { query: 'function f' }, /function f/i],
    ['literal over 16 characters, ignoring case', { query: 'function f1(x){return x}' }, /function f1\(x\)\{return x\}/i],
  ];

  describe.each(FORMS)('%s', (_form, form) => {
    it.each(QUERIES)('%s: every hit, at its column', async (_name, query, oracle) => {
      // 1 MB lines: the model's worst case (every thread alive) says ~1.2 s for the regex, past the
      // 1 s cap, where it runs in ~0.1 s (room to spare on a loaded machine); refused by the model
      // alone, a signal (the command always has one) lost these hits.
      const { text, lines } = minified(1_000_000);
      const result = await searchContent({ root: '/root', fs: buildVolume({ 'min.js': text }), platform: 'posix', ...query, ...form } as ContentOptions);
      const expected = lines.flatMap((line, i) => {
        const at = line.search(oracle);
        return at < 0 ? [] : [{ line: i + 1, column: at + 1 }];
      });
      expect(expected.length).toBeGreaterThan(0);
      expect(result.complete).toBe(true);
      expect(result.hits.map(({ line, column }) => ({ line, column }))).toEqual(expected);
    }, 60_000);
  });
});

describeIf(needsRg)('the ripgrep path: a zero-width match at the end of a file with no last line break', () => {
  // ripgrep 13 sends `submatches: []` there; the column is ours to find, by the same gate.
  const dir = join(scratch, 'nonl');
  mkdirSync(dir);
  writeFileSync(join(dir, 'x.txt'), 'a'.repeat(1 << 20));
  const options = { root: dir, query: '(?:[b-z]?){300}$', mode: 'regex' as const, backend: 'ripgrep' as const, rgPath: realRg.path };

  it('a time budget (a clock that stands still): the run stops time-budget (a timeout), not a result limit', async () => {
    // The column would cost seconds (measured over its first characters): refused before it starts,
    // so a clock that never moves still ends the run (computed, it would be a complete answer with one hit).
    const result = await searchContent({ ...options, clock: new FakeClock(), timeBudgetMs: 500 });
    expect(result).toMatchObject({ backend: 'ripgrep', complete: false, incompleteReasons: ['time-budget'], recovery: { failureKind: 'timeout' } });
  }, 60_000);

  it('a signal and no budget: the file is skipped EFBIG, its hit not given a column we never computed', async () => {
    const result = await searchContent({ ...options, signal: new AbortController().signal });
    expect(result).toMatchObject({ backend: 'ripgrep', complete: false, incompleteReasons: ['io-error'], skipped: [{ path: 'x.txt', code: 'EFBIG' }], hits: [] });
  }, 60_000);

  it('a short line: the column is found as before', async () => {
    const short = join(scratch, 'nonl-short');
    mkdirSync(short);
    writeFileSync(join(short, 'x.txt'), 'abc  ');
    const result = await searchContent({ ...options, root: short, query: ' *$', timeBudgetMs: 60_000, signal: new AbortController().signal });
    expect(result).toMatchObject({ complete: true, hits: [{ path: 'x.txt', line: 1, column: 4 }] });
  }, 60_000);
});

describe('the adversarial run\'s shapes, in a child process (a hang fails the deadline, not the suite)', () => {
  const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
  const dir = join(scratch, 'adv');
  mkdirSync(join(dir, 'long1m'), { recursive: true });
  mkdirSync(join(dir, 'long16m'));
  mkdirSync(join(dir, 'nonl1m'));
  writeFileSync(join(dir, 'long1m', 'line.txt'), 'a'.repeat(1 << 20) + 'z\n');
  writeFileSync(join(dir, 'long16m', 'line.txt'), 'a'.repeat(16 * 1024 * 1024 - 100) + 'z\n');
  writeFileSync(join(dir, 'nonl1m', 'x.txt'), 'a'.repeat(1 << 20));

  // The clock of the budget form: `still` never moves (a call refused by its estimate), `ticking`
  // moves 1 ms per reading (the literal's checking loop reads it as it goes; a still clock never ends it).
  const CASES: [string, Record<string, unknown>, 'still' | 'ticking'][] = [
    ['walker, regex, 1 MiB line', { root: join(dir, 'long1m'), query: '(?:[b-y]?){300}z', mode: 'regex', backend: 'walker' }, 'still'],
    ['walker, literal a×1023 b, 16 MiB line', { root: join(dir, 'long16m'), query: 'a'.repeat(1023) + 'b', backend: 'walker' }, 'ticking'],
    ...(needsRg[0] ? [['ripgrep, zero-width at the end of 1 MiB', { root: join(dir, 'nonl1m'), query: '(?:[b-z]?){300}$', mode: 'regex', backend: 'ripgrep', rgPath: realRg.path }, 'still'] as [string, Record<string, unknown>, 'still']] : []),
  ];

  type Form = 'still' | 'ticking' | 'signal';
  const RUNS: { name: string; options: Record<string, unknown>; form: Form }[] = [
    ...CASES.map(([name, options, clock]) => ({ name, options, form: clock })),
    ...CASES.map(([name, options]) => ({ name, options, form: 'signal' as const })),
  ];
  /**
   * Every run's answer, by form and name: all of them in one child, one after another, each
   * answer printed as its search ends (a 500 ms budget on a clock that never moves or ticks per
   * reading, or a signal that never fires). Perf: one Node start-up and import of dist/ for the
   * six, not one each (~0.15 s of CPU apiece). A run that hangs leaves its answer and those after it
   * missing when the deadline kills the child.
   */
  const answers = new Map<string, ContentResult>();
  let child = '';
  beforeAll(() => {
    const script = `
      const { searchContent } = await import(${JSON.stringify(dist)});
      for (const { options, form } of ${JSON.stringify(RUNS)}) {
        let t = 0;
        if (form === 'signal') options.signal = new AbortController().signal;
        else Object.assign(options, { clock: { now: () => (form === 'still' ? 0 : t++) }, timeBudgetMs: 500 });
        console.log(JSON.stringify(await searchContent(options)));
      }`;
    // The deadline catches a hang only: unbounded, these calls ran 13-22 s each (and then answered complete).
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
    child = `status ${run.status}, ${run.error?.message ?? 'no error'}: ${run.stderr}`;
    run.stdout.split('\n').filter(Boolean).forEach((line, i) => answers.set(`${RUNS[i]!.form} ${RUNS[i]!.name}`, JSON.parse(line) as ContentResult));
  }, 150_000);

  const answerOf = (form: Form, name: string): ContentResult => {
    const answer = answers.get(`${form} ${name}`);
    expect(answer, `no answer from the child (${child})`).toBeDefined();
    return answer!;
  };

  // Fake clocks and a signal that never fires: an unbounded search ends complete (13-22 s later),
  // a bounded one refuses the call, so the verdict alone tells them apart.
  it.each(CASES)('%s, a 500 ms budget on a fake clock (still, or ticking per reading): time-budget', (name, _options, clock) => {
    const result = answerOf(clock, name);
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['time-budget'], hits: [] });
  });

  it.each(CASES)('%s, a signal and no budget: the file skipped EFBIG, the search incomplete', (name) => {
    const result = answerOf('signal', name);
    expect(result).toMatchObject({ complete: false, incompleteReasons: ['io-error'], hits: [] });
    expect(result.skipped.map((entry) => entry.code)).toEqual(['EFBIG']);
  });
});
