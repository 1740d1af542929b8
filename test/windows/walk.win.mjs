/**
 * The walker on a Windows runtime: a folder the OS refuses (ACCESS_DENIED, Node's EPERM: the
 * `WindowsApps` case), reparse points, drive-letter roots, `\` in patterns, case. Every case runs
 * through the three API forms where the form could change the answer.
 */
import assert from 'node:assert/strict';
import { readdirSync, realpathSync } from 'node:fs';
import { join, win32 } from 'node:path';
import { describe, it } from 'node:test';
import { findFiles, findFilesStream, findFilesSync } from 'find-file';
import { hostFixtures } from './helpers.mjs';

const fx = hostFixtures();
// By real path: a temp folder may be spelled with an 8.3 short name (C:\Users\RUNNER~1).
const tree = realpathSync.native(fx.tree);
const READABLE_TXT = ['alpha.txt', 'docs/notes/todo.txt', 'omega/zeta.txt'];

const FORMS = {
  findFiles: (options) => findFiles(options),
  findFilesSync: async (options) => findFilesSync(options),
  findFilesStream: async (options) => {
    const stream = findFilesStream(options);
    const matches = [];
    for await (const path of stream) matches.push(path);
    return { ...(await stream.summary), matches: matches.sort() };
  },
};

describe('a folder Windows refuses to open', () => {
  it('is really refused to this process: readdir fails with EPERM (else the cases below prove nothing)', () => {
    assert.equal(process.platform, 'win32');
    assert.throws(() => readdirSync(join(tree, fx.denied)), { code: 'EPERM' });
  });

  for (const [form, search] of Object.entries(FORMS)) {
    it(`${form}: EPERM in skipped, incomplete (permission-denied), every readable match kept`, async () => {
      const result = await search({ root: tree, pattern: '*.txt' });
      assert.deepEqual(result.matches, READABLE_TXT);
      assert.equal(result.matchedCount, READABLE_TXT.length);
      assert.deepEqual(result.skipped, [{ path: fx.denied, code: 'EPERM' }]);
      assert.equal(result.complete, false);
      assert.equal(result.incompleteReason, 'permission-denied');
      assert.deepEqual(result.incompleteReasons, ['permission-denied']);
    });
  }

  it('a denied root is skipped as ".", never a rejection (findFiles and findFilesSync)', async () => {
    const root = join(tree, fx.denied);
    for (const result of [await findFiles({ root, pattern: '*' }), findFilesSync({ root, pattern: '*' })]) {
      assert.deepEqual(result.matches, []);
      assert.deepEqual(result.skipped, [{ path: '.', code: 'EPERM' }]);
      assert.equal(result.complete, false);
      assert.equal(result.incompleteReason, 'permission-denied');
    }
  });
});

describe('reparse points (symlinks, junctions)', () => {
  it('the host made real ones: listed as links, and each leads to outside/leak.txt', () => {
    const entries = new Map(readdirSync(tree, { withFileTypes: true }).map((e) => [e.name, e]));
    for (const link of fx.links) {
      assert.equal(entries.get(link)?.isSymbolicLink(), true, `${link} is listed as a link`);
      assert.ok(readdirSync(join(tree, link)).includes('leak.txt'), `${link} leads to leak.txt`);
    }
  });

  for (const [form, search] of Object.entries(FORMS)) {
    it(`${form}: never followed, each counted in symlinkSkipped, and no gap (complete)`, async () => {
      const result = await search({ root: tree, pattern: 'leak.txt', exclude: [`${fx.denied}/`] });
      assert.deepEqual(result.matches, []);
      assert.equal(result.symlinkSkipped, fx.links.length);
      assert.deepEqual(result.skipped, []);
      assert.equal(result.excludedCount, 1);
      assert.equal(result.complete, true);
    });
  }

  it('a link whose name matches is named in linkMatches, never returned as a match', async () => {
    const result = await findFiles({ root: tree, pattern: fx.links, exclude: [`${fx.denied}/`] });
    assert.deepEqual(result.matches, []);
    assert.deepEqual(result.linkMatches, [...fx.links].sort());
    assert.equal(result.complete, true);
  });

  it('a junction is a reparse point too: listed as a link, never followed', { skip: fx.unmade.junction ?? false }, async () => {
    assert.ok(fx.links.includes('junction'));
    const result = await findFiles({ root: tree, pattern: '**/leak.txt', exclude: [`${fx.denied}/`] });
    assert.deepEqual(result.matches, []);
    assert.equal(result.linkMatches.length, 0);
    assert.equal(result.symlinkSkipped, fx.links.length);
  });
});

describe('drive-letter roots', () => {
  const guide = `${tree}\\docs\\Guide.md`;

  it('X:\\... without a trailing backslash: native absolute paths, one backslash each', async () => {
    const result = await findFiles({ root: tree, pattern: 'docs/*.md', absolute: true });
    assert.deepEqual(result.matches, [guide]);
  });

  it('X:\\...\\ with a trailing backslash: the same paths, no doubled separator', async () => {
    const result = await findFiles({ root: `${tree}\\`, pattern: 'docs/*.md', absolute: true });
    assert.deepEqual(result.matches, [guide]);
    assert.equal(findFilesSync({ root: `${tree}\\`, pattern: 'docs/*.md', absolute: true }).matches[0], guide);
  });

  it('X:\\, the drive itself, with a path pattern down to the tree: relative and absolute', async () => {
    const drive = win32.parse(tree).root;
    assert.match(drive, /^[A-Z]:\\$/);
    const rel = tree.slice(drive.length).replace(/\\/g, '/');
    const relative = await findFiles({ root: drive, pattern: `${rel}/docs/*.md` });
    assert.deepEqual(relative.matches, [`${rel}/docs/Guide.md`]);
    assert.equal(relative.complete, true);
    const absolute = await findFiles({ root: drive, pattern: `${rel}/docs/*.md`, absolute: true });
    assert.deepEqual(absolute.matches, [guide]);
  });

  it('X:/... with forward slashes gives native paths; \\\\?\\X:\\... keeps its prefix', async () => {
    assert.deepEqual((await findFiles({ root: tree.replace(/\\/g, '/'), pattern: 'docs/*.md', absolute: true })).matches, [guide]);
    const long = await findFiles({ root: `\\\\?\\${tree}`, pattern: 'docs/*.md', absolute: true });
    assert.deepEqual(long.matches, [`\\\\?\\${guide}`]);
    assert.equal(long.complete, true);
  });
});

describe('patterns written the Windows way', () => {
  it('\\ is a separator in patterns and excludes', async () => {
    assert.deepEqual((await findFiles({ root: tree, pattern: 'docs\\*.md' })).matches, ['docs/Guide.md']);
    assert.deepEqual((await findFiles({ root: tree, pattern: 'docs\\**\\*.txt' })).matches, ['docs/notes/todo.txt']);
    const result = await findFiles({ root: tree, pattern: '*.txt', exclude: [fx.denied, 'docs\\notes'] });
    assert.deepEqual(result.matches, ['alpha.txt', 'omega/zeta.txt']);
    assert.equal(result.excludedCount, 2);
    assert.equal(result.complete, true);
  });

  it('matches without case by default on win32, with case when asked', async () => {
    assert.deepEqual((await findFiles({ root: tree, pattern: 'readme.md' })).matches, ['Readme.MD']);
    assert.deepEqual((await findFiles({ root: tree, pattern: 'DOCS/*.MD' })).matches, ['docs/Guide.md']);
    assert.deepEqual((await findFiles({ root: tree, pattern: 'readme.md', caseSensitive: true })).matches, []);
    assert.deepEqual((await findFiles({ root: tree, pattern: 'Readme.MD', caseSensitive: true })).matches, ['Readme.MD']);
  });
});
