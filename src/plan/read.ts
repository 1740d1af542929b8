/**
 * The raw-value readers: every option a caller (a library user, the CLI, an agent host) hands in is
 * checked by one of these, with a stable error code and a message that names the option and the
 * value. Nothing here does I/O.
 */
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { FindFileError } from '../errors.js';
import { defaultFs, isFsLike, type FsLike } from '../fs.js';
import type { BackendOption } from '../options.js';
import type { Platform } from '../patterns.js';
import type { Env } from '../rg/resolve.js';

export const runningPlatform: Platform = process.platform === 'win32' ? 'win32' : 'posix';

/** Throws on an option name the API does not know, suggesting the one that was probably meant. */
export function checkOptionNames(options: object, known: readonly string[]): void {
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const guess = known.find((k) => editDistance(k.toLowerCase(), name.toLowerCase()) <= 2);
    throw new FindFileError('FF_UNKNOWN_OPTION', `unknown option "${name}"${guess ? `: did you mean "${guess}"?` : ''}`, name);
  }
}

/** The options argument itself: an object. */
export function checkOptionsObject(options: unknown): asserts options is object {
  if (typeof options !== 'object' || options === null) {
    throw new FindFileError('FF_INVALID_OPTION', `options must be an object, got ${describe(options)}`);
  }
}

/** A non-negative integer, or Infinity when absent. */
export function readLimit(value: unknown, option: string): number {
  if (value === undefined) return Infinity;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new FindFileError('FF_INVALID_LIMIT', `${option} must be a non-negative integer, got ${describe(value)}`, option);
  }
  return value;
}

export function readBoolean(value: unknown, option: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new FindFileError('FF_INVALID_OPTION', `${option} must be true or false, got ${describe(value)}`, option);
  return value;
}

export function readChoice<T extends string>(value: unknown, option: string, choices: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!choices.includes(value as T)) {
    throw new FindFileError('FF_INVALID_OPTION', `${option} must be one of ${choices.map((c) => `"${c}"`).join(', ')}, got ${describe(value)}`, option);
  }
  return value as T;
}

/** An optional callback. */
export function readFunction<F extends (...args: never[]) => unknown>(value: unknown, option: string): F | undefined {
  if (value !== undefined && typeof value !== 'function') throw new FindFileError('FF_INVALID_OPTION', `${option} must be a function, got ${describe(value)}`, option);
  return value as F | undefined;
}

/** The fs option: node:fs when absent. */
export function readFs(value: unknown): FsLike {
  const fs = value === undefined ? defaultFs : value;
  if (!isFsLike(fs)) throw new FindFileError('FF_INVALID_OPTION', 'fs must be shaped like node:fs (readdir, readdirSync, lstat, lstatSync)', 'fs');
  return fs;
}

/** The clock option's shape (its readings are checked as they are taken: src/plan/clock.ts). `null` is no clock. */
export function checkClockShape(value: unknown): void {
  if (value != null && typeof (value as { now?: unknown }).now !== 'function') {
    throw new FindFileError('FF_INVALID_OPTION', 'clock must have a now() method returning milliseconds', 'clock');
  }
}

export function checkSignal(value: unknown): asserts value is AbortSignal | undefined {
  if (value !== undefined && !(value instanceof AbortSignal)) throw new FindFileError('FF_INVALID_OPTION', 'signal must be an AbortSignal', 'signal');
}

/** The env option: an object of strings, like process.env. */
export function readEnv(value: unknown): Env | undefined {
  if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value) || Object.values(value).some((v) => v !== undefined && typeof v !== 'string'))) {
    throw new FindFileError('FF_INVALID_OPTION', 'env must be an object of strings, like process.env', 'env');
  }
  return value as Env | undefined;
}

/** ripgrep reads the real disk: it cannot be forced on an injected fs. */
export function checkBackendFs(backend: BackendOption, fsInjected: boolean): void {
  if (backend === 'ripgrep' && fsInjected) {
    throw new FindFileError('FF_INVALID_OPTION', 'backend "ripgrep" reads the real filesystem and cannot use an injected fs: use "walker" or "auto"', 'backend');
  }
}

/** Resolves the root to its native absolute form (`resolvePath`); `fs`: the search's, which resolves a `..`. */
export function readRoot(value: unknown, platform: Platform, fs?: FsLike): string {
  if (value === undefined) throw new FindFileError('FF_MISSING_OPTION', 'root is required: the directory to search', 'root');
  if (typeof value !== 'string' || value === '') throw new FindFileError('FF_INVALID_ROOT', `root must be a non-empty string, got ${describe(value)}`, 'root');
  if (value.includes('\0')) throw new FindFileError('FF_INVALID_ROOT', `root ${JSON.stringify(value)} holds a NUL byte`, 'root');
  return resolvePath(value, platform, realpathOf(fs));
}

const nativeRealpath = (p: string) => realpathSync.native(p);

/** The search's `realpath` for `resolvePath`: node's own (libc's, which reads `..` as the kernel does) for the real disk. */
export function realpathOf(fs: FsLike | undefined): ((path: string) => string) | null {
  return fs === undefined || fs === defaultFs ? nativeRealpath : (fs.realpathSync?.bind(fs) ?? null);
}

/**
 * A path (a root, an ignore file) as the OS reads it, absolute: relative ones against `cwd` (@default process.cwd()). A POSIX kernel reads `..` after a symlink as the parent of
 * what the link leads to (`view/lnk/..` is `real/` when `lnk` leads to `real/sub`), where
 * `path.resolve` drops the link by name and names another directory: a search of it answered
 * "complete, no match" for a file that exists there (an adversarial run, 2026-12-06). So what comes
 * before a root's last `..` is resolved by the filesystem (`realpath`: the one call, only for a root
 * that holds `..`). A prefix it cannot resolve (missing, a file, unreadable) leaves the root as
 * written, made absolute: opening it fails as the kernel fails it, where the lexical reading
 * (`missing/..` as `.`) searched a directory the path does not reach. Windows reads `..` by name
 * before the filesystem sees the path, as `path.win32.resolve` does. Without `realpath` (null: an
 * injected fs that has none): by name.
 */
export function resolvePath(target: string, platform: Platform = runningPlatform, realpath: ((path: string) => string) | null = nativeRealpath, cwd?: string): string {
  const api = platform === 'win32' ? path.win32 : path.posix;
  // The cwd only when a relative path needs it: a deleted current directory throws ENOENT (uv_cwd),
  // and an absolute root must still be searchable from there (fd searches it).
  const base = cwd ?? (api.isAbsolute(target) ? api.sep : process.cwd());
  // (`platform: 'posix'` on Windows, for its path rules, has no POSIX kernel to ask.)
  if (platform === 'win32' || runningPlatform === 'win32' || realpath === null) return api.resolve(base, target);
  const absolute = target.startsWith('/') ? target : `${base}/${target}`;
  const segments = absolute.split('/');
  const last = segments.lastIndexOf('..');
  if (last < 0) return api.resolve(base, target);
  let real: string;
  try {
    // `/.`: the prefix must be a directory (`f.txt/..` is ENOTDIR to the kernel; realpath of a file is not).
    real = realpath(`${segments.slice(0, last).join('/')}/.`);
  } catch {
    return absolute;
  }
  return api.resolve(real, segments.slice(last).join('/'));
}

/** What `rgPath` must be, in every message that refuses one. */
export const RG_PATH = 'an absolute path to the ripgrep executable';

/** An optional option that must be an absolute path of the platform's flavour, with no NUL byte. */
export function checkAbsolutePath(value: unknown, option: string, what: string, platform: Platform): asserts value is string | undefined {
  if (value === undefined) return;
  const isAbsolute = (platform === 'win32' ? path.win32 : path.posix).isAbsolute;
  if (typeof value !== 'string' || value.includes('\0') || !isAbsolute(value)) {
    throw new FindFileError('FF_INVALID_OPTION', `${option} must be ${what}, got ${describe(value)}`, option);
  }
}

/** A value as an error message shows it: strings quoted, objects by kind (never their contents). */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/** Levenshtein distance, for "did you mean" on option names (short strings only; the CLI's flags too). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
