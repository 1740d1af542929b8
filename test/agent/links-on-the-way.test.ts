/**
 * Issue 27, links on the way, through the agent glob tool (memfs workspace at /w): a symlinked
 * directory the pattern would have descended into is named, the answer never says "No files
 * matching ... (search complete)" while one exists, and the metadata carries it.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globTool, grepTool, type GlobMetadata, type GrepMetadata } from '../../src/agent/index.js';
import { GREP_LINKS_UNEXAMINED } from '../../src/agent/text.js';
import type { Tree } from '../helpers/memfs.js';
import { workspace } from '../helpers/agent.js';
import { describeIf, posix } from '../helpers/skip-why.js';
import { needsRg, realRg } from '../helpers/real-rg.js';

const tree: Tree = { real: { 'a.ts': '' }, 'linked-src': { link: '/w/real' }, 'file-link': { link: '/w/real/a.ts' } };
const NEXT = 'To look inside, search the target by a path inside the workspace, if it has one.';

describe('agent glob: links on the way', () => {
  it("glob linked-src/a.ts: names linked-src and claims absence only outside symlinked directories", async () => {
    for (const pattern of ['linked-src/a.ts', 'linked-src/*.ts']) {
      const result = await globTool({ pattern }, workspace(tree));
      const lines = result.content.split('\n');
      expect(lines.slice(0, 2)).toEqual([
        `Search complete, but symlinks are never followed: no matches (files matching "${pattern}" under /w) outside symlinked directories.`,
        `1 symlinked directory on the way was not followed: linked-src. ${NEXT}`,
      ]);
      expect(result.content).not.toContain('(search complete).');
      expect(result.summary).toBe(`No files matching "${pattern}" outside symlinked directories (search complete); 1 symlinked directory on the way not followed`);
      const meta = result.metadata as GlobMetadata;
      expect(meta.policy.links).toMatchObject({ examined: true, onTheWay: { paths: ['linked-src'], count: 1 } });
      expect(meta.result).toMatchObject({ complete: true, linksOnTheWay: ['linked-src'], linkOnTheWayCount: 1 });
    }
  });

  it('with matches: one more line after them; without a link on the way: the plain complete headline', async () => {
    const found = await globTool({ pattern: '*/a.ts' }, workspace(tree));
    expect(found.content.split('\n').slice(0, 2)).toEqual(['real/a.ts', `Also 1 symlinked directory on the way was not followed: linked-src. ${NEXT}`]);
    const none = await globTool({ pattern: 'real/*.rs' }, workspace(tree));
    expect(none.content.split('\n')[0]).toBe('No files matching "real/*.rs" under /w (search complete).');
  });

  it('a search path below the link is refused as before; the link is named relative to the workspace from a sub-path', async () => {
    const nested: Tree = { pkg: { real: { 'a.ts': '' }, lib: { link: '/w/pkg/real' } } };
    const result = await globTool({ pattern: 'lib/*.ts', path: 'pkg' }, workspace(nested));
    expect(result.content).toContain('1 symlinked directory on the way was not followed: pkg/lib.');
  });
});

describe('agent grep: links on the way', () => {
  // The search path is sub: real/ is outside it, reached only through the link.
  const texts: Tree = { real: { 'a.ts': 'NEEDLE\n' }, sub: { 'b.ts': 'other\n', linked: { link: '/w/real' } } };

  it('grep NEEDLE: linked/a.ts is never read, so absence is claimed only outside symlinked directories, and the link is named', async () => {
    const result = await grepTool({ query: 'NEEDLE', path: 'sub' }, workspace(texts));
    expect(result.content.split('\n').slice(0, 2)).toEqual([
      'Search complete, but symlinks are never followed: no matches ("NEEDLE" under /w/sub) outside symlinked directories.',
      `1 symlinked directory on the way was not followed: sub/linked. ${NEXT}`,
    ]);
    expect(result.content).not.toContain('(search complete).');
    expect(result.summary).toBe('No matches for "NEEDLE" outside symlinked directories (search complete); 1 symlinked directory on the way not followed');
    const meta = result.metadata as GrepMetadata;
    expect(meta.policy.links).toMatchObject({ examined: true, onTheWay: { paths: ['sub/linked'], count: 1 } });
  });

  it('with a hit: the link is one more line after it', async () => {
    const result = await grepTool({ query: 'other', path: 'sub' }, workspace(texts));
    expect(result.content).toContain(`Also 1 symlinked directory on the way was not followed: sub/linked. ${NEXT}`);
  });
});

describeIf(posix('symlinks need a privilege on Windows (test/windows covers junctions)'), needsRg)('agent grep on the real disk, ripgrep host (POSIX)', () => {
  it('auto names the link; a host forcing ripgrep claims absence only outside symlinked directories and says it could not see them', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ff-agent-grep-links-'));
    try {
      mkdirSync(join(root, 'real'));
      mkdirSync(join(root, 'sub'));
      writeFileSync(join(root, 'real', 'a.ts'), 'NEEDLE\n');
      writeFileSync(join(root, 'sub', 'b.ts'), 'other\n');
      symlinkSync('../real', join(root, 'sub', 'linked'));
      const auto = await grepTool({ query: 'NEEDLE', path: 'sub' }, { root, rgPath: realRg.path, backend: 'auto' });
      expect(auto.content.split('\n')[1]).toBe(`1 symlinked directory on the way was not followed: sub/linked. ${NEXT}`);
      expect((auto.metadata as GrepMetadata).result).toMatchObject({ backend: 'ripgrep', linksExamined: true, linksOnTheWay: ['linked'] });
      const forced = await grepTool({ query: 'NEEDLE', path: 'sub' }, { root, rgPath: realRg.path, backend: 'ripgrep' });
      const lines = forced.content.split('\n');
      expect(lines[0]).toBe(`Search complete, but symlinks are never followed: no matches ("NEEDLE" under ${join(root, 'sub')}) outside symlinked directories.`);
      expect(lines).toContain(GREP_LINKS_UNEXAMINED);
      expect(forced.content).not.toContain('(search complete).');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
