/**
 * node-glob's options that rewrite a pattern or shape a returned path (`windowsPathsNoEscape`,
 * `allowWindowsEscape`, `matchBase`, `posix`, `dotRelative`, `mark`), in find-file/glob, against
 * the real node-glob: generated trees (directories, dot directories, files, links to a directory,
 * to a file, dangling) and generated patterns, each option alone and with the others they meet in
 * hosts. The one difference allowed is the link policy (docs/compat.md): node-glob's `**` goes one
 * level into a linked directory, find-file never enters a link, and names it in the verdict.
 */
import { lstatSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ng from 'glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ff from '../../src/compat/glob.js';
import { Rng } from '../conformance/generate.js';
import { drawLinkedTree } from './tree.js';

const TREES = 5;
const PATTERNS_PER_TREE = 40;
let base: string;
const trees: { root: string; links: string[]; patterns: string[] }[] = [];

const DIRS = ['a', 'b', 'src', 'lib', '.hid', 'ab'];
const FILES = ['a.js', 'b.ts', 'ab.js', 'x.md', '.rc', 'lib.js'];

/** A pattern of 1-3 segments; `\\` between them when `backslashes` (for `windowsPathsNoEscape`). */
function drawPattern(rng: Rng, backslashes: boolean): string {
  const SEGMENTS = ['*', '**', '?', 'a*', '*.js', '{a,b}*', '[ab]*', 'src', 'lib', 'a', '.hid', '*.{js,ts}', 'l*', '.*'];
  const segments = Array.from({ length: rng.range(1, 3) }, () => rng.pick(SEGMENTS));
  const joined = segments.join(backslashes && rng.chance(0.7) ? '\\' : '/');
  return rng.chance(0.1) ? `./${joined}` : rng.chance(0.1) ? `${joined}/` : joined;
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'ff-glob-paths-'));
  const rng = new Rng(0x70617468);
  for (let t = 0; t < TREES; t++) {
    const root = join(base, `t${t}`);
    mkdirSync(root);
    const links = drawLinkedTree(rng, root, { dirs: DIRS, files: FILES, rounds: 8 });
    const patterns = Array.from({ length: PATTERNS_PER_TREE }, (_, i) => drawPattern(rng, i % 3 === 0));
    trees.push({ root, links, patterns });
  }
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** node-glob's path without the options' marks: the root-relative path it names, for the link rule. */
function named(path: string): string {
  return path.replace(/^\.\//, '').replace(/\/$/, '');
}

const OPTION_SETS: ng.GlobOptions[] = [
  { windowsPathsNoEscape: true },
  { allowWindowsEscape: false },
  { matchBase: true },
  { matchBase: true, dot: true, nodir: true },
  { posix: true },
  { dotRelative: true },
  { mark: true },
  { mark: true, dotRelative: true },
  { mark: true, absolute: true },
  { mark: true, stat: true, dot: true },
  { dotRelative: true, matchBase: true, windowsPathsNoEscape: true, ignore: ['**\\lib\\**', '*.md'] },
];

describe('find-file/glob answers node-glob\'s path options as node-glob does', () => {
  for (const options of OPTION_SETS) {
    it(`${TREES} generated trees, ${PATTERNS_PER_TREE} generated patterns each, ${JSON.stringify(options)}`, async () => {
      const failures: string[] = [];
      let answered = 0;
      for (const { root, links, patterns } of trees) {
        const belowLink = (path: string) => links.some((link) => named(path).startsWith(`${link}/`) || named(path.slice(root.length + 1)).startsWith(`${link}/`));
        for (const pattern of patterns) {
          const full = { ...options, cwd: root } as ng.GlobOptions & ff.GlobOptions;
          const theirs = (await ng.glob(pattern, full)) as string[];
          const ours = await ff.glob(pattern, full as ff.GlobOptionsWithFileTypesFalse);
          const missing = theirs.filter((p) => !ours.includes(p) && !belowLink(p));
          const extra = ours.filter((p) => !theirs.includes(p));
          if (missing.length > 0 || extra.length > 0) failures.push(`${JSON.stringify(pattern)} in ${root}: missing ${JSON.stringify(missing)}, extra ${JSON.stringify(extra)}`);
          // What the link policy left out is named: never an empty place read as "nothing there".
          if (theirs.some(belowLink) && ours.result.linksOnTheWay.length === 0) failures.push(`${JSON.stringify(pattern)} in ${root}: below a link, and no link named`);
          if (theirs.length > 0) answered++;
        }
      }
      expect(failures.slice(0, 10)).toEqual([]);
      expect(answered).toBeGreaterThan(TREES * PATTERNS_PER_TREE * 0.25);
    });
  }

  it('mark puts the separator after a directory and its own ./, never after a link to one', async () => {
    const { root } = trees[0]!;
    const marked = await ff.glob('**', { cwd: root, mark: true });
    expect(marked[0]).toBe('./');
    for (const path of marked.slice(1)) expect(path.endsWith('/')).toBe(lstatSync(join(root, path)).isDirectory());
    expect(marked).toContain('ldir');
  });

  it('windowsPathsNoEscape: false is node-glob\'s default off Windows, accepted; an unknown option is still refused', () => {
    const { root } = trees[0]!;
    expect(ff.globSync('*', { cwd: root, windowsPathsNoEscape: false }).length).toBeGreaterThan(0);
    expect(() => ff.globSync('*', { cwd: root, nobrace: true } as ff.GlobOptions)).toThrow(expect.objectContaining({ code: 'FF_UNKNOWN_OPTION' }));
  });
});
