/**
 * `ignoreFiles` (ripgrep's `--ignore-file`, for `.qwenignore` and `.geminiignore`) against the real
 * rg: rules relative to the search root, weaker than every other ignore file, applied with or
 * without `gitignore`; a named file that cannot be read rejects the search, whichever engine runs.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFiles, findFilesSync, searchContent } from '../../src/index.js';
import { buildTrees, files, runRg, type Trees } from '../helpers/ignore-trees.js';
import { realRg, requireRipgrepInCi } from '../helpers/real-rg.js';

let trees: Trees;
const TREE = {
  '.git/': '',
  '.gitignore': 'dist/\n',
  '.qwenignore': 'x.txt\n/top.txt\nsub/y.txt\n',
  '.ignore': '!keep/x.txt\n',
  ...files('x.txt', 'top.txt', 'sub/x.txt', 'sub/top.txt', 'sub/y.txt', 'sub/deep/y.txt', 'keep/x.txt', 'dist/a.txt'),
};

beforeAll(() => {
  trees = buildTrees('ff-ignore-files-', { repo: TREE });
});
afterAll(() => trees?.cleanup());

describe('ignoreFiles', () => {
  requireRipgrepInCi();
  const rgPath = realRg.path;

  it.each([
    ['with gitignore', true, []],
    ['alone (every default ignore file off)', false, ['--no-ignore']],
  ] as const)('%s: every engine lists what rg --ignore-file lists, at the root and below it', async (_name, gitignore, flags) => {
    const top = trees.dirOf('repo');
    for (const [root, qwen] of [[top, '.qwenignore'], [join(top, 'sub'), '../.qwenignore']] as const) {
      const expected = runRg(root, ['--files', ...flags, `--ignore-file=${qwen}`]).files;
      for (const backend of ['walker', 'ripgrep', 'auto'] as const) {
        const result = await findFiles({ root, pattern: '**', gitignore, ignoreFiles: [qwen], backend, ...(backend === 'walker' ? {} : { rgPath }) });
        expect({ backend, root, matches: result.matches, complete: result.complete }).toEqual({ backend, root, matches: expected, complete: true });
      }
      expect(findFilesSync({ root, pattern: '**', gitignore, ignoreFiles: [qwen] }).matches).toEqual(expected);
    }
  });

  it('a named file that cannot be read rejects the search (FF_IGNORE_FILE), in every engine and in content search', async () => {
    const root = trees.dirOf('repo');
    for (const backend of ['walker', 'ripgrep', 'auto'] as const) {
      await expect(findFiles({ root, pattern: '*', ignoreFiles: ['.nope'], backend, ...(backend === 'walker' ? {} : { rgPath }) })).rejects.toMatchObject({ code: 'FF_IGNORE_FILE', option: 'ignoreFiles' });
    }
    expect(() => findFilesSync({ root, pattern: '*', ignoreFiles: ['.nope'] })).toThrow(expect.objectContaining({ code: 'FF_IGNORE_FILE' }));
    await expect(searchContent({ root, query: 'x', ignoreFiles: ['.nope'] })).rejects.toMatchObject({ code: 'FF_IGNORE_FILE' });
    await expect(findFiles({ root, pattern: '*', ignoreFiles: 'x' as unknown as string[] })).rejects.toMatchObject({ code: 'FF_INVALID_OPTION', option: 'ignoreFiles' });
  });
});

describe('ignoreGitDirs', () => {
  requireRipgrepInCi();
  const rgPath = realRg.path;
  let gitTrees: Trees;
  beforeAll(() => {
    gitTrees = buildTrees('ff-ignore-git-dirs-', {
      repo: { ...files('.git/HEAD', '.git/refs/main', 'a.txt', 'sub/.git/HEAD', 'sub/b.txt', '.github/ci.yml'), 'wt/.git': 'gitdir: /elsewhere\n', ...files('wt/c.txt') },
    });
  });
  afterAll(() => gitTrees?.cleanup());

  it('every engine leaves out the .git directories at every depth (not a .git file, not .github), with or without gitignore; content search too', async () => {
    const root = gitTrees.dirOf('repo');
    const expected = ['.github/ci.yml', 'a.txt', 'sub/b.txt', 'wt/.git', 'wt/c.txt'];
    for (const gitignore of [false, true]) {
      for (const backend of ['walker', 'ripgrep', 'auto'] as const) {
        const result = await findFiles({ root, pattern: '**', gitignore, ignoreGitDirs: true, backend, ...(backend === 'walker' ? {} : { rgPath }) });
        expect({ backend, gitignore, matches: result.matches, complete: result.complete }).toEqual({ backend, gitignore, matches: expected, complete: true });
      }
      for (const backend of ['walker', 'ripgrep'] as const) {
        const hits = await searchContent({ root, query: 't', gitignore, ignoreGitDirs: true, backend, ...(backend === 'walker' ? {} : { rgPath }) });
        expect({ backend, files: [...new Set(hits.hits.map((hit) => hit.path))].sort() }).toEqual({ backend, files: ['.github/ci.yml', 'a.txt', 'sub/b.txt', 'wt/.git', 'wt/c.txt'] });
      }
    }
  });
});
