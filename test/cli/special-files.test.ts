/**
 * Special files through the real bin (issue 27): `-t p`, `-t s` list a FIFO and a socket as fd
 * does; `-t f -t d -t l` does not, and its empty answer names the kinds it looked for, never "no
 * matching entry exists" beside a FIFO it did not ask for.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isPosix, lines, runFindFile, type Run } from '../helpers/cli.js';
import { makeSpecialTree, type SpecialTree } from '../helpers/special-files.js';
import { describeIf, posix } from '../helpers/skip-why.js';

let tree: SpecialTree;
const ff = (args: string[]): Run => runFindFile(args, { cwd: tree.root });

beforeAll(async () => {
  if (isPosix) tree = await makeSpecialTree('find-file-cli-special-');
});

afterAll(() => tree?.remove());

describeIf(posix('mkfifo and unix sockets'))('-t p, -t s', () => {
  it('list the FIFO and the socket, as fd -t p / -t s; together with -t f, the files too', () => {
    expect(lines(ff(['app.*', '-t', 'p']).stdout)).toEqual(['app.fifo']);
    expect(lines(ff(['app.*', '-t', 's']).stdout)).toEqual(['app.sock']);
    expect(lines(ff(['*', '-t', 'p', '-t', 'socket', '-t', 'f']).stdout).sort()).toEqual(['a.txt', 'app.fifo', 'app.sock', 'sub/b.txt', 'sub/deep.fifo']);
  });

  it('-t f -t d -t l over the FIFO and the socket: nothing listed, and the summary names the kinds asked for', () => {
    const run = ff(['app.*', '-t', 'f', '-t', 'd', '-t', 'l']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('so no matching file, directory or symlink exists there');
    expect(run.stderr).not.toContain('no matching entry');
  });

  it('--backend ripgrep with -t p is refused (rg lists regular files only); auto answers with the walker', () => {
    const refused = ff(['app.*', '-t', 'p', '--backend', 'ripgrep']);
    expect(refused.status).toBe(2);
    expect(lines(refused.stderr).at(-1)).toContain('lists regular files only');
    expect(lines(ff(['*.fifo', '-t', 'p', '--backend', 'auto']).stdout).sort()).toEqual(['app.fifo', 'sub/deep.fifo']);
  });

  it('--json --stats gives each special file its kind', () => {
    const json = JSON.parse(ff(['app.*', '-t', 'p', '-t', 's', '--json', '--stats']).stdout);
    expect(json.entries.map((e: { path: string; type: string }) => [e.path, e.type])).toEqual([['app.fifo', 'pipe'], ['app.sock', 'socket']]);
  });

  it('--contains never opens the FIFO (the run ends), even when the pattern names it', () => {
    const run = ff(['*.fifo', '--contains', 'needle']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
  });
});
