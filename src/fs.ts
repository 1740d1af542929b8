/**
 * The slice of `node:fs` the walker uses. A memfs volume, `node:fs` itself or a fault-injecting
 * wrapper all fit. Only these four calls are made: one `readdir` with file types per directory,
 * and an `lstat` only for entries whose type the filesystem did not report. Content search adds
 * `open`/`read`/`close` (optional members: file listing never reads a file), and a `stat` of a symlink whose target
 * the pattern could lead into.
 */
import * as nodeFs from 'node:fs';
import type { EntryType } from './options.js';

/**
 * What Node puts in a name for bytes that are not valid UTF-8 (UTF-16 on Windows): such a name may
 * not open by its string (the walker and ripgrep's listing both check it).
 */
export const REPLACEMENT_CHAR = '\uFFFD';

/**
 * Node decodes names as UTF-8 (UTF-16 on Windows). A name that is not valid in that encoding comes
 * back with U+FFFD and cannot be opened by that string: its "ENOENT" (or "ENOTDIR", when the string
 * opens a twin of another type) does not mean it vanished.
 * Reported as EILSEQ (illegal byte sequence), an io-error, so the gap is never read as absence.
 */
export function addressableCode(code: string, rel: string): string {
  // ENOTDIR too: the string may open a twin of another type (a file where a directory was listed).
  return (code === 'ENOENT' || code === 'ENOTDIR') && rel.includes(REPLACEMENT_CHAR) ? 'EILSEQ' : code;
}

/** A directory entry as `readdir(..., { withFileTypes: true })` returns it. */
export interface DirentLike {
  /** The entry's name, without its directory. */
  name: string;
  /** A regular file. */
  isFile(): boolean;
  /** A directory. */
  isDirectory(): boolean;
  /** A symlink (or a junction on Windows): listed, never followed. */
  isSymbolicLink(): boolean;
  /** A named pipe (FIFO). */
  isFIFO(): boolean;
  /** A Unix domain socket. */
  isSocket(): boolean;
  /** A block device. */
  isBlockDevice(): boolean;
  /** A character device. */
  isCharacterDevice(): boolean;
}

/** The type-bearing part of an `lstat` answer (the special kinds: where the fs tells them, as node's and memfs's do). */
export interface StatsLike {
  /** A regular file. */
  isFile(): boolean;
  /** A directory. */
  isDirectory(): boolean;
  /** A symlink (from `lstat`, which does not follow it). */
  isSymbolicLink(): boolean;
  /** A named pipe (FIFO). */
  isFIFO?(): boolean;
  /** A Unix domain socket. */
  isSocket?(): boolean;
  /** A block device. */
  isBlockDevice?(): boolean;
  /** A character device. */
  isCharacterDevice?(): boolean;
}

type Callback<T> = (error: NodeJS.ErrnoException | null, value: T) => void;

/** An object shaped like `node:fs`, as far as find-file needs it. */
export interface FsLike {
  /** One call per directory the async walk lists, always with file types. */
  readdir(path: string, options: { withFileTypes: true }, callback: Callback<DirentLike[]>): void;
  /** `readdir` for `findFilesSync`. */
  readdirSync(path: string, options: { withFileTypes: true }): DirentLike[];
  /** For an entry whose type the listing did not give, and for a match's metadata (`stats`, `sort: 'mtime'`, size and time filters). */
  lstat(path: string, callback: Callback<StatsLike>): void;
  /** `lstat` for `findFilesSync`. */
  lstatSync(path: string): StatsLike;
  /**
   * File search only, and only for a symlink "on the way" (src/walk/engine.ts): whether its target
   * is a directory. Without both, such a link is named unchecked.
   */
  stat?(path: string, callback: Callback<StatsLike>): void;
  /** `stat` for `findFilesSync`. */
  statSync?(path: string): StatsLike;
  /** Content search only (its pure-TS path reads files in chunks): `open`, `read`, `close`, and `fstat` where the fs has it. */
  open?(path: string, flags: string | number, callback: Callback<number>): void;
  /** Content search checks that what it opened is still a regular file (skipped when absent). */
  fstat?(fd: number, callback: Callback<StatsLike>): void;
  /** Content search only: reads the next chunk of an opened file. */
  read?(fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null, callback: Callback<number>): void;
  /** Content search only: closes what `open` opened. */
  close?(fd: number, callback: (error: NodeJS.ErrnoException | null) => void): void;
  /**
   * `gitignore: true` only: the walk reads ignore files (`.gitignore`, `.ignore`, `.rgignore`,
   * `.git/info/exclude`) whole, as bytes, for ripgrep's reading of a line that is not UTF-8.
   */
  readFile?(path: string, callback: Callback<Uint8Array | string>): void;
  /** `readFile` for `findFilesSync`. */
  readFileSync?(path: string): Uint8Array | string;
  /** `gitignore: true` only: the root's parents are its real path's (as ripgrep's); without it, the root's as given. */
  realpath?(path: string, callback: Callback<string>): void;
  /** `realpath` for `findFilesSync`. */
  realpathSync?(path: string): string;
}

/** An `FsLike` that can also read files: what content search's pure-TS path needs. */
export type FileReaderFs = FsLike & Required<Pick<FsLike, 'open' | 'read' | 'close'>>;

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

/** True when the fs can follow a link (`stat`) in both the async and the sync walk. */
export function canFollowLinks(fs: FsLike): boolean {
  return typeof fs.stat === 'function' && typeof fs.statSync === 'function';
}

/** True when the fs can read ignore files, in both the async and the sync walk. */
export function canReadIgnoreFiles(fs: FsLike): boolean {
  return typeof fs.readFile === 'function' && typeof fs.readFileSync === 'function';
}

/** True when the fs can also open, read and close files (content search's pure-TS path). */
export function canReadFiles(fs: FsLike): fs is FileReaderFs {
  return typeof fs.open === 'function' && typeof fs.read === 'function' && typeof fs.close === 'function';
}

/**
 * What kind of entry a directory listing or an lstat says this is; undefined when the fs did not
 * say (a dirent of unknown type: lstat it). Special files are kinds of their own, as in fd and
 * find (`-t p`, `-type p`): listed by name, never opened.
 */
export function kindOf(entry: StatsLike): EntryType | undefined {
  if (entry.isFile()) return 'file';
  if (entry.isDirectory()) return 'directory';
  if (entry.isSymbolicLink()) return 'symlink';
  return specialKindOf(entry);
}

/** The special kind (`pipe`, `socket`, `block-device`, `char-device`) of a FIFO, a socket or a device; undefined for anything else. */
export function specialKindOf(entry: StatsLike): EntryType | undefined {
  if (entry.isFIFO?.()) return 'pipe';
  if (entry.isSocket?.()) return 'socket';
  if (entry.isBlockDevice?.()) return 'block-device';
  if (entry.isCharacterDevice?.()) return 'char-device';
  return undefined;
}
