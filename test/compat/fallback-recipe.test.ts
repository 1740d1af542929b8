/**
 * The worked fallback recipe (issue 29, item 5): a host's glob tool written for node-glob
 * (test/compat/host-glob-tool.ts, quoted whole in docs/compat.md) runs on find-file by its import
 * line alone, and tells its model when the search was incomplete, naming what was not read.
 */
import { readFileSync } from 'node:fs';
import * as peer from 'glob';
import { describe, expect, it } from 'vitest';
import { buildUndecodableTree } from '../helpers/names.js';
import { itIf, linux, posixOnly } from '../helpers/skip-why.js';
import { globTool } from './host-glob-tool.js';
import { PROJECT, buildTree, removeTree } from './tree.js';

const SOURCE = readFileSync(new URL('./host-glob-tool.ts', import.meta.url), 'utf8');
const DOC = readFileSync(new URL('../../docs/compat.md', import.meta.url), 'utf8');

describe('the fallback recipe', () => {
  it('docs/compat.md quotes the host tool as the test runs it', () => {
    expect(DOC).toContain('```ts\n' + SOURCE + '```');
  });

  it('the one import line is all that changed from node-glob', () => {
    const imports = SOURCE.split('\n').filter((line) => line.startsWith('import '));
    expect(imports).toEqual(["import { glob } from 'find-file/glob'; // was: import { glob } from 'glob';"]);
  });

  it('a complete search answers as the node-glob tool did, with no warning', async () => {
    const root = buildTree(PROJECT);
    try {
      const answer = await globTool({ pattern: 'src/**/*.js' }, root, new AbortController().signal);
      expect(answer.split('\n')[0]).toMatch(/^Found [1-9]\d* file\(s\) matching "src\/\*\*\/\*\.js":$/);
      expect(answer).toContain('src/lib/c.js');
      expect(answer).not.toContain('WARNING');
      // The same paths node-glob gives the same call.
      const theirs = await peer.glob('src/**/*.js', { cwd: root, nocase: true, dot: true, ignore: ['**/node_modules/**', '**/.git/**'], follow: false });
      expect(answer.split('\n').slice(1)).toEqual(theirs.sort());
    } finally {
      removeTree(root);
    }
  });

  itIf(linux('names that are not UTF-8 are a Linux case'))(posixOnly('an unreadable folder: the model is told the search was incomplete and what was not read', 'names that are not UTF-8 are a Linux case'), async () => {
    const dir = buildUndecodableTree('ff-recipe-');
    try {
      const answer = await globTool({ pattern: '**/*.txt' }, dir, new AbortController().signal);
      expect(answer).toContain('ok.txt');
      expect(answer).toMatch(/WARNING: the search was incomplete \(io-error\)/);
      expect(answer).toContain('  bad\uFFFD (EILSEQ)');
      expect(answer).toContain('Do not conclude that a file does not exist from this answer.');
    } finally {
      removeTree(dir);
    }
  });
});
