/**
 * Shared harness of the entry-type, metadata-filter and order tests (test/walk/types.test.ts,
 * test/walk/filters.test.ts): a memfs tree whose entries get chosen modification times, searched
 * through every form that supports the options (the stream only yields paths in discovery order,
 * so `sort` and `stats` run through the promise and sync forms).
 */
import { expect } from 'vitest';
import { findFiles, findFilesStream, findFilesSync, type FindOptions, type FindResult } from '../../src/index.js';
import { FakeClock, asFs, buildVolume, faultyFs, type FaultOptions, type Tree } from './memfs.js';

export const ROOT = '/root';

/** A fixed "now" for the trees: 2026-01-31T00:00:00Z. Times in the tests are offsets from it. */
export const NOW = Date.UTC(2026, 0, 31);
export const HOUR = 3600_000;
export const DAY = 24 * HOUR;

/** A memfs volume with `tree`, each path in `ages` modified that many ms before NOW (links: their own time). */
export function datedVolume(tree: Tree, ages: Record<string, number> = {}) {
  const vol = buildVolume(tree, ROOT);
  for (const [rel, age] of Object.entries(ages)) {
    const when = new Date(NOW - age);
    const path = `${ROOT}/${rel}`;
    if (vol.lstatSync(path).isSymbolicLink()) vol.lutimesSync(path, when, when);
    else vol.utimesSync(path, when, when);
  }
  return vol;
}

/** Options over a dated volume, through the fault-injecting fs (its `calls` record every lstat), with a fake clock. */
export function overDated(vol: ReturnType<typeof datedVolume>, options: Partial<FindOptions> = {}, faults: FaultOptions = {}, msPerRead = 0) {
  return () => {
    const clock = new FakeClock();
    const fs = faultyFs(asFs(vol), { ...faults, beforeReaddir: () => clock.advance(msPerRead) });
    return { root: ROOT, platform: 'posix', pattern: '*', fs, clock, ...options } as FindOptions;
  };
}

/** The promise, sync and stream forms agree to the last field; returns the promise form's result. */
export async function findEvery(make: () => FindOptions): Promise<FindResult> {
  const viaPromise = await findFiles(make());
  expect(findFilesSync(make())).toEqual(viaPromise);
  const stream = findFilesStream(make());
  const streamed: string[] = [];
  for await (const path of stream) streamed.push(path);
  expect({ matches: streamed.sort(), ...(await stream.summary) }).toEqual(viaPromise);
  return viaPromise;
}

/** The promise and sync forms agree (for `sort` and `stats`, which the stream refuses). */
export async function findBoth(make: () => FindOptions): Promise<FindResult> {
  const viaPromise = await findFiles(make());
  expect(findFilesSync(make())).toEqual(viaPromise);
  return viaPromise;
}

/** The lstat calls a search made, as root-relative paths. */
export async function lstatsOf(make: () => FindOptions): Promise<string[]> {
  const options = make();
  await findFiles(options);
  const calls = (options.fs as ReturnType<typeof faultyFs>).calls;
  return calls.filter((c) => c.call === 'lstat').map((c) => c.path.slice(ROOT.length + 1)).sort();
}
