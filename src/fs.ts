/**
 * The slice of `node:fs` the walker uses. A memfs volume, `node:fs` itself or a fault-injecting
 * wrapper all fit. Only these four calls are made: one `readdir` with file types per directory,
 * and an `lstat` only for entries whose type the filesystem did not report.
 */
import * as nodeFs from 'node:fs';

/** A directory entry as `readdir(..., { withFileTypes: true })` returns it. */
export interface DirentLike {
  name: string;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isBlockDevice(): boolean;
  isCharacterDevice(): boolean;
}

/** The type-bearing part of an `lstat` answer. */
export interface StatsLike {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

type Callback<T> = (error: NodeJS.ErrnoException | null, value: T) => void;

/** An object shaped like `node:fs`, as far as find-file needs it. */
export interface FsLike {
  readdir(path: string, options: { withFileTypes: true }, callback: Callback<DirentLike[]>): void;
  readdirSync(path: string, options: { withFileTypes: true }): DirentLike[];
  lstat(path: string, callback: Callback<StatsLike>): void;
  lstatSync(path: string): StatsLike;
}

/** The real filesystem. */
export const defaultFs: FsLike = nodeFs as unknown as FsLike;

/** Accepts anything with the four calls (a memfs `Volume` has more precise, incompatible types). */
export function isFsLike(value: unknown): value is FsLike {
  const fs = value as Record<string, unknown> | null;
  return (
    typeof fs === 'object' &&
    fs !== null &&
    typeof fs.readdir === 'function' &&
    typeof fs.readdirSync === 'function' &&
    typeof fs.lstat === 'function' &&
    typeof fs.lstatSync === 'function'
  );
}
