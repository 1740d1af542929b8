/**
 * The folder the Windows runtime runs in, readable by the unprivileged user that runs Wine (CI's
 * clone may sit under a 0700 /root): the built package as an installed dependency
 * (`node_modules/find-file`: dist, bin, package.json), its production dependencies at the same
 * places relative to it, the Windows test set, node.exe, and an `out/` folder the user may write.
 * The tests import `find-file` and `find-file/agent` by name, so they run against the package's
 * `exports`, as a user's code would.
 */
import { chmodSync, chownSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/** The peers the adapters are checked against on Windows (test/windows/compat.win.mjs). */
const ORACLES = ['glob', 'tinyglobby'];

/** Makes a tree readable (and traversable) by everyone. */
function openUp(path) {
  const stats = statSync(path);
  chmodSync(path, stats.isDirectory() || stats.mode & 0o111 ? 0o755 : 0o644);
  if (stats.isDirectory()) for (const name of readdirSync(path)) openUp(join(path, name));
}

/** Where Node would find `name` from `from`: node_modules folders up to the project. */
function locatePackage(project, from, name) {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === project || dirname(dir) === dir) return undefined;
  }
}

/**
 * Copies the production dependencies of `roots` (package folders), and theirs, each to the same
 * place relative to the project: the project's own, and the peers the set checks the adapters
 * against (`ORACLES`, with what they need at run time).
 */
function copyRuntimeDependencies(project, dest, roots = [project]) {
  const copied = new Set();
  const queue = [...roots];
  while (queue.length > 0) {
    const dir = queue.shift();
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const name of Object.keys(manifest.dependencies ?? {})) {
      const found = locatePackage(project, dir, name);
      if (found === undefined || copied.has(found)) continue; // an optional dependency not installed
      copied.add(found);
      cpSync(found, join(dest, relative(project, found)), { recursive: true, dereference: true });
      queue.push(found);
    }
  }
}

/**
 * Builds the sandbox. `uid`: the user that runs Wine, given `out/` (undefined: ourselves).
 * Returns its folders and the test files, relative to it with `\`.
 */
export function buildSandbox({ project, nodeExe, uid }) {
  if (!existsSync(join(project, 'dist', 'index.js'))) throw new Error('dist/ is missing: run npm run build first');
  const dir = mkdtempSync(join(tmpdir(), 'ff-win-'));
  const pkg = join(dir, 'node_modules', 'find-file');
  mkdirSync(pkg, { recursive: true });
  for (const part of ['dist', 'bin', 'package.json']) cpSync(join(project, part), join(pkg, part), { recursive: true });
  copyRuntimeDependencies(project, dir);
  // The real node-glob and tinyglobby (devDependencies), so test/windows/compat.win.mjs compares the
  // adapters with them on this runtime, where their answers differ from Linux (separators, drives).
  const oracles = ORACLES.map((name) => locatePackage(project, project, name)).filter((found) => found !== undefined);
  for (const found of oracles) cpSync(found, join(dir, relative(project, found)), { recursive: true, dereference: true });
  copyRuntimeDependencies(project, dir, oracles);
  const testDir = join(dir, 'test');
  const tests = [];
  mkdirSync(testDir);
  for (const name of readdirSync(join(project, 'test', 'windows'))) {
    if (!name.endsWith('.mjs')) continue;
    copyFileSync(join(project, 'test', 'windows', name), join(testDir, name));
    if (name.endsWith('.win.mjs')) tests.push(`test\\${name}`);
  }
  copyFileSync(nodeExe, join(dir, 'node.exe'));
  openUp(dir);
  const out = join(dir, 'out');
  mkdirSync(out, { mode: 0o755 });
  if (uid !== undefined && uid !== process.getuid?.()) chownSync(out, uid, uid);
  return { dir, out, fixtures: join(dir, 'fixtures'), home: join(dir, 'home'), tests: tests.sort() };
}
