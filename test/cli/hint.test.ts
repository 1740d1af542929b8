/**
 * The `-F` hint after an empty answer (src/cli/hint.ts) must be a command that works: each hinted
 * command is run as a shell reads it, and must list as many names as the hint counted. It had
 * dropped the user's other options (`find-file make -t d` hinted `find-file -F make`, which lists
 * files, not the directory counted) and put a dash pattern before `--` (`find-file -F -foo`: a
 * usage error).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, cleanEnv, lines, runFindFile, writeTree } from '../helpers/cli.js';
import { describeIf } from '../helpers/skip-why.js';
import { isPosix } from '../helpers/cli.js';

let tree: string;
beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'ff-hint-'));
  writeTree(tree, ['cmake/x.txt', '-foo.txt', 'Makefile', 'src/Make.md', 'src/a b/make.txt', 'src/-bar.md', 'README.txt', 'old-readme', 'readme.md']);
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

const HINT = /^ {2}hint: a glob matches whole names; (\d+) names? contains? "[^"]*"(?: \(at least\))?: find-file (.*)$/;

const CASES: string[][] = [
  ['make', '-t', 'd'],
  ['--', '-foo'],
  ['make'],
  ['Make', 'src'],
  ['--root', 'src', 'Make'],
  ['make', '--exclude', 'a b'],
  ['make', '--time-budget-ms', '60000', '-d', '1'],
  ['-s', 'Make', '-t', 'f'],
  ['-0', '--', '-bar', 'src'],
  // The text's smart case folds the text alone, never -E (an adversarial run: the hint counted 1, the command listed 2).
  ['readme', '-E', 'README*'],
];

describeIf([isPosix, 'the hint is a POSIX shell command line'])('the -F hint, run', () => {
  it.each(CASES.map((args) => [args.join(' '), args]))('find-file %s: the hinted command lists what the hint counted', (_name, args) => {
    const run = runFindFile(args as string[], { cwd: tree });
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: '' });
    const hint = lines(run.stderr).map((line) => HINT.exec(line)).find((m) => m !== null);
    expect(hint, run.stderr).toBeDefined();
    const [, counted, command] = hint!;
    // As a person pastes it: the shell reads the words, `find-file` is this checkout's bin.
    const again = spawnSync('sh', ['-c', `"$0" "$1" ${command}`, process.execPath, BIN], { cwd: tree, env: cleanEnv(), encoding: 'utf8' });
    expect(again.status, again.stderr).toBe(0);
    const listed = again.stdout.split(/[\n\0]/).filter((line) => line !== '');
    expect({ listed: listed.length, hintAgain: again.stderr.includes('hint:') }).toEqual({ listed: Number(counted), hintAgain: false });
  });
});

/**
 * The kind hint (an adversarial run: `find-file docs` over a folder `docs/` said "no matching file
 * exists there" and nothing more, where fd lists every kind): after an empty answer with the default
 * kind, the entries of other kinds that match are named with the `-t` to add, and that command lists them.
 */
const KIND_HINT = /^ {2}hint: no regular file matches, but (?:at least )?(?:(\d+) (?:directory|directories|pipes?)|(\d+) entries of other kinds) do(?:es)? \(([^)]*)\): find-file (.*)$/;

describeIf([isPosix, 'the hint is a POSIX shell command line; mkfifo'])('the kind hint, run', () => {
  let kinds: string;
  beforeAll(() => {
    kinds = mkdtempSync(join(tmpdir(), 'ff-kind-hint-'));
    writeTree(kinds, ['docs/guide.md', 'src/docs/x.md', '-dir/a.txt', 'logs/app.log']);
    expect(spawnSync('mkfifo', [join(kinds, 'logs', 'q.fifo')]).status).toBe(0);
  });
  afterAll(() => rmSync(kinds, { recursive: true, force: true }));

  it.each([
    [['docs'], ['docs/', 'src/docs/']],
    [['--', '-dir'], ['-dir/']],
    [['q.fifo'], ['logs/q.fifo']],
    [['docs', '-d', '1'], ['docs/']],
    [['q.fifo', 'logs'], ['q.fifo']],
  ])('find-file %j names %j, and the hinted command lists them', (args, named) => {
    const run = runFindFile(args, { cwd: kinds });
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: '' });
    const hint = lines(run.stderr).map((line) => KIND_HINT.exec(line)).find((m) => m !== null);
    expect(hint, run.stderr).toBeDefined();
    const [, one, several, names, command] = hint!;
    expect(names!.split(', ').sort()).toEqual(named);
    expect(Number(one ?? several)).toBe(named.length);
    const again = spawnSync('sh', ['-c', `"$0" "$1" ${command}`, process.execPath, BIN], { cwd: kinds, env: cleanEnv(), encoding: 'utf8' });
    expect(again.status, again.stderr).toBe(0);
    expect(lines(again.stdout).length).toBe(named.length);
  });

  it('no hint where a file matched, where -t was given, for a glob, or where nothing of any kind matches', () => {
    for (const args of [['guide.md'], ['docs', '-t', 'f'], ['doc?'], ['nothing-here']]) expect(runFindFile(args, { cwd: kinds }).stderr, args.join(' ')).not.toContain('hint: no regular file');
  });
});
