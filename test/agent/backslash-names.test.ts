/**
 * The agent tools read `\` in a `path` as a separator on every platform (a model that writes
 * `src\app` means the folder). On POSIX `\` is also a character of names: an adversarial run had
 * the glob tool return `src/win\path.txt`, and grep, given that path back, answer that it "does not
 * exist". A path not found with `\` read as a separator is now looked up as written. A generated
 * family over where the `\` sits (a file's name, a folder's name, both, twice), for grep on the file,
 * grep on the folder and glob on the folder; then the reading that still comes first, and a path
 * that is in neither reading.
 */
import { describe, expect, it } from 'vitest';
import { globTool, grepTool, type GrepMetadata } from '../../src/agent/index.js';
import type { Tree } from '../helpers/memfs.js';
import { workspace } from '../helpers/agent.js';

/** [folder, file]: each may hold a `\`; the file holds NEEDLE. */
const PLACES: [string, string][] = [
  ['src', 'win\\path.txt'],
  ['a\\b', 'x.txt'],
  ['a\\b', 'c\\d.txt'],
  ['deep/er\\x', 'y\\\\z.txt'],
  ['src\\', 'end\\'],
  ['\\lead', '\\f.txt'],
];

function treeFor(folder: string, file: string): Tree {
  const tree: Tree = {};
  let node = tree;
  for (const segment of folder.split('/')) node = (node[segment] ??= {}) as Tree;
  node[file] = 'NEEDLE\n';
  return tree;
}

describe('a `\\` in a name, on POSIX: the path the glob tool returned reaches the file', () => {
  for (const [folder, file] of PLACES) {
    it(`${JSON.stringify(`${folder}/${file}`)}: glob lists it; grep finds the text through the file and through its folder; glob lists the folder`, async () => {
      const ctx = workspace(treeFor(folder, file));
      const listed = await globTool({ pattern: '**/*' }, ctx);
      expect(listed.content.split('\n')[0]).toBe(`${folder}/${file}`);
      const byFile = await grepTool({ query: 'NEEDLE', path: `${folder}/${file}` }, ctx);
      expect(byFile.isError, byFile.content).toBeFalsy();
      expect((byFile.metadata as GrepMetadata).hits.map((h) => h.path)).toEqual([`${folder}/${file}`]);
      const byFolder = await grepTool({ query: 'NEEDLE', path: folder }, ctx);
      expect((byFolder.metadata as GrepMetadata).hits.map((h) => h.path)).toEqual([`${folder}/${file}`]);
      const inFolder = await globTool({ pattern: '*', path: folder }, ctx);
      expect(inFolder.content.split('\n')[0]).toBe(`${folder}/${file}`);
    });
  }

  it('the separator reading comes first: with both `src/a.ts` and a file named `src\\a.ts`, `src\\a.ts` is the one in src/', async () => {
    const ctx = workspace({ src: { 'a.ts': 'NEEDLE in src/a.ts\n' }, 'src\\a.ts': 'NEEDLE in the file named src\\a.ts\n' });
    const answer = await grepTool({ query: 'NEEDLE', path: 'src\\a.ts' }, ctx);
    expect((answer.metadata as GrepMetadata).hits.map((h) => h.path)).toEqual(['src/a.ts']);
  });

  it('what the as-written reading finds is the answer: a link refused as a link; a file named, with a pattern that finds it', async () => {
    const ctx = workspace({ a: {}, 'a\\lnk': { link: '/elsewhere' }, 'win\\path.txt': 'NEEDLE\n' });
    const answers = [await grepTool({ query: 'NEEDLE', path: 'a\\lnk' }, ctx), await globTool({ pattern: '*', path: 'a\\lnk' }, ctx)];
    for (const linked of answers) expect(linked.content.split('\n')[0]).toMatch(/^Refused: path "a\\\\lnk" goes through the symbolic link "a\\\\lnk"/);
    const file = await globTool({ pattern: '*', path: 'win\\path.txt' }, ctx);
    expect(file.content).toBe('Path "win\\\\path.txt" is a file, not a directory. To find it, search with pattern "./win\\\\\\\\path.txt".');
    // The pattern it suggests finds it (a glob reads `\\p` as `p`: the backslash is escaped).
    const found = await globTool({ pattern: 'win\\\\path.txt' }, ctx);
    expect(found.content.split('\n')[0]).toBe('win\\path.txt');
  });

  it('a path in neither reading is refused as before: not found, with what the nearest folder holds', async () => {
    const ctx = workspace(treeFor('src', 'win\\path.txt'));
    const answer = await grepTool({ query: 'NEEDLE', path: 'src\\other.txt' }, ctx);
    expect(answer.isError).toBe(true);
    expect(answer.content.split('\n')).toEqual(['Path "src\\\\other.txt" does not exist under the workspace root /w.', 'The nearest existing directory /w/src holds 1 entry: win\\path.txt']);
  });
});
