/**
 * Real-disk fixture trees for the adapter parity suites (test/compat/): each test shows its tree as
 * a list of paths (a trailing `/` is an empty directory), as tinyglobby's own tests do.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Rng } from '../conformance/generate.js';

/** Builds the tree in a fresh temp dir and returns it. */
export function buildTree(paths: readonly string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'ff-compat-'));
  for (const path of paths) {
    const full = join(root, path);
    if (path.endsWith('/')) mkdirSync(full, { recursive: true });
    else {
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, '');
    }
  }
  return root;
}

export function removeTree(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** The tree a newcomer tried the three ports of issue 29 on: a project with tests, dependencies and dot files. */
export const PROJECT = [
  'package.json',
  'index.js',
  '.eslintrc.js',
  '.github/workflows/ci.yml',
  'src/a.js',
  'src/a.test.js',
  'src/b.ts',
  'src/lib/c.js',
  'src/lib/c.test.js',
  'src/lib/.cache/d.js',
  'src/.hidden.js',
  'node_modules/dep/index.js',
  'node_modules/dep/lib/x.js',
  'node_modules/.bin/tool',
  'test/e.test.js',
  'docs/',
  'deep/a/b/c/d.js',
];

/** Sorted copy: the peers' order is their crawl order, which neither documents, so arrays are compared sorted (by UTF-16 code units). */
export function sorted(paths: readonly string[]): string[] {
  return [...paths].sort();
}

/**
 * A generated tree for the adapter families: 2-3 levels of directories drawn from `dirs` (`rounds`
 * draws), each holding about half of `files`, and a link of each kind: `ldir` to one of those
 * directories, `lfile.js` (dangling, in a directory) and `dang`. Returns the links' paths.
 */
export function drawLinkedTree(rng: Rng, root: string, { dirs: names, files, rounds }: { dirs: readonly string[]; files: readonly string[]; rounds: number }): string[] {
  const dirs = [''];
  for (let i = 0; i < rounds; i++) {
    const parent = rng.pick(dirs);
    if (parent.split('/').length >= 3) continue;
    const dir = parent === '' ? rng.pick(names) : `${parent}/${rng.pick(names)}`;
    if (!dirs.includes(dir)) dirs.push(dir);
  }
  for (const dir of dirs) {
    mkdirSync(join(root, dir), { recursive: true });
    for (const file of files) if (rng.chance(0.5)) writeFileSync(join(root, dir, file), '');
  }
  const links: string[] = [];
  const place = (rel: string, target: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    symlinkSync(target, join(root, rel));
    links.push(rel);
  };
  place('ldir', dirs[1 + rng.int(dirs.length - 1)] ?? 'a');
  place(`${rng.pick(dirs.filter((d) => d !== '')) ?? 'a'}/lfile.js`, 'nowhere-else.js');
  place('dang', 'gone');
  return links;
}
