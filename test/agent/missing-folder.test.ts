/**
 * A typo in a pattern's folder (issue 27): `sorc/a.ts` prunes the walk at `sorc/`, so the search
 * sees no name to compare and once said "Similar file names seen in the search: none". Now the
 * answer says the folder does not exist, what the deepest folder that does exist holds, its names
 * closest to the missing one, and the pattern's path under them where that exists. memfs.
 */
import { describe, expect, it } from 'vitest';
import { globTool, type GlobMetadata } from '../../src/agent/index.js';
import { editDistance, closestFolderNames } from '../../src/agent/similar.js';
import type { Tree } from '../helpers/memfs.js';
import { W, workspace } from '../helpers/agent.js';

const tree: Tree = { src: { 'a.ts': '', lib: { 'b.ts': '' } }, docs: { 'x.md': '' }, 'README.md': '' };

describe('a literal folder of the pattern that does not exist', () => {
  it('sorc/a.ts: the folder is named, the root listed once, src/ suggested, and src/a.ts said to exist', async () => {
    const result = await globTool({ pattern: 'sorc/a.ts' }, workspace(tree));
    expect(result.content).toBe(
      [
        `No files matching "sorc/a.ts" under ${W} (search complete).`,
        `The search root ${W} holds 3 entries: README.md, docs/, src/`,
        'The folder "sorc/" does not exist, so the search could not look inside it.',
        `Similar folder names in ${W}: src/`,
        'With a similar folder in its place, these exist: src/a.ts',
      ].join('\n'),
    );
    expect(result.content).not.toContain('Similar file names seen in the search: none');
    expect((result.metadata as GlobMetadata).guidance?.missingFolder).toEqual({ missing: 'sorc/', existing: W, atRoot: true, names: ['README.md', 'docs/', 'src/'], kinds: ['file', 'directory', 'directory'], similar: ['src/'], existingPaths: ['src/a.ts'], existingKinds: ['file'] });
  });

  it('src/lbi/*.ts: the deepest existing folder (src) is listed, with lib/ as the near name', async () => {
    const result = await globTool({ pattern: 'src/lbi/*.ts' }, workspace(tree));
    expect(result.content.split('\n').slice(2)).toEqual([
      'The folder "src/lbi/" does not exist, so the search could not look inside it.',
      `The deepest folder of the pattern that exists, ${W}/src holds 2 entries: a.ts, lib/`,
      `Similar folder names in ${W}/src: lib/`,
    ]);
  });

  it('under a path: the suggestion is workspace-relative, as the answer paths are', async () => {
    const result = await globTool({ pattern: 'lbi/b.ts', path: 'src' }, workspace(tree));
    expect(result.content.split('\n').at(-1)).toBe('With a similar folder in its place, these exist: src/lib/b.ts');
  });

  it('nothing near: said so; a folder that exists (or a glob before the file name) changes nothing', async () => {
    const none = await globTool({ pattern: 'zzz/a.ts' }, workspace(tree));
    expect(none.content.split('\n').at(-1)).toBe(`No folder in ${W} resembles "zzz".`);
    const existing = await globTool({ pattern: 'src/zz.ts' }, workspace(tree));
    expect(existing.content).not.toContain('does not exist');
    const glob = await globTool({ pattern: '*/lib/zz.ts' }, workspace(tree));
    expect(glob.content).not.toContain('does not exist');
  });

  it('case: a folder that differs only by case exists where names ignore case (win32), not elsewhere', async () => {
    const posix = await globTool({ pattern: 'SRC/a.ts' }, workspace(tree));
    expect(posix.content).toContain('The folder "SRC/" does not exist');
    const folded = await globTool({ pattern: 'SRC/a.ts', case_sensitive: false }, workspace(tree));
    expect(folded.content).not.toContain('does not exist');
  });
});

describe('editDistance, closestFolderNames', () => {
  it('a dropped letter and a swap are one edit each; short names need one edit, longer ones two', () => {
    expect([editDistance('sorc', 'src'), editDistance('lbi', 'lib'), editDistance('SRC', 'src'), editDistance('zzz', 'src')]).toEqual([1, 1, 0, 3]);
    expect(closestFolderNames('sorc', ['src', 'docs', 'sort'])).toEqual(['sort', 'src']);
    expect(closestFolderNames('compnents', ['components', 'common'])).toEqual(['components']);
    expect(closestFolderNames('ab', ['xy'])).toEqual([]);
  });
});
