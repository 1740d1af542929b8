/**
 * globTool over special files on the real disk (issue 27): `type: 'any'` lists a FIFO and a socket
 * (it once said "No entries matching app.sock" and then listed app.sock in the overview); the
 * default `file` does not list them, and the overview then marks their kind, so the answer does
 * not contradict itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globTool, grepTool, type GlobMetadata } from '../../src/agent/index.js';
import { itIf, onWindows, posixOnly } from '../helpers/skip-why.js';
import { needsRg, realRg } from '../helpers/real-rg.js';
import { makeSpecialTree, type SpecialTree } from '../helpers/special-files.js';

let tree: SpecialTree;

beforeAll(async () => {
  if (!onWindows) tree = await makeSpecialTree('ff-agent-special-');
});

afterAll(() => tree?.remove());

describe.skipIf(onWindows)(posixOnly('globTool over a FIFO and a socket', 'mkfifo and unix sockets'), () => {
  it('type "any": app.sock and app.fifo are listed (never "No entries matching")', async () => {
    const sock = await globTool({ pattern: 'app.sock', type: 'any' }, { root: tree.root });
    expect(sock.content.split('\n')[0]).toBe('app.sock');
    expect(sock.summary).toBe('1 entry matching "app.sock"');
    const all = await globTool({ pattern: '**/*.fifo', type: 'any' }, { root: tree.root });
    expect((all.metadata as GlobMetadata).paths).toEqual(['app.fifo', 'sub/deep.fifo']);
  });

  itIf(needsRg)('a host on the ripgrep backend: type "any" and "directory" are answered by auto with the walker (rg lists regular files only), never thrown', async () => {
    const ctx = { root: tree.root, backend: 'ripgrep' as const, rgPath: realRg.path };
    const any = await globTool({ pattern: 'app.*', type: 'any' }, ctx);
    expect((any.metadata as GlobMetadata).paths).toEqual(['app.fifo', 'app.sock']);
    const dirs = await globTool({ pattern: 'sub', type: 'directory' }, ctx);
    expect((dirs.metadata as GlobMetadata).paths).toEqual(['sub']);
  });

  it('type "file" (the default): none listed, and the overview says what app.sock is', async () => {
    const result = await globTool({ pattern: 'app.sock' }, { root: tree.root });
    const [headline, , overview] = result.content.split('\n');
    expect(headline).toMatch(/^No files matching "app\.sock" under .* \(search complete\)\.$/);
    expect(overview).toMatch(/holds 5 entries: a\.txt, app\.fifo \(pipe\), app\.sock \(socket\), link\.txt, sub\/$/);
  });

  it('type "file": a special file deeper down is suggested among the similar names with its kind, never as a file', async () => {
    const result = await globTool({ pattern: '**/deep.fifo' }, { root: tree.root });
    expect(result.content.split('\n').at(-1)).toBe('Similar file names seen in the search: sub/deep.fifo (pipe), app.fifo (pipe)');
    expect((result.metadata as GlobMetadata).guidance?.similarNames).toMatchObject({ paths: ['sub/deep.fifo', 'app.fifo'], special: { 'sub/deep.fifo': 'pipe', 'app.fifo': 'pipe' } });
  });
});

describe.skipIf(onWindows)(posixOnly('a special file as the path', 'mkfifo and unix sockets'), () => {
  it('grep and glob with path app.fifo: refused as a special file (never opened), and the advice given finds it', async () => {
    for (const run of [() => grepTool({ query: 'x', path: 'app.fifo' }, { root: tree.root }), () => globTool({ pattern: '*', path: 'sub/deep.fifo' }, { root: tree.root })]) {
      const result = await run();
      expect(result).toMatchObject({ isError: true, metadata: { error: { code: 'path-special-file' } } });
    }
    const refused = await grepTool({ query: 'x', path: 'sub/deep.fifo' }, { root: tree.root });
    expect(refused.content).toBe('Path "sub/deep.fifo" is a special file (a FIFO, socket or device), not a directory or a regular file: it is never opened, so it has no text to search. To list it, search with pattern "./deep.fifo" and path "sub" and type "any".');
    // The advice, followed, finds it.
    const found = await globTool({ pattern: 'deep.fifo', path: 'sub', type: 'any' }, { root: tree.root });
    expect((found.metadata as GlobMetadata).paths).toEqual(['sub/deep.fifo']);
  });
});
