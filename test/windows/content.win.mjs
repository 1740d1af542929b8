/**
 * Content search on a Windows runtime (CRLF files, a refused folder) and `auto` where no ripgrep
 * is installed, the usual case on a Windows machine.
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { findFiles, searchContent } from 'find-file';
import { emptyDir, hostFixtures, makeTree, removeTree } from './helpers.mjs';

const fx = hostFixtures();
const tree = realpathSync.native(fx.tree);

describe('CRLF files', () => {
  let root;
  before(() => {
    root = makeTree({ 'crlf.txt': 'first\r\n  TODO: fix\r\nlast TODO\r\n', 'lf.txt': 'first\n  TODO: fix\nlast TODO\n', 'sub/deep.txt': 'x\r\n\r\nTODO\r\n' });
  });
  after(() => removeTree(root));

  it('the same lines and columns as LF, the \\r dropped from the text', async () => {
    const result = await searchContent({ root, query: 'TODO' });
    const hits = (path) => result.hits.filter((h) => h.path === path).map(({ line, column, text }) => ({ line, column, text }));
    const expected = [
      { line: 2, column: 3, text: '  TODO: fix' },
      { line: 3, column: 6, text: 'last TODO' },
    ];
    assert.deepEqual(hits('crlf.txt'), expected);
    assert.deepEqual(hits('lf.txt'), expected);
    assert.deepEqual(hits('sub/deep.txt'), [{ line: 3, column: 1, text: 'TODO' }]);
    assert.equal(result.complete, true);
  });

  it('matching sees the \\r, as ripgrep does: "fix$" matches the LF file only', async () => {
    const result = await searchContent({ root, query: 'fix$', mode: 'regex' });
    assert.deepEqual(result.hits.map((h) => h.path), ['lf.txt']);
  });
});

describe('content search past a refused folder', () => {
  it('EPERM in skipped, incomplete, every readable hit kept', async () => {
    const result = await searchContent({ root: tree, query: 'TODO' });
    assert.deepEqual(result.hits.map((h) => [h.path, h.line, h.text]).sort(), [
      ['docs/notes/todo.txt', 2, 'TODO: the walker'],
      ['omega/zeta.txt', 1, 'TODO: after the locked folder'],
    ]);
    assert.deepEqual(result.skipped, [{ path: fx.denied, code: 'EPERM' }]);
    assert.equal(result.complete, false);
    assert.deepEqual(result.incompleteReasons, ['permission-denied']);
  });
});

describe('auto with no ripgrep installed', () => {
  const env = () => ({ PATH: emptyDir() });

  it('findFiles falls back to the walker (rg-not-found), the same answer', async () => {
    const walker = await findFiles({ root: tree, pattern: '*.txt' });
    const auto = await findFiles({ root: tree, pattern: '*.txt', backend: 'auto', env: env() });
    assert.equal(auto.backend, 'walker');
    assert.equal(auto.fallbackReason, 'rg-not-found');
    assert.deepEqual(auto.matches, walker.matches);
    assert.deepEqual(auto.skipped, walker.skipped);
  });

  it('searchContent falls back too', async () => {
    const auto = await searchContent({ root: tree, query: 'TODO', backend: 'auto', env: env() });
    assert.equal(auto.backend, 'walker');
    assert.equal(auto.fallbackReason, 'rg-not-found');
    assert.equal(auto.hits.length, 2);
  });

  it('backend ripgrep rejects with FF_RG_NOT_FOUND, naming rg.exe', async () => {
    await assert.rejects(findFiles({ root: tree, pattern: '*.txt', backend: 'ripgrep', env: env() }), (error) => error.code === 'FF_RG_NOT_FOUND' && /rg\.exe/.test(error.message));
  });
});
