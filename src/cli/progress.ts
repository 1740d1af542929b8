/**
 * The live progress line of the `find-file` command: drawn on stderr only when a person is
 * watching (stderr is a terminal, human output) and only once a search has run long enough to
 * leave them wondering (about a second); erased before the summary, so it never ends up in a log.
 *
 * `SearchProgress` keeps the counts it shows. Directories are counted through the library's
 * `onDirectory` hook, which watches the walk without changing it: the backend stays the one asked
 * for, and a search the walker does not run (ripgrep) shows no directory count.
 */
import type { FindOptions } from '../options.js';
import { monotonicClock } from '../plan/clock.js';
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
  private readonly startedAt = monotonicClock.now();
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
    let line = formatProgress({ ...this.read(), elapsedMs: monotonicClock.now() - this.startedAt }, this.styles);
    // A line wider than the terminal would wrap, and `\r` would then erase only its last row.
    const width = this.stream.columns;
    if (width !== undefined && width > 1 && line.length > width - 1) line = line.slice(0, width - 1);
    this.stream.write(ERASE_LINE + line);
    this.shown = true;
  }
}

/** The hook the library calls for each directory the walker lists (the same on `ContentOptions`). */
type DirectoryListener = NonNullable<FindOptions['onDirectory']>;

/** The counts behind the progress line of one search, and the line itself. */
export class SearchProgress {
  /** Undefined until the walker lists a directory: ripgrep does not say what it read. */
  private dirsRead: number | undefined;
  /** Undefined unless items arrive as they are found: a promise-form search has nothing to count until it ends. */
  private matches: number | undefined;
  private readonly line: ProgressLine;

  constructor(stream: ProgressStream, styles: Styles) {
    this.line = new ProgressLine(stream, () => ({ dirsRead: this.dirsRead, matches: this.matches }), styles);
  }

  /** A copy of the search options that also reports each directory listed here. The given options are left as they are. */
  watch<O extends { onDirectory?: DirectoryListener }>(options: O): O {
    const given = options.onDirectory;
    const onDirectory: DirectoryListener = (dir, entries) => {
      this.dirsRead = (this.dirsRead ?? 0) + 1;
      given?.(dir, entries);
    };
    return { ...options, onDirectory };
  }

  /** Shows the matches found so far, from now on: call it when the search streams its items. */
  countMatches(): void {
    this.matches ??= 0;
  }

  /** `count` more items printed. */
  found(count: number): void {
    if (this.matches !== undefined) this.matches += count;
  }

  /** Erases the line before other output reaches the same terminal. */
  clear(): void {
    this.line.clear();
  }

  stop(): void {
    this.line.stop();
  }
}
