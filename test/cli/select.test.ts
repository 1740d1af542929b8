/**
 * `-t/--type`, `--changed-within`, `--changed-before`, `-S/--size`, `--sort`, `--stats`, the
 * mistyped-root rule and the one-line unknown flag, end to end: the real bin on a real temp tree
 * whose times are set with utimes (days apart, so the wall clock at the run cannot blur them).
 */
import { mkdtempSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { absenceOutsideLinks, isPosix, lines, runFindFile, writeTree, type Run } from '../helpers/cli.js';
import { itIf, posix } from '../helpers/skip-why.js';

let tree: string;
const ff = (args: string[]): Run => runFindFile(args, { cwd: tree });
const DAY = 24 * 3600;
const now = Math.floor(Date.now() / 1000);

beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'find-file-cli-select-'));
  writeTree(tree, { 'src/agent/glob.ts': 'x'.repeat(2000), 'src/agent/old.ts': 'x', 'src/find.ts': 'x'.repeat(10), 'test/agent/a.test.ts': '', 'notes.md': 'x'.repeat(100) });
  for (const [rel, age] of [['src/agent/old.ts', 30 * DAY], ['src/find.ts', 10 * DAY], ['notes.md', 5 * DAY], ['test/agent/a.test.ts', 2 * DAY], ['src/agent/glob.ts', 3600]] as const) {
    utimesSync(join(tree, rel), now - age, now - age);
  }
  if (isPosix) symlinkSync('src', join(tree, 'src-link'));
});

afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe('-t/--type', () => {
  it('finds directories (the issue: find-file agent -t d), and -t f -t d together, as fd', () => {
    const run = ff(['agent', '-t', 'd']);
    expect(run.status).toBe(0);
    expect(lines(run.stdout).sort()).toEqual([join('src', 'agent'), join('test', 'agent')]);
    expect(run.stderr).toMatch(/2 matches under .*: complete/);
    expect(lines(ff(['*agent*', '--type', 'f', '--type', 'directory']).stdout).sort()).toEqual([join('src', 'agent'), join('test', 'agent')]);
  });

  itIf(posix('symlinks need a privilege on Windows (test/windows covers junctions)'))('-t l lists links, not followed', () => {
    expect(lines(ff(['*', '-t', 'l']).stdout)).toEqual(['src-link']);
  });

  it('a kind glued to -t (-td, -tf, -tl), as fd takes it, answers as -t d (issue 27)', () => {
    for (const [glued, apart] of [[['agent', '-td'], ['agent', '-t', 'd']], [['*.ts', '-tf', '-td'], ['*.ts', '-t', 'f', '-t', 'd']], [['*', '-tl'], ['*', '-t', 'l']]]) {
      const run = ff(glued!);
      expect(run, glued!.join(' ')).toMatchObject({ status: 0, stdout: ff(apart!).stdout });
    }
    expect(lines(ff(['agent', '-td']).stdout).sort()).toEqual([join('src', 'agent'), join('test', 'agent')]);
  });

  it('a complete empty answer names the kind asked for', () => {
    // src-link (POSIX) is a symlinked directory on the way (issue 27): absence is claimed only outside it.
    expect(ff(['nothing-here', '-t', 'd']).stderr).toContain(isPosix ? 'no matching directory outside symlinked directories' : 'so no matching directory exists there');
  });

  it('an unknown kind is a usage error naming the choices', () => {
    const run = ff(['*', '-t', 'x']);
    expect(run.status).toBe(2);
    expect(lines(run.stderr).at(-1)).toBe('find-file: error: --type must be f (file), d (directory), l (symlink), p (pipe), s (socket), b (block-device) or c (char-device), got "x"');
  });
});

describe('--changed-within, --changed-before, --size', () => {
  it('a duration back from the wall clock at start, as fd', () => {
    expect(lines(ff(['*.ts', '--changed-within', '3d']).stdout).sort()).toEqual([join('src', 'agent', 'glob.ts'), join('test', 'agent', 'a.test.ts')]);
    expect(lines(ff(['*.ts', '--changed-before', '1week']).stdout).sort()).toEqual([join('src', 'agent', 'old.ts'), join('src', 'find.ts')]);
    expect(lines(ff(['*', '--changed-within', '2weeks', '--changed-before', '4d']).stdout).sort()).toEqual(['notes.md', join('src', 'find.ts')]);
  });

  it('a date, and the summary counts what the filters left out', () => {
    const all = ff(['*.ts', '--changed-within', '2000-01-01']);
    expect(lines(all.stdout)).toHaveLength(4);
    const none = ff(['*.ts', '--changed-before', '2000-01-01 00:00:00']);
    expect(none.stdout).toBe('');
    // Only a time filter was given: the summary names it, not a size filter too (issue 27).
    expect(none.stderr).toContain(absenceOutsideLinks('file passing the time filter'));
    expect(none.stderr).toContain('4 matches of the pattern left out by the time filter,');
    expect(none.stderr).not.toContain('size');
  });

  it('the summary names the filters given: size alone, or time and size', () => {
    const size = ff(['*.ts', '-S', '+1M']);
    expect(size.stderr).toContain(absenceOutsideLinks('file passing the size filter'));
    expect(size.stderr).toContain('4 matches of the pattern left out by the size filter,');
    expect(size.stderr).not.toContain('time');
    const both = ff(['*.ts', '-S', '+1M', '--changed-within', '2000-01-01']);
    expect(both.stderr).toContain(absenceOutsideLinks('file passing the time and size filters'));
    expect(both.stderr).toContain('4 matches of the pattern left out by the time and size filters,');
  });

  itIf(posix('symlinks need a privilege on Windows (test/windows covers junctions)'))('a link whose name matches is never said to match under a size filter, which keeps regular files only (issue 27)', () => {
    // src-link -> src: it cannot pass -S (not a regular file); it is still named, not followed.
    const none = ff(['src-link', '-S', '+1b']);
    expect(none).toMatchObject({ status: 0, stdout: '' });
    expect(lines(none.stderr)[0]).toMatch(/^find-file: no regular file passing the size filter matches under .+ \(complete, every directory was read\); 1 symlink has a matching name \(not followed; the size filter keeps regular files only\): src-link$/);
    const some = ff(['*', '-S', '+1k']);
    expect(lines(some.stdout)).toEqual([join('src', 'agent', 'glob.ts')]);
    expect(some.stderr).toContain('\n  also 1 symlink has a matching name (not followed; the size filter keeps regular files only): src-link\n');
    expect(some.stderr).not.toMatch(/symlinks? match/);
    // A time filter never looked at the link (not followed): its name matched, nothing more.
    expect(ff(['*', '--changed-within', '2h']).stderr).toContain('also 1 symlink has a matching name (not followed, so not checked against the time filter): src-link\n');
    // Without filters, the sentence is unchanged.
    expect(ff(['*']).stderr).toContain('also 1 symlink matches (not followed): src-link\n');
  });

  it('--size +N/-N with fd units; repeatable, the tightest bound of each side kept', () => {
    expect(lines(ff(['*', '--size', '+1k']).stdout)).toEqual([join('src', 'agent', 'glob.ts')]);
    expect(lines(ff(['*', '-S', '-10b']).stdout).sort()).toEqual([join('src', 'agent', 'old.ts'), join('src', 'find.ts'), join('test', 'agent', 'a.test.ts')]);
    expect(lines(ff(['*', '-S', '+10b', '-S', '-1ki']).stdout).sort()).toEqual(['notes.md', join('src', 'find.ts')]);
    expect(lines(ff(['*', '--size', '100b']).stdout)).toEqual(['notes.md']);
  });

  it('bad values are usage errors naming the flag and the text', () => {
    for (const [args, problem] of [
      [['--changed-within', 'soon'], '--changed-within must be a duration'],
      [['--changed-before', '2026-02-30'], '--changed-before must be a duration'],
      [['--size', '+1.5k'], '--size must be [+-]N with a unit'],
      [['--size', '+10'], '--size must be [+-]N with a unit'],
      [['--sort', 'size'], 'sort must be one of "path", "mtime", got "size"'],
      [['--stats'], '--stats needs --json or --ndjson'],
      [['--contains', 'x', '-t', 'd'], '--type cannot go with --contains'],
      // A name mode names the files to read: the glob that does it (it was told "filters no metadata").
      [['--contains', 'x', '-e', 'ts', '-e', '.tsx'], "--extension cannot go with --contains: name the files to read with a glob: find-file '*.{ts,tsx}' --contains TEXT"],
      [['--contains', 'x', '--name-regex', 'a'], '--name-regex cannot go with --contains: name the files to read with a glob'],
      [['--changed-within', '1d', '--changed-before', '2d'], 'leave no time between them'],
    ] as const) {
      const run = ff(['*', ...args]);
      expect(run.status, args.join(' ')).toBe(2);
      expect(lines(run.stderr).at(-1), args.join(' ')).toContain(problem);
    }
  });
});

describe('--sort and --stats', () => {
  it('--sort mtime prints newest first; with --max-results the N newest of the whole tree, marked result-limit', () => {
    expect(lines(ff(['*.ts', '--sort', 'mtime']).stdout)).toEqual([join('src', 'agent', 'glob.ts'), join('test', 'agent', 'a.test.ts'), join('src', 'find.ts'), join('src', 'agent', 'old.ts')]);
    expect(lines(ff(['*', '--sort', 'path']).stdout)).toEqual(['notes.md', join('src', 'agent', 'glob.ts'), join('src', 'agent', 'old.ts'), join('src', 'find.ts'), join('test', 'agent', 'a.test.ts')]);
    const two = ff(['*', '--sort', 'mtime', '--max-results', '2']);
    expect(lines(two.stdout)).toEqual([join('src', 'agent', 'glob.ts'), join('test', 'agent', 'a.test.ts')]);
    expect(two.stderr).toMatch(/^find-file: INCOMPLETE/);
    expect(two.stderr).toContain('result-limit: --max-results 2 kept the newest of more matches');
  });

  it('--json --stats carries entries beside matches; --ndjson --stats one entry per match line', () => {
    const json = JSON.parse(ff(['*.md', '--json', '--stats']).stdout);
    expect(json.entries).toEqual([{ path: 'notes.md', type: 'file', size: 100, mtimeMs: expect.any(Number) }]);
    expect(Math.round(json.entries[0].mtimeMs / 1000)).toBe(now - 5 * DAY);
    const ndjson = lines(ff(['*.md', '--ndjson', '--stats']).stdout).map((line) => JSON.parse(line));
    expect(ndjson[0]).toEqual({ type: 'match', path: 'notes.md', entry: { type: 'file', size: 100, mtimeMs: json.entries[0].mtimeMs } });
    expect(ndjson[1]).toMatchObject({ type: 'summary', matchedCount: 1, complete: true });
    expect(ndjson[1].entries).toBeUndefined();
    expect(JSON.parse(ff(['*.md', '--json']).stdout).entries).toBeUndefined();
  });

  it('forced ripgrep refuses what it cannot do (status 2); auto runs the walker and says why', () => {
    const forced = ff(['agent', '-t', 'd', '--backend', 'ripgrep']);
    expect(forced.status).toBe(2);
    expect(lines(forced.stderr).at(-1)).toContain('backend "ripgrep" lists regular files only');
    const auto = ff(['agent', '-t', 'd', '--backend', 'auto']);
    expect(auto.status).toBe(0);
    expect(auto.stderr).toContain('backend walker: auto ran the walker (entry-types)');
  });
});

describe('the root rule and unknown flags', () => {
  it('a last positional without glob syntax that names nothing is refused, naming it (status 1, as fd)', () => {
    const run = ff(['*.ts', join('src', 'nonexistent')]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`find-file: error: root ${join('src', 'nonexistent')} does not exist (ENOENT): the last argument holds no glob syntax and names nothing here, so it was read as the root (to search for it as a pattern, give --root .)\n`);
    // A bare word too (the README's `find-file '*.log' build`); a file that is there is a pattern.
    expect(ff(['notes.md', 'build'])).toMatchObject({ status: 1, stdout: '' });
    expect(lines(ff(['*.ts', 'notes.md']).stdout)).toContain('notes.md');
  });

  it('a glob is still a pattern, with or without a slash; two plain names, the last not here, need --root', () => {
    expect(ff(['*.md', 'src/**/*.ts']).status).toBe(0);
    expect(ff(['notes.md', 'find.ts']).status).toBe(1);
    expect(lines(ff(['notes.md', 'find.ts', '--root', '.']).stdout).sort()).toEqual(['notes.md', join('src', 'find.ts')]);
  });

  it('an unknown flag is one line with a "did you mean" and a pointer to --help, status 2, no usage text', () => {
    const run = ff(['*', '--changed-withn', '2h']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('find-file: error: unknown option --changed-withn (did you mean --changed-within?); see find-file --help\n');
    expect(ff(['*', '--bogus', '-k']).stderr).toBe('find-file: error: unknown options --bogus, -k; see find-file --help\n');
  });
});
