/**
 * Running Windows programs under Wine as a user the OS can really deny: root reads every directory,
 * so as root every Wine command runs as nobody (uid/gid 65534) through `setpriv` or `runuser`, as
 * test/helpers/unprivileged.ts does for the main suite. A non-root caller runs Wine as itself (its
 * own `chmod 000` directory denies it just as well).
 *
 * What a new prefix needs, learned the hard way (docs/reliability.md, "Windows"):
 * - Windows 10 as its version (`winecfg /v win10`): a new prefix reports Windows 7, and Node 22
 *   refuses to start there. `winecfg /v` needs no display; `winecfg /v` alone prints the version,
 *   which is checked, so a prefix Node would refuse is caught here and not as a test failure.
 * - No Mono or Gecko (`WINEDLLOVERRIDES=mscoree,mshtml=`): wineboot would try to install them.
 * - stdout and stderr on files, never pipes: Node under Wine fails with EBADF writing to a pipe it
 *   inherited from the host.
 * Each run gets a new prefix (about 8 s), owned by the user that runs Wine, so nothing carries over.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const NOBODY = 65534;
const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** How to run a command as nobody when we are root (undefined: run as ourselves). */
function dropPrefix() {
  if (process.getuid?.() !== 0) return [];
  const has = (cmd) => spawnSync(cmd, ['--help'], { stdio: 'ignore' }).error === undefined;
  if (has('setpriv')) return ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--'];
  if (has('runuser')) return ['runuser', '-u', 'nobody', '--'];
  throw new Error('running as root, and neither setpriv nor runuser (util-linux) is here to drop to nobody');
}

/**
 * A Wine session for one run: `home` (the user's HOME, holding the prefix) is created and handed
 * to the user that runs Wine. `env` is added to every Windows program's environment.
 */
export function openWine({ wine, home, env }) {
  const prefix = dropPrefix();
  const asRoot = prefix.length > 0;
  mkdirSync(home, { recursive: true, mode: 0o755 });
  if (asRoot) chownSync(home, NOBODY, NOBODY);
  const winePrefix = join(home, 'prefix');
  const baseEnv = {
    PATH: SYSTEM_PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    WINEPREFIX: winePrefix,
    WINEDEBUG: '-all',
    WINEDLLOVERRIDES: 'mscoree,mshtml=',
    ...env,
  };

  /** Runs `wine <args>` to the end, stdout and stderr into `logFile`; returns spawnSync's result. */
  function run(args, { cwd, logFile, timeoutMs }) {
    const fd = openSync(logFile, 'w');
    try {
      const command = [...prefix, wine, ...args];
      return spawnSync(command[0], command.slice(1), { cwd, env: baseEnv, stdio: ['ignore', fd, fd], timeout: timeoutMs, killSignal: 'SIGKILL' });
    } finally {
      closeSync(fd);
    }
  }

  /** Creates the prefix and sets it to Windows 10; throws with Wine's own words when it cannot. */
  function createPrefix(logDir) {
    const steps = [
      ['wineboot', ['wineboot', '--init']],
      ['winecfg-set', ['winecfg', '/v', 'win10']],
      ['winecfg-get', ['winecfg', '/v']],
    ];
    for (const [name, args] of steps) {
      const logFile = join(logDir, `${name}.log`);
      const result = run(args, { cwd: home, logFile, timeoutMs: 120_000 });
      if (result.error !== undefined || result.status !== 0) {
        throw new Error(`wine ${args.join(' ')} failed (${result.error?.message ?? result.status ?? result.signal}):\n${readFileSync(logFile, 'utf8')}`);
      }
    }
    const version = readFileSync(join(logDir, 'winecfg-get.log'), 'utf8').trim().split(/\r?\n/).pop();
    if (version !== 'win10') throw new Error(`the Wine prefix reports Windows version ${JSON.stringify(version)}, not win10: Node 22 would refuse to start`);
  }

  /** Ends this prefix's wineserver (it lingers a few seconds after the last program). */
  function stop(logDir) {
    const server = ['/usr/bin/wineserver', '/usr/lib/wine/wineserver64', '/usr/lib/wine/wineserver'].find((p) => existsSync(p));
    if (server === undefined || !existsSync(winePrefix)) return;
    const fd = openSync(join(logDir, 'wineserver-k.log'), 'w');
    try {
      const command = [...prefix, server, '-k'];
      spawnSync(command[0], command.slice(1), { env: baseEnv, stdio: ['ignore', fd, fd], timeout: 30_000 });
    } finally {
      closeSync(fd);
    }
  }

  return { asRoot, uid: asRoot ? NOBODY : process.getuid?.(), run, createPrefix, stop };
}

/** The Windows path Wine gives a host path: the host's `/` is drive Z:. */
export function winePath(hostPath) {
  return `Z:${hostPath.replace(/\//g, '\\')}`;
}
