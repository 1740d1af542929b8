/**
 * Context lines against an oracle we did not write: the real `rg --json -B N -A N`, run directly
 * (not through our ripgrep backend) on random files. ripgrep prints each line once, as a `match`
 * or a `context` event; our hits, read in order (each hit's `before`, its lines up to `endLine`,
 * its `after`), must give exactly the same lines, kinds and texts, file by file. Then our ripgrep
 * backend must return the same hits as the pure-TS path.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { searchContent } from '../../src/index.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';
import { shownLines, writeLineFiles } from '../helpers/line-files.js';

requireRipgrepInCi();

const scratch = mkdtempSync(join(tmpdir(), 'ff-context-oracle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Lines made of a few words, so hits are dense and windows overlap, touch and leave gaps. */
const LINE = fc.constantFrom('', 'x', 'foo', 'a foo b', 'fo', 'foo foo', 'bar', 'y bar', 'z');
const FILE = fc.record({ lines: fc.array(LINE, { maxLength: 25 }), crlf: fc.boolean(), finalNewline: fc.boolean() });
const QUERIES = [
  { query: 'foo', mode: 'literal' as const },
  { query: 'fo+ ?', mode: 'regex' as const },
  { query: 'foo\nbar', mode: 'literal' as const },
  { query: 'o\n(x\n)?[a-z]', mode: 'regex' as const },
];

/** One shown line: its kind (m: part of a match, c: context), number and, for a match, only its first line's text. */
type Shown = string;

/** What ripgrep prints, file by file, from its own JSON events. */
function ripgrepLines(dir: string, query: (typeof QUERIES)[number], before: number, after: number): Map<string, Shown[]> {
  const argv = ['--json', '--no-config', '--hidden', '--no-ignore', '--case-sensitive', '-B', String(before), '-A', String(after)];
  if (query.mode === 'literal') argv.push('--fixed-strings');
  if (query.query.includes('\n')) argv.push('--multiline');
  const run = spawnSync(realRg.path!, [...argv, '--', query.query, '.'], { cwd: dir, encoding: 'utf8' });
  expect(run.status === 0 || run.status === 1, run.stderr).toBe(true);
  const files = new Map<string, Shown[]>();
  for (const record of run.stdout.split('\n').filter(Boolean)) {
    const event = JSON.parse(record) as { type: string; data: { path: { text: string }; lines: { text: string }; line_number: number } };
    if (event.type !== 'match' && event.type !== 'context') continue;
    const path = event.data.path.text.slice(2);
    const lines = event.data.lines.text.replace(/\n$/, '').split('\n');
    const shown = files.get(path) ?? [];
    lines.forEach((text, i) => {
      const n = event.data.line_number + i;
      shown.push(event.type === 'context' ? `c${n}:${text.replace(/\r$/, '')}` : i === 0 ? `m${n}:${text.replace(/\r$/, '')}` : `m${n}`);
    });
    files.set(path, shown);
  }
  return files;
}

let runs = 0;

describeIf(needsRg)('context lines agree with rg --json -B/-A', () => {
  it('on random files, for literal, regex and multi-line queries', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(FILE, { minLength: 1, maxLength: 3 }), fc.constantFrom(...QUERIES), fc.nat(3), fc.nat(3), async (files, query, before, after) => {
        const dir = join(scratch, String(runs++));
        writeLineFiles(dir, files);
        const options = { root: dir, ...query, caseSensitive: true, contextBefore: before, contextAfter: after, rgPath: realRg.path };
        const walker = await searchContent({ ...options, backend: 'walker' });
        expect(walker.complete).toBe(true);
        expect(shownLines(walker.hits)).toEqual(ripgrepLines(dir, query, before, after));
        const ripgrep = await searchContent({ ...options, backend: 'ripgrep' });
        expect(ripgrep).toMatchObject({ backend: 'ripgrep', complete: true, protocolErrors: 0 });
        expect(ripgrep.hits).toEqual(walker.hits);
      }),
      { numRuns: 150, seed: 20261203 },
    );
    // 150 cases, two rg processes each: 7 s idle, past vitest's 30 s with two busy processes beside
    // the suite (npm run test:busy). A ceiling for a hang, sized for a loaded 2-core CI machine.
  }, 120_000);
});
