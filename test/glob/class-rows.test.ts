/**
 * The POSIX class rows of issue 26, on the real disk through every backend and API form: each
 * pattern finds its file as bash 5.2 does in C.UTF-8 (the tables: src/glob/posix-classes.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles, findFilesStream, findFilesSync } from '../../src/index.js';
import { requireRipgrepInCi } from '../helpers/real-rg.js';

const ROWS: [pattern: string, file: string][] = [
  ['v[[:punct:]]', 'v²'],
  ['[[:upper:]]emal.txt', 'ǅemal.txt'],
  ['a[[:blank:]]b.txt', 'a\u2003b.txt'],
  ['+([[:graph:]]).emoji', '👨\u200D👩.emoji'],
  ['[[:punct:]][[:punct:]].pair', '👨\u200D.pair'],
];

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-class-rows-'));
  for (const [, file] of ROWS) writeFileSync(join(root, file), '');
  writeFileSync(join(root, 'decoy.txt'), '');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('POSIX classes as bash reads them, every backend', () => {
  requireRipgrepInCi();
  it.each(ROWS)('%j finds %j, complete', async (pattern, file) => {
    for (const backend of ['walker', 'ripgrep', 'auto'] as const) {
      const r = await findFiles({ root, pattern, backend });
      expect({ backend, matches: r.matches, complete: r.complete }).toEqual({ backend, matches: [file], complete: true });
    }
    expect(findFilesSync({ root, pattern }).matches).toEqual([file]);
    const streamed: string[] = [];
    for await (const path of findFilesStream({ root, pattern })) streamed.push(path);
    expect(streamed).toEqual([file]);
  });

  it('ignoring case never folds a class (bash does not): [[:upper:]] does not match a lower-case letter', async () => {
    writeFileSync(join(root, 'q.lc'), '');
    const r = await findFiles({ root, pattern: '[[:upper:]].lc', caseSensitive: false });
    expect(r.matches).toEqual([]);
    expect((await findFiles({ root, pattern: '[A-Z].lc', caseSensitive: false })).matches).toEqual(['q.lc']);
  });
});
