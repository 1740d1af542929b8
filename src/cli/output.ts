/**
 * How the `find-file` command writes paths: in large chunks (the walk, not the terminal, should
 * set the pace), without losing anything on exit, and in the form a person can paste back into a
 * shell (native separators, relative to the current directory when the root was given relatively).
 */
import { fstatSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { toNativeSeparators, type Separator } from '../paths.js';

/** Perf: one write per ~64 KiB of text instead of one per path; 200k paths become ~100 writes. */
export const CHUNK_CHARS = 64 * 1024;

/** Text held longer than this is written anyway: a slow search still shows its paths as it finds them. */
export const FLUSH_AFTER_MS = 100;

/** What the writer needs of a stream (process.stdout in the command, a fake in unit tests). */
export interface OutputStream {
  write(chunk: string, callback?: (error?: Error | null) => void): boolean;
  once(event: 'drain', listener: () => void): unknown;
}

/**
 * Buffers text and writes it in chunks. `write` returns a promise only when the stream asked for
 * a pause (a slow pipe): the caller awaits it then, and pays no promise per path otherwise.
 */
export class ChunkWriter {
  private pending = '';
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private readonly stream: OutputStream;
  private readonly beforeFlush: (() => void) | undefined;

  /** `beforeFlush` runs before each write, e.g. to clear a progress line drawn on the same terminal. */
  constructor(stream: OutputStream, beforeFlush?: () => void) {
    this.stream = stream;
    this.beforeFlush = beforeFlush;
  }

  write(text: string): Promise<void> | undefined {
    this.pending += text;
    if (this.pending.length >= CHUNK_CHARS) return this.flush();
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, FLUSH_AFTER_MS);
    return this.draining;
  }

  /** Writes what is buffered now; resolves when the stream can take more. */
  flush(): Promise<void> | undefined {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending === '') return this.draining;
    this.beforeFlush?.();
    const chunk = this.pending;
    this.pending = '';
    if (this.stream.write(chunk) || this.draining !== undefined) return this.draining;
    this.draining = new Promise<void>((resolve) => {
      this.stream.once('drain', () => {
        this.draining = undefined;
        resolve();
      });
    });
    return this.draining;
  }

  /** Writes the rest and resolves once the stream has handed it on, so exiting next loses nothing. */
  end(): Promise<void> {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.pending !== '') this.beforeFlush?.();
    const chunk = this.pending;
    this.pending = '';
    // Writes are ordered: the callback of this last one fires after every earlier one went out.
    return new Promise<void>((resolve) => this.stream.write(chunk, () => resolve()));
  }
}

/**
 * Where the printed paths go: process.stdout, or, when it is a file or a device such as /dev/null,
 * `writeSync` on its descriptor. Node writes such a stdout synchronously anyway (a SyncWriteStream),
 * but copies each chunk into a new Buffer first: a listing of /usr took 10 ms more wall and 10-20
 * ms more CPU (31 interleaved runs; docs/performance.md, Round 26). A pipe or a terminal keeps the
 * stream, and with it the pauses a slow reader asks for. A failed write is the stream's error, as
 * before (main.ts: EPIPE ends quietly, anything else is fatal).
 */
export function stdoutSink(stdout: NodeJS.WriteStream = process.stdout, fd = 1): OutputStream {
  if (stdout.isTTY === true || !isFileOrDevice(fd)) return stdout;
  return {
    write(chunk, callback) {
      try {
        writeSync(fd, chunk);
      } catch (error) {
        stdout.emit('error', error);
      }
      callback?.();
      return true;
    },
    once: (event, listener) => stdout.once(event, listener),
  };
}

function isFileOrDevice(fd: number): boolean {
  try {
    const stats = fstatSync(fd);
    return stats.isFile() || stats.isCharacterDevice();
  } catch {
    return false; // nothing to look at: the stream decides
  }
}

/** The `node:path` flavour in use: the running platform's, or the other one in unit tests. */
export type PathApi = Pick<typeof path, 'resolve' | 'relative' | 'isAbsolute' | 'sep'>;

/**
 * Turns the library's root-relative `/` paths into the paths the command prints. A relative root
 * (the default `.` included) gives paths relative to the current directory, like `fd`; an absolute
 * root gives absolute paths, so a path is always the root as written joined with what lies below.
 * Built once per run: the hot loop makes one call, an identity in the common case (posix, root `.`).
 * The root itself (`.` in `skipped`) comes out as the root.
 */
export function buildRelDisplay(root: string, cwd?: string, api: PathApi = path): (rel: string) => string {
  const base = displayBase(root, cwd, api);
  const sep = api.sep as Separator;
  const toNative = sep === '/' ? (rel: string) => rel : (rel: string) => toNativeSeparators(rel, sep);
  if (base === '') return toNative; // the root is the current directory: `.` stays `.`
  const prefix = base.endsWith(api.sep) ? base : base + api.sep;
  return (rel) => (rel === '.' ? base : prefix + toNative(rel));
}

/**
 * `-0`'s paths as fd 8 writes them: under the current directory (the root `.`, given or not) each
 * starts with `./` (fd strips it only from lines, never for `-0` or `-x`), so `xargs -0 tar` reads
 * none as an option (a file `--checkpoint-action=exec=sh x` ran as tar's option). Under another
 * relative root a path starts with the root as shown (`sub/x`, `../x`), as in fd; one that would
 * still start with `-` (the root `./-dir`, shown `-dir`) gets `./` too. Absolute paths stay.
 */
export function buildPrint0Display(display: (rel: string) => string, root: string, cwd?: string, api: PathApi = path): (rel: string) => string {
  const dot = `.${api.sep}`;
  if (displayBase(root, cwd, api) === '') return (rel) => dot + display(rel);
  return (rel) => {
    const shown = display(rel);
    return shown.startsWith('-') ? dot + shown : shown;
  };
}

/**
 * The root as the paths under it are shown: absolute for an absolute root (which needs no cwd: a
 * deleted current directory makes process.cwd() throw ENOENT), else relative to the current
 * directory, `''` when it is the current directory itself.
 */
function displayBase(root: string, cwd: string | undefined, api: PathApi): string {
  if (api.isAbsolute(root)) return api.resolve(root);
  const here = cwd ?? process.cwd();
  return api.relative(here, api.resolve(here, root));
}
