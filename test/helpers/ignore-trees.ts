/**
 * Real-disk trees for the ignore-file tests (test/ignore/), and the oracle they are judged by: the
 * real ripgrep's `rg --files --hidden --no-ignore-global`, run in the search root.
 *
 * A tree is written inline, so a test shows it: each key a `/`-separated path below the tree's top,
 * its value the file's contents; a key ending in `/` is a directory (its value unused). `files(...)`
 * gives plain files that hold their own path (content search then has something to find in each).
 * An empty `.git/` directory is all ripgrep 13 needs to see a repository (checked by hand: it
 * tests that `.git` exists, a file or a directory), so no test needs `git` itself; `git init`
 * would only add its hooks and config to every listing.
 *
 * ripgrep also reads the ignore files of every parent of the search root, up to `/`, so a tree is
 * only meaningful where no parent holds one: `buildTrees` refuses a temp dir below a `.git`,
 * `.gitignore`, `.ignore` or `.rgignore`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { realRg } from './real-rg.js';

/** Path below the tree's top → contents (bytes for text that is not UTF-8, or a symlink); a path ending in `/` is a directory. */
export type TreeSpec = Readonly<Record<string, string | Uint8Array | SymlinkSpec>>;

/** A symbolic link holding `target` (relative to the link's directory). */
export interface SymlinkSpec {
  link: string;
}

/** Plain files holding their own path. */
export function files(...paths: string[]): Record<string, string> {
  return Object.fromEntries(paths.map((path) => [path, `${path}\n`]));
}

/** The token a file's contents may hold for the tree's absolute top (a worktree's `.git` file names its git dir absolutely). */
export const TOP = '<top>';

/** Writes `spec` below `top` (which must exist). */
export function writeTree(top: string, spec: TreeSpec): void {
  for (const [path, contents] of Object.entries(spec)) {
    const native = join(top, ...path.split('/'));
    if (path.endsWith('/')) {
      mkdirSync(native, { recursive: true });
      continue;
    }
    mkdirSync(dirname(native), { recursive: true });
    if (typeof contents === 'string') writeFileSync(native, contents.split(TOP).join(top));
    else if (contents instanceof Uint8Array) writeFileSync(native, contents);
    else symlinkSync(contents.link, native);
  }
}

const IGNORE_MARKERS = ['.git', '.gitignore', '.ignore', '.rgignore'];

/** The nearest parent of `dir` (itself included) holding an ignore file or `.git`, if any. */
function findIgnoreMarker(dir: string): string | undefined {
  for (let at = resolve(dir); ; at = dirname(at)) {
    for (const name of IGNORE_MARKERS) if (existsSync(join(at, name))) return join(at, name);
    if (dirname(at) === at) return undefined;
  }
}

export interface Trees {
  /** The absolute directory of the tree named `name`. */
  dirOf(name: string): string;
  /** Removes every tree. */
  cleanup(): void;
}

/** Builds each tree in its own directory below one fresh temp dir. */
export function buildTrees(prefix: string, specs: Readonly<Record<string, TreeSpec>>): Trees {
  const marker = findIgnoreMarker(tmpdir());
  if (marker !== undefined) {
    throw new Error(`${marker} is above the temp dir: ripgrep would apply it to every tree. Point TMPDIR elsewhere.`);
  }
  const top = mkdtempSync(join(tmpdir(), prefix));
  const dirs = new Map<string, string>();
  let n = 0;
  for (const [name, spec] of Object.entries(specs)) {
    // Names are for people; directories are numbered, so a name can hold anything.
    const dir = join(top, String(n++));
    mkdirSync(dir);
    writeTree(dir, spec);
    dirs.set(name, dir);
  }
  return {
    dirOf(name) {
      const dir = dirs.get(name);
      if (dir === undefined) throw new Error(`no tree named ${name}`);
      return dir;
    },
    cleanup: () => rmSync(top, { recursive: true, force: true }),
  };
}

/** What ripgrep said about one root. */
export interface RgListing {
  /** Root-relative with `/`, sorted. */
  files: string[];
  /** Its warnings (an ignore-file line it cannot parse is reported here, and skipped). */
  stderr: string;
}

/** The flags every oracle run starts with: ripgrep 13's default ignore rules, minus the global gitignore. */
const ORACLE_FLAGS = ['--hidden', '--no-ignore-global', '--no-config', '--null', '--path-separator', '/'];

/**
 * The real ripgrep in `root` with `ORACLE_FLAGS` and `argv` (`--files`, or `--files-with-matches`
 * and a query). The flags beyond the brief's `--hidden --no-ignore-global` change nothing in the
 * file set: `--no-config` (a user's config file cannot add flags), `--null` (a name may hold a
 * newline), `--path-separator /` (Windows). Run in `root` with no path argument, so ripgrep prints
 * root-relative paths; a leading `./` is stripped all the same.
 */
export function runRg(root: string, argv: readonly string[]): RgListing {
  if (realRg.path === undefined) throw new Error('ripgrep is not installed: the ignore-file oracle needs it');
  const { RIPGREP_CONFIG_PATH: _unused, ...env } = process.env;
  // stdin closed: with no path argument and a readable stdin, rg would search stdin, not the root.
  const run = spawnSync(realRg.path, [...argv, ...ORACLE_FLAGS], {
    cwd: root,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  const files = run.stdout
    .split('\0')
    .filter((path) => path !== '')
    .map((path) => (path.startsWith('./') ? path.slice(2) : path))
    .sort();
  // 1: nothing listed (every file ignored, or no match). Anything else is not an answer.
  if (run.status !== 0 && !(run.status === 1 && files.length === 0)) {
    throw new Error(`rg exited ${run.status} in ${root}: ${run.stderr}`);
  }
  return { files, stderr: run.stderr };
}

/** The sorted output of `rg --files --hidden --no-ignore-global` in `root`. */
export function rgFiles(root: string): string[] {
  return runRg(root, ['--files']).files;
}

/**
 * `rgFiles` of many roots in one ripgrep process: each root given as a path argument, its
 * listing the paths below it (root-relative, sorted). ripgrep reads each path's own ignore files and
 * those of its parents, as it does for its working directory, so a root's listing is the one
 * `rgFiles(root)` gives (test/ignore/rule-shapes.test.ts checked all its trees both ways). Perf:
 * one process instead of one a root (each spawn from a test worker costs it ~5 ms of CPU).
 */
export function rgFilesOfRoots(roots: readonly string[]): Map<string, string[]> {
  const listings = new Map<string, string[]>(roots.map((root) => [root, []]));
  if (roots.length === 0) return listings;
  const byDir = new Map(roots.map((root) => [`${root.replaceAll('\\', '/')}/`, listings.get(root)!]));
  const top = commonDir([...byDir.keys()]);
  const all = runRg(top, ['--files', ...[...byDir.keys()].map((dir) => dir.slice(top.length, -1))]).files;
  for (const path of all) {
    const cut = path.indexOf('/');
    const listing = byDir.get(top + path.slice(0, cut + 1));
    if (listing === undefined) throw new Error(`rg listed ${JSON.stringify(path)}, below none of the roots`);
    listing.push(path.slice(cut + 1));
  }
  return listings;
}

/** The directory (with a trailing `/`) every one of `dirs` (each with a trailing `/`) is directly below. */
function commonDir(dirs: readonly string[]): string {
  const parents = new Set(dirs.map((dir) => dir.slice(0, dir.slice(0, -1).lastIndexOf('/') + 1)));
  if (parents.size !== 1) throw new Error('rgFilesOfRoots: the roots must be siblings (the trees of one buildTrees)');
  return [...parents][0]!;
}

/** The first line of `rg --version`, e.g. `ripgrep 13.0.0`: the semantics are ripgrep 13's. */
export function rgVersion(): string {
  if (realRg.path === undefined) throw new Error('ripgrep is not installed: the ignore-file oracle needs it');
  const run = spawnSync(realRg.path, ['--version'], { encoding: 'utf8' });
  if (run.error) throw run.error;
  return run.stdout.split('\n')[0] ?? '';
}
