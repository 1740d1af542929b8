/**
 * The agent tools' confinement with Windows paths (src/agent/paths.ts) on a Windows runtime: the
 * model writes the path, so every spelling that could leave the workspace is tried, and the
 * answer for a refused folder must never read as "not found".
 */
import assert from 'node:assert/strict';
import { lstatSync, realpathSync } from 'node:fs';
import { join, win32 } from 'node:path';
import { describe, it } from 'node:test';
import { globTool, grepTool } from 'find-file/agent';
import { hostFixtures } from './helpers.mjs';

const fx = hostFixtures();
const tree = realpathSync.native(fx.tree);
const drive = win32.parse(tree).root;
const glob = (path) => globTool({ pattern: '*.txt', ...(path === undefined ? {} : { path }) }, { root: tree });

describe('confinement with Windows paths', () => {
  const refusals = [
    ['..\\..', 'path-climbs-out'],
    ['docs\\..\\..\\..', 'path-climbs-out'],
    ['C:\\', 'path-absolute-outside'],
    [drive, 'path-absolute-outside'],
    ['\\\\server\\share\\x', 'path-absolute-outside'],
    ['\\\\?\\C:\\', 'path-absolute-outside'],
    [`\\\\?\\${drive}`, 'path-absolute-outside'],
    ['\\Windows', 'path-absolute-outside'],
    ['C:Windows', 'path-drive'],
  ];
  for (const [path, code] of refusals) {
    it(`refuses ${JSON.stringify(path)} (${code}), searching nothing`, async () => {
      const answer = await glob(path);
      assert.equal(answer.isError, true);
      assert.equal(answer.metadata.error.code, code);
      assert.match(answer.content, /^Refused: /);
    });
  }

  it('accepts a path inside, relative with \\, or absolute in another case', async () => {
    for (const path of ['docs\\notes', 'docs\\..\\docs\\notes', `${tree.toUpperCase()}\\DOCS\\NOTES`]) {
      const answer = await glob(path);
      assert.equal(answer.isError, false, `${path}: ${answer.content}`);
      assert.equal(answer.metadata.paths.length, 1);
      assert.match(answer.metadata.paths[0], /^docs\/notes\/todo\.txt$/i);
      assert.equal(answer.metadata.complete, true);
    }
  });

  const lstatSeesLinks = fx.links.every((link) => lstatSync(join(tree, link)).isSymbolicLink());
  it('refuses a path through a link or junction', { skip: lstatSeesLinks ? false : "this runtime's lstat does not report the host's symlink as a link (Wine 8 cannot read the reparse point, so Node says directory); see docs/reliability.md" }, async () => {
    for (const link of fx.links) {
      const answer = await glob(link);
      assert.equal(answer.isError, true, answer.content);
      assert.equal(answer.metadata.error.code, 'path-link');
    }
  });
});

describe('answers about a refused folder', () => {
  it('glob: the readable files, then incomplete, naming the folder; never "No files"', async () => {
    const answer = await glob(undefined);
    assert.equal(answer.isError, false);
    assert.equal(answer.metadata.complete, false);
    assert.deepEqual(answer.metadata.paths, ['alpha.txt', 'docs/notes/todo.txt', 'omega/zeta.txt']);
    assert.match(answer.content, /\(incomplete\)/);
    assert.match(answer.content, /permission denied\): locked/);
    assert.doesNotMatch(answer.content, /No files/);
  });

  it('grep over CRLF files: lines without \\r, the gap named', async () => {
    const answer = await grepTool({ query: 'TODO' }, { root: tree });
    assert.equal(answer.isError, false, answer.content);
    assert.equal(answer.metadata.complete, false);
    assert.match(answer.content, /todo\.txt/);
    assert.match(answer.content, /TODO: the walker/);
    assert.doesNotMatch(answer.content, /\r/);
    assert.match(answer.content, /locked/);
  });
});
