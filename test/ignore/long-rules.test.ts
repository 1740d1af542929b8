/**
 * An ignore-file line longer than `MAX_IGNORE_RULE_LENGTH` is not compiled: the other rules apply,
 * and the search names the file in `skipped` (`FF_IGNORE_RULE_TOO_LARGE`, incomplete: the answer is
 * not the one the file defines). Before, one line of `*a`×200,000 compiled for 11 s past a 500 ms
 * budget, answering time-budget with no match where one existed (library, CLI and MCP alike).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findFiles, findFilesStream, findFilesSync, type FindOptions } from '../../src/index.js';
import { MAX_IGNORE_RULE_LENGTH } from '../../src/walk/gitignore-rules.js';
import { runFindFile } from '../helpers/cli.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-long-rules-'));
  for (const name of ['f.txt', 'g.txt']) writeFileSync(join(root, name), '');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function allForms(options: FindOptions) {
  const sync = findFilesSync(options);
  const async = await findFiles(options);
  const stream = findFilesStream(options);
  const streamed: string[] = [];
  for await (const path of stream) streamed.push(path);
  return [sync, async, { ...(await stream.summary), matches: streamed.sort() }];
}

/** Lines of one shape at a length: a rule built of `piece` repeated, cut to `length`. */
const line = (piece: string, length: number) => piece.repeat(Math.ceil(length / piece.length)).slice(0, length);

describe('a rule line past the limit is dropped and named, the rest apply', () => {
  // Shapes cheap to compile at the limit (`?` or `*a` there take 0.5-2 s), each one over it.
  const shapes = ['x', 'ab/', '[ab]'];
  for (const file of ['.ignore', '.gitignore', '.rgignore'] as const) {
    for (const piece of shapes) {
      it(`${file}: "${piece}"… of ${MAX_IGNORE_RULE_LENGTH} characters applies, of ${MAX_IGNORE_RULE_LENGTH + 1} is dropped`, async () => {
        if (file === '.gitignore') mkdirSync(join(root, '.git'));
        writeFileSync(join(root, file), `${line(piece, MAX_IGNORE_RULE_LENGTH)}\ng.txt\n`);
        for (const result of await allForms({ root, pattern: '*.txt', gitignore: true })) {
          expect(result).toMatchObject({ matches: ['f.txt'], skipped: [], complete: true });
        }
        writeFileSync(join(root, file), `${line(piece, MAX_IGNORE_RULE_LENGTH + 1)}\ng.txt\n`);
        for (const result of await allForms({ root, pattern: '*.txt', gitignore: true })) {
          expect(result).toMatchObject({ matches: ['f.txt'], skipped: [{ path: file, code: 'FF_IGNORE_RULE_TOO_LARGE' }], complete: false, incompleteReasons: ['io-error'] });
        }
      });
    }
  }

  it('in a subdirectory, and in an ignoreFiles file (named by the path given)', async () => {
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', 'h.txt'), '');
    writeFileSync(join(root, 'sub', '.ignore'), `${line('*a', MAX_IGNORE_RULE_LENGTH + 2)}\nh.txt\n`);
    const extra = join(root, 'extra-ignore');
    writeFileSync(extra, `${line('*a', 200_000)}\ng.txt\n`);
    for (const result of await allForms({ root, pattern: '**/*.txt', gitignore: true, ignoreFiles: [extra] })) {
      expect(result.matches).toEqual(['f.txt']);
      expect(result.skipped).toEqual(expect.arrayContaining([{ path: extra, code: 'FF_IGNORE_RULE_TOO_LARGE' }, { path: 'sub/.ignore', code: 'FF_IGNORE_RULE_TOO_LARGE' }]));
      expect(result.complete).toBe(false);
    }
  });

  // Git's files apply only inside a repository (contract.md, "Ignore files"): outside one a
  // `.gitignore` defines nothing, so its rules are not compiled and one too large is no gap.
  it('a .gitignore outside any repository: a rule too large there changes no answer, so no gap is named', async () => {
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', 'h.txt'), '');
    writeFileSync(join(root, '.gitignore'), `${line('x', MAX_IGNORE_RULE_LENGTH + 1)}\ng.txt\n`);
    writeFileSync(join(root, 'sub', '.gitignore'), `${line('*a', 200_000)}\nh.txt\n`);
    for (const result of await allForms({ root, pattern: '**/*.txt', gitignore: true, timeBudgetMs: 5_000 })) {
      expect(result).toMatchObject({ matches: ['f.txt', 'g.txt', 'sub/h.txt'], skipped: [], complete: true });
    }
    // A `.git` below them starts a repository they are above: still nothing.
    mkdirSync(join(root, 'sub', 'repo', '.git'), { recursive: true });
    writeFileSync(join(root, 'sub', 'repo', 'h.txt'), '');
    for (const result of await allForms({ root, pattern: '**/*.txt', gitignore: true, timeBudgetMs: 5_000 })) {
      expect(result).toMatchObject({ matches: ['f.txt', 'g.txt', 'sub/h.txt', 'sub/repo/h.txt'], skipped: [], complete: true });
    }
  });

  it('a comment line of any length is no rule: nothing to name', async () => {
    writeFileSync(join(root, '.ignore'), `#${'x'.repeat(MAX_IGNORE_RULE_LENGTH * 2)}\ng.txt\n`);
    expect(findFilesSync({ root, pattern: '*.txt', gitignore: true })).toMatchObject({ matches: ['f.txt'], skipped: [], complete: true });
  });
});

describe('the hostile shape of the adversarial run', () => {
  it('one line of "*a"×200,000 no longer holds the search: f.txt is found, the file named (library)', async () => {
    writeFileSync(join(root, '.ignore'), `${'*a'.repeat(200_000)}\ng.txt\n`);
    for (const result of await allForms({ root, pattern: '*.txt', gitignore: true, timeBudgetMs: 5_000 })) {
      expect(result).toMatchObject({ matches: ['f.txt'], skipped: [{ path: '.ignore', code: 'FF_IGNORE_RULE_TOO_LARGE' }], incompleteReasons: ['io-error'] });
    }
  });

  it('the CLI (reads ignore files by default) lists f.txt and names the file (a child process with a deadline)', () => {
    writeFileSync(join(root, '.ignore'), `${'*a'.repeat(200_000)}\ng.txt\n`);
    const run = runFindFile(['*.txt', root, '--time-budget-ms', '5000', '--json'], { cwd: root });
    expect(run.stdout).toContain('f.txt');
    expect(run.stdout).not.toContain('g.txt');
    expect(run.stdout).toContain('FF_IGNORE_RULE_TOO_LARGE');
    expect(run.stdout).not.toContain('time-budget');
  }, 30_000);
});
