/**
 * Issue 27, links on the way for content search, through the real bin/find-file.mjs on a real tree:
 * `--contains` never says the text does not occur there while a symlinked directory it would have
 * searched exists (links are never followed: linked/a.ts is never read). The walker and auto name
 * the link; forced ripgrep, which cannot see links, claims absence only outside symlinked
 * directories. Build first (`npm run build`).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isPosix, lines, runFindFile, type Run } from '../helpers/cli.js';
import { hasRg, needsRg } from '../helpers/real-rg.js';
import { describeIf, itIf, posix } from '../helpers/skip-why.js';
import { BINARY_UNCOUNTED, CONTENT_LINKS_UNEXAMINED } from '../../src/cli/content-summary.js';

let tree: string;
let root: string;
beforeAll(() => {
  tree = mkdtempSync(join(tmpdir(), 'ff-cli-contains-links-'));
  root = join(tree, 'root');
  mkdirSync(join(tree, 'real'));
  mkdirSync(root);
  writeFileSync(join(tree, 'real', 'a.ts'), 'NEEDLE\n');
  writeFileSync(join(root, 'b.ts'), 'other\n');
  if (isPosix) symlinkSync('../real', join(root, 'linked'));
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

/** With -u: ripgrep's count-less ignore files (on by default, issue 30) are not this file's subject; test/cli/ignore.test.ts words them. */
function ff(args: string[]): Run {
  return runFindFile(['-u', ...args], { cwd: root });
}

const NAMED = [
  `find-file: no hits under ROOT: complete, every file outside symlinked directories was searched, so the text does not occur there; 1 symlinked directory on the way was not followed: linked -> ../real`,
  '  search its target to look inside',
];

describeIf(posix('symlinks need a privilege on Windows (test/windows covers junctions)'))('(POSIX) --contains past a symlinked directory (issue 27)', () => {
  it('walker: names the link with its target and never claims absence inside it', () => {
    const run = ff(['--contains', 'NEEDLE', '--backend', 'walker']);
    expect(run).toMatchObject({ status: 0, stdout: '' });
    expect(lines(run.stderr)).toEqual([...NAMED.map((l) => l.replace('ROOT', root)), '  1 symlink not followed (by policy, not coverage gaps)']);
    expect(run.stderr).not.toContain('every file was searched');
  });

  itIf(needsRg)('auto (the default): ripgrep answers, a listing walk names the link', () => {
    const run = ff(['--contains', 'NEEDLE']);
    expect(run).toMatchObject({ status: 0, stdout: '' });
    // ripgrep leaves binary files without a word: its empty answer says so too.
    expect(lines(run.stderr)).toEqual([...NAMED.map((l) => l.replace('ROOT', root).replace('every file', 'every text file')), `  ${BINARY_UNCOUNTED}`]);
    const json = JSON.parse(ff(['--contains', 'NEEDLE', '--json']).stdout);
    expect(json).toMatchObject({ backend: 'ripgrep', complete: true, hitCount: 0, linksOnTheWay: ['linked'], linkOnTheWayCount: 1, linksExamined: true });
  });

  itIf(needsRg)('forced ripgrep cannot see links: absence only outside symlinked directories, and it says so', () => {
    const run = ff(['--contains', 'NEEDLE', '--backend', 'ripgrep']);
    expect(lines(run.stderr)).toEqual([
      `find-file: no hits under ${root}: complete, every text file outside symlinked directories was searched, so the text does not occur there`,
      `  ${CONTENT_LINKS_UNEXAMINED}`,
      `  ${BINARY_UNCOUNTED}`,
    ]);
    expect(JSON.parse(ff(['--contains', 'NEEDLE', '--backend', 'ripgrep', '--json']).stdout)).toMatchObject({ linksOnTheWay: [], linkOnTheWayCount: 0, linksExamined: false });
  });

  it('--absolute and a relative root: the link is shown as the hits are, with its target', () => {
    const abs = ff(['--contains', 'NEEDLE', '--backend', 'walker', '--absolute']);
    expect(lines(abs.stderr)[0]).toMatch(new RegExp(`not followed: ${join(root, 'linked').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} -> \\.\\./real$`));
    const rel = runFindFile(['--contains', 'NEEDLE', '--backend', 'walker', 'root'], { cwd: tree });
    expect(lines(rel.stderr)[0]).toMatch(/not followed: root\/linked -> \.\.\/real$/);
  });

  it('with a hit, the link is one more line; the headline keeps "every file was searched" ("every text file" after ripgrep)', () => {
    for (const backend of ['walker', ...(hasRg ? ['auto'] : [])]) {
      const run = ff(['--contains', 'other', '--backend', backend]);
      const [headline, ...rest] = lines(run.stderr);
      expect(headline, backend).toBe(`find-file: 1 hit under ${root}: complete, every ${backend === 'auto' ? 'text ' : ''}file was searched`);
      // auto keeps ripgrep's answer with a hit: no walk, so no link named (its absence claim is not made).
      if (backend === 'walker') expect(rest[0]).toBe('  also 1 symlinked directory on the way was not followed: linked -> ../real; search its target to look inside');
    }
  });
});
