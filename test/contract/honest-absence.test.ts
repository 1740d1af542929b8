/**
 * Issue 11's table, on the real disk, through every form that answers a file search: findFiles on
 * the walker, findFilesSync, findFilesStream, findFiles on the real ripgrep, and auto. Each row used
 * to return too little while saying `complete: true`; each must now return exactly the expected set,
 * complete, from all five (or be refused the same way by all five).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FindOptions } from '../../src/index.js';
import { searchForms } from '../helpers/forms.js';
import { needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { describeIf } from '../helpers/skip-why.js';

requireRipgrepInCi();

const FILES = [
  'pkg/core/src/util/s.ts',
  'src/a/__tests__/b/t.ts',
  'top\nfile',
  'd/x\ny/f',
  'd\nx/in.ts',
  'a/b/c',
  'src/a.ts',
  'dist/x.js',
  'x{1,2}',
  'x1',
  'b',
  '\u212A.txt',
  'app/[id]/page.tsx',
  'README.md',
];

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-absence-'));
  for (const f of FILES) {
    mkdirSync(join(root, dirname(f)), { recursive: true });
    writeFileSync(join(root, f), '');
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FORMS = searchForms(realRg.path);

const ROWS: [string, Partial<FindOptions>, string[]][] = [
  ['pkg/**/src/**/*.ts', {}, ['pkg/core/src/util/s.ts']],
  ['src/**/__tests__/**/*.ts', {}, ['src/a/__tests__/b/t.ts']],
  ['*.ts', { exclude: ['pkg/**/src/**/*.ts', 'src/**/__tests__/**/*.ts'] }, ['d\nx/in.ts', 'src/a.ts']],
  ['top*', {}, ['top\nfile']],
  ['d/**', {}, ['d/x\ny/f']],
  ['**/*.ts', {}, ['d\nx/in.ts', 'pkg/core/src/util/s.ts', 'src/a.ts', 'src/a/__tests__/b/t.ts']],
  ['d*/*', {}, ['d\nx/in.ts', 'dist/x.js']],
  ['a/./b/c', {}, ['a/b/c']],
  ['src/./a.ts', {}, ['src/a.ts']],
  ['{./a/b/c,zzz}', {}, ['a/b/c']],
  ['dist/*', { exclude: ['{./dist,zzz}'] }, []],
  ['x\\{1,2\\}', {}, ['x{1,2}']],
  ['!(*.*)', { maxDepth: 1 }, ['b', 'top\nfile', 'x1', 'x{1,2}']],
  ['!(*.*|x*)', { exclude: ['*\n*'] }, ['a/b/c', 'b']],
  ['k.txt', { platform: 'posix', caseSensitive: false }, []],
  ['k.tx?', { platform: 'posix', caseSensitive: false }, []],
  ['app/[id]/page.tsx', {}, ['app/[id]/page.tsx']],
  ['readme*', { caseSensitive: false }, ['README.md']],
  ['readme*', {}, []],
];

describeIf(needsRg)('issue 11: every form gives the whole answer, complete', () => {
  for (const [pattern, extra, expected] of ROWS) {
    it.each(FORMS)(`${JSON.stringify(pattern)} ${JSON.stringify(extra)} on %s`, async (_name, form) => {
      const result = await form({ root, pattern, ...extra });
      expect(result.matches).toEqual(expected);
      expect(result.matchedCount).toBe(expected.length);
      // maxDepth 1 is a real limit here (deeper directories exist): the answer must say so.
      if (extra.maxDepth === undefined) expect(result).toMatchObject({ complete: true, incompleteReasons: [] });
      else expect(result.complete).toBe(false);
    });
  }
});
