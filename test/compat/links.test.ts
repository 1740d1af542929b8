/**
 * Patterns that run through a symlinked directory. Both peers read a literal path through a link
 * (tinyglobby even with `followSymbolicLinks: false`, node-glob with `follow: false`: `ldir/*`
 * gives `ldir/g.js`); find-file never follows a link below the root (docs/compat.md), so the
 * adapters return less there. What they must never do is return less in silence: every path the
 * peer returns and the adapter does not lies at or below a link the adapter's `result` names, in
 * `linksOnTheWay` or `linkMatches`. An adversarial run: node-glob `ldir/**` returned `['ldir']`
 * and named nothing, so `ldir/g.js` looked absent from a complete answer.
 */
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import * as nodeGlob from 'glob';
import * as tinyglobby from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { glob as ourGlob, globSync as ourGlobSync } from '../../src/compat/glob.js';
import { glob as ourTiny, globSync as ourTinySync } from '../../src/compat/tinyglobby.js';
import type { FindResult } from '../../src/result.js';
import { posixOnly } from '../helpers/skip-why.js';
import { buildTree, removeTree, sorted } from './tree.js';

// `*/**` is left to its own deviation row (a wildcard `x/**` naming a file, docs/compat.md).
const PATTERNS = ['*/*/', '*/**/', 'ldir/*', 'ldir/**', 'ldir/*.js', 'ldir/deep/*', 'ldir/deep/**', 'l*/g.js', '*/g.js', '*/*', '**', '**/*.js', 'sub/*/g.js', 'sub/lnk/**', 'sub/**', 'ldir', '*', 'ldir/deep', '{ldir,real}/*.js'];

let root: string;
beforeAll(() => {
  root = buildTree(['real/g.js', 'real/deep/f.js', 'sub/x.js', 'top.js']);
  symlinkSync('real', join(root, 'ldir'));
  symlinkSync('../real', join(root, 'sub/lnk'));
  symlinkSync('real/g.js', join(root, 'lfile.js'));
  symlinkSync('nowhere', join(root, 'dang'));
});
afterAll(() => removeTree(root));

/** The peer's paths the adapter did not return that no link named in its result accounts for, and the adapter's paths the peer did not return. */
function unexplained(theirs: readonly string[], ours: string[] & { result: FindResult }): string[] {
  const named = [...ours.result.linksOnTheWay, ...ours.result.linkMatches];
  const bare = (p: string) => p.replace(/\/$/, '');
  const missing = theirs.filter((p) => !ours.includes(p)).filter((p) => !named.some((link) => bare(p) === link || bare(p).startsWith(`${link}/`)));
  const extra = ours.filter((p) => !theirs.includes(p));
  return [...missing.map((p) => `missing, unnamed: ${p}`), ...extra.map((p) => `extra: ${p}`)];
}

describe.skipIf(process.platform === 'win32')(posixOnly('a path through a symlinked directory: less than the peer, never in silence', 'symlinks need privileges on Windows'), () => {
  it(`find-file/glob: ${PATTERNS.length} patterns (and nodir) against node-glob with follow: false, async and sync`, async () => {
    const failures: string[] = [];
    let below = 0;
    for (const pattern of PATTERNS) {
      for (const options of [{}, { nodir: true }]) {
        const full = { cwd: root, follow: false, ...options };
        const theirs = sorted(await nodeGlob.glob(pattern, full));
        below += theirs.filter((p) => /^(ldir|sub\/lnk)\//.test(p)).length;
        for (const ours of [await ourGlob(pattern, full), ourGlobSync(pattern, full)]) {
          for (const f of unexplained(theirs, ours)) failures.push(`${pattern} ${JSON.stringify(options)}: ${f}`);
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(below).toBeGreaterThan(10); // the family is about paths the peer finds through a link
  });

  it(`find-file/tinyglobby: ${PATTERNS.length} patterns (and onlyFiles: false) against tinyglobby with followSymbolicLinks: false, async and sync`, async () => {
    const failures: string[] = [];
    let below = 0;
    for (const pattern of PATTERNS) {
      for (const options of [{}, { onlyFiles: false }]) {
        const full = { cwd: root, followSymbolicLinks: false, ...options };
        const theirs = sorted(await tinyglobby.glob(pattern, full));
        below += theirs.filter((p) => /^(ldir|sub\/lnk)\//.test(p)).length;
        for (const ours of [await ourTiny(pattern, full), ourTinySync(pattern, full)]) {
          for (const f of unexplained(theirs, ours)) failures.push(`${pattern} ${JSON.stringify(options)}: ${f}`);
        }
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(below).toBeGreaterThan(5);
  });

  it('node-glob ldir/**: the link returned by its own path, and named in linksOnTheWay (nothing below it was read)', async () => {
    const ours = await ourGlob('ldir/**', { cwd: root });
    expect([...ours]).toEqual(['ldir']);
    expect(ours.result.linksOnTheWay).toEqual(['ldir']);
    expect(ours.result.linkOnTheWayCount).toBe(1);
    // A link to a file is no place the walk could have entered.
    expect((await ourGlob('lfile.js/**', { cwd: root })).result.linksOnTheWay).toEqual([]);
  });

  it('node-glob, a pattern ending in /: links returned by their own path as node-glob returns them (all but under **/), async and sync', async () => {
    // An adversarial run: `*/` gave `['real']`, `ldir` only in linkMatches, where node-glob returns it.
    const DIR_ONLY = ['*/', '**/', 'ldir/', 'sub/*/', '**/lnk/', 'l*/', 'lfile.js/', 'dang/', '{ldir,real}/', 'sub/**/', '**/*/', 'd*/', '?dir/'];
    const failures: string[] = [];
    for (const pattern of DIR_ONLY) {
      const theirs = sorted(await nodeGlob.glob(pattern, { cwd: root }));
      for (const ours of [sorted(await ourGlob(pattern, { cwd: root })), sorted(ourGlobSync(pattern, { cwd: root }))]) {
        if (JSON.stringify(ours) !== JSON.stringify(theirs)) failures.push(`${pattern}: ours ${JSON.stringify(ours)}, node-glob ${JSON.stringify(theirs)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
