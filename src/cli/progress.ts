/**
 * The live progress line of the `find-file` command: drawn on stderr only when a person is
 * watching (stderr is a terminal, human output) and only once a search has run long enough to
 * leave them wondering (about a second); erased before the summary, so it never ends up in a log.
 */
import * as nodeFs from 'node:fs';
import type { FsLike } from '../fs.js';
import { formatProgress, type ProgressState, type Styles } from './summary.js';

/** A search shorter than this shows no progress at all. */
export const PROGRESS_DELAY_MS = 1000;
/** How often the line is redrawn. */
export const PROGRESS_EVERY_MS = 200;

const ERASE_LINE = '\r\x1b[2K';

export interface ProgressStream {
  write(chunk: string): boolean;
  columns?: number;
}

export class ProgressLine {
  private timer: NodeJS.Timeout | undefined;
  private shown = false;
  private readonly startedAt = performance.now();
  private readonly stream: ProgressStream;
  private readonly read: () => Omit<ProgressState, 'elapsedMs'>;
  private readonly styles: Styles;

  constructor(stream: ProgressStream, read: () => Omit<ProgressState, 'elapsedMs'>, styles: Styles) {
    this.stream = stream;
    this.read = read;
    this.styles = styles;
    // unref: a pending redraw must never keep a finished command alive.
    this.timer = setTimeout(() => {
      this.draw();
      this.timer = setInterval(() => this.draw(), PROGRESS_EVERY_MS).unref();
    }, PROGRESS_DELAY_MS).unref();
  }

  /** Erases the line if it is drawn (before other output reaches the same terminal). The next tick redraws it. */
  clear(): void {
    if (!this.shown) return;
    this.stream.write(ERASE_LINE);
    this.shown = false;
  }

  /** Stops redrawing and erases the line. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.clear();
  }

  private draw(): void {
    let line = formatProgress({ ...this.read(), elapsedMs: performance.now() - this.startedAt }, this.styles);
    // A line wider than the terminal would wrap, and `\r` would then erase only its last row.
    const width = this.stream.columns;
    if (width !== undefined && width > 1 && line.length > width - 1) line = line.slice(0, width - 1);
    this.stream.write(ERASE_LINE + line);
    this.shown = true;
  }
}

/**
 * `node:fs` with a count of finished directory reads: the walk's own counters are not visible
 * until it ends (the stream API has no live counters yet), so the progress line counts the reads
 * it serves itself.
 * Each call looks the function up on `node:fs` when it is made, as the library's default does.
 */
export function buildCountingFs(): { fs: FsLike; dirsRead(): number } {
  let reads = 0;
  const base = nodeFs as unknown as FsLike;
  const fs: FsLike = {
    readdir(path, options, callback) {
      base.readdir(path, options, (error, entries) => {
        reads++;
        callback(error, entries);
      });
    },
    readdirSync: (path, options) => base.readdirSync(path, options),
    lstat: (path, callback) => base.lstat(path, callback),
    lstatSync: (path) => base.lstatSync(path),
    // Content search (--contains) also reads files through it.
    open: (path, flags, callback) => base.open!(path, flags, callback),
    read: (fd, buffer, offset, length, position, callback) => base.read!(fd, buffer, offset, length, position, callback),
    close: (fd, callback) => base.close!(fd, callback),
  };
  return { fs, dirsRead: () => reads };
}
