/**
 * `type`: directories and symlinks as matches, on memfs with a fake clock, through the promise,
 * sync and stream forms (which must agree to the last field).
 */
import { describe, expect, it } from 'vitest';
import { findFiles, findFilesSync, searchContent } from '../../src/index.js';
import { asFs, buildVolume, faultyFs, type Tree } from '../helpers/memfs.js';
import { ROOT, datedVolume, findEvery, lstatsOf, overDated } from '../helpers/select.js';

const project: Tree = {
  'README.md': '#',
  src: {
    agent: { 'glob.ts': '', 'grep.ts': '' },
    cli: { 'args.ts': '', agent: {} },
    'find.ts': '',
  },
  test: { agent: { 'glob.test.ts': '' } },
  docs: { 'agent.md': '' },
  bin: { python3: { link: 'python3.11' }, 'python3.11': '', tools: { link: '../src' } },
};

const over = (options: Parameters<typeof overDated>[1], faults?: Parameters<typeof overDated>[2]) => overDated(datedVolume(project), options, faults);

describe('type: directory', () => {
  it('finds directories by name at any depth, without a trailing slash, sorted (the issue: find-file agent -t d)', async () => {
    const result = await findEvery(over({ pattern: 'agent', type: 'directory' }));
    expect(result.matches).toEqual(['src/agent', 'src/cli/agent', 'test/agent']);
    expect(result).toMatchObject({ matchedCount: 3, complete: true, filteredCount: 0 });
  });

  it('a directory that matches is still entered: * lists every directory, including those below a match', async () => {
    const result = await findEvery(over({ pattern: '*', type: 'directory' }));
    expect(result.matches).toEqual(['bin', 'docs', 'src', 'src/agent', 'src/cli', 'src/cli/agent', 'test', 'test/agent']);
  });

  it('matches a directory by its root-relative path, and pruning stays correct (src/agent matches, nothing else is read)', async () => {
    const make = over({ pattern: 'src/agent', type: 'directory' });
    const result = await findEvery(make);
    expect(result.matches).toEqual(['src/agent']);
    const options = make();
    await findFiles(options);
    const reads = (options.fs as ReturnType<typeof faultyFs>).calls.filter((c) => c.call === 'readdir').map((c) => c.path);
    expect(reads).toEqual([`${ROOT}/`, `${ROOT}/src/`]);
  });

  it('src/** matches the directories below src, not src itself (a/** needs one more segment, as for files)', async () => {
    expect((await findEvery(over({ pattern: 'src/**', type: 'directory' }))).matches).toEqual(['src/agent', 'src/cli', 'src/cli/agent']);
  });

  it('an excluded or hidden directory is neither entered nor returned', async () => {
    expect((await findEvery(over({ pattern: 'agent', type: 'directory', exclude: ['src/'] }))).matches).toEqual(['test/agent']);
    const hidden = overDated(datedVolume({ '.git': { agent: {} }, agent: {} }), { pattern: 'agent', type: 'directory', hidden: false });
    expect((await findEvery(hidden)).matches).toEqual(['agent']);
  });

  it('lists no file and needs no lstat without a filter', async () => {
    const make = over({ pattern: '*.ts', type: 'directory' });
    expect(await findEvery(make)).toMatchObject({ matches: [], complete: true });
    expect(await lstatsOf(make)).toEqual([]);
  });

  it('at the depth limit: a matching directory beyond it is depth-limit; a tree no deeper stays complete', async () => {
    const deep = await findEvery(over({ pattern: 'agent', type: 'directory', maxDepth: 2 }));
    expect(deep.matches).toEqual(['src/agent', 'test/agent']);
    expect(deep).toMatchObject({ complete: false, incompleteReasons: ['depth-limit'] });
    const shallow = overDated(datedVolume({ a: { agent: { 'x.ts': '' } } }), { pattern: 'agent', type: 'directory', maxDepth: 2 });
    expect(await findEvery(shallow)).toMatchObject({ matches: ['a/agent'], complete: true });
  });

  it('at the depth limit with a pruning pattern: a directory just past the limit that itself matches is depth-limit', async () => {
    // Kills isBeyondLimit forgetting that a directory can match: src/cli/agent matches, nothing inside it could, and it lies at depth 3.
    const result = await findEvery(over({ pattern: 'src/cli/agent', type: 'directory', maxDepth: 2 }));
    expect(result).toMatchObject({ matches: [], complete: false, incompleteReasons: ['depth-limit'] });
    expect(await findEvery(over({ pattern: 'src/cli/agent', type: 'directory', maxDepth: 3 }))).toMatchObject({ matches: ['src/cli/agent'], complete: true });
  });

  it('a directory limit stops the walk as files do: the shallowest first, result-limit', async () => {
    const result = await findEvery(over({ pattern: '*', type: 'directory', maxResults: 2 }));
    expect(result).toMatchObject({ matchedCount: 2, complete: false, incompleteReason: 'result-limit' });
  });
});

describe('type: symlink and any', () => {
  it('lists links (never followed), no longer counted in symlinkSkipped nor named in linkMatches', async () => {
    const result = await findEvery(over({ pattern: '*', type: 'symlink' }));
    expect(result).toMatchObject({ matches: ['bin/python3', 'bin/tools'], symlinkSkipped: 0, linkMatches: [], linkMatchedCount: 0, complete: true });
  });

  it('a link that does not match is still counted, not followed', async () => {
    const result = await findEvery(over({ pattern: 'python*', type: 'symlink' }));
    expect(result).toMatchObject({ matches: ['bin/python3'], symlinkSkipped: 1 });
  });

  it('files only (the default) still name a matching link in linkMatches; with type directory too', async () => {
    expect(await findEvery(over({ pattern: 'python3' }))).toMatchObject({ matches: [], linkMatches: ['bin/python3'], symlinkSkipped: 2 });
    expect(await findEvery(over({ pattern: 'python3', type: 'directory' }))).toMatchObject({ matches: [], linkMatches: ['bin/python3'] });
  });

  it('any: files, directories and links together, sorted by path', async () => {
    const result = await findEvery(over({ pattern: '*', type: 'any', exclude: ['src', 'test', 'docs'] }));
    expect(result.matches).toEqual(['README.md', 'bin', 'bin/python3', 'bin/python3.11', 'bin/tools']);
    expect(result).toMatchObject({ symlinkSkipped: 0, excludedCount: 3 });
  });

  it('a list of types, as fd -t f -t d', async () => {
    const result = await findEvery(over({ pattern: '*agent*', type: ['file', 'directory'] }));
    expect(result.matches).toEqual(['docs/agent.md', 'src/agent', 'src/cli/agent', 'test/agent']);
  });

  it('untyped entries (DT_UNKNOWN) get their lstat and are typed from it', async () => {
    const typed = await findEvery(over({ pattern: '*', type: 'any' }));
    const untyped = await findEvery(over({ pattern: '*', type: 'any' }, { untyped: true }));
    expect(untyped.matches).toEqual(typed.matches);
  });

  it('a matching link beyond the depth limit is depth-limit when links are asked for, not otherwise', async () => {
    const vol = datedVolume({ bin: { python3: { link: 'python3.11' } } });
    expect(await findEvery(overDated(vol, { pattern: 'python3', type: 'symlink', maxDepth: 1 }))).toMatchObject({ complete: false, incompleteReasons: ['depth-limit'] });
    expect(await findEvery(overDated(vol, { pattern: 'python3', maxDepth: 1 }))).toMatchObject({ complete: true, linkMatches: [] });
  });
});

describe('type: refused values and other engines', () => {
  const vol = buildVolume({ a: {} });
  const base = { root: ROOT, platform: 'posix' as const, pattern: '*', fs: asFs(vol) };

  it('refuses an unknown type, an empty list and a non-string, naming the choices', () => {
    for (const type of ['dir', [], [1], 'f']) {
      expect(() => findFilesSync({ ...base, type: type as never })).toThrow(expect.objectContaining({ code: 'FF_INVALID_OPTION', option: 'type' }));
    }
    expect(() => findFilesSync({ ...base, type: 'dir' as never })).toThrow(/type must be one of "file", "directory", "symlink", "pipe", "socket", "block-device", "char-device", "any"/);
  });

  it('forced ripgrep cannot list directories or links: refused before any I/O; auto runs the walker and says why', async () => {
    await expect(findFiles({ root: ROOT, pattern: '*', type: 'directory', backend: 'ripgrep' })).rejects.toMatchObject({ code: 'FF_INVALID_OPTION', option: 'backend' });
    const auto = await findFiles({ ...base, type: 'directory', backend: 'auto' });
    expect(auto).toMatchObject({ matches: ['a'], backend: 'walker', fallbackReason: 'entry-types' });
  });

  it('content search does not take type (it searches files): an unknown option there', async () => {
    await expect(searchContent({ root: ROOT, query: 'x', type: 'directory' } as never)).rejects.toMatchObject({ code: 'FF_UNKNOWN_OPTION' });
  });
});
