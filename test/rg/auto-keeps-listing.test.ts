/**
 * `auto` after a failed ripgrep listing (src/backend.ts `keepListed`): the walker answers in the
 * time left, and when it cannot finish, what ripgrep had already listed is not thrown away. An
 * adversary's find: 12,000 denied directories made ripgrep fail after listing `ok.txt`, and the
 * walker, with ~0 ms left, answered `matches: []`. Generated trees on the real disk, the fake
 * ripgrep listing every file then failing, a clock that lets the walker read a few directories;
 * the oracle is a fresh walker run with no budget. Also: an abort between ripgrep's complete empty
 * listing and the links walk never leaves a complete answer that examined no link.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findFiles, type FindOptions } from '../../src/index.js';
import type { ProcessRunner } from '../../src/rg/runner.js';
import { mulberry32 } from '../helpers/prng.js';
import { FakeClock, FakeRipgrep, nul, useFakeInstall } from '../helpers/rg-fake.js';

let rgPath: string;
useFakeInstall((made) => {
  ({ rgPath } = made);
});

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A fresh root holding `files` (root-relative, `/`), each an empty regular file. */
function makeTree(files: readonly string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'ff-auto-keep-'));
  roots.push(root);
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), '');
  }
  return root;
}

/** A clock frozen while ripgrep runs, then moving 1 ms at each reading: the walker gets `budget - 1` readings. */
function walkerClock() {
  const clock = { t: 0, ticking: false, now: () => (clock.ticking ? ++clock.t : clock.t) };
  return clock;
}

/** ripgrep lists `listed` (in that order), prints a line nothing explains and exits 2: failure `exit`. */
function failingListing(listed: readonly string[], clock?: { ticking: boolean }, stderr = 'rg: odd\n') {
  return new FakeRipgrep([{ stdout: nul(...listed.map((p) => `./${p}`)) }, { stderr }, { run: () => clock && (clock.ticking = true) }, { exit: 2 }]);
}

// Names that sort after directories and directories that sort before names: the walker reads the
// root first, so the union of its answer and ripgrep's is out of order unless it is sorted.
const NAMES = ['a.ts', 'b.ts', 'c.js', 'd.md', '.e.ts', 'f.ts', 'z.ts'];
const DIRS = ['', 'src/', 'src/lib/', 'test/', 'x/y/z/', '.hid/', 'a/'];
const PATTERNS = ['*.ts', '**/*.ts', 'src/**', '**/[ab]*', '*/*.ts', '**/*'];

function generateCase(seed: number) {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const files = new Set<string>();
  const count = 3 + Math.floor(random() * 14);
  while (files.size < count) files.add(pick(DIRS) + pick(NAMES));
  // ripgrep lists in no set order, and a failing run may stop before it listed all.
  const shuffled = [...files].sort(() => random() - 0.5);
  const listed = random() < 0.5 ? shuffled : shuffled.slice(0, Math.floor(random() * shuffled.length));
  const options: Partial<FindOptions> = {
    pattern: pick(PATTERNS),
    maxResults: random() < 0.3 ? 1 + Math.floor(random() * 4) : 1000,
    absolute: random() < 0.3,
    hidden: random() < 0.5,
    exclude: random() < 0.3 ? ['test'] : [],
  };
  return { files: [...files], listed, options, budget: 1 + Math.floor(random() * 12) };
}

describe('auto keeps what a failed ripgrep listed when the walker cannot finish', () => {
  it('generated trees: the answer holds every listed match the walker accepts, nothing it rejects, sorted as it sorts', async () => {
    let merged = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const { files, listed, options, budget } = generateCase(seed);
      const root = makeTree(files);
      const oracle = await findFiles({ root, ...options, maxResults: 100_000 } as FindOptions);
      expect(oracle.complete).toBe(true);
      const clock = walkerClock();
      const fake = failingListing(listed, clock);
      const result = await findFiles({ root, ...options, backend: 'auto', rgPath, runner: fake.runner, clock, timeBudgetMs: budget } as FindOptions);
      const where = `seed ${seed}: ${JSON.stringify({ options, budget })}`;
      if (result.backend === 'ripgrep') {
        // Match maxResults + 1 seen before the failure: ripgrep stopped at the limit and answered.
        expect(result.incompleteReasons, where).toEqual(['result-limit']);
        continue;
      }
      expect(result, where).toMatchObject({ backend: 'walker', fallbackReason: 'exit', recovery: { failureKind: 'exit' } });
      const maxResults = options.maxResults!;
      if (result.complete) {
        expect(result.matches, where).toEqual(oracle.matches.slice(0, maxResults));
        continue;
      }
      // Nothing the walker's rules reject, in the walker's order, within maxResults.
      const order = new Map(oracle.matches.map((m, i) => [m, i]));
      expect(result.matches.every((m) => order.has(m)), where).toBe(true);
      const ranks = result.matches.map((m) => order.get(m)!);
      expect(ranks, where).toEqual([...ranks].sort((a, b) => a - b));
      expect(result.matches.length, where).toBeLessThanOrEqual(maxResults);
      expect(result.matchedCount).toBe(result.matches.length);
      // What ripgrep kept (the first maxResults matching, in its listing order) is there, unless the answer is full and it sorts later.
      const asAnswer = (rel: string) => (options.absolute ? join(root, rel) : rel);
      const kept = listed.map(asAnswer).filter((m) => order.has(m)).slice(0, maxResults);
      const last = ranks[ranks.length - 1] ?? -1;
      for (const m of kept) {
        const there = result.matches.includes(m);
        expect(there || (result.matches.length === maxResults && order.get(m)! > last), `${where}: ${m}`).toBe(true);
        if (!there) expect(result.incompleteReasons, where).toContain('result-limit');
      }
      if (kept.length > 0) merged++;
    }
    // The family exercises the merge, not only complete walks.
    expect(merged).toBeGreaterThan(20);
  });

  it('keeps ripgrep\'s gaps too: a denied directory it met stays in skipped, with its reason', async () => {
    const root = makeTree(['ok.txt']);
    const clock = new FakeClock();
    const fake = new FakeRipgrep([{ stdout: nul('./ok.txt') }, { stderr: 'rg: ./d1: Permission denied (os error 13)\nrg: odd\n' }, { run: () => clock.advance(10) }, { exit: 2 }]);
    const result = await findFiles({ root, pattern: '*.txt', backend: 'auto', rgPath, runner: fake.runner, clock, timeBudgetMs: 10 });
    expect(result).toMatchObject({
      matches: ['ok.txt'],
      matchedCount: 1,
      skipped: [{ path: 'd1', code: 'EACCES' }],
      skippedCount: 1,
      complete: false,
      incompleteReasons: ['time-budget', 'permission-denied'],
      backend: 'walker',
      fallbackReason: 'exit',
    });
  });

  it('past maxResults, the first in the walker\'s order, and the answer says result-limit', async () => {
    const root = makeTree(['z.ts', 'src/b.ts', 'src/c.ts']);
    const clock = new FakeClock();
    const fake = failingListing(['src/c.ts', 'src/b.ts']);
    // The walker reads the root (z.ts), then finds the budget spent before src/.
    const onDirectory = (dir: string) => dir === '' && clock.advance(100);
    const result = await findFiles({ root, pattern: '**/*.ts', maxResults: 2, backend: 'auto', rgPath, runner: fake.runner, clock, timeBudgetMs: 50, onDirectory });
    expect(result).toMatchObject({ matches: ['src/b.ts', 'src/c.ts'], matchedCount: 2, complete: false, incompleteReasons: ['time-budget', 'result-limit'], backend: 'walker' });
  });

  it('with ignore files in play, a failed listing is not trusted: what the walker would ignore never comes back', async () => {
    // ripgrep 13 drops an ignore file it cannot compile and lists what that file ignores.
    const root = makeTree(['a.ts', 'secret.ts']);
    writeFileSync(join(root, '.ignore'), 'secret.ts\n');
    const clock = new FakeClock();
    const fake = new FakeRipgrep([{ stdout: nul('./a.ts', './secret.ts') }, { stderr: 'rg: odd\n' }, { run: () => clock.advance(10) }, { exit: 0 }]);
    const result = await findFiles({ root, pattern: '*.ts', gitignore: true, backend: 'auto', rgPath, runner: fake.runner, clock, timeBudgetMs: 10 });
    expect(result).toMatchObject({ backend: 'walker', fallbackReason: 'exit', complete: false });
    expect(result.matches).not.toContain('secret.ts');
  });

  it('a complete walker answer is the whole truth: a listed file it does not return stays out', async () => {
    // Listed by ripgrep, gone by the time the walker reads the directory.
    const root = makeTree(['a.ts']);
    const fake = failingListing(['a.ts', 'gone.ts']);
    const result = await findFiles({ root, pattern: '*.ts', backend: 'auto', rgPath, runner: fake.runner });
    expect(result).toMatchObject({ matches: ['a.ts'], complete: true, backend: 'walker', fallbackReason: 'exit' });
  });
});

describe('an abort between ripgrep\'s complete empty listing and the links walk', () => {
  /** Plays ripgrep's clean empty exit, then fires the caller's signal at `moment`. */
  function exitThenAbort(controller: AbortController, moment: 'sync' | 'microtask'): ProcessRunner {
    return (_request, listener) => {
      setImmediate(() => {
        listener.exit(1, null);
        if (moment === 'sync') controller.abort();
        else queueMicrotask(() => controller.abort());
      });
    };
  }

  const root = makeTree(['real/python3.11', 'src/a.ts']);
  symlinkSync('real/python3.11', join(root, 'python3'));
  symlinkSync('src', join(root, 'linked-src'));
  const cases = ['python3', 'linked-src/*.ts', 'nothing-*', '**/python*'].flatMap((pattern) => (['sync', 'microtask'] as const).map((moment) => ({ pattern, moment })));

  it.each(cases)('$pattern, aborted $moment after the exit: never complete with no link examined', async ({ pattern, moment }) => {
    const oracle = await findFiles({ root, pattern });
    const controller = new AbortController();
    const result = await findFiles({ root, pattern, backend: 'auto', rgPath, runner: exitThenAbort(controller, moment), signal: controller.signal });
    const unexamined = result.complete && result.matchedCount === 0 && !result.linksExamined;
    expect(unexamined, JSON.stringify(result)).toBe(false);
    // Where it did not walk, it says the walk was cut: the oracle may name links it could not.
    if (!result.linksExamined) expect(result).toMatchObject({ complete: false, incompleteReasons: ['aborted'], backend: 'ripgrep' });
    else expect(result.linkMatches).toEqual(oracle.linkMatches);
  });
});
