/**
 * Time filters compare at the disk's precision (issue 27): a file changed 100 ns after a bound is
 * after it, as `find -newermt` and fd say, on the real disk, sync and async, and through the CLI.
 * `fs.utimesSync` cannot set nanoseconds: `touch -d` does (spawned, argv, UTC).
 */
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * Newest first at the disk's precision (an adversary's find): files a few nanoseconds apart share
 * one float mtimeMs, and were ordered by name. A generated family: times drawn close together
 * (some equal, most within a double's ~240 ns step), against `find -printf '%T@'` (exact to the
 * nanosecond), with and without a time filter, every limit, sync, async and the CLI.
 */
describeIf(linux('the oracle is GNU find -printf %T@ and touch with nanoseconds'))('newest first, times nanoseconds apart', () => {
  let dir: string;
  const COUNT = 12;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ff-newest-ns-'));
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < COUNT; i++) {
      // Offsets 0-299 ns past one instant: ties, 1 ns steps and steps across a double's rounding.
      const ns = String(next() % 300).padStart(9, '0');
      const name = `f${String.fromCharCode(97 + ((i * 5) % COUNT))}.txt`;
      writeFileSync(join(dir, name), name);
      const run = spawnSync('touch', ['-d', `${BOUND}.${ns}`, '--', join(dir, name)], { env: UTC });
      if (run.status !== 0) throw new Error(`touch failed: ${run.stderr}`);
    }
    // A time whose nanoseconds as one double, divided, round away from node's own mtimeMs (an adversary's find).
    writeFileSync(join(dir, 'rounding.txt'), 'x');
    const run = spawnSync('touch', ['-d', '@1600997205.428308015', '--', join(dir, 'rounding.txt')]);
    if (run.status !== 0) throw new Error(`touch failed: ${run.stderr}`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** find's newest first: exact times descending, equal times by name. */
  function findNewest(): string[] {
    const run = spawnSync('find', [dir, '-type', 'f', '-printf', '%T@ %P\n'], { encoding: 'utf8' });
    const rows = run.stdout.split('\n').filter(Boolean).map((line) => {
      const [time, name] = line.split(' ') as [string, string];
      const [sec, frac] = time.split('.') as [string, string];
      return { ns: BigInt(sec) * 1_000_000_000n + BigInt(frac.padEnd(9, '0').slice(0, 9)), name };
    });
    rows.sort((a, b) => (b.ns > a.ns ? 1 : b.ns < a.ns ? -1 : a.name < b.name ? -1 : 1));
    return rows.map((row) => row.name);
  }

  it('the tree has times closer than a double holds apart (else the family proves nothing)', () => {
    const floats = new Set(findNewest().map((name) => statSync(join(dir, name)).mtimeMs));
    expect(floats.size).toBeLessThan(COUNT);
  });

  it('with stats, each mtimeMs is node\'s own lstat\'s, to the last bit, whatever asked for exact times', async () => {
    // Read exactly (bigint), then made a double: seconds and nanoseconds apart, as node does, not ns / 1e6 (twice rounded).
    for (const extra of [{}, { sort: 'mtime' as const }, { modifiedAfter: new Date(boundMs - 1) }]) {
      const query = { root: dir, pattern: '*.txt', stats: true, ...extra };
      for (const result of [await findFiles(query), findFilesSync(query)]) {
        const entries = result.entries!.map((entry) => [entry.path, entry.mtimeMs]);
        expect(entries, JSON.stringify(extra)).toEqual(result.entries!.map((entry) => [entry.path, lstatSync(join(dir, entry.path)).mtimeMs]));
      }
    }
  });

  it('the CLI --sort mtime prints them in find\'s order', () => {
    const run = runFindFile(['*.txt', '--sort', 'mtime'], { cwd: dir });
    expect(run.stdout.split('\n').filter(Boolean)).toEqual(findNewest());
  });

  for (const filter of [{}, { modifiedAfter: new Date(boundMs - 1) }]) {
    for (let limit = 1; limit <= COUNT; limit++) {
      it(`maxResults ${limit}${'modifiedAfter' in filter ? ', with a time filter' : ''}: the ${limit} newest, in find's order`, async () => {
        const expected = findNewest().slice(0, limit);
        const query = { root: dir, pattern: '*.txt', sort: 'mtime' as const, maxResults: limit, ...filter };
        expect((await findFiles(query)).matches).toEqual(expected);
        expect(findFilesSync(query).matches).toEqual(expected);
      });
    }
  }
});
