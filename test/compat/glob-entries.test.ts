/**
 * find-file/glob's `withFileTypes` and `stat` against the real node-glob (a devDependency) on the
 * same real-disk tree: for each returned entry the members hosts use (docs/compat.md), compared
 * entry by entry, async and sync. Order: node-glob's is its walk order, ours is sorted by path, so
 * both are compared sorted by `relative()`. A link is listed, never entered, in both (a leading
 * `**` follows no link in node-glob either).
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import * as peer from 'glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PathEntry, glob, globSync, type GlobOptionsWithFileTypesFalse as GlobOptions, type GlobOptionsWithFileTypesTrue } from '../../src/compat/glob.js';
import { lstatEntries, lstatEntriesSync, withLstatFailures } from '../../src/compat/path-entry.js';
import { findFilesSync } from '../../src/find.js';
import { PROJECT, buildTree, removeTree } from './tree.js';

let root: string;
beforeAll(() => {
  root = buildTree(PROJECT);
  symlinkSync('src', join(root, 'src-link'));
  symlinkSync('package.json', join(root, 'file-link.json'));
});
afterAll(() => removeTree(root));

/** The node-glob `Path` members a host reads (gemini-cli: fullpath, mtimeMs; Qwen Code: isDirectory too). */
interface EntryLike {
  name: string;
  fullpath(): string;
  fullpathPosix(): string;
  relative(): string;
  relativePosix(): string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  parentPath: string;
  mtimeMs?: number;
  mtime?: Date;
  size?: number;
  mode?: number;
  ino?: number;
}

type Described = Record<string, string | number | boolean | undefined> & { relative: string; mtimeMs?: number; size?: number };

function describeEntry(e: EntryLike, stat: boolean): Described {
  const base = {
    name: e.name, fullpath: e.fullpath(), fullpathPosix: e.fullpathPosix(), relative: e.relative(), relativePosix: e.relativePosix(),
    isFile: e.isFile(), isDirectory: e.isDirectory(), isSymbolicLink: e.isSymbolicLink(), parentPath: e.parentPath,
  };
  return stat ? { ...base, mtimeMs: e.mtimeMs, mtime: e.mtime?.getTime(), size: e.size, mode: e.mode, ino: e.ino } : base;
}

function described(entries: readonly EntryLike[], stat: boolean): Described[] {
  return entries.map((e) => describeEntry(e, stat)).sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

/** The same call through node-glob, find-file's glob and globSync, each entry described. */
async function bothEntries(patterns: string | string[], options: GlobOptionsWithFileTypesTrue) {
  const full = { cwd: root, ...options };
  const stat = options.stat === true;
  const theirs = described(await peer.glob(patterns, full as peer.GlobOptionsWithFileTypesTrue), stat);
  const ours = await glob(patterns, full);
  expect(ours.every((e) => e instanceof PathEntry)).toBe(true);
  expect(described(globSync(patterns, full), stat), 'sync form').toEqual(described(ours, stat));
  return { ours: described(ours, stat), theirs, result: ours.result };
}

const CALLS: [string | string[], Omit<GlobOptions, 'withFileTypes'>][] = [
  ['**', { dot: true }],
  ['**/*.js', { ignore: ['**/node_modules/**'] }],
  [['src/**', '*.json'], { nodir: true }],
  ['**/', {}],
  ['*', { dot: true, maxDepth: 1 }],
  ['**/*.JS', { nocase: true }],
];

describe('find-file/glob withFileTypes: the entries answer as node-glob Path objects', () => {
  for (const [patterns, options] of CALLS) {
    it(`${JSON.stringify(patterns)} ${JSON.stringify(options)}: name, fullpath, relative, kind and parentPath equal node-glob's`, async () => {
      const { ours, theirs, result } = await bothEntries(patterns, { ...options, withFileTypes: true });
      expect(theirs.length).toBeGreaterThan(0);
      expect(ours).toEqual(theirs);
      expect(result.complete).toBe(true);
    });
  }

  it('the kinds come from the walk: a directory, a file, and links listed as links, with no lstat (no stat fields)', async () => {
    const entries = await glob('*', { cwd: root, withFileTypes: true, dot: true });
    const kind = (name: string) => {
      const e = entries.find((x) => x.name === name)!;
      return [e.isFile(), e.isDirectory(), e.isSymbolicLink(), e.isUnknown()];
    };
    expect(kind('src')).toEqual([false, true, false, false]);
    expect(kind('package.json')).toEqual([true, false, false, false]);
    expect(kind('src-link')).toEqual([false, false, true, false]);
    expect(kind('file-link.json')).toEqual([false, false, true, false]);
    expect(entries.map((e) => e.mtimeMs)).toEqual(entries.map(() => undefined));
  });

  it('the cwd itself (**) is an entry as in node-glob: its own name, relative "", a directory', async () => {
    const { ours } = await bothEntries('**', { withFileTypes: true, stat: true });
    expect(ours[0]).toMatchObject({ relative: '', fullpath: root, isDirectory: true });
  });

  it('carries the verdict as a non-enumerable result, and refuses absolute with withFileTypes as node-glob does', async () => {
    const entries = await glob('*.json', { cwd: root, withFileTypes: true });
    expect(entries.result.complete).toBe(true);
    expect(entries.map((e) => e.name)).toEqual(['file-link.json', 'package.json']);
    expect(Object.keys(entries)).toEqual(['0', '1']);
    expect(() => peer.globSync('*', { cwd: root, withFileTypes: true, absolute: false })).toThrow('cannot set absolute and withFileTypes');
    for (const absolute of [true, false]) {
      expect(() => globSync('*', { cwd: root, withFileTypes: true, absolute })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', option: 'absolute' }));
    }
  });
});

describe('find-file/glob stat: each returned entry lstat-ed, as node-glob does', () => {
  for (const [patterns, options] of CALLS) {
    it(`${JSON.stringify(patterns)} ${JSON.stringify(options)} with withFileTypes: mtimeMs, mtime, size, mode, ino equal node-glob's`, async () => {
      const { ours, theirs } = await bothEntries(patterns, { ...options, withFileTypes: true, stat: true });
      expect(ours.every((e) => typeof e.mtimeMs === 'number' && typeof e.size === 'number')).toBe(true);
      expect(ours).toEqual(theirs);
    });
  }

  it('a link carries its own lstat (never its target\'s), as node-glob', async () => {
    const { ours } = await bothEntries('file-link.json', { withFileTypes: true, stat: true });
    expect(ours).toHaveLength(1);
    expect(ours[0]).toMatchObject({ isSymbolicLink: true, size: 'package.json'.length });
  });

  it('stat without withFileTypes returns strings, as node-glob does (relative and absolute)', async () => {
    for (const options of [{ stat: true }, { stat: true, absolute: true }, { stat: true, nodir: true, dot: true }] as GlobOptions[]) {
      const full = { cwd: root, ...options };
      const theirs = (await peer.glob('**', full as peer.GlobOptionsWithFileTypesFalse)).sort();
      const ours = await glob('**', full);
      expect(ours.every((p) => typeof p === 'string')).toBe(true);
      expect([...ours].sort(), JSON.stringify(options)).toEqual(theirs);
      expect([...globSync('**', full)].sort(), JSON.stringify(options)).toEqual(theirs);
    }
  });
});

describe('find-file/glob stat: a returned entry whose lstat fails', () => {
  const gone = () => new PathEntry(join(root, 'gone.txt'), 'gone.txt', 'file');
  // A name longer than any filesystem allows: lstat fails with ENAMETOOLONG, a real read error.
  const tooLong = () => new PathEntry(join(root, 'x'.repeat(300)), 'x'.repeat(300), 'file');
  const here = () => new PathEntry(join(root, 'package.json'), 'package.json', 'file');

  it('is dropped, as node-glob drops it, and named in skipped; gone since the walk is no gap, an unreadable one is', async () => {
    for (const lstated of [lstatEntriesSync([here(), gone(), tooLong()], true), await lstatEntries([here(), gone(), tooLong()], true)]) {
      expect(lstated.kept.map((e) => e.relative())).toEqual(['package.json']);
      expect(lstated.kept[0]!.mtimeMs).toEqual(expect.any(Number));
      expect(lstated.failed).toEqual([{ path: 'gone.txt', code: 'ENOENT' }, { path: 'x'.repeat(300), code: 'ENAMETOOLONG' }]);
    }
    const walk = findFilesSync({ root, pattern: './*.json' });
    expect(walk.complete).toBe(true);
    const vanished = withLstatFailures(walk, [{ path: 'gone.txt', code: 'ENOENT' }]);
    expect(vanished).toMatchObject({ complete: true, incompleteReasons: [], skippedCount: 1, skipped: [{ path: 'gone.txt', code: 'ENOENT' }] });
    const unreadable = withLstatFailures(walk, [{ path: 'locked/a', code: 'EACCES' }, { path: 'x', code: 'ENAMETOOLONG' }]);
    expect(unreadable).toMatchObject({ complete: false, incompleteReason: 'permission-denied', incompleteReasons: ['permission-denied', 'io-error'], skippedCount: 2 });
    expect(withLstatFailures(walk, [])).toBe(walk);
  });

  it('without stat, only an entry whose listing gave no kind is lstat-ed (as node-glob): the others keep no stat fields', () => {
    const unknown = new PathEntry(join(root, 'package.json'), 'package.json', undefined);
    const { kept } = lstatEntriesSync([unknown, gone()], false);
    expect(kept.map((e) => [e.relative(), e.isFile(), typeof e.mtimeMs])).toEqual([['package.json', true, 'number'], ['gone.txt', true, 'undefined']]);
  });

  it('through the whole call: a complete walk whose entries all lstat cleanly stays complete, nothing skipped', async () => {
    // An entry removed between the walk and its lstat cannot be staged through the adapter's API:
    // the drop and the verdict are pinned on lstatEntries and withLstatFailures above.
    const tree = buildTree(['a/x.txt']);
    try {
      mkdirSync(join(tree, 'empty'));
      const entries = await glob('**', { cwd: tree, withFileTypes: true, stat: true });
      expect(entries.result.complete).toBe(true);
      expect(entries.result.skipped).toEqual([]);
      expect(entries.map((e) => e.relativePosix())).toEqual(['', 'a', 'a/x.txt', 'empty']);
    } finally {
      removeTree(tree);
    }
  });
});
