/**
 * Issue 12, row 7: two names that decode to one string. Node decodes names as UTF-8, so `d\xff`
 * (not UTF-8) and `d\xef\xbf\xbd` (a real U+FFFD) both read as "d\uFFFD", and the string opens only
 * the second. The undecodable one must be `skipped` as EILSEQ every time, never read as its twin,
 * and no path may be returned twice, by the walker (three API forms), ripgrep or auto.
 */
import { lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FindOptions } from '../../src/index.js';
import { searchForms } from '../helpers/forms.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf, linux } from '../helpers/skip-why.js';

requireRipgrepInCi();

const bytes = (...parts: (string | number[] | Buffer)[]) => Buffer.concat(parts.map((p) => (Buffer.isBuffer(p) ? p : typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
const BAD = [0xff];
const FFFD = [0xef, 0xbf, 0xbd];

let base: string;
const trees: Record<string, string> = {};

function make(name: string, build: (root: Buffer) => void) {
  const root = join(base, name);
  mkdirSync(root);
  build(Buffer.from(root));
  trees[name] = root;
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-twins-'));
  // Each twin holds its own file.
  make('dirs', (r) => {
    mkdirSync(bytes(r, '/d', BAD));
    mkdirSync(bytes(r, '/d', FFFD));
    writeFileSync(bytes(r, '/d', BAD, '/lost.txt'), '');
    writeFileSync(bytes(r, '/d', FFFD, '/real.txt'), '');
  });
  // Both twins hold a file of the same name: read through the string, it would come back twice.
  make('same', (r) => {
    mkdirSync(bytes(r, '/d', BAD));
    mkdirSync(bytes(r, '/d', FFFD));
    writeFileSync(bytes(r, '/d', BAD, '/same.txt'), '');
    writeFileSync(bytes(r, '/d', FFFD, '/same.txt'), '');
  });
  // Twin files in the root.
  make('files', (r) => {
    writeFileSync(bytes(r, '/x', BAD), '');
    writeFileSync(bytes(r, '/x', FFFD), '');
    writeFileSync(bytes(r, '/plain.txt'), '');
  });
  // `x\xe2\x82` (a cut three-byte character) decodes to `x\uFFFD`, two characters, so it misses `x??`
  // as decoded; its bytes are three, and ripgrep's `x??` matches them. The string opens nothing.
  make('reading', (r) => {
    writeFileSync(bytes(r, '/x', [0xe2, 0x82]), '');
    writeFileSync(bytes(r, '/xyz'), '');
  });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const FORMS = searchForms(realRg.path);

const EXPECTED: Record<string, string[]> = {
  dirs: ['d\uFFFD/real.txt'],
  same: ['d\uFFFD/same.txt'],
  files: ['plain.txt', 'x\uFFFD'],
};

describeIf(linux('names that are not UTF-8 are a Linux case'), needsRg)('names that decode alike (real disk)', () => {
  for (const tree of Object.keys(EXPECTED)) {
    it.each(FORMS)(`${tree}: every path once, each real, the undecodable twin a gap, on %s`, async (_name, form) => {
      const root = trees[tree]!;
      const result = await form({ root, pattern: '*' });
      expect(result.matches).toEqual(EXPECTED[tree]);
      expect(result.matchedCount).toBe(result.matches.length);
      for (const m of result.matches) expect(lstatSync(join(root, m)).isFile(), m).toBe(true);
      expect(result.skipped.length).toBeGreaterThan(0);
      for (const s of result.skipped) expect(s.code).toBe('EILSEQ');
      expect(result).toMatchObject({ complete: false, incompleteReasons: ['io-error'] });
    });
  }
});

describeIf(linux('names that are not UTF-8 are a Linux case'), needsRg)('a name that matches only in another reading of its bytes (real disk)', () => {
  // Both ways ripgrep's list is filtered (src/walk/rules.ts buildListedFileTest): the common options
  // ask the matcher alone; hidden: false goes segment by segment.
  const cases: [string, Partial<FindOptions>][] = [['the common options', {}], ['hidden: false', { hidden: false }]];
  for (const [label, options] of cases) {
    it.each(FORMS)(`with ${label}: is a gap (EILSEQ), never silence, on %s`, async (_name, form) => {
      const result = await form({ root: trees.reading!, pattern: 'x??', ...options });
      expect(result).toMatchObject({ matches: ['xyz'], skipped: [{ path: 'x\uFFFD', code: 'EILSEQ' }], complete: false, incompleteReasons: ['io-error'] });
    });
  }
});
