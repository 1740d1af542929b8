/**
 * fd's name modes against fd itself (the real `fdfind`/`fd`, installed in CI by .ci/run): `-F`,
 * `--name-regex` and `-e`, alone and beside `-E` and a glob, over a tree of case twins and dot
 * names. An adversarial run found three breaks of "as fd" here, each a complete answer that left
 * out (or added) a file fd rightly lists (or leaves out):
 * - smart case from the typed text made `-E` and the glob ignore case too (`-F make -E Build`
 *   also left out `build/`); fd's `-E` keeps its own case;
 * - a class of capitals (`[[:upper:]]`, `\w`) did not make smart case exact, as it does in fd;
 * - `-e txt` listed a dot file named `.txt` (fd wants a character before the dot).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isPosix, runFindFile, writeTree } from '../helpers/cli.js';
import { runEach } from '../helpers/run-each.js';
import { describeIf } from '../helpers/skip-why.js';

const which = (name: string) => (spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() || undefined);
const fd = isPosix ? (which('fdfind') ?? which('fd')) : undefined;

const FILES = [
  'build/makefile', 'Build/makefile', 'docs/Makefile.md', 'docs/readme.md', 'README', 'readme', 'x.txt', 'X.TXT',
  '.txt', '..txt', 'a.txt', '.tar.gz', 'x.tar.gz', 'Src/Main.ts', 'src/main.ts', 'src/Util9.ts', 'notes.md',
];

let tree: string;
beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'ff-fd-names-'));
  writeTree(tree, FILES);
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

/** Each command line as find-file and fd take it: the flags are fd's own. */
const CASES: string[][] = [
  ...['make', 'Make', 'read', 'READ', 'main'].flatMap((text) => [['-F', text], ...['Build', 'build', 'Src', 'docs'].map((ex) => ['-F', text, '-E', ex])]),
  ...['^[[:upper:]]', '[[:alpha:]]+\\.ts$', '\\w+file', '^[[:lower:]]', '\\d', 'read', '^[[:xdigit:]]$', 'x'].flatMap((re) => [['--name-regex', re], ['--name-regex', re, '-E', 'X.TXT'], ['--name-regex', re, '-E', 'src']]),
  ...['txt', 'gz', 'tar.gz', 'TXT', 'md'].flatMap((ext) => [['-e', ext], ['-e', ext, '-E', 'docs']]),
];

/** fd's command line for a case: regular files, hidden and ignored included (find-file lists hidden files by default; the tree has no ignore files). */
function fdArgv(args: string[]): string[] {
  // fd takes the regex as its positional pattern; find-file as --name-regex (its positional is a glob).
  const fdArgs = args.flatMap((arg, i) => (arg === '--name-regex' ? [] : args[i - 1] === '--name-regex' ? ['--', arg] : [arg]));
  const moved = fdArgs.includes('--') ? [...fdArgs.filter((a, i) => a !== '--' && fdArgs[i - 1] !== '--'), '--', fdArgs[fdArgs.indexOf('--') + 1]!] : fdArgs;
  // -j1: one thread lists these 17 names as all do, for less of fd's CPU (its thread pool costs more than the search).
  return ['-j1', '--hidden', '--no-ignore', '--type', 'f', '--print0', ...moved];
}

let fdAnswers: string[][] | undefined;

/** fd's answer for case `i`: every case's fd run from one bash on first use (test/helpers/run-each.ts), not each forked from the worker. */
function fdFinds(i: number): string[] {
  fdAnswers ??= runEach(fd!, CASES.map(fdArgv), tree).map((run, k) => {
    if (run.status !== 0) throw new Error(`fd ${fdArgv(CASES[k]!).join(' ')}: ${run.stderr}`);
    return run.stdout.split('\0').filter((p) => p !== '').sort(); // as printed: fd's -0 starts each path with ./, and so does find-file's
  });
  return fdAnswers[i]!;
}

describeIf([fd !== undefined, 'fd is not installed'])('fd name modes against fd', () => {
  it.each(CASES.map((args, i) => [args.join(' '), args, i] as const))('%s', (_name, args, i) => {
    const run = runFindFile([...args, '-0', '-t', 'f'], { cwd: tree });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.split('\0').filter((p) => p !== '').sort()).toEqual(fdFinds(i));
  });
});

// In CI a missing fd fails the run (.ci/run installs it): an oracle skipped there proves nothing.
if (fd === undefined && process.env.CI && isPosix) {
  it('fd is installed (CI runs the fd oracle, it never skips it)', () => {
    throw new Error('CI is set and neither fdfind nor fd was found: .ci/run installs fd-find with apt-get');
  });
}
