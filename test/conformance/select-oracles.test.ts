/**
 * Entry types, metadata filters and the newest-first order on the real disk, against oracles no
 * one here wrote: GNU find (`-type d/l`, `-newermt`, `-size Nc`, `-printf '%T@ %s'`) and fd
 * (`-t d`, `--changed-within`, `--changed-before`, `-S`). The tree has whole-second times set with
 * utimes (some equal to the bounds asked, to pin exclusive time bounds) and sizes around the bounds.
 *
 * find runs on every POSIX machine; fd where it is installed, and in CI always (`fdfind` on Debian, `fd`
 * elsewhere: .ci/run does not install it, so in CI these run only if it does).
 */
import { spawnSync } from 'node:child_process';
import { lutimesSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findFiles, findFilesStream, findFilesSync, type FindOptions } from '../../src/index.js';
import { describeIf, posix } from '../helpers/skip-why.js';

const isPosix = process.platform !== 'win32';
const which = (name: string) => (spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() || undefined);
const fd = isPosix ? (which('fdfind') ?? which('fd')) : undefined;

/** 2026-01-31T00:00:00Z, in seconds: the bounds below are whole seconds around it. */
const T = Date.UTC(2026, 0, 31) / 1000;
const HOUR = 3600;
let root: string;

/** path → [seconds before T, size]; a path ending in `/` is a directory (its time set after its contents). */
const TREE: [string, number, number][] = [
  ['src/', 5 * HOUR, 0],
  ['src/agent/', 1 * HOUR, 0],
  ['src/agent/glob.ts', 30 * 60, 1000],
  ['src/agent/grep.ts', 2 * HOUR, 999],
  ['src/cli/', 48 * HOUR, 0],
  ['src/cli/agent/', 72 * HOUR, 0],
  ['src/cli/args.ts', 3 * HOUR, 1001],
  ['src/find.ts', 2 * HOUR, 0],
  ['docs/', 100 * HOUR, 0],
  ['docs/agent.md', 200 * HOUR, 10_000],
  ['docs/a b.md', 2 * HOUR, 1],
  ['.hidden/', 2 * HOUR, 0],
  ['.hidden/agent.ts', 1, 50],
  ['top.log', 0, 1_000_000],
];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'find-file-select-'));
  for (const [rel, , size] of TREE) {
    if (rel.endsWith('/')) mkdirSync(join(root, rel), { recursive: true });
    else writeFileSync(join(root, rel), 'x'.repeat(size));
  }
  if (isPosix) {
    symlinkSync('agent', join(root, 'src', 'agent-link'));
    symlinkSync('../top.log', join(root, 'docs', 'top-link.log'));
    lutimesSync(join(root, 'src', 'agent-link'), T - 4 * HOUR, T - 4 * HOUR);
    lutimesSync(join(root, 'docs', 'top-link.log'), T - 400 * HOUR, T - 400 * HOUR);
  }
  // Files first, then directories deepest first: writing into a directory changes its time.
  for (const [rel, age] of [...TREE].sort((a, b) => Number(a[0].endsWith('/')) - Number(b[0].endsWith('/')) || b[0].length - a[0].length)) {
    utimesSync(join(root, rel), T - age, T - age);
  }
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What GNU find lists (`%P`: root-relative, no `./`), sorted. */
function gnuFind(...args: string[]): string[] {
  const run = spawnSync('find', ['.', '-mindepth', '1', ...args, '-printf', '%P\\0'], { cwd: root, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\0').filter(Boolean).sort();
}

/** What fd lists (every entry: hidden and ignored included), trailing `/` of directories dropped, sorted. */
function fdList(...args: string[]): string[] {
  const run = spawnSync(fd!, ['--hidden', '--no-ignore', '--print0', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, TZ: 'UTC' } });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\0').filter(Boolean).map((p) => p.replace(/^\.\//, '').replace(/\/$/, '')).sort();
}

async function ours(options: Partial<FindOptions>): Promise<string[]> {
  const result = await findFiles({ root, pattern: '*', ...options });
  expect(result.complete).toBe(true);
  expect(findFilesSync({ root, pattern: '*', ...options }).matches).toEqual(result.matches);
  const streamed: string[] = [];
  for await (const path of findFilesStream({ root, pattern: '*', ...options })) streamed.push(path);
  expect(streamed.sort()).toEqual(result.matches);
  return result.matches;
}

const ms = (seconds: number) => seconds * 1000;

describeIf(posix('GNU find is the oracle, and Windows has none on its PATH'))('against GNU find', () => {
  it('-type d, -type l, and all three kinds together', async () => {
    expect(await ours({ type: 'directory' })).toEqual(gnuFind('-type', 'd'));
    expect(await ours({ type: 'symlink' })).toEqual(gnuFind('-type', 'l'));
    expect(await ours({ type: 'any' })).toEqual(gnuFind('(', '-type', 'f', '-o', '-type', 'd', '-o', '-type', 'l', ')'));
    expect(await ours({ type: 'directory', pattern: 'agent' })).toEqual(gnuFind('-type', 'd', '-name', 'agent'));
  });

  it('-newermt (strictly newer, as modifiedAfter), on files and directories, a bound equal to a file time included', async () => {
    for (const age of [2 * HOUR, 1 * HOUR, 48 * HOUR, 0]) {
      const bound = `@${T - age}`;
      expect(await ours({ modifiedAfter: ms(T - age) }), bound).toEqual(gnuFind('-type', 'f', '-newermt', bound));
      expect(await ours({ type: 'directory', modifiedAfter: new Date(ms(T - age)) }), bound).toEqual(gnuFind('-type', 'd', '-newermt', bound));
    }
  });

  it('! -newermt one second earlier (as modifiedBefore on whole-second times)', async () => {
    for (const age of [2 * HOUR, 200 * HOUR]) {
      expect(await ours({ modifiedBefore: ms(T - age) })).toEqual(gnuFind('-type', 'f', '!', '-newermt', `@${T - age - 1}`));
    }
  });

  it('-size +Nc / -Nc (bytes, strict) as minSize N+1 / maxSize N-1', async () => {
    for (const n of [0, 999, 1000, 1001, 10_000]) {
      expect(await ours({ minSize: n + 1 }), `+${n}c`).toEqual(gnuFind('-type', 'f', '-size', `+${n}c`));
      if (n > 0) expect(await ours({ maxSize: n - 1 }), `-${n}c`).toEqual(gnuFind('-type', 'f', '-size', `-${n}c`));
    }
  });

  it("sort 'mtime' and stats: find's own times and sizes (%T@, %s), newest first, ties by path", async () => {
    const run = spawnSync('find', ['.', '-mindepth', '1', '-type', 'f', '-printf', '%T@ %s %P\\0'], { cwd: root, encoding: 'utf8' });
    const rows = run.stdout.split('\0').filter(Boolean).map((line) => {
      const [time, size, ...rest] = line.split(' ');
      return { path: rest.join(' '), mtimeMs: Math.round(Number(time) * 1000), size: Number(size) };
    });
    rows.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.path < b.path ? -1 : 1));
    const result = await findFiles({ root, pattern: '*', sort: 'mtime', stats: true });
    expect(result.matches).toEqual(rows.map((r) => r.path));
    expect(result.entries!.map((e) => ({ path: e.path, mtimeMs: Math.round(e.mtimeMs), size: e.size }))).toEqual(rows);
    const newest3 = await findFiles({ root, pattern: '*', sort: 'mtime', maxResults: 3 });
    expect(newest3).toMatchObject({ matches: rows.slice(0, 3).map((r) => r.path), complete: false, incompleteReasons: ['result-limit'] });
  });
});

// In CI a missing fd fails the run (.ci/run installs it), as a missing rg does: an oracle skipped there proves nothing.
if (fd === undefined && process.env.CI && isPosix) {
  it('fd is installed (CI runs the fd oracle, it never skips it)', () => {
    throw new Error('CI is set and neither fdfind nor fd was found: .ci/run installs fd-find with apt-get');
  });
}

describeIf([fd !== undefined, 'fd is not installed'])('against fd', () => {
  const utc = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');

  it('-t d, -t l, -t f -t d -t l, and a glob for directories', async () => {
    expect(await ours({ type: 'directory' })).toEqual(fdList('-t', 'd'));
    expect(await ours({ type: 'symlink' })).toEqual(fdList('-t', 'l'));
    expect(await ours({ type: ['file', 'directory', 'symlink'] })).toEqual(fdList('-t', 'f', '-t', 'd', '-t', 'l'));
    expect(await ours({ type: 'directory', pattern: 'agent' })).toEqual(fdList('-t', 'd', '--glob', 'agent'));
  });

  it('--changed-within and --changed-before with a date, on files, directories and links', async () => {
    for (const age of [2 * HOUR + 1, 6 * HOUR, 100 * HOUR + 1]) {
      const date = utc(T - age);
      for (const kind of ['f', 'd', 'l'] as const) {
        const type = ({ f: 'file', d: 'directory', l: 'symlink' } as const)[kind];
        expect(await ours({ type, modifiedAfter: ms(T - age) }), `${kind} within ${date}`).toEqual(fdList('-t', kind, '--changed-within', date));
        expect(await ours({ type, modifiedBefore: ms(T - age) }), `${kind} before ${date}`).toEqual(fdList('-t', kind, '--changed-before', date));
      }
    }
  });

  it('-S +N / -N (inclusive; fd k is 1000, ki 1024), files only', async () => {
    for (const [arg, bounds] of [['+1000b', { minSize: 1000 }], ['-1000b', { maxSize: 1000 }], ['+1k', { minSize: 1000 }], ['-1ki', { maxSize: 1024 }], ['+10k', { minSize: 10_000 }]] as const) {
      expect(await ours(bounds), arg).toEqual(fdList('-t', 'f', '-S', arg));
    }
  });
});
