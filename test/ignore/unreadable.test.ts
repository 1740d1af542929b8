/**
 * An ignore file that exists and cannot be read is a gap, not "no rules" (an adversarial run: as
 * nobody, `sub/.ignore` holding `!keep.log` at mode 000 under a root `.ignore` of `*.log`: the
 * answer was empty and complete, `--strict` exited 0, and `sub/keep.log` exists). One `!` rule in
 * it could re-include what a parent's file ignores, so the walk names it in `skipped` with its
 * code and the answer is incomplete; a file gone between the listing and the read (`ENOENT`) is
 * absent, as before. Every form of the walk, and content search's pure-TS path, the same.
 */
import { describe, expect, it } from 'vitest';
import { findFiles, findFilesStream, findFilesSync, searchContent, type FindOptions } from '../../src/index.js';
import type { FsLike } from '../../src/fs.js';
import { FakeClock, asFs, buildVolume, type Tree } from '../helpers/memfs.js';

const errno = (code: string, path: string) => Object.assign(new Error(`${code}: open '${path}'`), { code });

/** A memfs volume whose reads of `failing` paths fail with `code` (a listing and a stat still show them). */
function withUnreadable(tree: Tree, failing: string[], code: string): FsLike {
  const fs = asFs(buildVolume(tree)) as unknown as Record<string | symbol, unknown>;
  const readFile = fs.readFile as (path: string, callback: (error: NodeJS.ErrnoException | null, data: Uint8Array) => void) => void;
  const readFileSync = fs.readFileSync as (path: string) => Uint8Array;
  const overrides: Record<string, unknown> = {
    readFile: (path: string, callback: (error: NodeJS.ErrnoException | null, data: Uint8Array) => void) =>
      failing.includes(String(path)) ? setImmediate(() => callback(errno(code, String(path)), new Uint8Array())) : readFile.call(fs, path, callback),
    readFileSync: (path: string) => {
      if (failing.includes(String(path))) throw errno(code, String(path));
      return readFileSync.call(fs, path);
    },
  };
  return new Proxy(fs, {
    get: (target, name) => {
      if (typeof name === 'string' && name in overrides) return overrides[name];
      const value = target[name];
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as unknown as FsLike;
}

/** Where an ignore file sits (root-relative) and the tree around it: a parent rule ignores `*.log`, the file re-includes `keep.log`. */
const PLACES: { name: string; tree: Tree; file: string; kept: string }[] = [
  { name: 'sub/.ignore', tree: { '.ignore': '*.log\n', sub: { '.ignore': '!keep.log\n', 'keep.log': '', 'other.log': '', 'a.txt': '' } }, file: 'sub/.ignore', kept: 'sub/keep.log' },
  { name: 'sub/.rgignore', tree: { '.ignore': '*.log\n', sub: { '.rgignore': '!keep.log\n', 'keep.log': '', 'a.txt': '' } }, file: 'sub/.rgignore', kept: 'sub/keep.log' },
  { name: 'sub/.gitignore in a repository', tree: { '.git': {}, '.gitignore': '*.log\n', sub: { '.gitignore': '!keep.log\n', 'keep.log': '', 'a.txt': '' } }, file: 'sub/.gitignore', kept: 'sub/keep.log' },
  { name: 'the root .ignore', tree: { '.ignore': '!keep.log\n', '.rgignore': '', 'keep.log': '', 'a.txt': '' }, file: '.ignore', kept: 'keep.log' },
  { name: '.git/info/exclude', tree: { '.git': { info: { exclude: '!keep.log\n' } }, '.ignore': 'x\n', 'keep.log': '', 'a.txt': '' }, file: '.git/info/exclude', kept: 'keep.log' },
];

const CODES: [string, string][] = [['EACCES', 'permission-denied'], ['EPERM', 'permission-denied'], ['EIO', 'io-error']];

const options = (fs: FsLike): FindOptions => ({ root: '/root', platform: 'posix', pattern: '**/*', gitignore: true, fs, clock: new FakeClock() });

describe('an ignore file that cannot be read', () => {
  describe.each(PLACES)('$name', ({ tree, file }) => {
    it.each(CODES)('%s: named in skipped, the answer incomplete (%s), in every form', async (code, reason) => {
      const fs = withUnreadable(tree, [`/root/${file}`], code);
      const expected = { path: file, code };
      const promised = await findFiles(options(fs));
      expect(promised.skipped).toContainEqual(expected);
      expect(promised).toMatchObject({ complete: false, incompleteReasons: expect.arrayContaining([reason]) });
      const sync = findFilesSync(options(fs));
      expect({ ...sync, stats: undefined }).toEqual({ ...promised, stats: undefined });
      const stream = findFilesStream(options(fs));
      for await (const _ of stream);
      expect((await stream.summary).skipped).toContainEqual(expected);
      const content = await searchContent({ root: '/root', platform: 'posix', query: 'x', gitignore: true, fs, backend: 'walker', clock: new FakeClock() });
      expect(content.skipped).toContainEqual(expected);
      expect(content.complete).toBe(false);
    });

    it('gone between the listing and the read (ENOENT): absent, as before; the answer stays complete', async () => {
      const result = await findFiles(options(withUnreadable(tree, [`/root/${file}`], 'ENOENT')));
      expect(result).toMatchObject({ complete: true, skipped: [] });
    });

    it('readable: the file it re-includes is found, complete (the tree is right)', async () => {
      const result = await findFiles(options(asFs(buildVolume(tree))));
      expect(result.complete).toBe(true);
    });
  });

  // Git's files define nothing outside a repository (contract.md, "Ignore files"), so such a file
  // is not read at all: its failure is no gap. Kills reading it (and naming its failure) anyway.
  it('a .gitignore outside any repository is not read: unreadable, it is no gap, and the answer is complete in every form', async () => {
    const tree: Tree = { '.ignore': '*.log\n', sub: { '.gitignore': '!keep.log\n', 'keep.log': '', 'a.txt': '' } };
    const fs = withUnreadable(tree, ['/root/sub/.gitignore'], 'EACCES');
    const expected = { matches: ['.ignore', 'sub/.gitignore', 'sub/a.txt'], skipped: [], complete: true };
    expect(await findFiles(options(fs))).toMatchObject(expected);
    expect(findFilesSync(options(fs))).toMatchObject(expected);
    const stream = findFilesStream(options(fs));
    for await (const _ of stream);
    expect(await stream.summary).toMatchObject({ skipped: [], complete: true });
    const content = await searchContent({ root: '/root', platform: 'posix', query: 'x', gitignore: true, fs, backend: 'walker', clock: new FakeClock() });
    expect(content).toMatchObject({ skipped: [], complete: true });
  });

  it('the re-included file is found once its ignore file can be read, and is missing (but not proven absent) while it cannot', async () => {
    const { tree, file, kept } = PLACES[0]!;
    expect((await findFiles(options(asFs(buildVolume(tree))))).matches).toContain(kept);
    const blind = await findFiles(options(withUnreadable(tree, [`/root/${file}`], 'EACCES')));
    expect(blind.matches).not.toContain(kept);
    expect(blind.complete).toBe(false);
  });
});
