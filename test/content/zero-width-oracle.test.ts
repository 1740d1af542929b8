/**
 * Zero-width and end-anchored regexes through the real ripgrep. For some of them ripgrep 13 prints a
 * `match` event with `submatches: []` (`$` on a last line with no line break, `\A` on every line
 * after the first); the consumer must keep that hit, with the column the pure-TS path gives. So on
 * random small files (with and without a final line break, CRLF, an empty last line), our ripgrep
 * backend must return exactly the pure-TS path's hits, both complete, with no protocol error.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { searchContent } from '../../src/index.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';

requireRipgrepInCi();

const scratch = mkdtempSync(join(tmpdir(), 'ff-zero-width-oracle-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Regexes that can match the empty string or end at a line's end: anchors, word boundaries, stars. */
const QUERIES = [
  '$', ' *$', '\\s*$', '\\z', '\\A', '^', '^$', '(?m)$', '(?m)^', '\\b', '\\B', 'x*', 'a*$', '\\bb*',
  '[^a]*$', '\\w*\\z', '(?:)', '(a|)$', '$|x', '\\A\\s*\\z',
  // A line feed in the query: the multi-line search (ripgrep's --multiline).
  '\\n*\\z', 'a\\n?$',
];

/** Lines of spaces, tabs, words and nothing, so that end-anchored matches land on every kind of end. */
const LINE = fc.constantFrom('', ' ', 'foo  ', 'bar', '\ta.baa', '-\t', 'x', 'a b', 'xx a');
const FILE = fc.record({
  lines: fc.array(LINE, { minLength: 1, maxLength: 6 }),
  crlf: fc.boolean(),
  finalNewline: fc.boolean(),
});

let runs = 0;

describeIf(needsRg)('zero-width matches: the ripgrep backend agrees with the pure-TS path', () => {
  it('on random files, for every zero-width or end-anchored regex', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(FILE, { minLength: 1, maxLength: 3 }), fc.constantFrom(...QUERIES), async (files, query) => {
        const dir = join(scratch, String(runs++));
        mkdirSync(dir);
        files.forEach((file, i) => {
          const eol = file.crlf ? '\r\n' : '\n';
          writeFileSync(join(dir, `f${i}.txt`), file.lines.join(eol) + (file.finalNewline ? eol : ''));
        });
        const options = { root: dir, query, mode: 'regex' as const, caseSensitive: true, rgPath: realRg.path };
        const walker = await searchContent({ ...options, backend: 'walker' });
        expect(walker.complete).toBe(true);
        const ripgrep = await searchContent({ ...options, backend: 'ripgrep' });
        expect(ripgrep).toMatchObject({ backend: 'ripgrep', complete: true, protocolErrors: 0 });
        expect(ripgrep.hits).toEqual(walker.hits);
      }),
      { numRuns: 300, seed: 20261206 },
    );
    // 300 cases, two searches each (one rg process): a ceiling for a hang on a loaded CI machine.
  }, 120_000);

  it('the cases that found the bug: ` *$` and `$` on a last line with no line break, `\\A` after line 1', async () => {
    const dir = join(scratch, 'known');
    mkdirSync(dir);
    writeFileSync(join(dir, 'f.txt'), 'foo  \nbar');
    writeFileSync(join(dir, 'g.txt'), '1b\n\ta.baa\n-\t\n');
    for (const query of [' *$', '$', '\\A']) {
      const options = { root: dir, query, mode: 'regex' as const, rgPath: realRg.path };
      const walker = await searchContent({ ...options, backend: 'walker' });
      for (const backend of ['ripgrep', 'auto'] as const) {
        const result = await searchContent({ ...options, backend });
        expect(result).toMatchObject({ backend: 'ripgrep', complete: true, protocolErrors: 0, hitCount: 5 });
        expect(result.hits).toEqual(walker.hits);
      }
    }
  });
});
