/**
 * The root rule's two honest readings (src/cli/args.ts splitRoot, docs/cli.md "Patterns and the
 * root"), found by an adversarial run:
 *
 * - A last positional that names an existing file is a pattern that finds that file, as `rg TODO
 *   notes.md` reads it. A name that reads as a glob not matching itself (`a{1,2}.txt` expands,
 *   `b\x.txt` escapes, `?(x).txt` is a group) was never searched, and the summary said "the text
 *   does not occur". Generated: names holding each piece of glob syntax, beside decoys its glob
 *   reading matches, every one asked of `rg -l` (the oracle: a path argument is that file).
 * - A last positional that exists but cannot be looked at (EACCES under a locked folder, as
 *   nobody; ELOOP) was "root ... does not exist (ENOENT)", status 1: "not read" told as "not
 *   there". It is the root, and the search says why it read nothing, as `--root` says it.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareAsUser, releaseAsUser, runFindFile } from '../helpers/cli.js';
import { realRg } from '../helpers/real-rg.js';
import { onWindows, posixOnly } from '../helpers/skip-why.js';

/** Names that read as globs and do not match themselves, each piece of syntax in a few places. */
const NAMES = ['a{1,2}.txt', '{x,y}', 'pre{a..c}post', 'b\\x.txt', '\\{q}.md', '?(x).txt', '*(y)z', '@(k|l).log', '!(m)', 'w+(v).c', 'br[ab]ce.txt', 'n[!]].txt'];

let base = '';

beforeAll(() => {
  if (onWindows) return;
  base = mkdtempSync(join(tmpdir(), 'ff-bare-honest-'));
  chmodSync(base, 0o755);
  NAMES.forEach((name, i) => {
    const dir = join(base, `t${i}`);
    mkdirSync(dir);
    writeFileSync(join(dir, name), 'TODO here\n');
    // Decoys the glob reading finds: the named file must be found beside them, not instead.
    for (const decoy of ['a1.txt', 'x', 'preapost', 'bx.txt', 'x.txt', 'z', 'k.log', 'y', 'wv.c', 'brace.txt', 'n].txt']) writeFileSync(join(dir, decoy), 'nothing\n');
  });
  const locked = join(base, 'locked');
  mkdirSync(join(locked, 'sub'), { recursive: true });
  writeFileSync(join(locked, 'sub', 'a.md'), 'TODO\n');
  chmodSync(locked, 0o000);
  symlinkSync('loop', join(base, 'loop'));
  prepareAsUser();
}, 60_000);

afterAll(() => {
  if (base === '') return;
  chmodSync(join(base, 'locked'), 0o755);
  rmSync(base, { recursive: true, force: true });
  releaseAsUser();
});

describe.skipIf(onWindows)(posixOnly('the root rule never reads "not read" as "not there"', 'glob syntax in names and a nobody user'), () => {
  it('an existing file named last is searched, whatever its name reads as a glob: as rg -l finds it', () => {
    expect(realRg.path, 'ripgrep is the oracle: .ci/run installs it').toBeDefined();
    NAMES.forEach((name, i) => {
      const cwd = join(base, `t${i}`);
      const theirs = spawnSync(realRg.path!, ['-l', '--', 'TODO', name], { cwd, encoding: 'utf8' });
      expect(theirs.stdout.trim(), `rg -l TODO ${name}`).toBe(name);
      const content = runFindFile(['-l', '--contains', 'TODO', '--', name], { cwd });
      expect(content.status, `${name}: ${content.stderr}`).toBe(0);
      expect(content.stdout.split('\n'), `find-file -l --contains TODO ${name}`).toContain(name);
      expect(content.stderr).not.toContain('does not occur');
      // A listing: the last of two positionals, an existing file, lists itself beside the first's matches.
      const listing = runFindFile(['-0', '--', 'k.log', name], { cwd });
      expect(listing.status, `${name}: ${listing.stderr}`).toBe(0);
      // -0 writes paths under the current directory as fd does, from `./`.
      expect(listing.stdout.split('\0'), `find-file k.log ${name}`).toEqual(expect.arrayContaining([`./${name}`, './k.log']));
    });
  });

  it('a last positional that cannot be looked at is the root, and the search says why (EACCES as nobody, ELOOP)', () => {
    const cases = [
      { args: ['*.md', 'locked/sub'], asUser: true, code: 'EACCES' },
      { args: ['--contains', 'TODO', 'locked/sub'], asUser: true, code: 'EACCES' },
      { args: ['*.md', 'loop'], asUser: false, code: 'ELOOP' },
    ];
    for (const { args, asUser, code } of cases) {
      const run = runFindFile(args, { cwd: base, asUser });
      const label = `find-file ${args.join(' ')}`;
      expect(run.status, `${label}: ${run.stderr}`).toBe(0);
      expect(run.stderr, label).toContain('INCOMPLETE');
      expect(run.stderr, label).toContain(`(${code})`);
      expect(run.stderr, label).not.toMatch(/does not exist|does not occur|no matching file exists/);
    }
  });

  it('a last positional that names nothing is still fatal, status 1, as fd', () => {
    const run = runFindFile(['*.md', 'missing-dir'], { cwd: base });
    expect(run).toMatchObject({ status: 1, stdout: '' });
    expect(run.stderr).toContain('root missing-dir does not exist (ENOENT)');
  });
});
