/**
 * The worked fallback recipe (issue 29, item 5): a host's glob tool written for node-glob in
 * gemini-cli's shape (withFileTypes + stat, recent files first; test/compat/host-glob-tool.ts,
 * quoted whole in docs/compat.md) runs on find-file by its import line alone, and tells its model
 * when the search was incomplete, naming what was not read.
 */
import { readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import * as peer from 'glob';
import { describe, expect, it } from 'vitest';
import { buildUndecodableTree } from '../helpers/names.js';
import { itIf, linux, posixOnly } from '../helpers/skip-why.js';
import { globTool, sortFileEntries } from './host-glob-tool.js';
import { PROJECT, buildTree, removeTree } from './tree.js';

const SOURCE = readFileSync(new URL('./host-glob-tool.ts', import.meta.url), 'utf8');
const DOC = readFileSync(new URL('../../docs/compat.md', import.meta.url), 'utf8');

describe('the fallback recipe', () => {
  it('docs/compat.md quotes the host tool as the test runs it', () => {
    expect(DOC).toContain('```ts\n' + SOURCE + '```');
  });

  it('the one import line is all that changed from node-glob (the others are node: built-ins, as in gemini-cli)', () => {
    const imports = SOURCE.split('\n').filter((line) => line.startsWith('import '));
    expect(imports.filter((line) => !/from 'node:[a-z]+';$/.test(line))).toEqual(["import { escape, glob } from 'find-file/glob'; // was: import { glob, escape } from 'glob';"]);
  });

  it('a pattern naming an existing file is escaped and found literally, as gemini-cli does it', async () => {
    const root = buildTree(['app/[id]/page.tsx', 'app/i/page.tsx']);
    try {
      const answer = await globTool({ pattern: 'app/[id]/page.tsx' }, root, new AbortController().signal);
      expect(answer.split('\n').slice(1)).toEqual([join(root, 'app/[id]/page.tsx')]);
    } finally {
      removeTree(root);
    }
  });

  it('a complete search answers as the node-glob tool did: the same entries, recent first (newest first), the rest by path, no warning', async () => {
    const root = buildTree(PROJECT);
    try {
      // Two files changed within the day (c.js the newest), the rest long ago.
      const now = Date.now();
      const old = new Date('2020-01-01T00:00:00Z');
      for (const path of ['src/a.js', 'src/a.test.js', 'src/lib/c.js', 'src/lib/c.test.js', 'src/lib/.cache/d.js', 'src/.hidden.js']) utimesSync(join(root, path), old, old);
      utimesSync(join(root, 'src/a.js'), new Date(now - 2 * 3600e3), new Date(now - 2 * 3600e3));
      utimesSync(join(root, 'src/lib/c.js'), new Date(now - 3600e3), new Date(now - 3600e3));
      const answer = await globTool({ pattern: 'src/**/*.js' }, root, new AbortController().signal, now);
      const [head, ...paths] = answer.split('\n');
      expect(head).toBe('Found 6 file(s) matching "src/**/*.js", sorted by modification time (newest first):');
      expect(paths.slice(0, 2)).toEqual([join(root, 'src/lib/c.js'), join(root, 'src/a.js')]);
      expect(paths.slice(2)).toEqual(['src/.hidden.js', 'src/a.test.js', 'src/lib/.cache/d.js', 'src/lib/c.test.js'].map((p) => join(root, p)).sort((a, b) => a.localeCompare(b)));
      expect(answer).not.toContain('WARNING');
      // node-glob's entries for gemini-cli's very call, sorted by the same function: the same lines.
      const theirs = await peer.glob('src/**/*.js', { cwd: root, withFileTypes: true, nodir: true, stat: true, nocase: true, dot: true, ignore: ['**/node_modules/**', '**/.git/**'], follow: false });
      expect(paths).toEqual(sortFileEntries(theirs, now, 24 * 3600e3).map((entry) => entry.fullpath()));
    } finally {
      removeTree(root);
    }
  });

  itIf(linux('names that are not UTF-8 are a Linux case'))(posixOnly('no match in a tree with an unreadable folder: "No files found", and the model is told that proves nothing', 'names that are not UTF-8 are a Linux case'), async () => {
    const dir = buildUndecodableTree('ff-recipe-');
    try {
      const answer = await globTool({ pattern: '**/in.txt' }, dir, new AbortController().signal);
      expect(answer.split('\n')[0]).toBe('No files found matching pattern "**/in.txt"');
      expect(answer).toContain('  bad\uFFFD (EILSEQ)');
      expect(answer).toContain('Do not conclude that a file does not exist from this answer.');
    } finally {
      removeTree(dir);
    }
  });

  itIf(linux('names that are not UTF-8 are a Linux case'))(posixOnly('an unreadable folder: the model is told the search was incomplete and what was not read', 'names that are not UTF-8 are a Linux case'), async () => {
    const dir = buildUndecodableTree('ff-recipe-');
    try {
      const answer = await globTool({ pattern: '**/*.txt' }, dir, new AbortController().signal);
      expect(answer).toContain(join(dir, 'ok.txt'));
      expect(answer).toMatch(/WARNING: the search was incomplete \(io-error\)/);
      expect(answer).toContain('  bad\uFFFD (EILSEQ)');
      expect(answer).toContain('Do not conclude that a file does not exist from this answer.');
    } finally {
      removeTree(dir);
    }
  });
});
