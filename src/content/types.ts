/**
 * The content-search contract: `searchContent(options): Promise<ContentResult>`. Same honesty as
 * `findFiles`: `complete: true` with no hits proves absence for that scope; `complete: false`
 * never does. `truncated` (a display cut: line or byte caps) and `complete: false` (the search did
 * not cover everything) are different facts and never stand in for each other.
 */
import type { BackendOption, Clock, Platform } from '../options.js';
import type { BackendName, FallbackReason, IncompleteReason, RecoveryEvent, RecoveryInfo, SkippedEntry } from '../result.js';
import type { Env } from '../rg/resolve.js';
import type { ProcessRunner } from '../rg/runner.js';

export interface ContentOptions {
  /** The directory to search. */
  root: string;
  /** The text to find. Literal unless `mode: 'regex'`: a query is never guessed to be a regex. */
  query: string;
  /** @default 'literal' */
  mode?: 'literal' | 'regex';
  /**
   * `true`: exact case. `false`: ignore case. `'smart'`: ignore case unless the query holds an
   * upper-case letter (as `rg --smart-case`). @default 'smart'
   */
  caseSensitive?: boolean | 'smart';
  /** Globs of the files to search in, with `findFiles` rules. @default every file ('*') */
  pattern?: string | string[];
  exclude?: string[];
  /** @default true */
  hidden?: boolean;
  /** At most this many hits (matching lines); the search stops when it sees one more. @default unlimited */
  maxResults?: number;
  /** Each hit's `text` is cut to this many characters and flagged `textTruncated`. @default 500 */
  maxLineChars?: number;
  /**
   * Cap on the total bytes of hit text kept. Reaching it stops the search: the result is incomplete
   * (reason `output-limit`, since the unread rest may hold hits) and `truncated`. @default 1 MiB
   */
  maxOutputBytes?: number;
  timeBudgetMs?: number;
  maxDepth?: number;
  signal?: AbortSignal;
  /** @default 'walker' */
  backend?: BackendOption;
  fs?: unknown;
  clock?: Clock;
  platform?: Platform;
  rgPath?: string;
  runner?: ProcessRunner;
  onEvent?: (event: RecoveryEvent) => void;
  env?: Env;
}

/** One matching line. */
export interface ContentHit {
  /** Root-relative with `/`. */
  path: string;
  /** 1-based line number. */
  line: number;
  /** 1-based column of the line's first match, in characters of the line as a JavaScript string (UTF-16 code units). */
  column: number;
  /** The line without its line ending, cut to `maxLineChars`. */
  text: string;
  /** Present and true when `text` was cut. */
  textTruncated?: true;
}

export interface ContentStats {
  dirsRead: number;
  entriesSeen: number;
  elapsedMs: number;
  /** Bytes of file content read (pure-TS path) or reported by ripgrep's summary. */
  bytesSearched: number;
}

export interface ContentResult {
  /** In path order, then line order. */
  hits: ContentHit[];
  hitCount: number;
  /** Files whose content was searched (binary files not included). */
  filesSearched: number;
  /** Files skipped because they look binary (a NUL byte in the first 8 KiB). Policy, not a gap. */
  binarySkipped: number;
  skipped: SkippedEntry[];
  skippedCount: number;
  symlinkSkipped: number;
  excludedCount: number;
  complete: boolean;
  incompleteReason?: IncompleteReason;
  incompleteReasons: IncompleteReason[];
  /** A display cut happened: some hit's text was cut (`maxLineChars`) or hits were dropped at `maxOutputBytes`. */
  truncated: boolean;
  stats: ContentStats;
  backend: BackendName;
  recovery?: RecoveryInfo;
  fallbackReason?: FallbackReason;
}
