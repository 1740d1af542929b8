/**
 * Special files on the real disk (issue 27): a FIFO (mkfifo) and a unix socket (a listening
 * server) are entry kinds of their own, as in fd (`-t p`, `-t s`) and find (`-type p`, `-type s`):
 * listed by name, included in `any`, never opened. Checked against find and fd as oracles, through
 * every form (promise, sync, stream, ripgrep, auto); content search over them never blocks.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles, searchContent, type BackendOption, type DirentLike, type EntryTypeOption, type FsLike } from '../../src/index.js';
import { searchForms } from '../helpers/forms.js';
import { itIf, onWindows, posixOnly } from '../helpers/skip-why.js';
import { hasRg, needsRg, realRg, requireRipgrepInCi } from '../helpers/real-rg.js';
import { makeSpecialTree, run, type SpecialTree } from '../helpers/special-files.js';

requireRipgrepInCi();
let tree: SpecialTree;
let root: string;

/** find's answer: root-relative paths, sorted (`find . -mindepth 1 ARGS`). */
async function find(...args: string[]): Promise<string[]> {
  const { stdout } = await run('find', ['.', '-mindepth', '1', ...args], { cwd: root });
  return stdout.split('\n').filter(Boolean).map((p) => p.slice(2)).sort();
}

/** fd's answer: every entry, hidden and ignored too (`fdfind -H -I ARGS`), sorted. */
async function fd(...args: string[]): Promise<string[]> {
  const { stdout } = await run('fdfind', ['-H', '-I', ...args], { cwd: root });
  return stdout.split('\n').filter(Boolean).map((p) => p.replace(/\/$/, '')).sort();
}

const hasFd = !onWindows && (() => {
  try {
    execFileSync('fdfind', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

beforeAll(async () => {
  if (onWindows) return;
  tree = await makeSpecialTree('ff-special-');
  root = tree.root;
});

afterAll(() => tree?.remove());

describe.skipIf(onWindows)(posixOnly('special files against find and fd', 'mkfifo and unix sockets'), () => {
  const oracle: [EntryTypeOption[], string[]][] = [
    [['pipe'], ['-type', 'p']],
    [['socket'], ['-type', 's']],
    [['pipe', 'socket'], ['(', '-type', 'p', '-o', '-type', 's', ')']],
    [['file', 'directory', 'symlink'], ['(', '-type', 'f', '-o', '-type', 'd', '-o', '-type', 'l', ')']],
    [['any'], []],
  ];

  for (const [type, findArgs] of oracle) {
    it(`type ${type.join(', ')} lists what find ${findArgs.join(' ') || '(everything)'} lists, through the walker forms and auto`, async () => {
      const expected = await find(...findArgs);
      for (const [name, form] of searchForms(realRg.path)) {
        if (name === 'ripgrep') continue;
        const result = await form({ root, pattern: '**', type });
        expect({ name, matches: result.matches, complete: result.complete }).toEqual({ name, matches: expected, complete: true });
      }
    });
  }

  itIf([hasFd, 'fd is not installed'])('fd -t p, -t s and fd without -t agree with pipe, socket and any', async () => {
    expect((await findFiles({ root, pattern: '**', type: 'pipe' })).matches).toEqual(await fd('-t', 'p'));
    expect((await findFiles({ root, pattern: '**', type: 'socket' })).matches).toEqual(await fd('-t', 's'));
    expect((await findFiles({ root, pattern: '**', type: 'any' })).matches).toEqual(await fd());
  });

  it('a pattern that names the special files: app.* is a FIFO and a socket under any, and each under its kind, with their kinds in stats', async () => {
    const result = await findFiles({ root, pattern: 'app.*', type: 'any', stats: true });
    expect(result.entries?.map((e) => [e.path, e.type])).toEqual([['app.fifo', 'pipe'], ['app.sock', 'socket']]);
    expect((await findFiles({ root, pattern: 'app.*', type: ['file', 'directory', 'symlink'] })).matches).toEqual([]);
  });

  itIf(needsRg)('ripgrep lists regular files only: asked for a special kind it refuses, and auto answers with the walker', async () => {
    await expect(findFiles({ root, pattern: '**', type: 'pipe', backend: 'ripgrep', rgPath: realRg.path })).rejects.toMatchObject({ code: 'FF_INVALID_OPTION' });
    const auto = await findFiles({ root, pattern: '**', type: 'pipe', backend: 'auto', rgPath: realRg.path });
    expect(auto).toMatchObject({ matches: ['app.fifo', 'sub/deep.fifo'], backend: 'walker', complete: true });
    // Regular files: rg --files and the walker agree (neither lists a FIFO as a file).
    const files = await findFiles({ root, pattern: '**', backend: 'ripgrep', rgPath: realRg.path });
    expect(files.matches).toEqual(await find('-type', 'f'));
  });

  it('a special file beyond the depth limit that matches a kind asked for is depth-limit, never a complete miss', async () => {
    const result = await findFiles({ root, pattern: '*.fifo', type: 'pipe', maxDepth: 1 });
    expect(result).toMatchObject({ matches: ['app.fifo'], complete: false, incompleteReasons: ['depth-limit'] });
  });

  it('content search never opens a FIFO or a socket (nothing blocks), on every backend', async () => {
    const backends: BackendOption[] = hasRg ? ['walker', 'ripgrep', 'auto'] : ['walker'];
    for (const backend of backends) {
      const all = await searchContent({ root, query: 'needle', backend, rgPath: realRg.path });
      expect({ backend, files: all.hits.map((h) => h.path).sort(), complete: all.complete }).toEqual({ backend, files: ['a.txt', 'sub/b.txt'], complete: true });
      const special = await searchContent({ root, query: 'needle', pattern: '*.fifo', backend, rgPath: realRg.path });
      expect({ backend, hits: special.hits, complete: special.complete }).toEqual({ backend, hits: [], complete: true });
    }
  });
});

describe.skipIf(onWindows)(posixOnly('devices', 'no /dev'), () => {
  it('char-device: /dev/null is listed as find -type c lists it', async () => {
    const result = await findFiles({ root: '/dev', pattern: 'null', type: 'char-device', maxDepth: 1 });
    const { stdout } = await run('find', ['/dev', '-maxdepth', '1', '-type', 'c', '-name', 'null']);
    expect(result.matches).toEqual(stdout.trim() === '/dev/null' ? ['null'] : []);
    expect(result.matches).toEqual(['null']);
  });
});

describe('devices, from an fs that lists them (none can be made without privileges)', () => {
  const entry = (name: string, kind: 'block' | 'char' | 'file'): DirentLike => ({
    name,
    isFile: () => kind === 'file',
    isDirectory: () => false,
    isSymbolicLink: () => false,
    isFIFO: () => false,
    isSocket: () => false,
    isBlockDevice: () => kind === 'block',
    isCharacterDevice: () => kind === 'char',
  });
  const entries = [entry('sda', 'block'), entry('null', 'char'), entry('a.txt', 'file')];
  const fs: FsLike = {
    readdir: (_p, _o, cb) => setImmediate(() => cb(null, entries)),
    readdirSync: () => entries,
    lstat: (p, cb) => setImmediate(() => cb(Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' }), undefined as never)),
    lstatSync: (p) => {
      throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
    },
  };
  it('a block device and a character device are each their own kind', async () => {
    const find = (type: EntryTypeOption) => findFiles({ root: '/dev', platform: 'posix', pattern: '*', type, fs });
    expect((await find('block-device')).matches).toEqual(['sda']);
    expect((await find('char-device')).matches).toEqual(['null']);
    expect((await find('file')).matches).toEqual(['a.txt']);
    expect(await find('any')).toMatchObject({ matches: ['a.txt', 'null', 'sda'], complete: true });
  });
});
