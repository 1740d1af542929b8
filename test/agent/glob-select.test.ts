/**
 * globTool's `type` (files, directories, or every kind with links listed) and `sort: 'mtime'` over
 * a tree with more matches than the search counts: the page is the newest of the whole tree, not
 * the newest of the first ones found. memfs, fake clock.
 */
import { describe, expect, it } from 'vitest';
import { globTool, type GlobMetadata, type GlobToolResult } from '../../src/agent/index.js';
import type { Tree } from '../helpers/memfs.js';
import { W, workspace } from '../helpers/agent.js';

function ok(result: GlobToolResult): GlobMetadata {
  expect(result.isError).toBe(false);
  return result.metadata as GlobMetadata;
}

const tree: Tree = { src: { agent: { 'glob.ts': '' }, 'agent.ts': '' }, docs: { agent: {} }, bin: { agent: { link: '../src/agent' } } };

describe('type', () => {
  it('"directory": directories matched by their path, as files are; counted and worded as directories', async () => {
    const result = await globTool({ pattern: 'agent', type: 'directory' }, workspace(tree));
    // The link named agent may lead to a directory: named, not followed.
    expect(result.content).toBe(['docs/agent', 'src/agent', 'Also 1 symlink matches (not followed): bin/agent.', 'Left out by policy: 1 symbolic link not followed.'].join('\n'));
    expect(result.summary).toBe('2 directories matching "agent"; also 1 symlink matches (not followed)');
    const none = await globTool({ pattern: 'nothing', type: 'directory' }, workspace(tree));
    // bin/agent leads to a directory a name pattern would descend into: absence is claimed only outside it (issue 27).
    expect(none.content.split('\n').slice(0, 2)).toEqual([
      `Search complete, but symlinks are never followed: no matches (directories matching "nothing" under ${W}) outside symlinked directories.`,
      '1 symlinked directory on the way was not followed: bin/agent. To look inside, search the target by a path inside the workspace, if it has one.',
    ]);
    const pruned = await globTool({ pattern: 'docs/nothing', type: 'directory' }, workspace(tree));
    expect(pruned.content.split('\n')[0]).toBe(`No directories matching "docs/nothing" under ${W} (search complete).`);
  });

  it('"any": files, directories and symlinks (a link is listed, never followed, and no longer counted as left out)', async () => {
    const result = await globTool({ pattern: 'agent*', type: 'any' }, workspace(tree));
    expect(ok(result).paths).toEqual(['bin/agent', 'docs/agent', 'src/agent', 'src/agent.ts']);
    expect(result.summary).toBe('4 entries matching "agent*"');
    expect(ok(result).policy.symlinkSkipped).toBe(0);
  });

  it('"file" is the default: the directory is not listed, the link is named as not followed', async () => {
    const result = await globTool({ pattern: 'agent*' }, workspace(tree));
    expect(ok(result).paths).toEqual(['src/agent.ts']);
    expect(result.content).toContain('Also 1 symlink matches (not followed): bin/agent.');
    const bad = await globTool({ pattern: 'x', type: 'dir' }, workspace(tree));
    expect(bad).toMatchObject({ isError: true, metadata: { error: { code: 'invalid-input' } } });
  });
});

describe('sort: mtime past the count cap', () => {
  it('the page is the newest of the whole tree, and the total says there are more than were counted', async () => {
    // 600 files, counted up to 501; the newest are in the directory the walk reads last.
    const files: Tree = {};
    for (let i = 0; i < 300; i++) files[`f${String(i).padStart(3, '0')}.log`] = '';
    const ctx = workspace({ a: files, z: files }, { countCap: 501 });
    const fs = ctx.fs as unknown as { utimesSync(path: string, atime: number, mtime: number): void };
    for (let i = 0; i < 300; i++) {
      const name = `f${String(i).padStart(3, '0')}.log`;
      fs.utimesSync(`${W}/a/${name}`, 1_000 + i, 1_000 + i);
      fs.utimesSync(`${W}/z/${name}`, 5_000 + i, 5_000 + i);
    }
    const result = await globTool({ pattern: '*.log', sort: 'mtime', limit: 3 }, ctx);
    expect(ok(result).paths).toEqual(['z/f299.log', 'z/f298.log', 'z/f297.log']);
    expect(ok(result)).toMatchObject({ total: { count: 501, kind: 'more-than' }, complete: false, truncated: true });
  });
});
