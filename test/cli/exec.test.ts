/**
 * `-x/--exec` and `-X/--exec-batch` (src/cli/exec.ts, exec-run.ts), as fd: the rules as units,
 * then end to end through the real bin/find-file.mjs on a real temp tree. The command the tests
 * run is `node` on a small script that prints its argv as JSON, so what reaches the command is
 * seen element by element (a newline or a space in a name included).
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchArgvs, fillPlaceholders, takeExecCommand } from '../../src/cli/exec.js';
import { execOnPaths } from '../../src/cli/exec-run.js';
import { collect, lines, prepareAsUser, releaseAsUser, runFindFile, spawnFindFile, waitFor, writeTree, type Run, type RunOptions } from '../helpers/cli.js';
import { itIf, posix } from '../helpers/skip-why.js';

let base: string;
let tree: string;
/** Prints its arguments as one JSON line. */
let printArgs: string;
/**
 * Writes half a line (`name:`), then waits (on fs.watch, no clock) until a second run has written
 * its half too, then ends its line: unbuffered runs in parallel would print `p1:p2:end`.
 */
let rendezvous: string;
/** Exits 3 when one of its arguments names a file with "bad" in it. */
let failOnBad: string;

function ff(args: string[], options: Partial<RunOptions> = {}): Run {
  return runFindFile(args, { cwd: tree, ...options });
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'find-file-exec-'));
  chmodSync(base, 0o755); // the permission case runs as another user
  tree = join(base, 'tree');
  writeTree(tree, ['a.md', 'src/b.md', 'src/sub/c.tar.md', '-rf.md', 'name with spaces.md', 'notes.txt']);
  printArgs = join(base, 'print-args.cjs');
  writeFileSync(printArgs, 'process.stdout.write(JSON.stringify(process.argv.slice(2)) + "\\n");\n');
  rendezvous = join(base, 'rendezvous.cjs');
  writeFileSync(
    rendezvous,
    [
      "const fs = require('node:fs'); const path = require('node:path');",
      'const [dir, name] = process.argv.slice(2);',
      "const finish = () => { if (fs.readdirSync(dir).length < 2) return; process.stdout.write('end\\n'); process.exit(0); };",
      // Watching before writing our own mark: a mark made after the first look is still seen.
      'fs.watch(dir, finish);',
      "process.stdout.write(name + ':');",
      "fs.writeFileSync(path.join(dir, name), '');",
      'finish();',
    ].join('\n'),
  );
  failOnBad = join(base, 'fail-on-bad.cjs');
  writeFileSync(failOnBad, 'process.exit(process.argv.slice(2).some((arg) => arg.includes("bad")) ? 3 : 0);\n');
});

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

/** The JSON lines a run of print-args printed, sorted (parallel runs end in any order). */
function argvLines(run: Run): string[][] {
  return lines(run.stdout)
    .map((line) => JSON.parse(line) as string[])
    .sort((a, b) => a.join('\0').localeCompare(b.join('\0')));
}

describe('the command line of -x and -X (units)', () => {
  it('takes the words after -x up to ";" or the end, leaving -x alone for the parsers', () => {
    expect(takeExecCommand(['*.md', '-x', 'rm', '-rf', ';', '--json'])).toEqual({ argv: ['*.md', '-x', '--json'], exec: { batch: false, words: ['rm', '-rf'] } });
    expect(takeExecCommand(['*.md', '--exec-batch', 'ls', '-l', '--', 'x'])).toEqual({ argv: ['*.md', '--exec-batch'], exec: { batch: true, words: ['ls', '-l', '--', 'x'] } });
  });

  it('leaves -x alone where it is a value or a pattern: after --contains, after --', () => {
    expect(takeExecCommand(['--contains', '-x', '*.md'])).toEqual({ argv: ['--contains', '-x', '*.md'], exec: undefined });
    expect(takeExecCommand(['--', '-x', 'echo'])).toEqual({ argv: ['--', '-x', 'echo'], exec: undefined });
  });

  it('refuses -x without a command, and a second command', () => {
    expect(() => takeExecCommand(['*.md', '-x'])).toThrow(/-x needs a command/);
    expect(() => takeExecCommand(['*.md', '-x', ';'])).toThrow(/-x needs a command/);
    expect(() => takeExecCommand(['*.md', '-x', 'a', ';', '-X', 'b'])).toThrow(/one command only/);
  });

  itIf(posix('the commands run are POSIX programs'))('(POSIX) fills fd\'s placeholders', () => {
    const file = './src/sub/c.tar.md';
    expect(['{}', '{/}', '{//}', '{.}', '{/.}', 'x{/}y{}'].map((word) => fillPlaceholders(word, file))).toEqual([
      file,
      'c.tar.md',
      './src/sub',
      './src/sub/c.tar',
      'c.tar',
      `xc.tar.mdy${file}`,
    ]);
    expect(fillPlaceholders('{//}', './a.md')).toBe('.');
    expect(fillPlaceholders('{.}', './.bashrc')).toBe('./.bashrc');
  });

  it('-X: repeats each word with a placeholder for every path, and splits the paths over runs within the budget', () => {
    expect(batchArgvs(['cp', '{}', 'dest'], ['a', 'b'])).toEqual([['cp', 'a', 'b', 'dest']]);
    expect(batchArgvs(['ls'], ['a', 'b'])).toEqual([['ls', 'a', 'b']]);
    // Each word costs its bytes + NUL + pointer (10 for "ls" and for "a"): room for the command and two paths.
    expect(batchArgvs(['ls'], ['a', 'b', 'c', 'd', 'e'], 11 + 20)).toEqual([['ls', 'a', 'b'], ['ls', 'c', 'd'], ['ls', 'e']]);
    expect(batchArgvs(['ls'], ['a-long-name'], 12)).toEqual([['ls', 'a-long-name']]); // alone over the budget: still run, the OS says why not
    expect(batchArgvs(['ls'], [])).toEqual([]);
  });
});

describe('-x: one run per match', () => {
  it('runs the command once per match with the path last, nothing else on stdout, the summary on stderr', () => {
    const run = ff(['*.md', '-x', process.execPath, printArgs, '--flag']);
    expect(run.status).toBe(0);
    expect(argvLines(run)).toEqual([['--flag', './-rf.md'], ['--flag', './a.md'], ['--flag', './name with spaces.md'], ['--flag', './src/b.md'], ['--flag', './src/sub/c.tar.md']]);
    expect(run.stderr).toMatch(/^find-file: 5 matches under .*: complete, every directory was read\n/);
  });

  itIf(posix('the commands run are POSIX programs'))('(POSIX) fills the placeholders of a nested path, words after ";" are ours again', () => {
    const run = ff(['c.tar.md', '-x', process.execPath, printArgs, '{}', '{/}', '{//}', '{.}', '{/.}', 'pre-{/}', ';', '--strict']);
    expect(run.status).toBe(0);
    expect(argvLines(run)).toEqual([['./src/sub/c.tar.md', 'c.tar.md', './src/sub', './src/sub/c.tar', 'c.tar', 'pre-c.tar.md']]);
  });

  itIf(posix('the hostile names hold characters Windows names cannot'))('(POSIX) gives a hostile name as one argv element after the command\'s own: -rf, spaces, a newline, an ESC', () => {
    const hostile = join(base, 'hostile');
    writeTree(hostile, ['-rf', '--help', 'two words', 'new\nline', 'esc\x1b[31m']);
    const run = ff(['*', '-x', process.execPath, printArgs, 'own'], { cwd: hostile });
    expect(run.status).toBe(0);
    expect(argvLines(run)).toEqual([['own', './--help'], ['own', './-rf'], ['own', './esc\x1b[31m'], ['own', './new\nline'], ['own', './two words']]);
  });

  it('exits 1 when any run fails (fd\'s rule), and every match still gets its run', () => {
    const bad = join(base, 'some-bad');
    writeTree(bad, ['good1.md', 'bad.md', 'good2.md']);
    expect(ff(['*.md', '-x', process.execPath, failOnBad], { cwd: bad }).status).toBe(1);
    expect(ff(['good*.md', '-x', process.execPath, failOnBad], { cwd: bad }).status).toBe(0);
    expect(ff(['*.md', '-X', process.execPath, failOnBad], { cwd: bad }).status).toBe(1);
    expect(ff(['good*.md', '-X', process.execPath, failOnBad], { cwd: bad }).status).toBe(0);
    const all = ff(['*.md', '-j', '1', '-x', process.execPath, printArgs], { cwd: bad });
    expect(lines(all.stdout)).toHaveLength(3);
  });

  it('exits 1 and says so when the command cannot run, once per match', () => {
    const run = ff(['a.md', '-x', 'find-file-no-such-command']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('find-file: error: cannot run find-file-no-such-command: ENOENT\n');
    expect(run.stderr).toMatch(/find-file: 1 match under .*: complete/);
  });

  it('-j 2: runs two at once, and their output never interleaves within a line: each run\'s output comes whole', () => {
    const two = join(base, 'two');
    writeTree(two, ['p1.md', 'p2.md', 'marks/.keep']);
    rmSync(join(two, 'marks', '.keep'));
    const run = ff(['p*.md', '-j', '2', '-x', process.execPath, rendezvous, join(two, 'marks'), '{/.}'], { cwd: two });
    expect(run.status).toBe(0);
    expect(lines(run.stdout).sort()).toEqual(['p1:end', 'p2:end']);
  });

  it('a usage error for -x with --json, -0, -c or context lines, and for -j 0; nothing runs', () => {
    for (const extra of [['--json'], ['-0'], ['--contains', 'x', '-c'], ['--contains', 'x', '-C', '1'], ['--contains', 'x', '-A', '1'], ['-j', '0']]) {
      const run = ff(['*.md', ...extra, '-x', process.execPath, printArgs]);
      expect(run.status, extra.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
    }
    const glued = ff(['*.md', '-lx', 'echo']);
    expect(glued.status).toBe(2);
  });
});

describe('-x/-X with --contains: the files with a hit, as `rg -l | xargs`', () => {
  let texts: string;
  beforeAll(() => {
    texts = join(base, 'texts');
    writeTree(texts, { 'two-hits.md': 'TODO one\nTODO two\n', 'src/one-hit.ts': 'x // TODO\n', 'none.md': 'done\n', '-rf.txt': 'TODO\n' });
  });

  it('-x: one run per file with a hit (a file with two hits runs once, read only to its first), none for a file without; the content summary on stderr', () => {
    const run = ff(['--contains', 'TODO', '-j', '1', '-x', process.execPath, printArgs, 'own'], { cwd: texts });
    expect(run.status).toBe(0);
    expect(argvLines(run).sort()).toEqual([['own', './-rf.txt'], ['own', './src/one-hit.ts'], ['own', './two-hits.md']].map(([own, file]) => [own!, file!.replace('/src/', `${sep}src${sep}`)]));
    expect(run.stderr).toMatch(/^find-file: 3 files with a hit under .*: complete, every (text )?file was searched/);
  });

  it('-X: one run with every file with a hit; the patterns still choose the files searched', () => {
    const run = ff(['*.md', '--contains', 'TODO', '-X', process.execPath, printArgs], { cwd: texts });
    expect(argvLines(run)).toEqual([['./two-hits.md']]);
    expect(ff(['--contains', 'absent text', '-X', process.execPath, printArgs], { cwd: texts }).stdout).toBe('');
  });

  it('an incomplete content search still says so, and --strict exits 3', () => {
    // The fault hook is the walker's (ripgrep is tested on a real unreadable folder elsewhere).
    const env = { FIND_FILE_TEST_FAIL: JSON.stringify({ src: 'EACCES' }) };
    const run = ff(['--contains', 'TODO', '--backend', 'walker', '--strict', '-X', process.execPath, printArgs], { cwd: texts, env });
    expect(run.status).toBe(3);
    expect(argvLines(run)).toEqual([['./-rf.txt', './two-hits.md']]);
    expect(run.stderr).toContain('INCOMPLETE');
    expect(run.stderr).toContain('  skipped: src (EACCES)\n');
  });
});

describe('-X: one run with every match', () => {
  it('gives every path to one run', () => {
    const run = ff(['*.md', '-X', process.execPath, printArgs, 'first']);
    expect(run.status).toBe(0);
    const [only, ...rest] = lines(run.stdout).map((line) => JSON.parse(line) as string[]);
    expect(rest).toEqual([]);
    expect(only![0]).toBe('first');
    expect(only!.slice(1).sort()).toEqual(['./-rf.md', './a.md', './name with spaces.md', './src/b.md', './src/sub/c.tar.md']);
  });

  it('runs nothing when nothing matched', () => {
    const run = ff(['*.none', '-X', process.execPath, printArgs]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe('');
  });

  it('splits the paths over several runs when they exceed the argv budget (128 KiB on POSIX), losing none', () => {
    const big = join(base, 'big');
    const names = Array.from({ length: 2600 }, (_, i) => `${String(i).padStart(5, '0')}-${'n'.repeat(50)}.md`);
    writeTree(big, names);
    const run = ff(['*.md', '-X', process.execPath, printArgs], { cwd: big });
    expect(run.status).toBe(0);
    const runs = lines(run.stdout).map((line) => JSON.parse(line) as string[]);
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.flat().sort()).toEqual(names.map((name) => `./${name}`).sort());
  });
});

describe('the verdict with -x', () => {
  // As root, the copy of the command the unprivileged case runs: seconds to build, kept out of its 30 s.
  beforeAll(prepareAsUser);
  afterAll(releaseAsUser);

  it('still says on stderr that the search was incomplete, and --strict still exits 3 (a folder that cannot be read)', () => {
    const env = { FIND_FILE_TEST_FAIL: JSON.stringify({ src: 'EACCES' }) };
    const run = ff(['*.md', '-x', process.execPath, printArgs], { env });
    expect(run.status).toBe(0);
    expect(argvLines(run)).toEqual([['./-rf.md'], ['./a.md'], ['./name with spaces.md']]);
    expect(run.stderr).toMatch(/^find-file: INCOMPLETE search under .*: 3 matches in the part searched, there may be more\n/);
    expect(run.stderr).toContain('  skipped: src (EACCES)\n');
    expect(ff(['*.md', '--strict', '-x', process.execPath, printArgs], { env }).status).toBe(3);
    expect(ff(['*.md', '--strict', '-X', process.execPath, printArgs], { env }).status).toBe(3);
  });

  itIf(posix('chmod and runuser/setpriv deny nothing on Windows (test/windows denies with an ACL)'))('(POSIX) the same for a folder the OS really refuses to open (run unprivileged)', () => {
    const real = join(base, 'perm-real');
    writeTree(real, ['top.md', 'locked/secret.md']);
    chmodSync(join(real, 'locked'), 0o000);
    try {
      const run = ff(['*.md', '--strict', '-x', 'echo', 'ran'], { cwd: real, asUser: true });
      expect(run.status).toBe(3);
      expect(run.stdout).toBe('ran ./top.md\n');
      expect(run.stderr).toContain('INCOMPLETE search');
      expect(run.stderr).toContain('  skipped: locked (EACCES)\n');
    } finally {
      chmodSync(join(real, 'locked'), 0o755);
    }
  });

  it('Ctrl-C during the search: -X does not run on the part found, -x starts no more runs (units, with a real spawn)', async () => {
    // The command creates the files it is given: what exists afterwards is what ran.
    const touch = [process.execPath, '-e', 'for (const f of process.argv.slice(1)) require("fs").writeFileSync(f, "")'];
    const made = (name: string) => join(base, name);
    let controller = new AbortController();
    async function* found(names: string[], thenAbort: boolean, later: string[] = []) {
      yield names.map(made);
      if (thenAbort) controller.abort();
      yield later.map(made);
    }
    expect(await execOnPaths(found(['batch-run'], false), { batch: true, words: touch, jobs: 1 })).toEqual({ ok: true, runs: 1, notRun: 0, interrupted: false });
    expect(existsSync(made('batch-run'))).toBe(true);
    expect(await execOnPaths(found(['batch-aborted'], true), { batch: true, words: touch, jobs: 1 }, controller.signal)).toEqual({ ok: true, runs: 1, notRun: 1, interrupted: false });
    expect(existsSync(made('batch-aborted'))).toBe(false);
    controller = new AbortController();
    expect(await execOnPaths(found(['each-before'], true, ['each-after']), { batch: false, words: touch, jobs: 1 }, controller.signal)).toEqual({ ok: true, runs: 2, notRun: 1, interrupted: false });
    expect([existsSync(made('each-before')), existsSync(made('each-after'))]).toEqual([true, false]);
  });

  itIf(posix('Windows has no SIGINT to send a process'))('(POSIX) a run ended by SIGINT is Ctrl-C: no run starts after it, -x and -X (units, with a real spawn)', async () => {
    // Ctrl-C reaches the run and find-file alike; the run's end may be read first (1 time in 40 on a
    // busy machine), and the next run had started. No abort signal here: the run's end alone says it.
    const touchThenInterrupted = [process.execPath, '-e', 'for (const f of process.argv.slice(1)) require("fs").writeFileSync(f, ""); process.kill(process.pid, "SIGINT")'];
    const made = (name: string) => join(base, name);
    async function* found(names: string[]) {
      yield names.map(made);
    }
    const each = await execOnPaths(found(['int-1', 'int-2', 'int-3']), { batch: false, words: touchThenInterrupted, jobs: 1 });
    expect(each).toEqual({ ok: false, runs: 3, notRun: 2, interrupted: true });
    expect(['int-1', 'int-2', 'int-3'].map((name) => existsSync(made(name)))).toEqual([true, false, false]);
    // -X over more paths than one argv holds (128 KiB): the first batch is interrupted, the others never start.
    const many = Array.from({ length: 3000 }, (_, i) => `int-batch-${i}-${'x'.repeat(60)}`);
    const batched = await execOnPaths(found(many), { batch: true, words: touchThenInterrupted, jobs: 1 });
    expect(batched.interrupted).toBe(true);
    expect(batched.runs).toBeGreaterThan(1);
    expect(batched.notRun).toBe(batched.runs - 1);
  });

  itIf(posix('Windows has no SIGINT to send a process'))('(POSIX) Ctrl-C: -X runs nothing on the part found, the summary says aborted, status 130', async () => {
    const marker = join(base, 'sigint-marker');
    // Every directory read takes 10 s: the search is still reading the root when it is interrupted.
    // With a budget the reads wait in libuv's pool, so Ctrl-C is heard at once; without one the walk
    // reads on the main thread and hears it once the read returns (cli.test.ts's SIGINT tests).
    const child = spawnFindFile(['*.md', '--time-budget-ms', '600000', '-X', process.execPath, printArgs], { cwd: tree, env: { FIND_FILE_TEST_SLOW_MS: '10000', FIND_FILE_TEST_MARKER: marker } });
    const done = collect(child);
    await waitFor(() => existsSync(marker));
    child.kill('SIGINT');
    const run = await done;
    expect(run.status).toBe(130);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('aborted');
  });

  // The walk had ended (its summary said "complete") when Ctrl-C came while the runs went on: the
  // summary was the whole answer, nothing said the runs were cut short, and the status was 130.
  itIf(posix('Windows has no SIGINT to send a process'))('(POSIX) Ctrl-C after the walk, while the commands run: the summary is followed by "aborted" and the runs that did not start', async () => {
    // The run does what a terminal's Ctrl-C does: SIGINT to find-file and to the run itself, no clock.
    // find-file may read its own only after the run's end, or after it has finished (signals are taken
    // on whichever thread gets them: beside two busy processes, -X had exited 0 with no "aborted" 2
    // times in 80, and -x had started a run that sent a second SIGINT, which ends find-file at once,
    // 1 time in 40): the run ended by SIGINT says it alone.
    const interrupter = join(base, 'interrupt-parent.cjs');
    writeFileSync(interrupter, "process.kill(process.ppid, 'SIGINT'); process.kill(process.pid, 'SIGINT');\n");
    for (const mode of [['-X'], ['-j', '1', '-x']]) {
      // -X gathers every match first, so its walk has surely ended when the run starts.
      const done = collect(spawnFindFile(['*.md', ...mode, process.execPath, interrupter], { cwd: tree, env: {} }));
      const run = await done;
      const last = run.stderr.trim().split('\n').at(-1)!;
      expect({ mode, status: run.status }).toEqual({ mode, status: 130 });
      if (mode[0] === '-X') expect(run.stderr).toContain('complete, every directory was read');
      if (mode[0] === '-X') expect(last).toBe('find-file: aborted (interrupted): every run had started');
      else expect(last).toMatch(/^find-file: aborted \(interrupted\): \d+ of \d+ runs of the command did not start$/);
    }
  });

  itIf(posix('Windows has no SIGINT to send a process'))('(POSIX) a run ended by SIGINT alone (find-file never gets one): Ctrl-C all the same, no run after it, status 130', async () => {
    const selfInterrupted = ['-e', "process.kill(process.pid, 'SIGINT')"];
    for (const mode of [['-X'], ['-j', '1', '-x']]) {
      const run = await collect(spawnFindFile(['*.md', ...mode, process.execPath, ...selfInterrupted, ';'], { cwd: tree, env: {} }));
      const lines = run.stderr.trim().split('\n');
      expect({ mode, status: run.status }).toEqual({ mode, status: 130 });
      expect(lines.filter((line) => line.includes('was killed by SIGINT'))).toHaveLength(1);
      expect(lines.at(-1)).toBe(mode[0] === '-X' ? 'find-file: aborted (interrupted): every run had started' : 'find-file: aborted (interrupted): 4 of 5 runs of the command did not start');
    }
  });
});
