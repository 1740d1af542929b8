/**
 * Finds the ripgrep executable, once per search, as an absolute path: the `rgPath` option, then the
 * `FIND_FILE_RG` environment variable, then a PATH lookup done here rather than by the OS.
 *
 * Why not let the OS look `rg` up: on Windows a program in the current directory runs before
 * anything on the PATH, so a repository being searched could plant its own `rg.exe`. And the PATH
 * itself often points into the tree being searched: `npm run` and `npx` put
 * `<repo>/node_modules/.bin` first, an activated venv `<repo>/.venv/bin`. The rule enforced here:
 *
 * - only absolute PATH entries are tried (an empty or relative entry means "the current directory");
 * - no executable is taken from inside (or at) the searched root, the current directory or the
 *   workspace, compared by real path: a PATH entry that is a link into the tree, and an `rg` that is
 *   a link to a file in the tree, count as inside. Compared case-insensitively on Windows.
 *
 * An explicit `rgPath` or `FIND_FILE_RG` is the caller's own choice and is taken as given.
 */
import { constants, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { Platform } from '../patterns.js';
import type { SelectionMode } from '../result.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface ResolvedRipgrep {
  /** Absolute path to the executable. */
  path: string;
  selectionMode: SelectionMode;
}

/** No executable: `why` says which source was tried, for the `FF_RG_NOT_FOUND` message. */
export interface RipgrepMissing {
  path: undefined;
  why: string;
}

export interface ResolveInput {
  /** The `rgPath` option, already checked to be absolute. */
  rgPath: string | undefined;
  env: Env;
  platform: Platform;
  /** The searched root and the current directory: nothing inside them is ever run from the PATH. */
  root: string;
  /** Absent when the current directory was deleted (process.cwd() throws): there is nothing left inside it to run. */
  cwd: string | undefined;
  /** A folder the search is confined to (the agent's workspace), when there is one: also never a source. */
  workspace?: string;
}

export async function resolveRipgrep(input: ResolveInput): Promise<ResolvedRipgrep | RipgrepMissing> {
  const paths = input.platform === 'win32' ? path.win32 : path.posix;
  if (input.rgPath !== undefined) {
    return (await isExecutableFile(input.rgPath, input.platform))
      ? { path: input.rgPath, selectionMode: 'explicit' }
      : { path: undefined, why: `rgPath ${input.rgPath} is not an executable file` };
  }
  // An explicit setting that is wrong is reported, never silently replaced by another binary.
  const fromEnv = readEnv(input.env, 'FIND_FILE_RG', input.platform);
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!paths.isAbsolute(fromEnv)) return { path: undefined, why: `FIND_FILE_RG must be an absolute path, got ${JSON.stringify(fromEnv)}` };
    return (await isExecutableFile(fromEnv, input.platform))
      ? { path: fromEnv, selectionMode: 'explicit' }
      : { path: undefined, why: `FIND_FILE_RG ${fromEnv} is not an executable file` };
  }
  const name = input.platform === 'win32' ? 'rg.exe' : 'rg';
  // The bases' real paths are read beside the lookup (it needs them only once an rg is found). The
  // PATH itself is looked at folder by folder, in order, never past the rg that wins: a folder after
  // it may be a share that does not answer, which would hold a pool thread, and every walk behind it,
  // for the share's timeout (all folders at once was measured and reverted for that: bd631e7, babe14e).
  const banned = buildBannedCheck(input);
  const refused: string[] = [];
  for (const dir of readPathEntries(input)) {
    const file = paths.join(dir, name);
    if (!(await isExecutableFile(file, input.platform))) continue;
    const isBanned = await banned;
    // Both the folder and the file by real path: a link can lead into the tree from either.
    if (isBanned(dir) || (await Promise.all([realPath(dir, paths), realPath(file, paths)])).some(isBanned)) {
      refused.push(file);
      continue;
    }
    return { path: file, selectionMode: 'system' };
  }
  const why = refused.length === 0 ? `no ${name} on the PATH` : `no ${name} on the PATH outside the searched root and the current directory (not run: ${refused.join(', ')})`;
  return { path: undefined, why: `${why} (set rgPath or FIND_FILE_RG to its absolute path)` };
}

/**
 * The PATH's absolute entries, minus those at or inside the current directory, the searched root or
 * the workspace, compared as written (`resolveRipgrep` also compares real paths). On Windows an
 * entry must name its drive (`C:\...`) or be a UNC path: `\bin` and `C:bin` depend on the current drive
 * or directory.
 */
export function buildSearchDirs(input: Omit<ResolveInput, 'rgPath'>): string[] {
  const paths = input.platform === 'win32' ? path.win32 : path.posix;
  const isBanned = buildInsideCheck(bannedBases(input).map((b) => paths.resolve(b)), input.platform);
  return readPathEntries(input).filter((dir) => !isBanned(dir));
}

/** The PATH's absolute entries, resolved, in order. */
function readPathEntries(input: Pick<ResolveInput, 'env' | 'platform'>): string[] {
  const win = input.platform === 'win32';
  const paths = win ? path.win32 : path.posix;
  const raw = readEnv(input.env, 'PATH', input.platform) ?? '';
  const dirs: string[] = [];
  for (let entry of raw.split(win ? ';' : ':')) {
    if (win) entry = entry.replace(/^"(.*)"$/, '$1');
    if (entry === '' || !paths.isAbsolute(entry)) continue;
    if (win && !/^(?:[A-Za-z]:[\\/]|[\\/]{2})/.test(entry)) continue;
    dirs.push(paths.resolve(entry));
  }
  return dirs;
}

function bannedBases(input: Omit<ResolveInput, 'rgPath'>): string[] {
  return [input.root, input.cwd, input.workspace].filter((base): base is string => base !== undefined);
}

/** True for a path at or inside one of the bases, as written and by real path. */
async function buildBannedCheck(input: ResolveInput): Promise<(p: string) => boolean> {
  const paths = input.platform === 'win32' ? path.win32 : path.posix;
  const resolved = bannedBases(input).map((base) => paths.resolve(base));
  const real = await Promise.all(resolved.map((base) => realPath(base, paths)));
  return buildInsideCheck([...resolved, ...real], input.platform);
}

/** A test of whether a path is one of `bases` or inside one, compared as written (on win32 without case, `/` as `\\`). */
export function buildInsideCheck(bases: readonly string[], platform: Platform): (p: string) => boolean {
  const win = platform === 'win32';
  const sep = win ? '\\' : '/';
  const fold = (p: string) => (win ? p.replace(/\//g, '\\').toLowerCase() : p);
  // A base that ends in a separator is a filesystem root (`/`, `C:\`): everything is inside it.
  const prefixes = bases.map((b) => {
    const f = fold(b);
    return { exact: f, prefix: f.endsWith(sep) ? f : f + sep };
  });
  return (p) => {
    const f = fold(p);
    return prefixes.some(({ exact, prefix }) => f === exact || f.startsWith(prefix));
  };
}

/** The real path, or the path as given when it cannot be resolved (it then names nothing to run anyway). */
async function realPath(p: string, paths: typeof path.posix): Promise<string> {
  try {
    return paths.resolve(await fsp.realpath(p));
  } catch {
    return p;
  }
}

/** Environment names are case-insensitive on Windows (`Path`). Own keys only: an inherited `PATH` is no setting. */
function readEnv(env: Env, name: string, platform: Platform): string | undefined {
  if (platform !== 'win32') return Object.hasOwn(env, name) ? env[name] : undefined;
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

async function isExecutableFile(file: string, platform: Platform): Promise<boolean> {
  try {
    if (!(await fsp.stat(file)).isFile()) return false;
    if (platform !== 'win32') await fsp.access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
