/**
 * `--gitignore` and `--no-ignore` end to end (the real bin, a real git-shaped tree): ignored paths
 * are left out and counted, and a complete answer that found nothing says what the ignore files
 * left out and how to include it, so an empty answer never hides an ignored match.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needsRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { lines, runFindFile, writeTree, type Run } from '../helpers/cli.js';
import { itIf } from '../helpers/skip-why.js';

let tree: string;
const ff = (args: string[]): Run => runFindFile(args, { cwd: tree });

beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'find-file-cli-ignore-'));
  mkdirSync(join(tree, '.git'));
  writeTree(tree, { '.qwenignore': 'src/\n', '.gitignore': 'dist/\n*.log\n', 'src/a.ts': 'needle', 'dist/a.js': 'needle', 'dist/b.ts': 'needle', 'debug.log': 'needle' });
});

afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe('--gitignore', () => {
  it('leaves out what the ignore files ignore, counts it as policy, and stays complete', () => {
    const run = ff(['*.ts', '--gitignore']);
    expect(run.status).toBe(0);
    expect(lines(run.stdout)).toEqual([join('src', 'a.ts')]);
    expect(run.stderr).toContain('complete, every directory was read');
    expect(run.stderr).toContain('3 entries ignored (ignore files, .git/) (by policy, not coverage gaps)');
  });

  it('on by default in the command, as fd and rg (issue 30); -u, --no-ignore or --no-gitignore turn it off whatever else was given', () => {
    expect(lines(ff(['*.ts']).stdout)).toEqual([join('src', 'a.ts')]);
    for (const off of ['-u', '--no-ignore', '--no-gitignore']) expect(lines(ff(['*.ts', '--gitignore', off]).stdout).sort(), off).toEqual([join('dist', 'b.ts'), join('src', 'a.ts')]);
  });

  it('a complete answer that found nothing says what was ignored and how to include it', () => {
    const run = ff(['b.ts', '--gitignore']);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr)[0]).toBe(`find-file: no matches under ${tree}: complete, but none outside ignored paths: 3 ignored, -u to include them`);
    expect(run.stderr).not.toContain('exists there');
    const content = ff(['*', '--gitignore', '--contains', 'no-such-text', '--backend', 'walker']);
    // .git/ is left out by the command's default too, counted with the ignored (issue 30), never as an exclude the user did not give.
    expect(content.stderr).toContain('the text does not occur there (among files not ignored)');
    expect(content.stderr).toContain('ignored (ignore files, .git/): 3 paths; search again with -u (--no-ignore) to include them');
  });

  it('--json carries ignoredCount; --contains searches the same file set', () => {
    const result = JSON.parse(ff(['*', '--gitignore', '--json']).stdout) as { matches: string[]; ignoredCount: number; complete: boolean };
    expect(result).toMatchObject({ matches: ['.gitignore', '.qwenignore', 'src/a.ts'], ignoredCount: 3, excludedCount: 0, complete: true });
    const content = ff(['*', '--gitignore', '--contains', 'needle']);
    expect(lines(content.stdout)).toEqual([`${join('src', 'a.ts')}:1:1: needle`]);
    // With hits too, "every file" is qualified: the ignored files were not searched (issue 27).
    // ("every text file" when ripgrep answered: it leaves binary files without a word.)
    expect(lines(content.stderr)[0]).toMatch(/: complete, every (text )?file was searched \(among files not ignored\)$/);
  });

  requireRipgrepInCi();
  itIf(needsRg)('ripgrep and auto answer alike; ripgrep says it does not count what was ignored', () => {
    for (const backend of ['ripgrep', 'auto']) expect(lines(ff(['*.ts', '--gitignore', '--backend', backend]).stdout)).toEqual([join('src', 'a.ts')]);
    const empty = ff(['b.ts', '--gitignore', '--backend', 'ripgrep']);
    expect(lines(empty.stderr)[0]).toBe(`find-file: no matches under ${tree}: complete, but none outside ignored paths and symlinked directories: ripgrep does not count what it ignored, -u to include them`);
    const content = ff(['--contains', 'no-such-text', '--backend', 'ripgrep']);
    expect(content.stderr).toContain('ignore files were applied (ripgrep does not count what they left out); search again with -u (--no-ignore) to include them');
  });

  it('--ignore-file NAME adds rules relative to the root, with or without --gitignore; a missing one is fatal (1)', () => {
    expect(lines(ff(['*.ts', '-u', '--ignore-file', '.qwenignore']).stdout)).toEqual([join('dist', 'b.ts')]);
    expect(lines(ff(['*.ts', '--ignore-file', '.qwenignore', '--gitignore']).stdout)).toEqual([]);
    const missing = ff(['*.ts', '--ignore-file', '.nope']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe(`find-file: error: ignore file ${join(tree, '.nope')} cannot be read (it does not exist, is not a regular file, or access is denied)\n`);
  });
});

describe('the default in a git repository (issue 30)', () => {
  let repo: string;
  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'find-file-cli-ignore-repo-'));
    writeTree(repo, { '.gitignore': 'node_modules/\n', '.env': 'x', 'src/a.ts': 'x', 'node_modules/make/Makefile.js': 'x', '.git/HEAD': 'ref: refs/heads/main\n', '.git/config': '' });
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));
  const run = (args: string[]): Run => runFindFile(args, { cwd: repo });

  it('lists neither node_modules/ nor .git/ internals, keeps hidden files; -u lists everything', () => {
    expect(lines(run(['*']).stdout).sort()).toEqual(['.env', '.gitignore', join('src', 'a.ts')]);
    expect(lines(run(['*', '-u']).stdout).sort()).toEqual(['.env', join('.git', 'HEAD'), join('.git', 'config'), '.gitignore', join('node_modules', 'make', 'Makefile.js'), join('src', 'a.ts')]);
  });

  it('a file that exists only under node_modules/: "none outside ignored paths", never "exists there"', () => {
    const none = run(['Makefile*']);
    expect(none).toMatchObject({ status: 0, stdout: '' });
    expect(lines(none.stderr)[0]).toBe(`find-file: no matches under ${repo}: complete, but none outside ignored paths: 2 ignored, -u to include them`);
    expect(none.stderr).not.toContain('exists there');
    expect(lines(run(['Makefile*', '-u']).stdout)).toEqual([join('node_modules', 'make', 'Makefile.js')]);
  });
});
