/**
 * A deleted current directory (process.cwd() throws ENOENT, "uv_cwd") must not stop a search of
 * an absolute root, as it does not stop fd: the root, the printed paths, the summary and the
 * choice of ripgrep needed the cwd only for relative paths, yet asked for it always (status 1).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, cleanEnv, writeTree } from '../helpers/cli.js';
import { hasRg } from '../helpers/real-rg.js';
import { describeIf, posix } from '../helpers/skip-why.js';

let base: string;
let root: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-deleted-cwd-'));
  root = join(base, 'root');
  writeTree(root, { 'a/x.md': 'hello\n', 'b.md': '', 'c.txt': '' });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Runs the command from a directory removed just before (by the shell that then becomes node). */
function fromDeletedDir(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const gone = join(base, `gone-${Math.random().toString(36).slice(2)}`);
  mkdirSync(gone);
  const run = spawnSync('sh', ['-c', 'cd "$1" && rmdir "$1" && shift && exec "$@"', 'sh', gone, process.execPath, BIN, ...args], { env: cleanEnv(), encoding: 'utf8', timeout: 20_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describeIf(posix('Windows does not delete a directory a process is in'))('an absolute root from a deleted current directory', () => {
  const md = () => [join(root, 'a', 'x.md'), join(root, 'b.md')];
  it.each([
    ['the walker, human', ['*.md', '--root', 'ROOT']],
    ['positional root, -0', ['*.md', 'ROOT', '-0']],
    ['-a --json', ['*.md', '--root', 'ROOT', '-a', '--json']],
    ['a root through ..', ['*.md', '--root', 'ROOT/a/..']],
    ...(hasRg ? [['ripgrep', ['*.md', '--root', 'ROOT', '--backend', 'ripgrep']] as [string, string[]], ['auto', ['*.md', '--root', 'ROOT', '--backend', 'auto']] as [string, string[]]] : []),
  ])('%s: lists the matches, complete, status 0', (_name, args) => {
    const run = fromDeletedDir(args.map((arg) => arg.replace('ROOT', root)));
    expect({ status: run.status, error: run.stderr.includes('error') }, run.stderr).toEqual({ status: 0, error: false });
    const listed = args.includes('--json') ? (JSON.parse(run.stdout) as { matches: string[] }).matches : run.stdout.split(/[\n\0]/).filter((p) => p !== '');
    expect(listed.sort()).toEqual(md().sort());
    if (!args.includes('--json')) expect(run.stderr).toMatch(/: complete, /);
  });

  it('--contains (its default backend is auto) finds the hit', () => {
    const run = fromDeletedDir(['--contains', 'hello', '--root', root]);
    expect({ status: run.status, error: run.stderr.includes('error') }, run.stderr).toEqual({ status: 0, error: false });
    expect(run.stdout).toBe(`${join(root, 'a', 'x.md')}:1:1: hello\n`);
    expect(run.stderr).toMatch(/: complete, /);
  });

  it('a relative root still needs the cwd: one error line, status 1', () => {
    const run = fromDeletedDir(['*.md']);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^find-file: error: .*ENOENT/);
  });
});
