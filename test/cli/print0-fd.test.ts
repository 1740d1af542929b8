/**
 * `-0` paths as fd 8 prints them, against the real fd: under the current directory each starts
 * with `./`, so `xargs -0 tar` reads none as an option (find-file printed `--checkpoint-action=...`
 * bare, and tar ran it as one). Under another root a path starts with the root (`sub/x`, `../x`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPrint0Display, buildRelDisplay } from '../../src/cli/output.js';
import { isPosix, runFindFile, writeTree } from '../helpers/cli.js';
import { describeIf } from '../helpers/skip-why.js';

const which = (name: string) => (spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() || undefined);
const fd = isPosix ? (which('fdfind') ?? which('fd')) : undefined;

let tree: string;
beforeAll(() => {
  tree = mkdtempSync(path.join(tmpdir(), 'ff-print0-'));
  writeTree(tree, ['-n.txt', '--checkpoint-action=exec=sh x.txt', 'x.txt', 'sub/-y.txt', 'sub/z.txt']);
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

const entries = (stdout: string) => stdout.split('\0').filter((p) => p !== '').sort();

describeIf([fd !== undefined, 'fd is not installed'])('-0 against fd', () => {
  // [directory to run in, under the tree; the root words]
  const CASES: [string, string[]][] = [['.', []], ['.', ['.']], ['.', ['sub']], ['sub', ['..']], ['sub', []]];
  it.each(CASES)('in %s with root %j: the same bytes as fd -0', (dir, root) => {
    const cwd = path.join(tree, dir);
    const ours = runFindFile(['*.txt', ...root, '-0'], { cwd });
    const theirs = spawnSync(fd!, ['--hidden', '--no-ignore', '-0', '-g', '*.txt', ...root], { cwd, encoding: 'utf8' });
    expect(ours.status, ours.stderr).toBe(0);
    expect(entries(ours.stdout)).toEqual(entries(theirs.stdout));
  });
});

describe('-0 paths (units)', () => {
  const cwd = '/w';
  const shown = (root: string) => buildPrint0Display(buildRelDisplay(root, cwd, path.posix), root, cwd, path.posix);
  it('./ under the current directory; the root as shown elsewhere; ./ before a root shown with a leading -; absolute stays', () => {
    expect(['.', '', '/w', 'sub/..'].map((root) => shown(root)('-n.txt'))).toEqual(['./-n.txt', './-n.txt', '/w/-n.txt', './-n.txt']);
    expect(shown('sub')('-y.txt')).toBe('sub/-y.txt');
    expect(shown('..')('w/x')).toBe('../w/x');
    expect(shown('./-dir')('x')).toBe('./-dir/x');
  });
});
