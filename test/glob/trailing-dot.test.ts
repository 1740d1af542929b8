/**
 * A last `.` segment makes an alternative directory-only, as a trailing `/` does: `x/.` exists only
 * when `x` is a directory (bash's `*` + `/.` gives `src/.`, never `a.js/.`). Dropped with the inner
 * `.` segments, it read as `x` and matched files. Bash is the oracle: generated trees and generated
 * `x/.` excludes, each checked against the directories bash's glob of the same text names.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { findFilesSync } from '../../src/find.js';
import { Rng } from '../conformance/generate.js';
import { buildTree, removeTree, sorted } from '../compat/tree.js';
import { itIf, posix } from '../helpers/skip-why.js';

const roots: string[] = [];
afterAll(() => roots.forEach(removeTree));

/** What bash's glob (globstar, dotglob, extglob) gives for `pattern` under `cwd` (a word with no wildcard: when it exists), with the `/.` taken off. */
function bashDirs(cwd: string, pattern: string): string[] {
  const run = spawnSync('bash', ['-c', 'shopt -s globstar dotglob nullglob extglob; cd "$1" && for f in $2; do [ -e "$f" ] && printf "%s\\0" "$f"; done; exit 0', 'bash', cwd, pattern], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout.split('\0').filter((p) => p !== '').map((p) => p.replace(/(?:\/+\.)+\/*$/, ''));
}

function generatedCase(rng: Rng): { paths: string[]; excludes: string[] } {
  const paths = new Set<string>();
  for (let i = 0; i < 8; i++) {
    const path = Array.from({ length: rng.range(1, 3) }, () => rng.pick(['a', 'b', 'c'])).join('/');
    if (![...paths].some((p) => p === path || p.startsWith(`${path}/`) || path.startsWith(`${p}/`))) paths.add(path);
  }
  const segment = () => rng.pick(['a', 'b', 'c', '*', '?', '[ab]', '**']);
  const excludes = Array.from({ length: 6 }, () => Array.from({ length: rng.range(1, 3) }, segment).join('/') + rng.pick(['/.', '/./.', '/.//']));
  return { paths: [...paths], excludes };
}

describe('a pattern ending in a `.` segment names directories only', () => {
  itIf(posix('bash is the oracle'))('an exclude `x/.` leaves out the directories bash names for it and what is below them, never a file `x`', () => {
    const rng = new Rng(0x2f2e);
    for (let round = 0; round < 25; round++) {
      const { paths, excludes } = generatedCase(rng);
      const root = buildTree(paths);
      roots.push(root);
      const all = findFilesSync({ root, pattern: '**', type: 'any' }).matches;
      for (const exclude of excludes) {
        const dirs = bashDirs(root, exclude);
        const expected = all.filter((p) => !dirs.some((d) => p === d || p.startsWith(`${d}/`)));
        expect(sorted(findFilesSync({ root, pattern: '**', type: 'any', exclude: [exclude] }).matches), `${exclude} over ${paths.join(' ')}`).toEqual(sorted(expected));
      }
    }
  });

  it('a pattern `x/.` is refused as `x/` is (find-file returns files: `type: "directory"` with `x` names the directory)', () => {
    const root = buildTree(['a/b.js', 'c.js']);
    roots.push(root);
    for (const pattern of ['*/.', 'a/.', '**/.', 'a/./', '{a/.,c.js}']) {
      expect(() => findFilesSync({ root, pattern }), pattern).toThrow(expect.objectContaining({ code: 'FF_INVALID_PATTERN' }));
    }
  });
});

/** A name holding glob syntax that its literal text also names: `[a-c].md`, `x(1).js`, `[id]`. */
function syntaxName(rng: Rng): string {
  const plain = () => rng.pick(['a', 'b', 'c', 'id', 'x']);
  return rng.pick([`[${plain()}]`, `[a-c]`, `${plain()}[${plain()}]`, `@(${plain()})`, `+(${plain()})`, `${plain()}(1)`, `[!a]`]) + rng.pick(['', '.md']);
}

describe('an exclude is read as a glob only, never by its literal text', () => {
  itIf(posix('bash is the oracle'))("an exclude naming a path by its literal text leaves out only what bash's glob of it names", () => {
    const rng = new Rng(0x5b5d);
    for (let round = 0; round < 25; round++) {
      const names = Array.from({ length: 4 }, () => syntaxName(rng));
      // Every name at the top and in `d/`: bash's glob at the top sees each base name a slash-less exclude can name.
      const paths = [...new Set([...names, ...names.map((n) => `d/${n}`), 'a', 'b.md', 'c', 'id', 'xa', 'x1'])];
      const root = buildTree(paths);
      roots.push(root);
      const all = findFilesSync({ root, pattern: '**' }).matches;
      for (const exclude of [...names, ...names.map((n) => `d/${n}`)]) {
        const named = bashDirs(root, exclude);
        // A slash-less exclude leaves out the names it matches at any depth, and a directory it
        // names with what is below it (docs/contract.md).
        const leftOut = (p: string) => (exclude.includes('/') ? named.some((n) => p === n || p.startsWith(`${n}/`)) : p.split('/').some((s) => named.includes(s)));
        const expected = all.filter((p) => !leftOut(p));
        expect(sorted(findFilesSync({ root, pattern: '**', exclude: [exclude] }).matches), `${exclude} over ${paths.join(' ')}`).toEqual(sorted(expected));
      }
    }
  });
});
