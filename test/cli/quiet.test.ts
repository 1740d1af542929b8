/**
 * `-q`, fd's and grep's quiet mode, through the real bin: nothing printed, the status is the answer.
 * 0 a match exists; 1 none, proven (a complete search that met no link a match could lie beyond or
 * that bears the name); 3 none found but it may exist; 2 the search could not run. The one status
 * a script reads as "absent" is never given for "not read". And fd's other spellings: -g (the glob
 * mode, which a pattern always is), -I (--no-ignore), -L/--follow (refused by policy, by name).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, quietExitCode } from '../../src/cli/exit.js';
import { Rng } from '../conformance/generate.js';
import { isPosix, lines, runFindFile, writeTree, type Run } from '../helpers/cli.js';
import { itIf, posix } from '../helpers/skip-why.js';

let tree: string;
const ff = (args: string[]): Run => runFindFile(args, { cwd: tree });

beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'find-file-cli-quiet-'));
  writeTree(tree, { 'src/a.ts': 'const x = 1;\n', 'src/deep/er/b.ts': 'let b;\n', 'docs/guide.md': '# guide\n', 'notes.txt': 'notes\n', 'logs/ignored.log': 'log\n', 'logs/.ignore': '*.log\n', 'bin/tool.dat': 'needle\0binary\n' });
  if (isPosix) {
    symlinkSync(join(tree, 'src'), join(tree, 'docs', 'linked-src'));
    symlinkSync(join(tree, 'notes.txt'), join(tree, 'docs', 'readme.lnk'));
  }
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe('quietExitCode: the status from what the search knows', () => {
  it('a match answers 0 whatever else; none answers 1 only when proven, 3 otherwise; an interrupt 130', () => {
    for (const found of [true, false]) {
      for (const complete of [true, false]) {
        for (const interrupted of [true, false]) {
          const status = quietExitCode({ found, complete }, interrupted);
          expect(status).toBe(interrupted ? EXIT.INTERRUPTED : found ? 0 : complete ? 1 : 3);
        }
      }
    }
  });
});

describe('-q through the real bin', () => {
  const quiet = (args: string[]): { status: number | null; printed: string } => {
    const run = ff(['-q', ...args]);
    return { status: run.status, printed: run.stdout + run.stderr };
  };

  it('0 when a match exists, nothing printed', () => {
    expect(quiet(['*.ts'])).toEqual({ status: 0, printed: '' });
  });

  it('1 when none exists and the search proved it (complete, no link on the way)', () => {
    expect(quiet(['src/nothere.ts'])).toEqual({ status: 1, printed: '' });
  });

  it('3, never 1, when none was found in an incomplete search (depth limit, budget)', () => {
    expect(quiet(['b.ts', '-d', '2'])).toEqual({ status: 3, printed: '' });
    expect(ff(['b.ts', '-d', '2']).stdout).toBe('');
    expect(quiet(['*.ts', '--time-budget-ms', '0'])).toEqual({ status: 3, printed: '' });
  });

  itIf(posix('the links are made with symlinkSync'))('3, never 1, past a link on the way or a link bearing the name: never followed, so no proof', () => {
    expect(quiet(['docs/linked-src/*.ts'])).toEqual({ status: 3, printed: '' });
    expect(quiet(['readme.lnk'])).toEqual({ status: 3, printed: '' });
    expect(quiet(['guide.md'])).toEqual({ status: 0, printed: '' });
  });

  it('3, never 1, past what the search does not read by policy: ignored entries, binary files, links ripgrep cannot see', () => {
    expect(quiet(['ignored.log'])).toEqual({ status: 3, printed: '' });
    expect(quiet(['ignored.log', '-u'])).toEqual({ status: 0, printed: '' });
    expect(quiet(['logs/nothere.log', '-u'])).toEqual({ status: 1, printed: '' });
    expect(quiet(['--contains', 'needle', 'bin/*'])).toEqual({ status: 3, printed: '' });
  });

  itIf(posix('mkfifo is POSIX'))('3, never 1, when a FIFO the patterns match was not opened (content search never opens one)', () => {
    const fifo = join(tree, 'pipes', 'pipe1');
    mkdirSync(dirname(fifo), { recursive: true });
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    try {
      expect(quiet(['--contains', 'absent text', 'pipes/*', '--backend', 'walker', '-u'])).toEqual({ status: 3, printed: '' });
    } finally {
      rmSync(join(tree, 'pipes'), { recursive: true, force: true });
    }
  });

  itIf(posix('the links are made with symlinkSync'))('ripgrep lists no links (linksExamined: false): 3, never 1, where the walker would name one', () => {
    expect(quiet(['docs/linked-src/*.ts', '--backend', 'ripgrep'])).toEqual({ status: 3, printed: '' });
    expect(quiet(['src/nothere.ts', '--backend', 'ripgrep', '-u'])).toEqual({ status: 3, printed: '' });
    expect(quiet(['--contains', 'absent text', 'src/**', '--backend', 'ripgrep', '-u'])).toEqual({ status: 3, printed: '' });
  });

  it('2, never 1, when the search could not run: a missing root (the error still on stderr), a usage error', () => {
    const missing = ff(['-q', '*.ts', '--root', join(tree, 'gone')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/ENOENT/);
    expect(ff(['-q', '*.ts', '--json']).status).toBe(2);
    expect(ff(['-q', '*.ts', '--max-results', '3']).status).toBe(2);
  });

  it('content: 0 for a hit, 1 for none proven, 3 where a linked folder could hold it', () => {
    expect(quiet(['--contains', 'const', 'src/*.ts'])).toEqual({ status: 0, printed: '' });
    expect(quiet(['--contains', 'absent text', 'src/**', '--backend', 'walker'])).toEqual({ status: 1, printed: '' });
    if (isPosix) expect(quiet(['--contains', 'absent text'])).toEqual({ status: 3, printed: '' });
  });

  // Generated: the status of -q equals what the same search's own verdict (--json) says.
  it('on 24 generated patterns, -q says what the --json verdict of the same search says', () => {
    const rng = new Rng(0x7169);
    const parts = ['*', '**', 'src', 'docs', 'deep', 'er', '*.ts', '*.md', 'a*', 'b.ts', 'nothere', 'linked-src', '*.lnk', '?.ts'];
    const failures: string[] = [];
    const seen = new Set<number>();
    for (let i = 0; i < 24; i++) {
      const pattern = Array.from({ length: rng.range(1, 3) }, () => rng.pick(parts)).join('/');
      const depth = rng.chance(0.3) ? ['-d', String(rng.range(1, 3))] : [];
      const verdict = JSON.parse(ff([pattern, ...depth, '--json']).stdout) as { matchedCount: number; complete: boolean; linksExamined: boolean; linkOnTheWayCount: number; linkMatchedCount: number; ignoredCount: number };
      const proven = verdict.complete && verdict.linksExamined && verdict.linkOnTheWayCount === 0 && verdict.linkMatchedCount === 0 && verdict.ignoredCount === 0;
      const expected = verdict.matchedCount > 0 ? 0 : proven ? 1 : 3;
      const status = ff(['-q', pattern, ...depth]).status;
      seen.add(expected);
      if (status !== expected) failures.push(`${pattern} ${depth.join(' ')}: -q ${status}, verdict says ${expected}`);
    }
    expect(failures).toEqual([]);
    expect(seen.size).toBeGreaterThanOrEqual(isPosix ? 3 : 2);
  });
});

describe("fd's other spellings", () => {
  it('-g is accepted (a pattern is a glob already), and refused beside -F as fd refuses it', () => {
    expect(lines(ff(['-g', '*.ts']).stdout).sort()).toEqual(lines(ff(['*.ts']).stdout).sort());
    expect(ff(['-g', '-F', 'guide']).status).toBe(2);
  });

  it('-I is --no-ignore', () => {
    expect(lines(ff(['*.log']).stdout)).toEqual([]);
    expect(lines(ff(['-I', '*.log']).stdout)).toEqual([join('logs', 'ignored.log')]);
    expect(lines(ff(['--no-ignore', '*.log']).stdout)).toEqual([join('logs', 'ignored.log')]);
  });

  it('-L and --follow are refused by name (status 2): links are never followed, by policy', () => {
    for (const flag of ['-L', '--follow']) {
      const run = ff([flag, '*.ts']);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/never follows symlinks/);
      expect(run.stdout).toBe('');
    }
  });
});
