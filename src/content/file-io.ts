/**
 * How content search's pure-TS path opens and reads a listed file, safely: never through a link,
 * never a FIFO or device swapped in since the listing, never outside the root, and never stuck on a
 * file that waits for data. Every call resolves (errors are values), so the search decides.
 */
import { closeSync, constants as fsConstants, existsSync, readlinkSync, realpathSync } from 'node:fs';
import { defaultFs, type FileReaderFs, type StatsLike } from '../fs.js';
import { retryDelay } from '../limits.js';

/** `size`: the file's size when it was opened (fstat), when the fs says. */
export type Opened = { ok: true; fd: number; size?: number } | { ok: false; error: unknown };
export type Read = { ok: true; bytes: number } | { ok: false; error: unknown };

/**
 * How a listed file is opened, where the platform has the flags (not Windows). `O_NOFOLLOW`: a file
 * swapped for a link after the walk listed it is not followed (`ELOOP`, a gap), so the search never
 * reads through a link into another tree. `O_NONBLOCK`: a FIFO swapped in, or a file that waits for
 * data (`/proc/kmsg`), cannot hold a libuv thread (and with it the process's exit) forever.
 */
export const OPEN_FLAGS: string | number =
  fsConstants.O_NOFOLLOW === undefined || fsConstants.O_NONBLOCK === undefined ? 'r' : fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;

/**
 * Opens a listed file (retried like a directory read when the process is out of file handles:
 * `onOutOfHandles` lets the caller free some, and returns false when the file is no longer wanted,
 * which ends the retries) and checks, on the descriptor itself, that it is a regular file: a FIFO,
 * device or directory swapped in since the listing is closed unread and reported as `EFTYPE` (a
 * gap: it is not what was listed).
 */
export async function openListedFile(fs: FileReaderFs, path: string, onOutOfHandles: () => boolean): Promise<Opened> {
  for (let attempt = 0; ; attempt++) {
    const opened = await new Promise<Opened>((resolve) => {
      try {
        fs.open(path, OPEN_FLAGS, (error, fd) => resolve(error ? { ok: false, error } : { ok: true, fd }));
      } catch (error) {
        resolve({ ok: false, error });
      }
    });
    if (opened.ok) return checkRegular(fs, opened.fd);
    const pause = retryDelay(opened.error, attempt);
    if (pause === undefined || !onOutOfHandles()) return opened;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

async function checkRegular(fs: FileReaderFs, fd: number): Promise<Opened> {
  if (fs.fstat === undefined) return { ok: true, fd };
  const stats = await new Promise<StatsLike | undefined>((resolve) => {
    try {
      fs.fstat!(fd, (error, value) => resolve(error ? undefined : value));
    } catch {
      resolve(undefined);
    }
  });
  if (stats === undefined) return { ok: true, fd }; // a failed fstat: the read will say
  const { size } = stats as StatsLike & { size?: unknown };
  if (stats.isFile()) return typeof size === 'number' ? { ok: true, fd, size } : { ok: true, fd };
  // Not `buildCloser`'s synchronous close: this is a FIFO or device, whose driver may wait on close.
  fs.close(fd, () => {});
  return { ok: false, error: Object.assign(new Error('not a regular file any more'), { code: 'EFTYPE' }) };
}

/**
 * Linux, the real disk: is the opened descriptor the file at root/rel? `O_NOFOLLOW` guards only the
 * last name; a directory on the way swapped for a link after the walk listed it would be followed
 * (Node has no `openat`). `/proc/self/fd/N` names what was really opened, so a file reached through
 * such a link is closed unread (`ELOOP`, a gap), and nothing outside the root is ever searched.
 * `prefix`: `placePrefix`'s answer; elsewhere (no /proc, an injected fs) it is undefined, and so is
 * the check: docs/reliability.md says what remains there.
 */
export function buildPlaceCheck(prefix: string | undefined): ((fd: number, rel: string) => boolean) | undefined {
  if (prefix === undefined) return undefined;
  // Perf: synchronously. /proc/self/fd is the kernel's own table, never the disk: reading a link
  // there cannot wait on I/O, and it saves a round trip through the thread pool per file.
  return (fd, rel) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === prefix + rel;
    } catch {
      return false;
    }
  };
}

/** What /proc/self/fd names for a file below the root, before its root-relative path (the read worker checks the same). */
export function placePrefix(fs: unknown, root: string): string | undefined {
  if (process.platform !== 'linux' || fs !== defaultFs || !existsSync('/proc/self/fd')) return undefined;
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch {
    return undefined; // the walk reports the root's own error
  }
  return realRoot.endsWith('/') ? realRoot : `${realRoot}/`;
}

/** Reads into `buffer` from `offset` to its end, at the file's current position. */
export function readChunk(fs: FileReaderFs, fd: number, buffer: Uint8Array, offset: number): Promise<Read> {
  return new Promise((resolve) => {
    try {
      fs.read(fd, buffer, offset, buffer.length - offset, null, (error, bytes) => resolve(error ? { ok: false, error } : { ok: true, bytes }));
    } catch (error) {
      resolve({ ok: false, error });
    }
  });
}

/**
 * Closes a file the search opened for reading. Perf: on the real fs, synchronously: closing a
 * descriptor opened read-only has nothing to flush and does not wait on the disk, and it saves a
 * round trip through the thread pool per file (most files are opened, read once and closed).
 */
export function buildCloser(fs: FileReaderFs): (fd: number) => void {
  if (fs !== defaultFs) return (fd) => fs.close(fd, () => {});
  return (fd) => {
    try {
      closeSync(fd);
    } catch {
      // EBADF/EIO on close: nothing was lost (nothing was written), nothing to report
    }
  };
}
