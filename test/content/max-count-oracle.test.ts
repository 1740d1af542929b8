/**
 * `maxHitsPerFile` against an oracle we did not write: GNU `grep -m N -B b -A a`, which keeps a
 * file's first N matching lines, then prints the last one's trailing context, a matching line in it
 * shown as context. On random files, our hits read in order (each hit's `before`, the hit, its
 * `after`) must give exactly grep's lines, kinds and texts, file by file, on both paths: the pure-TS
 * one, and ripgrep's (`--max-count`, whose ripgrep 13 sends matching lines in trailing context as
 * matches: the collector must still show them as context). `filesAtHitCap` must be the number of
 * files with at least N matching lines, as `grep -c` counts them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { searchContent } from '../../src/index.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';
import { shownLines, writeLineFiles } from '../helpers/line-files.js';

requireRipgrepInCi();

const scratch = mkdtempSync(join(tmpdir(), 'ff-max-count-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Lines made of a few words, so hits are dense and the cap, the windows and the trailing context meet. */
const LINE = fc.constantFrom('', 'x', 'foo', 'a foo b', 'fo', 'foo foo', 'bar', 'z');
/** 9,000 lines of filler (72 KiB): a file that starts with them has its first hit past the first 64 KiB chunk. */
const FILLER = Array.from({ length: 9000 }, () => 'xxxxxxx');
const FILE = fc
  .record({ lines: fc.array(LINE, { maxLength: 20 }), crlf: fc.boolean(), finalNewline: fc.boolean(), late: fc.boolean() })
  .map(({ late, ...file }) => (late ? { ...file, lines: [...FILLER, ...file.lines] } : file));
const QUERIES = [
  { query: 'foo', mode: 'literal' as const, grep: '-F' },
  { query: 'fo+ ?', mode: 'regex' as const, grep: '-E' },
];

/** One shown line: its kind (m: a hit, c: context), number and text. */
type Shown = string;

function grep(dir: string, args: string[]): string[] {
  const run = spawnSync('grep', ['-H', ...args], { cwd: dir, encoding: 'utf8' });
  expect(run.status === 0 || run.status === 1, run.stderr).toBe(true);
  return run.stdout.split('\n').filter((line) => line !== '' && line !== '--');
}

/** What grep prints with -m, file by file: `f0.txt:3:text` a match, `f0.txt-3-text` context. */
function grepLines(dir: string, files: string[], query: (typeof QUERIES)[number], cap: number, before: number, after: number): Map<string, Shown[]> {
  const shown = new Map<string, Shown[]>();
  for (const line of grep(dir, ['-n', query.grep, '-m', String(cap), '-B', String(before), '-A', String(after), '--', query.query, ...files])) {
    const [, path, kind, n, text] = /^(f\d\.txt)([:-])(\d+)[:-](.*)$/s.exec(line)!;
    shown.set(path!, [...(shown.get(path!) ?? []), `${kind === ':' ? 'm' : 'c'}${n}:${text!.replace(/\r$/, '')}`]);
  }
  return shown;
}

/** Files with at least `cap` matching lines, by `grep -c`. */
function filesReachingCap(dir: string, files: string[], query: (typeof QUERIES)[number], cap: number): number {
  return grep(dir, ['-c', query.grep, '--', query.query, ...files]).filter((line) => Number(line.slice(line.lastIndexOf(':') + 1)) >= cap).length;
}

let runs = 0;

describeIf(needsRg)('maxHitsPerFile agrees with grep -m, on both paths', () => {
  it('on random files, with and without context', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(FILE, { minLength: 1, maxLength: 3 }), fc.constantFrom(...QUERIES), fc.integer({ min: 1, max: 3 }), fc.nat(2), fc.nat(2), async (files, query, cap, before, after) => {
        const dir = join(scratch, String(runs++));
        const names = writeLineFiles(dir, files);
        const options = { root: dir, query: query.query, mode: query.mode, caseSensitive: true, maxHitsPerFile: cap, contextBefore: before, contextAfter: after, rgPath: realRg.path };
        const expected = { lines: grepLines(dir, names, query, cap, before, after), atCap: filesReachingCap(dir, names, query, cap) };
        const walker = await searchContent({ ...options, backend: 'walker' });
        expect(walker).toMatchObject({ complete: true, filesAtHitCap: expected.atCap });
        expect(shownLines(walker.hits)).toEqual(expected.lines);
        const ripgrep = await searchContent({ ...options, backend: 'ripgrep' });
        expect(ripgrep).toMatchObject({ backend: 'ripgrep', complete: true, protocolErrors: 0, filesAtHitCap: expected.atCap });
        expect(ripgrep.hits).toEqual(walker.hits);
      }),
      { numRuns: 120, seed: 20261206 },
    );
    // Three processes a case: a ceiling for a hang, sized for a loaded 2-core CI machine.
  }, 120_000);
});

/**
 * The lines `-m N -A A` must show, file by file, from rg's matches without a cap (`rg --json -U`:
 * where each match starts and how many lines it spans) and the file's own lines. rg 13's own `-m`
 * output is no oracle here: with `--multiline` it can repeat a trailing context line, and runs the
 * trailing context on past a match that starts inside it. The rule: the first N matches are hits;
 * after each, the next A lines (stopping at the next hit), each a context line, matching or not.
 */
function expectedCapped(dir: string, names: readonly string[], query: (typeof MULTILINE)[number], cap: number, after: number): Map<string, Shown[]> {
  const argv = ['--json', '--no-config', '--hidden', '--no-ignore', '--case-sensitive', '--multiline'];
  if (query.mode === 'literal') argv.push('--fixed-strings');
  const run = spawnSync(realRg.path!, [...argv, '--', query.query, '.'], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(run.status === 0 || run.status === 1, run.stderr).toBe(true);
  const matches = new Map<string, { start: number; end: number }[]>();
  for (const record of run.stdout.split('\n').filter(Boolean)) {
    const event = JSON.parse(record) as { type: string; data: { path: { text: string }; lines: { text: string }; line_number: number } };
    if (event.type !== 'match') continue;
    const path = event.data.path.text.slice(2);
    const spans = event.data.lines.text.replace(/\n$/, '').split('\n').length;
    matches.set(path, [...(matches.get(path) ?? []), { start: event.data.line_number, end: event.data.line_number + spans - 1 }]);
  }
  const expected = new Map<string, Shown[]>();
  for (const name of names) {
    const kept = (matches.get(name) ?? []).slice(0, cap);
    if (kept.length === 0) continue;
    const lines = readFileSync(join(dir, name), 'utf8').split('\n').map((line) => line.replace(/\r$/, ''));
    if (lines.at(-1) === '') lines.pop();
    const shown: Shown[] = [];
    kept.forEach(({ start, end }, k) => {
      shown.push(`m${start}:${lines[start - 1]}`);
      for (let n = start + 1; n <= end; n++) shown.push(`m${n}`);
      const stop = Math.min(end + after, lines.length, (kept[k + 1]?.start ?? Infinity) - 1);
      for (let n = end + 1; n <= stop; n++) shown.push(`c${n}:${lines[n - 1]}`);
    });
    expected.set(name, shown);
  }
  return expected;
}

/** Lines where matches spanning two lines come often, so one falls in the last hit's after-context. */
const DENSE_FILE = fc.record({ lines: fc.array(fc.constantFrom('foo', 'bar', 'foo bar', 'fo', 'x', ''), { maxLength: 14 }), crlf: fc.boolean(), finalNewline: fc.boolean() });

const MULTILINE = [
  { query: 'foo\nbar', mode: 'literal' as const },
  { query: 'o\n(x\n)?[a-z]', mode: 'regex' as const },
  { query: 'fo+\n', mode: 'regex' as const },
];

describeIf(needsRg)('maxHitsPerFile with a query that spans lines: the first N of rg\'s matches, then each line of the after-context, on both paths', () => {
  it('a match past the cap is shown as its lines, each a context line', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(DENSE_FILE, { minLength: 1, maxLength: 3 }), fc.constantFrom(...MULTILINE), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 4 }), async (files, query, cap, after) => {
        const dir = join(scratch, String(runs++));
        const names = writeLineFiles(dir, files);
        const options = { root: dir, ...query, caseSensitive: true, maxHitsPerFile: cap, contextAfter: after, rgPath: realRg.path };
        const walker = await searchContent({ ...options, backend: 'walker' });
        expect(walker.complete).toBe(true);
        expect(shownLines(walker.hits)).toEqual(expectedCapped(dir, names, query, cap, after));
        const ripgrep = await searchContent({ ...options, backend: 'ripgrep' });
        expect(ripgrep).toMatchObject({ backend: 'ripgrep', complete: true, protocolErrors: 0 });
        expect(ripgrep.hits).toEqual(walker.hits);
      }),
      { numRuns: 100, seed: 20261207 },
    );
  }, 120_000);
});
