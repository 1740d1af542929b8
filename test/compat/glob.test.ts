/**
 * find-file/glob against the real node-glob (a devDependency) on the same real-disk trees: the same
 * paths in the same form, compared as sorted arrays (node-glob's order is its walk order, not
 * defined; ours is sorted by path). Links: node-glob follows one symlinked directory inside a `**`
 * by default and find-file never does (docs/compat.md), so the parity trees hold none; a link is
 * pinned on its own below.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import * as peer from 'glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escape, glob, globSync, type GlobOptionsWithFileTypesFalse as GlobOptions } from '../../src/compat/glob.js';
import { buildUndecodableTree } from '../helpers/names.js';
import { itIf, linux, posixOnly } from '../helpers/skip-why.js';
import { PROJECT, buildTree, removeTree, sorted } from './tree.js';

let root: string;
beforeAll(() => {
  root = buildTree(PROJECT);
});
afterAll(() => removeTree(root));

async function both(patterns: string | string[], options: GlobOptions = {}): Promise<{ ours: string[]; theirs: string[] }> {
  const full = { cwd: root, ...options };
  const theirs = sorted(await peer.glob(patterns, full as peer.GlobOptionsWithFileTypesFalse));
  const ours = await glob(patterns, full);
  expect(sorted(globSync(patterns, full)), 'sync form').toEqual(sorted(ours));
  return { ours: sorted(ours), theirs };
}

describe('find-file/glob: the three ports of issue 29 give the same arrays as node-glob', () => {
  it("{ cwd, ignore: ['**/node_modules/**'], dot: false }", async () => {
    const { ours, theirs } = await both('**/*.js', { ignore: ['**/node_modules/**'], dot: false });
    expect(theirs).toContain('src/lib/c.js');
    expect(ours).toEqual(theirs);
  });

  it("['src/**/*.js'] ignoring '**/*.test.js' with absolute (node-glob has no ! in patterns: the negation is its ignore)", async () => {
    const { ours, theirs } = await both(['src/**/*.js'], { ignore: '**/*.test.js', absolute: true });
    expect(theirs).toContain(join(root, 'src/lib/c.js'));
    expect(ours).toEqual(theirs);
  });

  it('directories only (node-glob: a pattern ending in /)', async () => {
    const { ours, theirs } = await both('**/');
    expect(theirs).toContain('src/lib');
    expect(ours).toEqual(theirs);
  });

  it('dot: false where a pattern names a dot folder: its files, and no dot name a wildcard would match', async () => {
    const { ours, theirs } = await both(['.github/**', 'src/**/*.js'], { dot: false, nodir: true });
    expect(theirs).toEqual(['.github/workflows/ci.yml', 'src/a.js', 'src/a.test.js', 'src/lib/c.js', 'src/lib/c.test.js']);
    expect(ours).toEqual(theirs);
  });

  it('** names cwd itself (.), and x/** names x, as in node-glob', async () => {
    const { ours, theirs } = await both(['**', 'src/**'], { dot: true });
    expect(theirs).toEqual(expect.arrayContaining(['.', 'src']));
    expect(ours).toEqual(theirs);
  });
});

describe('find-file/glob: the verdict, the refusals, the links', () => {
  it('carries the FindResult as a non-enumerable result', async () => {
    const paths = await glob('*.json', { cwd: root });
    expect(paths).toEqual(['package.json']);
    expect(paths.result.complete).toBe(true);
    expect(Object.keys(paths)).toEqual(['0']);
  });

  it("'' matches nothing, [] nothing, '.' only cwd, as node-glob; each complete once cwd was read", async () => {
    for (const [pattern, expected] of [['', []], [[], []], [['', '*.json'], ['package.json']], ['.', ['.']], ['./', ['.']]] as [string | string[], string[]][]) {
      const ours = await glob(pattern, { cwd: root });
      expect([...ours], JSON.stringify(pattern)).toEqual(expected);
      expect(sorted(await peer.glob(pattern, { cwd: root })), JSON.stringify(pattern)).toEqual(expected);
      expect(ours.result.complete, JSON.stringify(pattern)).toBe(true);
    }
  });

  it('a cwd that does not exist rejects with ENOENT, where node-glob returns [] (docs/compat.md)', async () => {
    const missing = join(root, 'no-such-dir');
    expect(await peer.glob('**', { cwd: missing })).toEqual([]);
    await expect(glob('**', { cwd: missing })).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses follow: true and an unknown option (withFileTypes and stat: glob-entries.test.ts)', async () => {
    await expect(glob('**', { cwd: root, follow: true })).rejects.toMatchObject({ code: 'FF_INVALID_OPTION' });
    expect(() => globSync('**', { cwd: root, realpath: true } as GlobOptions)).toThrow(expect.objectContaining({ code: 'FF_UNKNOWN_OPTION' }));
  });

  it('rejects an aborted search with the signal reason, as node-glob does', async () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(glob('**', { cwd: root, signal: controller.signal })).rejects.toThrow('stop');
    await expect(peer.glob('**', { cwd: root, signal: controller.signal })).rejects.toThrow('stop');
  });

  it('lists a link as node-glob does, and never enters a linked directory (node-glob follows one inside **)', async () => {
    const tree = buildTree(['real/x.js']);
    try {
      symlinkSync('real', join(tree, 'dir-link'));
      symlinkSync('real/x.js', join(tree, 'file-link.js'));
      const theirs = sorted(await peer.glob('**', { cwd: tree }));
      const ours = sorted(await glob('**', { cwd: tree }));
      expect(ours).toEqual(['.', 'dir-link', 'file-link.js', 'real', 'real/x.js']);
      expect(theirs).toEqual(ours); // a leading ** follows no link in node-glob either
      expect(sorted(await peer.glob('*/*.js', { cwd: tree }))).toEqual(['dir-link/x.js', 'real/x.js']);
      expect(sorted(await glob('*/*.js', { cwd: tree }))).toEqual(['real/x.js']);
    } finally {
      removeTree(tree);
    }
  });
});

describe('find-file/glob: escape, as node-glob exports it (gemini-cli escapes a pattern naming an existing file)', () => {
  // Next.js route folders, parentheses, wildcards and a backslash in names: each found by its escaped name alone.
  const NAMES = ['app/[id]/page.tsx', 'app/(group)/a.ts', 'q?.txt', 'st*r.md', 'x[!a].js', 'p]q', '+(z).js'];
  const BACKSLASH = 'back\\slash.txt';

  it('writes what node-glob writes, and glob finds exactly that path, as node-glob does', async () => {
    const tree = buildTree(NAMES);
    try {
      if (process.platform !== 'win32') writeFileSync(join(tree, BACKSLASH), '');
      for (const name of process.platform === 'win32' ? NAMES : [...NAMES, BACKSLASH]) {
        // find-file reads a backslash in a pattern as a separator on win32: there escape writes classes, node-glob's windowsPathsNoEscape form.
        const theirs = peer.escape(name, { windowsPathsNoEscape: process.platform === 'win32' });
        expect(escape(name), name).toBe(theirs);
        expect([...(await glob(escape(name), { cwd: tree }))], name).toEqual([name.replaceAll('/', sep)]);
        expect(await peer.glob(theirs, { cwd: tree, windowsPathsNoEscape: process.platform === 'win32' }), name).toEqual([name.replaceAll('/', sep)]);
      }
      for (const options of [{ windowsPathsNoEscape: true }, { windowsPathsNoEscape: false }, { magicalBraces: true, windowsPathsNoEscape: true }, { magicalBraces: true, windowsPathsNoEscape: false }]) {
        expect(escape('a{b,c}[d](e)*?\\f', options), JSON.stringify(options)).toBe(peer.escape('a{b,c}[d](e)*?\\f', options));
      }
    } finally {
      removeTree(tree);
    }
  });
});

describe('find-file/glob: the honest verdict where the peer answers silently (a documented deviation)', () => {
  itIf(linux('names that are not UTF-8 are a Linux case'))(posixOnly('a folder that cannot be opened: node-glob drops what is in it without a word; the array leaves out what no one can open, and result says complete: false and names both', 'names that are not UTF-8 are a Linux case'), async () => {
    const dir = buildUndecodableTree('ff-compat-bytes-');
    try {
      const theirs = sorted(await peer.glob('**', { cwd: dir }));
      const ours = await glob('**', { cwd: dir });
      expect(theirs).toContain('f\uFFFD.txt'); // a path that cannot be opened, returned as if it could
      expect(theirs.some((p) => p.includes('in.txt'))).toBe(false); // the folder's file, dropped in silence
      expect(sorted(ours)).toEqual(['.', 'ok.txt', 'real-\uFFFD.txt']);
      expect(ours.result.complete).toBe(false);
      expect(ours.result.skipped.map((s) => s.path)).toEqual(expect.arrayContaining(['bad\uFFFD', 'f\uFFFD.txt']));
    } finally {
      removeTree(dir);
    }
  });
});

describe('x/** under nodir: the files below x only, never a file that x names', () => {
  // An adversarial run: `*/**` with nodir returned the top-level `index.js`: `x/**` names `x` too
  // (written `x/.`), and with a wildcard `x` that is a file. node-glob names only directories there,
  // and under nodir none of them is returned.
  it.each(['*/**', 'src/*/**', '*.js/**', '**/lib/**', 'src/**', '*/*/**', 'index.js/**'])('%s', async (pattern) => {
    const { ours, theirs } = await both(pattern, { nodir: true });
    expect(ours).toEqual(theirs);
  });
});

describe('nodir and a brace set before `/**`: each literal alternative names its file, as node-glob expands braces first', () => {
  // An adversarial run: `{lib,index.js}/**` with nodir took the whole set as a wildcard, so the
  // file `index.js` (node-glob: returned) was missing, complete. Generated sets of literal and
  // wildcard alternatives, at the top and one level down, against node-glob.
  const TREE = ['top.js', 'b.txt', 'real/sub/f.js', 'real/g.js', 'd/e.js', 'd/f/h.js', 'x1', 'x2/y.js'];
  const NAMES = ['top.js', 'real', 'b.txt', 'r*', '*.js', 'missing', 'x?', 'd'];
  const sets = NAMES.flatMap((a, i) => NAMES.slice(i + 1).map((b) => `{${a},${b}}`));
  const cases = [...sets.map((s) => `${s}/**`), ...sets.slice(0, 12).map((s) => `d/${s.replace('real', 'f').replace('top.js', 'e.js')}/**`), '{top.js,{b.txt,real}}/**', 'x{1,2}/**', '{t,x}*/**', '{top.js,b.txt}/**/**'];
  let treeRoot: string;
  beforeAll(() => {
    treeRoot = buildTree(TREE);
  });
  afterAll(() => removeTree(treeRoot));

  it(`equals node-glob on ${cases.length} patterns with nodir, async and sync; without nodir, a superset (docs/compat.md: a wildcard \`x\` in \`x/**\` names files too)`, async () => {
    const failures: string[] = [];
    for (const pattern of cases) {
      for (const nodir of [true, false]) {
        const theirs = sorted(await peer.glob(pattern, { cwd: treeRoot, nodir }));
        for (const got of [await glob(pattern, { cwd: treeRoot, nodir }), globSync(pattern, { cwd: treeRoot, nodir })]) {
          const same = nodir ? JSON.stringify(sorted(got)) === JSON.stringify(theirs) : theirs.every((p) => got.includes(p));
          if (!same || !got.result.complete) failures.push(`${pattern} nodir ${nodir}: ours ${JSON.stringify(sorted(got))}, node-glob ${JSON.stringify(theirs)}`);
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });
});
