/**
 * `gitignore: true` in the walker, on memfs (the real-disk parity with ripgrep is test/ignore/):
 * which files apply and in what order, that an ignored directory is never read and counted once,
 * that ignoring is policy (counted, `complete` unaffected), the root's parents, the depth limit,
 * and the three API forms agreeing.
 */
import { describe, expect, it } from 'vitest';
import type { FsLike } from '../../src/fs.js';
import { findFiles, findFilesStream, findFilesSync, searchContent, type FindOptions, type FindResult } from '../../src/index.js';
import { isIgnored, readDirectoryTexts, readTopLevels, type IgnoreRead, type IgnoreReads } from '../../src/walk/ignore.js';
import { FakeClock, asFs, buildVolume, faultyFs, type Tree } from '../helpers/memfs.js';

/** A volume with `tree` at /repo/root (and `above` at /repo), through a recording fs. */
function setup(tree: Tree, above: Tree = {}) {
  const vol = buildVolume({ ...above, root: tree }, '/repo');
  const fs = faultyFs(asFs(vol));
  // faultyFs records readdir and lstat; the ignore files are read through the volume itself.
  const withRead: FsLike = Object.assign(fs, {
    readFile: (path: string, callback: (error: NodeJS.ErrnoException | null, contents: Uint8Array | string) => void) => asFs(vol).readFile!(path, callback),
    readFileSync: (path: string) => asFs(vol).readFileSync!(path),
  });
  return { fs: withRead, calls: fs.calls };
}

async function allForms(options: FindOptions): Promise<FindResult> {
  const viaPromise = await findFiles(options);
  const viaSync = findFilesSync(options);
  const stream = findFilesStream(options);
  const streamed: string[] = [];
  for await (const path of stream) streamed.push(path);
  const summary = await stream.summary;
  const strip = (r: Omit<FindResult, 'matches'>) => ({ ...r, stats: { ...r.stats, elapsedMs: 0 } });
  expect(strip(viaSync)).toEqual(strip(viaPromise));
  expect({ ...strip(summary), matches: streamed.sort() }).toEqual(strip(viaPromise));
  return viaPromise;
}

const search = (fs: FsLike, extra: Partial<FindOptions> = {}) =>
  allForms({ root: '/repo/root', pattern: '**', gitignore: true, fs, clock: new FakeClock(), platform: 'posix', ...extra });

describe('gitignore: true', () => {
  it('applies .gitignore inside a repository: negations, anchored and directory-only rules; ignoring is policy', async () => {
    const { fs, calls } = setup({
      '.git': { HEAD: 'ref' },
      '.gitignore': '*.log\n!keep.log\n/build\nout/\n',
      'a.log': 'x',
      'keep.log': 'x',
      build: { 'b.js': 'x' },
      src: { build: { 'c.js': 'x' }, out: { 'd.js': 'x' }, out2: 'x' },
    });
    const result = await search(fs);
    expect(result.matches).toEqual(['.git/HEAD', '.gitignore', 'keep.log', 'src/build/c.js', 'src/out2']);
    expect(result).toMatchObject({ complete: true, incompleteReasons: [], ignoredCount: 3 });
    // Ignored directories are never read.
    expect(calls.filter((c) => c.call === 'readdir').map((c) => c.path)).not.toEqual(expect.arrayContaining(['/repo/root/build/']));
    expect(calls.some((c) => c.path.includes('/out/'))).toBe(false);
  });

  it('a file inside an ignored directory stays ignored, even when a rule re-includes it', async () => {
    const { fs } = setup({ '.git': {}, '.gitignore': 'logs/\n!logs/keep.txt\n', logs: { 'keep.txt': 'x' }, 'z.txt': 'x' });
    expect((await search(fs)).matches).toEqual(['.gitignore', 'z.txt']);
  });

  it('precedence: .rgignore over .ignore over .gitignore; a deeper file over a parent\'s', async () => {
    const { fs } = setup({
      '.git': {},
      '.gitignore': '*.tmp\n*.bak\n',
      '.ignore': '!a.tmp\n*.md\n',
      '.rgignore': '!b.md\n',
      'a.tmp': 'x',
      'b.tmp': 'x',
      'a.md': 'x',
      'b.md': 'x',
      sub: { '.gitignore': '!c.bak\n', 'c.bak': 'x', 'd.bak': 'x' },
    });
    expect((await search(fs)).matches).toEqual(['.gitignore', '.ignore', '.rgignore', 'a.tmp', 'b.md', 'sub/.gitignore', 'sub/c.bak']);
  });

  it('.gitignore applies only inside a git repository; .ignore everywhere', async () => {
    const { fs } = setup({ '.gitignore': '*.txt\n', '.ignore': '*.md\n', 'a.txt': 'x', 'b.md': 'x' });
    expect((await search(fs)).matches).toEqual(['.gitignore', '.ignore', 'a.txt']);
  });

  it('reads the root\'s parents: their .gitignore within the repository, not above its top', async () => {
    const { fs } = setup({ 'a.log': 'x', 'b.tmp': 'x', 'c.md': 'x' }, { '.git': {}, '.gitignore': '*.log\n' });
    expect((await search(fs)).matches).toEqual(['b.tmp', 'c.md']);
    // /repo/root is its own repository: /repo's .gitignore is above its top, /repo's .ignore still applies.
    const nested = setup({ '.git': {}, 'a.log': 'x', 'b.tmp': 'x' }, { '.git': {}, '.gitignore': '*.log\n', '.ignore': '*.tmp\n' });
    expect((await search(nested.fs)).matches).toEqual(['a.log']);
  });

  it('of two parents, the nearer one decides: its ! re-includes what the outer one ignores', async () => {
    // Issue 28: the parents listed innermost first would let /repo's rule win over /repo/mid's.
    const { fs } = setup({}, { '.ignore': '*.log\n', mid: { '.ignore': '!keep.log\n', root: { 'a.log': 'x', 'keep.log': 'x' } } });
    expect((await search(fs, { root: '/repo/mid/root' })).matches).toEqual(['keep.log']);
  });

  it('.git/info/exclude applies as the weakest git source', async () => {
    const { fs } = setup({ '.git': { info: { exclude: 'secret*\n' } }, '.gitignore': '!secret-ok\n', 'secret-1': 'x', 'secret-ok': 'x' });
    expect((await search(fs)).matches).toEqual(['.git/info/exclude', '.gitignore', 'secret-ok']);
  });

  it('at the depth limit an ignored directory is no gap: the result stays complete', async () => {
    const { fs } = setup({ '.git': {}, '.gitignore': 'deep/\n', 'a.ts': 'x', deep: { 'b.ts': 'x' } });
    const result = await search(fs, { maxDepth: 1, pattern: '*.ts' });
    expect(result).toMatchObject({ matches: ['a.ts'], complete: true, ignoredCount: 1 });
  });

  it('a directory-only rule never ignores a file of that name; ignoring holds with exclude too, and in a peek at the depth limit', async () => {
    const { fs } = setup({ '.git': {}, '.gitignore': 'out/\n*.log\n', out: 'x', 'a.log': 'x', 'b.txt': 'x', sub: { 'c.log': 'x' } });
    expect(await search(fs, { hidden: false })).toMatchObject({ matches: ['b.txt', 'out'], ignoredCount: 2 });
    expect(await search(fs, { hidden: false, exclude: ['none'] })).toMatchObject({ matches: ['b.txt', 'out'], ignoredCount: 2 });
    // sub is peeked (maxDepth 1): its only entry is ignored, so nothing lies beyond the limit.
    expect(await search(fs, { hidden: false, maxDepth: 1 })).toMatchObject({ matches: ['b.txt', 'out'], complete: true, incompleteReasons: [] });
  });

  it('off by default: every file, ignoredCount 0', async () => {
    const { fs } = setup({ '.git': {}, '.gitignore': '*\n', 'a.ts': 'x' });
    const result = await search(fs, { gitignore: undefined });
    expect(result).toMatchObject({ matches: ['.gitignore', 'a.ts'], ignoredCount: 0 });
  });

  it('content search walks the same file set', async () => {
    const vol = buildVolume({ root: { '.git': {}, '.gitignore': 'dist/\n', src: { 'a.ts': 'needle' }, dist: { 'a.js': 'needle' } } }, '/repo');
    const result = await searchContent({ root: '/repo/root', query: 'needle', gitignore: true, fs: asFs(vol), clock: new FakeClock(), platform: 'posix' });
    expect(result).toMatchObject({ hitCount: 1, ignoredCount: 1, complete: true });
    expect(result.hits.map((h) => h.path)).toEqual(['src/a.ts']);
  });

  it('refuses, before any I/O, an fs that cannot read ignore files', async () => {
    const { fs, calls } = setup({ 'a.ts': 'x' });
    const { readFile: _r, readFileSync: _s, ...noRead } = fs as FsLike & Record<string, unknown>;
    await expect(findFiles({ root: '/repo/root', pattern: '*', gitignore: true, fs: noRead })).rejects.toMatchObject({ code: 'FF_INVALID_OPTION', option: 'fs' });
    expect(calls).toEqual([]);
  });
});

describe('ignoreFiles', () => {
  it('rules relative to the root, weakest of all, with or without gitignore; the three forms agree', async () => {
    const { fs } = setup({ '.git': {}, '.gitignore': '!keep.gen\n', '.qwenignore': '*.gen\n/top.txt\n', 'a.gen': 'x', 'keep.gen': 'x', 'top.txt': 'x', sub: { 'top.txt': 'x' } });
    expect((await search(fs, { ignoreFiles: ['.qwenignore'] })).matches).toEqual(['.gitignore', '.qwenignore', 'keep.gen', 'sub/top.txt']);
    const alone = await search(fs, { gitignore: undefined, ignoreFiles: ['/repo/root/.qwenignore'] });
    expect(alone).toMatchObject({ matches: ['.gitignore', '.qwenignore', 'sub/top.txt'], ignoredCount: 3, complete: true });
  });

  it('a named file that cannot be read rejects, in the async and the sync walk', async () => {
    const { fs } = setup({ 'a.ts': 'x' });
    const options: FindOptions = { root: '/repo/root', pattern: '*', ignoreFiles: ['.nope'], fs, clock: new FakeClock(), platform: 'posix' };
    await expect(findFiles(options)).rejects.toMatchObject({ code: 'FF_IGNORE_FILE', option: 'ignoreFiles' });
    expect(() => findFilesSync(options)).toThrow(expect.objectContaining({ code: 'FF_IGNORE_FILE' }));
  });
});

describe('ignoreFiles beside the default ones', () => {
  it('alone (gitignore off): the root\'s parents are not read', async () => {
    const { fs } = setup({ '.extra': '*.gen\n', 'a.tmp': 'x', 'b.gen': 'x' }, { '.ignore': '*.tmp\n' });
    expect((await search(fs, { gitignore: undefined, ignoreFiles: ['.extra'] })).matches).toEqual(['.extra', 'a.tmp']);
  });

  it('two files, the first without a final line break: each rule stays its own line', async () => {
    const { fs } = setup({ '.e1': '*.gen', '.e2': '*.tmp\n', 'a.tmp': 'x', 'b.gen': 'x', 'c.txt': 'x' });
    expect((await search(fs, { gitignore: undefined, ignoreFiles: ['.e1', '.e2'] })).matches).toEqual(['.e1', '.e2', 'c.txt']);
  });

  it('outside any repository, they do not make .gitignore apply', async () => {
    const { fs } = setup({ '.gitignore': '*.txt\n', '.extra': '*.gen\n', 'a.txt': 'x', 'b.gen': 'x' });
    expect((await search(fs, { ignoreFiles: ['.extra'] })).matches).toEqual(['.extra', '.gitignore', 'a.txt']);
  });
});

/** Runs the reads of the ignore rules against `files` (a path's text; present when it has one); records what was asked. */
function drive<T>(reads: IgnoreReads<T>, files: Record<string, string>): { value: T; asked: IgnoreRead[] } {
  const asked: IgnoreRead[] = [];
  for (let next = reads.next(); ; ) {
    if (next.done) return { value: next.value, asked };
    const read = next.value;
    asked.push(read);
    next = reads.next(read.kind === 'parse' ? undefined : read.kind === 'realpath' ? read.path : read.kind === 'exists' ? read.path in files : files[read.path]);
  }
}

describe('the paths of the ignore files, on both platforms', () => {
  it('no level: nothing is ignored', () => {
    expect(isIgnored(undefined, 'a', false)).toBe(false);
  });

  it("Windows: a worktree's .git file names its git dir with backslashes, relative to the search root (ripgrep's cwd)", () => {
    const files = { 'C:\\w\\.git': 'gitdir: ..\\main\\.git\\worktrees\\w\n', 'C:\\main\\.git\\worktrees\\w\\commondir': '..\\..\n', 'C:\\main\\.git\\info\\exclude': 'ex.txt\n' };
    expect(drive(readDirectoryTexts('C:\\w\\', '\\', new Set(['.git']), 'C:\\w'), files).value).toMatchObject({ exclude: 'ex.txt\n', hasGit: true });
    // A worktree C:\top\w met below the root C:\top: ..\main is read from C:\top (C:\main), not from the worktree (C:\top\main).
    const below = { ...files, 'C:\\top\\w\\.git': files['C:\\w\\.git'] };
    expect(drive(readDirectoryTexts('C:\\top\\w\\', '\\', new Set(['.git']), 'C:\\top'), below).value).toMatchObject({ exclude: 'ex.txt\n', hasGit: true });
  });

  it("Windows: the root's parents are C:\\ and C:\\a\\, outermost first, their rules read relative to each", () => {
    const { value, asked } = drive(readTopLevels({ root: 'C:\\a\\b', defaults: true, extraFiles: [] }, '\\'), { 'C:\\a\\.ignore': 'b/x\n' });
    expect(asked.flatMap((r) => (r.kind === 'exists' && r.path.endsWith('.ignore') ? [r.path] : []))).toEqual(['C:\\.ignore', 'C:\\a\\.ignore']);
    expect([isIgnored(value, 'x', false), isIgnored(value, 'y', false)]).toEqual([true, false]);
  });

  it('POSIX: a backslash in a parent\'s name is part of the name', () => {
    const { asked } = drive(readTopLevels({ root: '/x/a\\b/r', defaults: true, extraFiles: [] }, '/'), {});
    expect(asked.flatMap((r) => (r.kind === 'exists' && r.path.endsWith('.ignore') ? [r.path] : []))).toEqual(['/.ignore', '/x/.ignore', '/x/a\\b/.ignore']);
  });
});

describe('no I/O when stopped before the start', () => {
  it('an aborted signal reads no ignore file either, in the async and the sync walk', async () => {
    const { fs, calls } = setup({ '.gitignore': 'x\n' }, { '.ignore': 'y\n' });
    const reads: string[] = [];
    const watched: FsLike = { ...fs, readFile: (p, cb) => (reads.push(p), fs.readFile!(p, cb)), readFileSync: (p) => (reads.push(p), fs.readFileSync!(p)) };
    const options: FindOptions = { root: '/repo/root', pattern: '*', gitignore: true, fs: watched, signal: AbortSignal.abort(), clock: new FakeClock(), platform: 'posix' };
    expect(await findFiles(options)).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
    expect(findFilesSync(options)).toMatchObject({ complete: false, incompleteReasons: ['aborted'] });
    expect(reads).toEqual([]);
    expect(calls).toEqual([]);
  });
});

describe('ignoreGitDirs: true (the CLI sets it with ignore files, as fd)', () => {
  const repo = {
    '.git': { HEAD: 'ref', objects: { ab: 'x' } },
    'a.txt': 'x',
    sub: { '.git': { HEAD: 'ref' }, 'b.txt': 'x', '.gitkeep': 'x' },
    // A linked worktree's `.git` is a file naming the real one: listed, it is not a repository's internals.
    wt: { '.git': 'gitdir: /elsewhere', 'c.txt': 'x' },
  };

  it('leaves out every directory named .git, unread, counted as ignored (policy: complete stays true), with or without gitignore', async () => {
    for (const gitignore of [false, true]) {
      const { fs, calls } = setup(repo);
      const result = await search(fs, { ignoreGitDirs: true, gitignore });
      expect(result.matches, `gitignore: ${gitignore}`).toEqual(['a.txt', 'sub/.gitkeep', 'sub/b.txt', 'wt/.git', 'wt/c.txt']);
      expect(result).toMatchObject({ complete: true, ignoredCount: 2, excludedCount: 0 });
      // Never listed nor looked into; only `stat`, with gitignore, asks whether `info/exclude` is a file to read (as rg reads it).
      expect(calls.some((c) => c.path.includes('/.git/') && !(gitignore && c.call === 'stat' && c.path.endsWith('/.git/info/exclude')))).toBe(false);
    }
  });

  it('off by default: the library lists a repository\'s internals unless asked (as rg --files --hidden)', async () => {
    const { fs } = setup(repo);
    expect((await search(fs)).matches).toEqual(expect.arrayContaining(['.git/HEAD', '.git/objects/ab', 'sub/.git/HEAD']));
  });

  it('a .git directory is never a match of type directory, nor a reason for depth-limit', async () => {
    const { fs } = setup(repo);
    expect((await search(fs, { ignoreGitDirs: true, pattern: '**/.git', type: 'directory' })).matches).toEqual([]);
    // At depth 1 only `.git/` lies beyond the limit for `*/HEAD`: nothing that could match is unread.
    const limited = await search(fs, { ignoreGitDirs: true, pattern: '*/HEAD', maxDepth: 1 });
    expect(limited).toMatchObject({ matches: [], complete: true });
  });

  it('a bad value is a coded error', async () => {
    await expect(findFiles({ root: '/', pattern: '*', ignoreGitDirs: 'yes' as unknown as boolean })).rejects.toMatchObject({ code: 'FF_INVALID_OPTION', option: 'ignoreGitDirs' });
  });
});
