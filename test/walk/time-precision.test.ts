/**
 * Time filters compare at the disk's precision (issue 27): a file changed 100 ns after a bound is
 * after it, as `find -newermt` and fd say, on the real disk, sync and async, and through the CLI.
 * `fs.utimesSync` cannot set nanoseconds: `touch -d` does (spawned, argv, UTC).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles, findFilesSync } from '../../src/index.js';
import { runFindFile } from '../helpers/cli.js';
import { buildVolume, asFs } from '../helpers/memfs.js';
import { describeIf, linux } from '../helpers/skip-why.js';

const isLinux = process.platform === 'linux';
const UTC = { ...process.env, TZ: 'UTC' };
const BOUND = '2026-01-01 12:00:00';
const boundMs = Date.UTC(2026, 0, 1, 12);
let root: string;

function touch(name: string, when: string): void {
  writeFileSync(join(root, name), name);
  const run = spawnSync('touch', ['-d', when, '--', join(root, name)], { env: UTC });
  if (run.status !== 0) throw new Error(`touch failed: ${run.stderr}`);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ff-time-precision-'));
  if (!isLinux) return;
  touch('after.txt', `${BOUND}.000000100`);
  touch('at.txt', `${BOUND}.000000000`);
  touch('before.txt', '2026-01-01 11:59:59.999999900');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The oracle: what `find -newermt` says is after the bound. */
function findNewer(): string[] {
  const run = spawnSync('find', [root, '-type', 'f', '-newermt', `${BOUND} UTC`, '-printf', '%P\n'], { encoding: 'utf8', env: UTC });
  return run.stdout.split('\n').filter(Boolean).sort();
}

describeIf(linux('the oracle is GNU find -newermt and touch with nanoseconds'))('a bound and a file 100 ns apart', () => {
  it('find -newermt keeps the file 100 ns after (the oracle)', () => {
    expect(findNewer()).toEqual(['after.txt']);
  });

  it('modifiedAfter keeps it, sync and async; modifiedBefore keeps the one 100 ns before', async () => {
    const after = { root, pattern: '*.txt', modifiedAfter: new Date(boundMs) };
    expect((await findFiles(after)).matches).toEqual(findNewer());
    expect(findFilesSync(after).matches).toEqual(findNewer());
    const before = { root, pattern: '*.txt', modifiedBefore: new Date(boundMs) };
    expect((await findFiles(before)).matches).toEqual(['before.txt']);
    expect(findFilesSync(before).matches).toEqual(['before.txt']);
  });

  it('with stats, each entry carries the time read exactly: the instant of the bound plus 100 ns, in milliseconds, with its size', async () => {
    const query = { root, pattern: '*.txt', modifiedAfter: new Date(boundMs), stats: true };
    for (const result of [await findFiles(query), findFilesSync(query)]) {
      // The public fields only (no bigint): the result must survive JSON.stringify (--json --stats).
      expect(result.entries).toEqual([{ path: 'after.txt', type: 'file', size: 'after.txt'.length, mtimeMs: expect.any(Number) }]);
      expect(JSON.parse(JSON.stringify(result)).entries).toHaveLength(1);
      // A double holds ms since 1970 to about 0.25 µs: the 100 ns past the bound round, the millisecond does not.
      expect(result.entries![0]!.mtimeMs).toBeCloseTo(boundMs + 0.0001, 3);
    }
  });

  it('the CLI prints --json and --ndjson with --stats under a time filter (a bigint time once failed it with status 1)', () => {
    for (const format of ['--json', '--ndjson']) {
      const run = runFindFile(['*.txt', '--changed-within', BOUND, format, '--stats'], { cwd: root, env: { TZ: 'UTC' } });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain('"mtimeMs":');
      expect(run.stdout).toContain('after.txt');
    }
  });

  it('the CLI --changed-within and --changed-before say what fd says', () => {
    const within = runFindFile(['*.txt', '--changed-within', BOUND], { cwd: root, env: { TZ: 'UTC' } });
    expect(within.stdout.split('\n').filter(Boolean)).toEqual(['after.txt']);
    const fd = spawnSync('fdfind', ['--changed-within', BOUND, '-t', 'f', '.', '.'], { cwd: root, encoding: 'utf8', env: UTC });
    if (fd.status === 0) expect(fd.stdout.split('\n').filter(Boolean).map((l) => l.replace(/^\.\//, ''))).toEqual(['after.txt']);
    const before = runFindFile(['*.txt', '--changed-before', BOUND], { cwd: root, env: { TZ: 'UTC' } });
    expect(before.stdout.split('\n').filter(Boolean)).toEqual(['before.txt']);
  });
});

describe('an injected fs without bigint times', () => {
  it('still filters, at the float precision it gives', async () => {
    const vol = buildVolume({ 'a.txt': 'a' }, '/w');
    vol.utimesSync('/w/a.txt', 10, 10); // seconds
    const fs = asFs(vol);
    expect((await findFiles({ root: '/w', pattern: '*', fs, modifiedAfter: 9_000 })).matches).toEqual(['a.txt']);
    expect((await findFiles({ root: '/w', pattern: '*', fs, modifiedAfter: 10_000 })).matches).toEqual([]);
  });
});
