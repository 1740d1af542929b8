/**
 * globTool over special files on the real disk (issue 27): `type: 'any'` lists a FIFO and a socket
 * (it once said "No entries matching app.sock" and then listed app.sock in the overview); the
 * default `file` does not list them, and the overview then marks their kind, so the answer does
 * not contradict itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globTool, type GlobMetadata } from '../../src/agent/index.js';
import { onWindows, posixOnly } from '../helpers/posix-only.js';
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

  it('type "file" (the default): none listed, and the overview says what app.sock is', async () => {
    const result = await globTool({ pattern: 'app.sock' }, { root: tree.root });
    const [headline, , overview] = result.content.split('\n');
    expect(headline).toMatch(/^No files matching "app\.sock" under .* \(search complete\)\.$/);
    expect(overview).toMatch(/holds 5 entries: a\.txt, app\.fifo \(pipe\), app\.sock \(socket\), link\.txt, sub\/$/);
  });
});
