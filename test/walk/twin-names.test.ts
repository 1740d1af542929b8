/**
 * Two names of one directory that decode to one string (`x\xff` and a real `x\uFFFD`, issue 12), on
 * memfs: the fs lists every U+FFFD name twice, as Node lists such a pair. The string opens only one
 * of them, so the later one is a gap (EILSEQ) when the search could have needed it, and nothing at
 * all when an exclusion, an ignore rule or the pattern rules it out whatever it is (file or
 * directory). The real-disk pair is test/contract/twin-names.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { DirentLike, FindOptions, FsLike } from '../../src/index.js';
import { FakeClock, asFs, buildVolume, faultyFs, type Tree } from '../helpers/memfs.js';
import { findAll } from '../helpers/every-form.js';

const ROOT = '/root';

/** memfs, with each name holding U+FFFD listed twice (the undecodable twin after the real one). */
function twinFs(tree: Tree): FsLike {
  const base = asFs(buildVolume(tree));
  const twice = (entries: DirentLike[]) => entries.flatMap((e) => (e.name.includes('\uFFFD') ? [e, e] : [e]));
  return {
    ...base,
    readdir: (path, options, callback) => base.readdir(path, options, (error, entries) => callback(error, error ? entries : twice(entries))),
    readdirSync: (path, options) => twice(base.readdirSync(path, options)),
    lstat: (path, callback) => base.lstat(path, callback),
    lstatSync: (path) => base.lstatSync(path),
    readFile: (path, callback) => (base as Required<FsLike>).readFile(path, callback),
    readFileSync: (path) => (base as Required<FsLike>).readFileSync(path),
  };
}

function over(tree: Tree, options: Partial<FindOptions> = {}) {
  return () => ({ root: ROOT, platform: 'posix', pattern: '*', fs: twinFs(tree), clock: new FakeClock(), ...options }) as FindOptions;
}

const tree: Tree = { 'x\uFFFD': '', 'plain.txt': '', src: { 'a.ts': '' } };

describe('names that decode alike (memfs)', () => {
  it('the later twin is a gap (EILSEQ), the first is returned once', async () => {
    const result = await findAll(over(tree));
    expect(result).toMatchObject({ matches: ['plain.txt', 'src/a.ts', 'x\uFFFD'], skipped: [{ path: 'x\uFFFD', code: 'EILSEQ' }], complete: false, incompleteReasons: ['io-error'] });
  });

  it('a twin excluded both as a file and as a directory is counted excluded, not a gap', async () => {
    const result = await findAll(over(tree, { exclude: ['x\uFFFD'] }));
    expect(result).toMatchObject({ matches: ['plain.txt', 'src/a.ts'], skipped: [], complete: true, excludedCount: 2 });
  });

  it('a twin directory the host prunes (pruneDirectory) is nothing where its own name cannot match; a gap where it can', async () => {
    const dirs: Tree = { 'x\uFFFD': { 'a.ts': '' }, src: { 'b.ts': '' } };
    const asked: string[] = [];
    const pruned = await findAll(over(dirs, { pattern: '**/*.ts', pruneDirectory: (dir: string) => (asked.push(dir), dir.startsWith('x')) }));
    expect(pruned).toMatchObject({ matches: ['src/b.ts'], skipped: [], complete: true, excludedCount: 1 });
    // Asked once for the string both twins spell (each form asks it once: findAll runs three), and never for an excluded twin.
    expect(asked.filter((dir) => dir === 'x\uFFFD/').length).toBe(asked.filter((dir) => dir === 'src/').length);
    const excludedAsked: string[] = [];
    await findAll(over(dirs, { pattern: '**/*.ts', exclude: ['x*'], pruneDirectory: (dir: string) => (excludedAsked.push(dir), false) }));
    expect(excludedAsked.filter((dir) => dir.startsWith('x'))).toEqual([]);
    // `**` could name the twin itself: unreadable, still a gap.
    const named = await findAll(over(dirs, { pattern: '**', type: 'any', pruneDirectory: (dir: string) => dir.startsWith('x') }));
    expect(named).toMatchObject({ skipped: [{ path: 'x\uFFFD', code: 'EILSEQ' }], complete: false });
  });

  it('a twin excluded only as a directory may be a file: still a gap', async () => {
    const result = await findAll(over(tree, { exclude: ['x\uFFFD/'] }));
    expect(result).toMatchObject({ matches: ['plain.txt', 'src/a.ts', 'x\uFFFD'], skipped: [{ path: 'x\uFFFD', code: 'EILSEQ' }], complete: false, excludedCount: 0 });
  });

  it('a twin ignored both as a file and as a directory is counted ignored; ignored only as a directory, a gap', async () => {
    const repo = (rule: string): Tree => ({ '.git': {}, '.gitignore': `${rule}\n`, ...tree });
    const both = await findAll(over(repo('x\uFFFD'), { gitignore: true, hidden: false }));
    expect(both).toMatchObject({ matches: ['plain.txt', 'src/a.ts'], skipped: [], complete: true, ignoredCount: 2 });
    const dirOnly = await findAll(over(repo('x\uFFFD/'), { gitignore: true, hidden: false }));
    expect(dirOnly).toMatchObject({ matches: ['plain.txt', 'src/a.ts', 'x\uFFFD'], skipped: [{ path: 'x\uFFFD', code: 'EILSEQ' }], complete: false, ignoredCount: 0 });
  });

  it('a twin ignored as a file but whitelisted as a directory (x then !x/) may be that directory: a gap', async () => {
    const repo: Tree = { '.git': {}, '.gitignore': 'x\uFFFD\n!x\uFFFD/\n', ...tree };
    const result = await findAll(over(repo, { gitignore: true, hidden: false }));
    expect(result).toMatchObject({ skipped: [{ path: 'x\uFFFD', code: 'EILSEQ' }], complete: false, incompleteReasons: ['io-error'] });
  });

  it('a twin the pattern could not need, as a file or as a directory, is no gap', async () => {
    const result = await findAll(over(tree, { pattern: 'src/*.ts' }));
    expect(result).toMatchObject({ matches: ['src/a.ts'], skipped: [], complete: true, incompleteReasons: [] });
  });

  it('a twin the pattern could enter as a directory is a gap, though it does not match as a file', async () => {
    const nested: Tree = { 'x\uFFFD': '', 'plain.txt': '' };
    const result = await findAll(over(nested, { pattern: 'x\uFFFD/*.txt' }));
    expect(result).toMatchObject({ matches: [], skipped: [{ path: 'x\uFFFD', code: 'EILSEQ' }], complete: false });
  });

  it('a twin that matches only in another reading of its bytes is a gap (x\\xff\\xfe can match x??)', async () => {
    const result = await findAll(over({ src: { 'x\uFFFD': '', 'a.ts': '' } }, { pattern: 'src/x??' }));
    expect(result).toMatchObject({ matches: [], skipped: [{ path: 'src/x\uFFFD', code: 'EILSEQ' }], complete: false });
  });

  it('a name that matches only in another reading of its bytes, and that the string does not open, is a gap (EILSEQ)', async () => {
    // x\uFFFD does not match x?? as decoded, but x\xff\xfe could: lstat (ENOENT: the string opens nothing) says it is not a real U+FFFD name.
    const make = (lstat: Record<string, string>) => () =>
      ({ root: ROOT, platform: 'posix', pattern: 'x??', fs: faultyFs(asFs(buildVolume({ 'x\uFFFD': '', 'xyz': '' })), { lstat }), clock: new FakeClock() }) as FindOptions;
    expect(await findAll(make({ [`${ROOT}/x\uFFFD`]: 'ENOENT' }))).toMatchObject({ matches: ['xyz'], skipped: [{ path: 'x\uFFFD', code: 'EILSEQ' }], complete: false });
    // A real U+FFFD name (lstat finds it) does not match: no gap.
    expect(await findAll(make({}))).toMatchObject({ matches: ['xyz'], skipped: [], complete: true });
  });
});
