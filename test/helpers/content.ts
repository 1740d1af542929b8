/**
 * Test doubles for content search: ripgrep `--json` event lines to script the fake runner with, and
 * an fs over a memfs volume that can fail chosen opens and reads (the walker's `faultyFs` covers
 * readdir and lstat; content search also opens and reads files).
 */
import type { SyncReaderFs } from '../../src/content/sync-reader.js';
import type { FileReaderFs, FsLike } from '../../src/fs.js';

type Json = Record<string, unknown>;

/** `{text}` for a string, `{bytes}` (base64) for raw bytes, as ripgrep writes data. */
function data(value: string | Uint8Array): Json {
  return typeof value === 'string' ? { text: value } : { bytes: Buffer.from(value).toString('base64') };
}

export function beginEvent(path: string | Uint8Array): string {
  return JSON.stringify({ type: 'begin', data: { path: data(path) } }) + '\n';
}

/** A match event; `start` is a byte offset into `lines` (for `text`, its UTF-8 encoding). */
export function matchEvent(path: string | Uint8Array, lines: string | Uint8Array, lineNumber: number, start: number, end = start + 1): string {
  return (
    JSON.stringify({
      type: 'match',
      data: { path: data(path), lines: data(lines), line_number: lineNumber, absolute_offset: 0, submatches: [{ match: { text: 'x' }, start, end }] },
    }) + '\n'
  );
}

export function endEvent(path: string | Uint8Array, binaryOffset: number | null = null): string {
  return JSON.stringify({ type: 'end', data: { path: data(path), binary_offset: binaryOffset, stats: { searches: 1 } } }) + '\n';
}

export function summaryEvent(bytesSearched = 0): string {
  return JSON.stringify({ type: 'summary', data: { elapsed_total: { secs: 0, nanos: 1 }, stats: { bytes_searched: bytesSearched, searches: 1 } } }) + '\n';
}

/** The match events of one file, with its begin and end, as ripgrep prints them: `[line, text]` pairs, the match at `query`. */
export function fileEvents(path: string, query: string, lines: [number, string][]): string {
  let out = beginEvent(`./${path}`);
  for (const [n, text] of lines) out += matchEvent(`./${path}`, text + '\n', n, Buffer.byteLength(text.slice(0, text.indexOf(query)), 'utf8'));
  return out + endEvent(`./${path}`);
}

export interface ReadFaults {
  /** Path → error code for `open`. */
  open?: Record<string, string>;
  /** Path → error code for `read` (after `afterBytes` bytes have been read from it). */
  read?: Record<string, { code: string; afterBytes?: number }>;
  /** Called before every read with the file's path: advance a clock, abort a signal. */
  beforeRead?: (path: string) => void;
  /** Reads of this path never answer. */
  hangRead?: string;
}

function errno(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });
}

/**
 * Wraps a volume (or any FileReaderFs) so chosen opens and reads fail; records opens, reads and
 * closes. The synchronous calls (one-thread.ts's) fail alike; a sync read cannot hang (`hangRead`):
 * it throws, to say the test ran the wrong engine.
 */
export function readFaultyFs(base: unknown, faults: ReadFaults = {}) {
  const fs = base as FileReaderFs & SyncReaderFs;
  const paths = new Map<number, { path: string; read: number }>();
  const log = { opened: [] as string[], reads: 0, closed: 0 };
  // Each call logged and its fault chosen once, for the callback form and the synchronous one alike.
  const openFault = (path: string): NodeJS.ErrnoException | undefined => {
    log.opened.push(path);
    const code = faults.open?.[path];
    return code === undefined ? undefined : errno(code, 'open', path);
  };
  const startRead = (fd: number) => {
    log.reads++;
    const file = paths.get(fd)!;
    faults.beforeRead?.(file.path);
    const fault = faults.read?.[file.path];
    const error = fault !== undefined && file.read >= (fault.afterBytes ?? 0) ? errno(fault.code, 'read', file.path) : undefined;
    return { file, error, hangs: faults.hangRead === file.path };
  };
  const forget = (fd: number) => {
    log.closed++;
    paths.delete(fd);
  };
  const wrapped: FileReaderFs & SyncReaderFs & { log: typeof log; openFds(): number } = {
    log,
    openFds: () => paths.size,
    readdir: (p, o, cb) => fs.readdir(p, o, cb),
    readdirSync: (p, o) => fs.readdirSync(p, o),
    lstat: (p, cb) => fs.lstat(p, cb),
    lstatSync: (p) => fs.lstatSync(p),
    open(path, flags, callback) {
      const fault = openFault(path);
      if (fault !== undefined) return void setImmediate(() => callback(fault, -1));
      fs.open(path, flags, (error, fd) => {
        if (!error) paths.set(fd, { path, read: 0 });
        callback(error, fd);
      });
    },
    read(fd, buffer, offset, length, position, callback) {
      const { file, error, hangs } = startRead(fd);
      if (hangs) return;
      if (error !== undefined) return void setImmediate(() => callback(error, 0));
      fs.read(fd, buffer, offset, length, position, (readError, bytes) => {
        file.read += bytes ?? 0;
        callback(readError, bytes);
      });
    },
    close(fd, callback) {
      forget(fd);
      fs.close(fd, callback);
    },
    openSync(path, flags) {
      const fault = openFault(path);
      if (fault !== undefined) throw fault;
      const fd = fs.openSync(path, flags);
      paths.set(fd, { path, read: 0 });
      return fd;
    },
    fstatSync: (fd) => fs.fstatSync(fd),
    readlinkSync: (path) => fs.readlinkSync(path),
    readSync(fd, buffer, offset, length, position) {
      const { file, error, hangs } = startRead(fd);
      if (hangs) throw new Error(`a synchronous read of ${file.path} cannot hang: the test ran the wrong engine`);
      if (error !== undefined) throw error;
      const bytes = fs.readSync(fd, buffer, offset, length, position);
      file.read += bytes;
      return bytes;
    },
    closeSync(fd) {
      forget(fd);
      fs.closeSync(fd);
    },
  };
  return wrapped;
}

/** An fs with only the walker's four calls: content search's pure-TS path must refuse it. */
export function listOnlyFs(base: unknown): FsLike {
  const fs = base as FsLike;
  return { readdir: fs.readdir.bind(fs), readdirSync: fs.readdirSync.bind(fs), lstat: fs.lstat.bind(fs), lstatSync: fs.lstatSync.bind(fs) };
}
