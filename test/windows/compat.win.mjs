/**
 * The drop-in adapters on a Windows runtime, against the real peers on the same runtime (node-glob
 * and tinyglobby, copied beside the package: scripts/windows/sandbox.mjs). What differs from
 * Linux is here: `\` separators in answers, drive-letter paths, `posix` and `mark` with them,
 * `windowsPathsNoEscape`, and tinyglobby's win32 string helpers. And the mission's case: the
 * folder Windows refuses is named, where node-glob returns the same array and says nothing.
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { describe, it } from 'node:test';
import * as ng from 'glob';
import * as tg from 'tinyglobby';
import * as ff from 'find-file/glob';
import * as ffTiny from 'find-file/tinyglobby';
import { hostFixtures, makeTree, removeTree } from './helpers.mjs';

const fx = hostFixtures();
const tree = realpathSync.native(fx.tree);

const sorted = (paths) => [...paths].sort();

describe('find-file/glob beside node-glob, on Windows', () => {
  it('the folder Windows refuses: the same paths as node-glob, and the refusal named (node-glob says nothing)', async () => {
    const theirs = await ng.glob('**/*.txt', { cwd: tree });
    const ours = await ff.glob('**/*.txt', { cwd: tree });
    assert.deepEqual(sorted(ours), sorted(theirs));
    assert.equal(ours.result.complete, false);
    assert.deepEqual(ours.result.skipped, [{ path: fx.denied, code: 'EPERM' }]);
    const iterator = ff.globIterate('**/*.txt', { cwd: tree });
    const streamed = [];
    for await (const path of iterator) streamed.push(path);
    assert.deepEqual(sorted(streamed), sorted(theirs));
    assert.deepEqual((await iterator.result).skipped, [{ path: fx.denied, code: 'EPERM' }]);
  });

  const files = { 'src/a.js': '', 'src/lib/b.js': '', 'src/lib/c.ts': '', 'docs/x.md': '', 'top.js': '' };
  const OPTIONS = [{}, { posix: true }, { mark: true }, { mark: true, posix: true }, { dotRelative: true }, { dotRelative: true, posix: true }, { absolute: true }, { absolute: true, posix: true }, { absolute: true, mark: true }, { matchBase: true }, { nodir: true, dotRelative: true }];
  const PATTERNS = ['**', '*', 'src/**', 'src/**/*.js', '**/lib', '*.js', '**/*.{js,ts}', 'src/*/'];
  for (const options of OPTIONS) {
    it(`the same array as node-glob, ${JSON.stringify(options)}`, async () => {
      const root = makeTree(files);
      try {
        for (const pattern of PATTERNS) {
          const theirs = await ng.glob(pattern, { cwd: root, ...options });
          const ours = await ff.glob(pattern, { cwd: root, ...options });
          assert.deepEqual(sorted(ours), sorted(theirs), `${pattern} ${JSON.stringify(options)}`);
        }
      } finally {
        removeTree(root);
      }
    });
  }

  it('an ignore object: the same array as node-glob, its entries in Windows form; pruning the refused folder is policy, complete', async () => {
    const root = makeTree({ ...files, 'node_modules/p/i.js': '', 'src/node_modules/q.js': '' });
    try {
      const HOOKS = [
        () => ({ childrenIgnored: (p) => p.name === 'node_modules' }),
        // relative() with the platform's separator, as node-glob's Path gives it on Windows.
        () => ({ ignored: (p) => p.relative().startsWith('src\\lib'), childrenIgnored: (p) => p.relative() === 'src\\lib' }),
        () => ({ ignored: (p) => p.fullpath().endsWith('\\top.js') }),
      ];
      for (const hook of HOOKS) {
        for (const pattern of ['**', '**/*.js', 'src/*/']) {
          const ours = await ff.glob(pattern, { cwd: root, ignore: hook() });
          assert.deepEqual(sorted(ours), sorted(await ng.glob(pattern, { cwd: root, ignore: hook() })), `${pattern} ${hook().childrenIgnored ?? hook().ignored}`);
          assert.equal(ours.result.complete, true);
        }
      }
    } finally {
      removeTree(root);
    }
    // The folder Windows refuses, left out by the host's rule: nothing goes unread that was to be read.
    const pruned = await ff.glob('**/*.txt', { cwd: tree, ignore: { childrenIgnored: (p) => p.relative() === fx.denied } });
    assert.deepEqual(sorted(pruned), sorted(await ng.glob('**/*.txt', { cwd: tree, ignore: { childrenIgnored: (p) => p.relative() === fx.denied } })));
    assert.deepEqual([pruned.result.complete, pruned.result.skipped], [true, []]);
  });

  it('windowsPathsNoEscape: `\\` separators in patterns and ignores, as node-glob reads them', async () => {
    const root = makeTree(files);
    try {
      for (const pattern of ['src\\*.js', 'src\\**\\*.js', '**\\lib\\*']) {
        const options = { cwd: root, windowsPathsNoEscape: true, ignore: ['**\\c.ts'] };
        assert.deepEqual(sorted(await ff.glob(pattern, options)), sorted(await ng.glob(pattern, options)), pattern);
      }
      // find-file reads `\` so on Windows without the option too; asking for the escape reading is refused, not ignored.
      assert.deepEqual(sorted(await ff.glob('src\\*.js', { cwd: root })), ['src\\a.js']);
      assert.throws(() => ff.globSync('src\\*.js', { cwd: root, windowsPathsNoEscape: false }), { code: 'FF_INVALID_OPTION' });
    } finally {
      removeTree(root);
    }
  });
});

describe('absolute patterns with a drive letter, beside the peers', () => {
  const files = { 'src/a.js': '', 'src/lib/b.js': '', 'top.js': '', 'dir (2)/c.js': '' };
  it('node-glob: C:/... and, with windowsPathsNoEscape, C:\\...', async () => {
    const root = makeTree(files);
    try {
      const slashed = root.replaceAll('\\', '/');
      for (const [pattern, options] of [[`${slashed}/**/*.js`, {}], [`${slashed}/src/*.js`, { mark: true }], [`${root}\\**\\*.js`, { windowsPathsNoEscape: true }], [`${slashed}/nothere/*.js`, {}]]) {
        const ours = await ff.glob(pattern, options);
        assert.deepEqual(sorted(ours), sorted(await ng.glob(pattern, options)), pattern);
        assert.equal(ours.result.complete, true);
      }
    } finally {
      removeTree(root);
    }
  });

  it('tinyglobby: convertPathToPattern(root) + /**, from another folder and with absolute', async () => {
    const root = makeTree(files);
    const elsewhere = makeTree({ 'x.txt': '' });
    try {
      const pattern = `${ffTiny.convertPathToPattern(root)}/**/*.js`;
      for (const options of [{ cwd: elsewhere }, { cwd: elsewhere, absolute: true }]) {
        assert.deepEqual(sorted(await ffTiny.glob(pattern, options)), sorted(await tg.glob(pattern, options)), JSON.stringify(options));
      }
    } finally {
      removeTree(root);
      removeTree(elsewhere);
    }
  });
});

describe('find-file/tinyglobby beside tinyglobby, on Windows', () => {
  const PATHS = ['C:\\Program Files (x86)\\app[1]\\bin', 'C:\\Users\\me\\{a,b}\\!x', '\\\\server\\share\\dir (2)\\@(x)', 'D:\\a+b\\c@d\\e!f', 'C:\\x\\*.exe', 'rel\\path\\with\\[brackets]', 'mixed/sep\\dir(1)'];
  it('escapePath, convertPathToPattern and isDynamicPattern answer as tinyglobby does here', () => {
    for (const path of PATHS) {
      assert.equal(ffTiny.escapePath(path), tg.escapePath(path), `escapePath ${path}`);
      assert.equal(ffTiny.convertPathToPattern(path), tg.convertPathToPattern(path), `convertPathToPattern ${path}`);
      assert.equal(ffTiny.isDynamicPattern(path), tg.isDynamicPattern(path), `isDynamicPattern ${path}`);
    }
  });

  it('a dot folder no pattern names stays unread, as in tinyglobby, beside one a pattern names (the walk hands the prune / paths here too)', async () => {
    const root = makeTree({ 'src/a.ts': '', 'src/b/c.ts': '', '.github/ci.yml': '', '.github/deep/x.ts': '', '.git/objects/aa/o.ts': '', '.git/objects/bb/o.ts': '' });
    try {
      const patterns = ['**/*.ts', '.github/**'];
      const tiny = sorted(await tg.glob(patterns, { cwd: root }));
      assert.deepEqual(tiny, ['.github/ci.yml', '.github/deep/x.ts', 'src/a.ts', 'src/b/c.ts']);
      // node-glob's `**` also names the folders.
      const nodeGlob = sorted(await ng.glob(patterns, { cwd: root, posix: true }));
      const answers = [
        [await ffTiny.glob(patterns, { cwd: root }), tiny],
        [ffTiny.globSync(patterns, { cwd: root }), tiny],
        [await ff.glob(patterns, { cwd: root, posix: true }), nodeGlob],
        [ff.globSync(patterns, { cwd: root, posix: true }), nodeGlob],
      ];
      for (const [ours, theirs] of answers) {
        assert.deepEqual(sorted(ours), theirs);
        // The root, src, src/b, .github, .github/deep: never .git or its folders.
        assert.equal(ours.result.stats.dirsRead, 5);
      }
    } finally {
      removeTree(root);
    }
  });

  it('an escaped path finds that path only, as tinyglobby', async () => {
    const root = makeTree({ 'dir (2)/app[1].exe': '', 'dir (2)/app1.exe': '' });
    try {
      const pattern = ffTiny.escapePath('dir (2)/app[1].exe');
      assert.deepEqual(await ffTiny.glob(pattern, { cwd: root }), ['dir (2)/app[1].exe']);
      assert.deepEqual(await ffTiny.glob(pattern, { cwd: root }), await tg.glob(pattern, { cwd: root }));
    } finally {
      removeTree(root);
    }
  });
});
