/**
 * The one tree the Windows set cannot make from inside the Windows runtime, made by the host
 * before the run (scripts/windows/run.mjs) and described in a manifest the tests read
 * (`FF_WIN_FIXTURES`, helpers.mjs):
 *
 *   tree/alpha.txt  tree/Readme.MD  tree/docs/Guide.md  tree/docs/notes/todo.txt
 *   tree/locked/hidden.txt      a directory the runtime's user is denied
 *   tree/omega/zeta.txt         after `locked` in every order: the walk goes on past it
 *   tree/linked -> outside/     a directory symlink: a reparse point to Windows
 *   tree/junction -> outside/   a junction (native Windows only)
 *   outside/leak.txt            found only if a link were followed
 *
 * Why the host: under Wine, `node.exe` cannot deny itself a directory (chmod there only sets the
 * read-only attribute), its `fs.symlinkSync` reports success and creates nothing (Wine 8's
 * CreateSymbolicLinkW), and junctions fail with ENOTSUP. On Linux the host denies with `chmod 000`
 * (Wine then answers ACCESS_DENIED, which Node reports as EPERM) and makes a real symlink (Wine
 * lists it with the reparse-point attribute). On Windows the host denies with an ACL (icacls:
 * Everyone may not list the folder) and makes a directory symlink and a junction.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const FILES = {
  'tree/alpha.txt': 'alpha\n',
  'tree/Readme.MD': '# readme\r\n',
  'tree/docs/Guide.md': 'guide\r\n',
  'tree/docs/notes/todo.txt': 'first\r\nTODO: the walker\r\n',
  'tree/locked/hidden.txt': 'TODO: never read\n',
  'tree/omega/zeta.txt': 'TODO: after the locked folder\n',
  'outside/leak.txt': 'TODO: outside the tree\n',
};

const EVERYONE = '*S-1-1-0';
const isWindows = process.platform === 'win32';

function icacls(args) {
  const result = spawnSync('icacls', args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`icacls ${args.join(' ')} failed: ${result.error?.message ?? result.stdout + result.stderr}`);
}

/**
 * Makes the tree under `base` (a new, empty folder). `runtimePath` turns a host path into the path
 * the Windows runtime sees (Wine: `Z:\...`). Returns the manifest the tests read.
 */
export function makeFixtures(base, runtimePath = (p) => p) {
  for (const [rel, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(base, rel)), { recursive: true });
    writeFileSync(join(base, rel), text);
  }
  const tree = join(base, 'tree');
  const outside = join(base, 'outside');
  const links = ['linked'];
  if (isWindows) {
    symlinkSync(outside, join(tree, 'linked'), 'dir');
    symlinkSync(outside, join(tree, 'junction'), 'junction');
    links.push('junction');
    // Read-data on a folder is "list folder": denied to everyone, this user included.
    icacls([join(tree, 'locked'), '/deny', `${EVERYONE}:(RD)`]);
  } else {
    symlinkSync('../outside', join(tree, 'linked'));
    chmodSync(join(tree, 'locked'), 0o000);
  }
  return {
    runtime: isWindows ? 'windows' : 'wine',
    tree: runtimePath(tree),
    outside: runtimePath(outside),
    denied: 'locked',
    links,
    unmade: isWindows ? {} : { junction: 'Wine 8 cannot create a junction (Node\'s call fails with ENOTSUP); a host symlink is the only reparse point it shows' },
  };
}

/** Gives the denied folder back, so the tree can be removed, then removes it. */
export function removeFixtures(base) {
  const locked = join(base, 'tree', 'locked');
  try {
    if (isWindows) icacls([locked, '/remove:d', EVERYONE]);
    else chmodSync(locked, 0o755);
  } catch {
    // Already gone, or never made: the removal below says what is left.
  }
  rmSync(base, { recursive: true, force: true });
}
