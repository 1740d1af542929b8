/**
 * Finds the ripgrep executable, once per search, as an absolute path: the `rgPath` option, then the
 * `FIND_FILE_RG` environment variable, then a PATH lookup done here rather than by the OS.
 *
 * Why not let the OS look `rg` up: on Windows a program in the current directory runs before
 * anything on the PATH, so a repository being searched could plant its own `rg.exe`. Here only
 * absolute PATH entries are tried (an empty or relative entry means "the current directory"), and
 * an entry that is the current directory or the searched root is skipped.
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
  /** The searched root and the current directory: never places to find an executable in. */
  root: string;
  cwd: string;
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
  for (const dir of buildSearchDirs(input)) {
    const candidate = paths.join(dir, name);
    if (await isExecutableFile(candidate, input.platform)) return { path: candidate, selectionMode: 'system' };
  }
  return { path: undefined, why: `no ${name} on the PATH (set rgPath or FIND_FILE_RG to its absolute path)` };
}

/** The PATH's absolute entries, minus the current directory and the searched root. */
export function buildSearchDirs(input: Omit<ResolveInput, 'rgPath'>): string[] {
  const win = input.platform === 'win32';
  const paths = win ? path.win32 : path.posix;
  const raw = readEnv(input.env, 'PATH', input.platform) ?? '';
  const same = (a: string, b: string) => (win ? a.toLowerCase() === b.toLowerCase() : a === b);
  const banned = [paths.resolve(input.cwd), paths.resolve(input.root)];
  const dirs: string[] = [];
  for (let entry of raw.split(win ? ';' : ':')) {
    if (win) entry = entry.replace(/^"(.*)"$/, '$1');
    if (entry === '' || !paths.isAbsolute(entry)) continue;
    const dir = paths.resolve(entry);
    if (banned.some((b) => same(b, dir))) continue;
    dirs.push(dir);
  }
  return dirs;
}

/** Environment names are case-insensitive on Windows (`Path`). */
function readEnv(env: Env, name: string, platform: Platform): string | undefined {
  if (platform !== 'win32') return env[name];
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
