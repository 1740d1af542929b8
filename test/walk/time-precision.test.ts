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
