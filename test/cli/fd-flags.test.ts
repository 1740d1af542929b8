/**
 * fd's habits on the command line (issue 30 items 2 and 3), through the real bin on one tree:
 * the short flags (-e, -E, -d, -a, -t glued, -H/--no-hidden), and fd's ways of naming files
 * (-F, --name-regex, smart case). These are matching modes: the verdict rules stay the glob's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPosix, lines, runFindFile, writeTree, type Run } from '../helpers/cli.js';
import { hasRg } from '../helpers/real-rg.js';

let tree: string;
const ff = (args: string[]): Run => runFindFile(args, { cwd: tree });
const found = (args: string[]): string[] => lines(ff(args).stdout).sort();

beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'find-file-cli-fd-'));
  writeTree(tree, ['Makefile', 'cmake/rules.txt', 'src/a.ts', 'src/b.TSX', 'src/Make.md', 'src/deep/c.ts', '.env', 'docs/guide.md']);
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe('fd short flags', () => {
  it('-e EXT, repeatable, a leading dot accepted, any case; without a pattern every such file; with a glob, both', () => {
    expect(found(['-e', 'ts'])).toEqual([join('src', 'a.ts'), join('src', 'deep', 'c.ts')]);
    expect(found(['-e', 'ts', '-e', '.tsx'])).toEqual([join('src', 'a.ts'), join('src', 'b.TSX'), join('src', 'deep', 'c.ts')]);
    expect(found(['a*', '-e', 'ts'])).toEqual([join('src', 'a.ts')]);
    expect(ff(['-e', '.']).status).toBe(2);
  });

  it('a short flag glued to a value that starts with a dot or a sign reads as the two words (-e.ts, -E.env, -S+1): it failed as "text.replace is not a function"', () => {
    for (const [glued, apart] of [[['-e.ts'], ['-e', '.ts']], [['*', '-E.env'], ['*', '-E', '.env']], [['*', '-S+1b'], ['*', '-S', '+1b']], [['*.ts', '-d2'], ['*.ts', '-d', '2']]]) {
      const run = ff(glued!);
      expect({ glued, status: run.status, stderr: run.stderr.includes('error') }).toEqual({ glued, status: 0, stderr: false });
      expect(found(glued!)).toEqual(found(apart!));
    }
  });

  it('-E excludes, -d limits the depth, -a prints absolute paths', () => {
    expect(found(['*.ts', '-E', 'deep'])).toEqual([join('src', 'a.ts')]);
    expect(found(['*.ts', '-d', '2'])).toEqual([join('src', 'a.ts')]);
    expect(found(['a.ts', '-a'])).toEqual([join(tree, 'src', 'a.ts')]);
  });

  it('-tf and -td in one word; -t f -t d for both, as fd (-tfd is refused, as fd refuses it)', () => {
    expect(found(['c*', '-td'])).toEqual(['cmake']);
    expect(found(['c*', '-tf'])).toEqual([join('src', 'deep', 'c.ts')]);
    expect(found(['c*', '-t', 'f', '-t', 'd'])).toEqual(['cmake', join('src', 'deep', 'c.ts')]);
    expect(ff(['c*', '-tfd']).status).toBe(2);
  });

  it('-H and --no-hidden: hidden files are in by default, --no-hidden leaves them out', () => {
    expect(found(['.env', '-H'])).toEqual(['.env']);
    expect(found(['.env'])).toEqual(['.env']);
    expect(found(['.env', '--no-hidden'])).toEqual([]);
  });
});

describe('fd name modes', () => {
  it('-F TEXT: base names holding the text, files and with -t d directories; smart case', () => {
    expect(found(['-F', 'make'])).toEqual(['Makefile', join('src', 'Make.md')]);
    expect(found(['-F', 'make', '-t', 'f', '-t', 'd'])).toEqual(['Makefile', 'cmake', join('src', 'Make.md')]);
    // A capital makes it exact; -i overrides smart case, -s too.
    expect(found(['-F', 'Make'])).toEqual(['Makefile', join('src', 'Make.md')]);
    expect(found(['-F', 'Makef'])).toEqual(['Makefile']);
    if (isPosix) expect(found(['-F', 'make', '-s'])).toEqual([]);
    expect(found(['-F', 'MAKEFILE', '-i'])).toEqual(['Makefile']);
  });

  it('--name-regex REGEX (RE2) against the base name, anywhere in it; with -e both must match; a bad regex is a usage error', () => {
    expect(found(['--name-regex', '^[a-c]\\.'])).toEqual([join('src', 'a.ts'), join('src', 'b.TSX'), join('src', 'deep', 'c.ts')]);
    expect(found(['--name-regex', '^[a-c]\\.', '-e', 'tsx'])).toEqual([join('src', 'b.TSX')]);
    // ripgrep's listing passes through the same matcher: the same answer.
    if (hasRg) expect(found(['--name-regex', '^[a-c]\\.', '-e', 'tsx', '--backend', 'ripgrep'])).toEqual([join('src', 'b.TSX')]);
    // Against the name only: "src" is in the path, not in any base name.
    expect(found(['--name-regex', 'src'])).toEqual([]);
    const bad = ff(['--name-regex', '(']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('find-file: error: --name-regex is not a valid regex');
  });

  it('a name mode keeps the verdict rules: complete and empty proves absence; a limit is still incomplete', () => {
    const none = ff(['-F', 'nothing-like-this']);
    expect(lines(none.stderr)[0]).toMatch(/: complete, every directory was read, so no matching file exists there$/);
    expect(ff(['-e', 'ts', '--max-results', '1']).stderr).toMatch(/^find-file: INCOMPLETE/);
  });

  it('a glob with no glob syntax that matches nothing gets a hint: how many names hold the text, and the -F command (the verdict is unchanged)', () => {
    const run = ff(['make']);
    expect(run).toMatchObject({ status: 0, stdout: '' });
    expect(lines(run.stderr)).toEqual([
      `find-file: no matches under ${tree}: complete, every directory was read, so no matching file exists there`,
      '  hint: a glob matches whole names; 2 names contain "make": find-file -F make',
    ]);
    expect(lines(ff(['Make', 'src']).stderr)[1]).toBe('  hint: a glob matches whole names; 1 name contains "Make": find-file -F Make src');
    // A glob written as one, a match, or no name holding the text: no hint.
    for (const args of [['make*'], ['Makefile'], ['zzz']]) expect(ff(args).stderr, args[0]).not.toContain('hint:');
    expect(ff(['make', '--json']).stderr).toBe('');
    // With a time budget the hint's search gets what is left of it, in whole milliseconds: a fraction
    // was refused as a usage error after the answer (an adversarial run: status 2, "got 492.89...").
    for (const budget of ['500', '60000']) {
      const budgeted = ff(['make', '--time-budget-ms', budget]);
      expect(budgeted, budget).toMatchObject({ status: 0, stdout: '' });
      expect(lines(budgeted.stderr)[1], budget).toMatch(new RegExp(`^ {2}hint: a glob matches whole names; 2 names contain "make"( \\(at least\\))?: find-file -F make --time-budget-ms ${budget}$`));
    }
    expect(ff(['zzz', '--time-budget-ms', '500'])).toMatchObject({ status: 0, stdout: '' });
  });
});
