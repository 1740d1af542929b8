/**
 * Generated families from an adversary's findings, each checked against the real peer (tinyglobby,
 * node-glob) as the oracle: names and patterns drawn by a seeded generator, not one hand-written
 * case, so a rule that holds for the sample but not the family fails here.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as ng from 'glob';
import * as tg from 'tinyglobby';
import { afterAll, describe, expect } from 'vitest';
import * as ffGlob from '../../src/compat/glob.js';
import * as ffTiny from '../../src/compat/tinyglobby.js';
import { Rng } from '../conformance/generate.js';
import { itIf, posix } from '../helpers/skip-why.js';
import { buildTree, removeTree, sorted } from './tree.js';

const roots: string[] = [];
afterAll(() => roots.forEach(removeTree));

function tree(paths: readonly string[]): string {
  const root = buildTree(paths);
  roots.push(root);
  return root;
}

/** A name of 1-4 characters from `alphabet`, with `must` placed at a random position. */
function nameWith(rng: Rng, alphabet: string, must: string): string {
  const chars = Array.from({ length: rng.range(0, 3) }, () => rng.pick([...alphabet]));
  chars.splice(rng.int(chars.length + 1), 0, must);
  return chars.join('');
}

describe('find-file/tinyglobby absolute: a `\\` in a name or in cwd is a character off win32', () => {
  // tinyglobby itself finds nothing under a cwd holding `\\` (it reads the cwd as a pattern): its
  // oracle there is its answer in the same tree under a cwd without one, the prefix swapped back.
  itIf(posix('`\\` is a separator on win32, no name can hold it'))('names and cwds holding `\\`, as tinyglobby returns them', async () => {
    const rng = new Rng(0x5c5c);
    for (let round = 0; round < 12; round++) {
      const names = Array.from({ length: 4 }, () => nameWith(rng, 'ab.', '\\'));
      const paths = [...names.map((n) => `${n}.js`), ...names.map((n) => `d${n}/x.js`), 'plain.js'];
      const cwd = join(tree([]), nameWith(rng, 'cw', rng.pick(['\\', 'x'])));
      const twin = join(tree([]), 'twin');
      for (const dir of [cwd, twin]) {
        for (const path of paths) {
          mkdirSync(dirname(join(dir, path)), { recursive: true });
          writeFileSync(join(dir, path), '');
        }
      }
      for (const options of [{ absolute: true }, { absolute: true, onlyFiles: false }, { absolute: true, onlyDirectories: true }]) {
        for (const pattern of ['**', '*.js', '**/*\\\\*', 'd*/**']) {
          const theirs = sorted((await tg.glob(pattern, { cwd: twin, ...options })).map((p) => cwd + p.slice(twin.length)));
          const ours = ffTiny.globSync(pattern, { cwd, ...options });
          expect(sorted(ours), `${pattern} ${JSON.stringify({ cwd, ...options })}`).toEqual(theirs);
          expect(ours.every((p) => existsSync(p))).toBe(true);
        }
      }
    }
  });
});
