/**
 * The bare-root family (issue 27): `find-file PATTERN LAST` on generated real trees, where LAST is
 * an existing directory, a name that exists nowhere, or a name the rule reads as a pattern. The
 * rule (src/cli/args.ts splitRoot, docs/cli.md): a last positional that is a directory is the root;
 * one without glob syntax that names nothing is fatal (exit 1, one line, nothing listed), as fd
 * refuses a search path that does not exist; anything else is one more pattern. Oracles no one
 * here wrote:
 *
 * - LAST a directory: fd (`-g --hidden --no-ignore -t f --case-sensitive -0 -- PATTERN LAST`)
 *   lists the same paths;
 * - LAST names nothing and holds no glob syntax: fd exits 1 too, and find-file prints no path (the
 *   README's `find-file '*.log' build -0 | xargs -0 rm` must never search the cwd instead);
 * - LAST an existing file or a name with glob syntax: both read as patterns, GNU find
 *   (`-type f ( -name A -o -name B ) -print0`) lists the same paths. fd refuses these (its second
 *   positional is always a path): a deviation docs/cli.md states.
 *
 * FF_BARE_ROOT_SEED and FF_BARE_ROOT_TREES pick the trees.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFindFile } from '../helpers/cli.js';
import { onWindows, posixOnly } from '../helpers/skip-why.js';
import { Rng, generateTree, materializeTree, type TreeSpec } from './generate.js';

const SEED = Number(process.env.FF_BARE_ROOT_SEED ?? 20261204);
const TREES = Number(process.env.FF_BARE_ROOT_TREES ?? 4);
const which = (name: string) => (onWindows ? undefined : spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() || undefined);
const fd = which('fdfind') ?? which('fd');

/** Patterns that mean the same to find-file, fd's `-g` and find's `-name` (no `?`: find counts bytes in some locales). */
const PATTERNS = ['*.ts', '*.txt', '*.js', '*.md', '*', 'a*', '*x*'];
/** Characters that make a positional glob syntax to splitRoot (and would make a name a pattern). */
const GLOB_SYNTAX = /[*?[\]{}()!@+\\]/;

type Case =
  | { kind: 'root'; pattern: string; last: string }
  | { kind: 'missing'; pattern: string; last: string }
  | { kind: 'pattern'; pattern: string; last: string };

interface Tree {
  root: string;
  cases: Case[];
}

const trees: Tree[] = [];
let base = '';

/** NUL-separated output as a sorted list, `./` dropped (find prints it; fd and find-file do not). */
function paths(stdout: string): string[] {
  return stdout
    .split('\0')
    .filter((p) => p !== '')
    .map((p) => (p.startsWith('./') ? p.slice(2) : p))
    .sort();
}

function casesFor(rng: Rng, spec: TreeSpec, root: string): Case[] {
  const cases: Case[] = [];
  const dirs = spec.dirs.filter((d) => existsSync(join(root, d)));
  // Top-level files only: as a pattern a bare name matches at any depth, as find -name does.
  const topFiles = spec.files.filter((f) => !f.includes('/') && !GLOB_SYNTAX.test(f) && !f.startsWith('-') && !f.includes('\n') && existsSync(join(root, f)));
  for (let i = 0; i < 4 && dirs.length > 0; i++) cases.push({ kind: 'root', pattern: rng.pick(PATTERNS), last: rng.pick(dirs) });
  for (let i = 0; i < 2; i++) {
    const last = `${rng.pick(['build', 'dist', 'out', 'src', 'target'])}${rng.int(1000)}${rng.pick(['', '.log', '/sub'])}`;
    cases.push({ kind: 'missing', pattern: rng.pick(PATTERNS), last });
  }
  if (topFiles.length > 0) cases.push({ kind: 'pattern', pattern: rng.pick(PATTERNS), last: rng.pick(topFiles) });
  cases.push({ kind: 'pattern', pattern: rng.pick(PATTERNS), last: `${rng.pick(['zz', 'nothing', 'q'])}${rng.int(100)}*` });
  return cases;
}

beforeAll(() => {
  if (onWindows) return;
  base = mkdtempSync(join(tmpdir(), 'ff-bare-root-'));
  const rng = new Rng(SEED);
  for (let t = 0; t < TREES; t++) {
    const root = join(base, `t${t}`);
    const spec = generateTree(rng.fork(), t === 0);
    materializeTree(root, spec);
    trees.push({ root, cases: casesFor(rng.fork(), spec, root) });
  }
}, 60_000);

afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

function findFile(tree: Tree, c: Case) {
  return runFindFile(['-0', '-s', '--', c.pattern, c.last], { cwd: tree.root });
}

describe.skipIf(onWindows)(posixOnly('a bare last positional: root, fatal, or pattern, against fd and find', 'fd and GNU find are the oracles'), () => {
  it('a directory is the root: the same paths as fd -g PATTERN DIR', () => {
    expect(fd, 'fd is an oracle of this family: .ci/run installs fd-find').toBeDefined();
    let checked = 0;
    for (const tree of trees) {
      for (const c of tree.cases.filter((x) => x.kind === 'root')) {
        const ours = findFile(tree, c);
        const theirs = spawnSync(fd!, ['-g', '--hidden', '--no-ignore', '-t', 'f', '--case-sensitive', '-0', '--', c.pattern, c.last], { cwd: tree.root, encoding: 'utf8' });
        const label = `${tree.root}: find-file ${JSON.stringify(c.pattern)} ${JSON.stringify(c.last)}`;
        expect(theirs.status, `${label}: fd ${theirs.stderr}`).toBe(0);
        expect(ours.status, `${label}: ${ours.stderr}`).toBe(0);
        expect(paths(ours.stdout), label).toEqual(paths(theirs.stdout));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(TREES);
  }, 120_000);

  it('a name that exists nowhere and holds no glob syntax is fatal: exit 1, one line naming it, nothing listed (fd exits 1 too)', () => {
    for (const tree of trees) {
      for (const c of tree.cases.filter((x) => x.kind === 'missing')) {
        const label = `${tree.root}: find-file ${JSON.stringify(c.pattern)} ${JSON.stringify(c.last)}`;
        const ours = findFile(tree, c);
        expect(ours, label).toMatchObject({ status: 1, stdout: '' });
        expect(ours.stderr.trimEnd().split('\n'), label).toHaveLength(1);
        expect(ours.stderr, label).toContain(`root ${c.last} does not exist`);
        if (fd !== undefined) expect(spawnSync(fd, ['-g', '--', c.pattern, c.last], { cwd: tree.root }).status, `${label}: fd`).toBe(1);
      }
    }
  }, 120_000);

  it('an existing file, or a name with glob syntax, is one more pattern: the same paths as find -name A -o -name B', () => {
    for (const tree of trees) {
      for (const c of tree.cases.filter((x) => x.kind === 'pattern')) {
        const label = `${tree.root}: find-file ${JSON.stringify(c.pattern)} ${JSON.stringify(c.last)}`;
        const ours = findFile(tree, c);
        const theirs = spawnSync('find', ['.', '-type', 'f', '(', '-name', c.pattern, '-o', '-name', c.last, ')', '-print0'], {
          cwd: tree.root,
          encoding: 'utf8',
          env: { ...process.env, LC_ALL: 'C.UTF-8' },
        });
        expect(ours.status, `${label}: ${ours.stderr}`).toBe(0);
        expect(paths(ours.stdout), label).toEqual(paths(theirs.stdout));
      }
    }
  }, 120_000);
});
