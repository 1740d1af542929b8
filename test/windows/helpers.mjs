/**
 * Shared by the Windows set (run by node.exe, under Wine or natively: scripts/windows/run.mjs).
 * The host-made tree comes from the manifest `FF_WIN_FIXTURES` names (fixtures.mjs); trees a
 * test can make itself are made here, in the runtime's own temp folder, so each test shows them.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

if (process.platform !== 'win32') throw new Error(`the Windows set runs on Windows (node.exe), not on ${process.platform}: npm run test:windows`);

/** The host-made tree: `{ runtime, tree, outside, denied, links, unmade }` (fixtures.mjs). */
export function hostFixtures() {
  const manifest = process.env.FF_WIN_FIXTURES;
  if (manifest === undefined) throw new Error('FF_WIN_FIXTURES is not set: run the set with npm run test:windows');
  return JSON.parse(readFileSync(manifest, 'utf8'));
}

/** True under Wine (the manifest says which runtime made it). */
export const underWine = () => hostFixtures().runtime === 'wine';

/** A new tree in the runtime's temp folder, by real path (no 8.3 short names): `{ rel: text }`. */
export function makeTree(files, prefix = 'ff-win-') {
  const root = realpathSync.native(mkdtempSync(join(tmpdir(), prefix)));
  for (const [rel, text] of Object.entries(files)) {
    const full = join(root, ...rel.split('/'));
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return root;
}

export function removeTree(root) {
  rmSync(root, { recursive: true, force: true });
}

/** An empty folder: a PATH with no ripgrep on it. */
export function emptyDir() {
  return realpathSync.native(mkdtempSync(join(tmpdir(), 'ff-empty-')));
}

const require = createRequire(import.meta.url);
/** The installed package's command (resolved as `find-file` through its exports). */
export const BIN = join(dirname(require.resolve('find-file/package.json')), 'bin', 'find-file.mjs');

/**
 * Runs the real command with this node.exe, stdout and stderr into files (read back as a script
 * would), no shell. `env` replaces the environment's PATH when it names one.
 */
export function runCli(args, { cwd, env = {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'ff-cli-'));
  const outFile = join(dir, 'stdout');
  const errFile = join(dir, 'stderr');
  const out = openSync(outFile, 'w');
  const err = openSync(errFile, 'w');
  const childEnv = { ...process.env };
  for (const name of ['NO_COLOR', 'FORCE_COLOR', 'FIND_FILE_RG', 'NODE_OPTIONS']) delete childEnv[name];
  // Windows spells it Path: drop every spelling before setting one.
  if ('PATH' in env) for (const name of Object.keys(childEnv)) if (name.toUpperCase() === 'PATH') delete childEnv[name];
  let result;
  try {
    result = spawnSync(process.execPath, [BIN, ...args], { cwd, env: { ...childEnv, ...env }, stdio: ['ignore', out, err], timeout: 60_000 });
  } finally {
    closeSync(out);
    closeSync(err);
  }
  try {
    if (result.error !== undefined) throw result.error;
    return { status: result.status, stdout: readFileSync(outFile, 'utf8'), stderr: readFileSync(errFile, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
