/**
 * The content-search contract: `searchContent(options): Promise<ContentResult>`. Same honesty as
 * `findFiles`: `complete: true` with no hits proves absence for that scope; `complete: false`
 * never does. `truncated` (a display cut: line or byte caps) and `complete: false` (the search did
 * not cover everything) are different facts and never stand in for each other.
 * docs/content-search.md is the full contract.
 */
import type { DirentLike } from '../fs.js';
import type { BackendOption, Clock, Platform } from '../options.js';
import type { BackendName, FallbackReason, IncompleteReason, RecoveryEvent, RecoveryInfo, SkippedEntry } from '../result.js';
import type { Env } from '../rg/resolve.js';
import type { ProcessRunner } from '../rg/runner.js';

/**
 * The options of `searchContent` and `searchContentStream`. Unknown names are refused
 * (`FF_UNKNOWN_OPTION`). The file set (`pattern`, `exclude`, `hidden`, `maxDepth`) means what it
 * means to `findFiles`; file globs match with the platform's case (`caseSensitive` is the query's).
 */
export interface ContentOptions {
  /** The directory to search. */
  root: string;
  /**
   * The text to find. Literal unless `mode: 'regex'`: a query is never guessed to be a regex.
   * Refused before any I/O when empty (`FF_EMPTY_QUERY`), over `MAX_QUERY_BYTES` (64 KiB of UTF-8,
   * `FF_QUERY_TOO_LONG`), holding a NUL character, or (regex mode) not a valid regex
   * (`FF_INVALID_QUERY`). A query holding a line break matches across lines (see the docs).
   */
  query: string;
  /** `literal`: the query's text as is. `regex`: a regex in ripgrep's syntax (`FF_INVALID_QUERY` when invalid). @default 'literal' */
  mode?: 'literal' | 'regex';
  /**
   * `true`: exact case. `false`: ignore case. `'smart'`: ignore case unless the query holds an
   * upper-case letter (as `rg --smart-case`). @default 'smart'
   */
  caseSensitive?: boolean | 'smart';
  /** Globs of the files to search in, with `findFiles` rules. @default every file ('*') */
  pattern?: string | string[];
  /** Globs of files and directories not to search in, as `FindOptions.exclude`. Counted in `excludedCount`. @default [] */
  exclude?: string[];
  /** Search in files and directories whose name starts with `.`. @default true */
  hidden?: boolean;
  /** Apply ignore files as `findFiles` does (`FindOptions.gitignore`). @default false */
  gitignore?: boolean;
  /** Leave out directories named `.git`, as `FindOptions.ignoreGitDirs`. @default false */
  ignoreGitDirs?: boolean;
  /** More ignore files, as `FindOptions.ignoreFiles`. @default [] */
  ignoreFiles?: string[];
  /** At most this many hits (matching lines); the search stops when it sees one more. @default unlimited */
  maxResults?: number;
  /**
   * At most this many hits in each file (`grep -m`, `rg --max-count`), at least 1: the rest of a file
   * that reached it is not read, except for the last hit's `contextAfter` lines, where a matching
   * line is shown as a context line, never a hit (as grep does). A cap asked for, not a coverage
   * gap: the search stays complete; `filesAtHitCap` counts the files it cut. @default unlimited
   */
  maxHitsPerFile?: number;
  /**
   * Lines shown before each hit (`rg -B`), in the hit's `before`. A line is shown once: the lines
   * of one file are handed out in order, so a line already shown (a hit, or the context of an
   * earlier hit) is never repeated, and a matching line is always a hit, never context. Context
   * lines count toward `maxOutputBytes`, not toward `maxResults`. @default 0
   */
  contextBefore?: number;
  /** Lines shown after each hit (`rg -A`), in the hit's `after`, with the rules of `contextBefore`. @default 0 */
  contextAfter?: number;
  /** Each hit's `text` (and each context line's) is cut to this many characters (UTF-16 units) and flagged `textTruncated`. @default 500 */
  maxLineChars?: number;
  /**
   * Cap on the total UTF-8 bytes of the hits kept (each hit's `path` plus its `text`, and the text
   * of its context lines, after the `maxLineChars` cut). A context line that would pass it is
   * dropped and the search stops the same way. The hit that would pass it is dropped and the search stops: the result is
   * `truncated` (a found hit was not returned) and incomplete, reason `output-limit` (the unread
   * rest may hold hits). @default 1 MiB
   */
  maxOutputBytes?: number;
  /** Stop once this many milliseconds (by `clock`) have passed: incomplete, `time-budget`. @default unlimited */
  timeBudgetMs?: number;
  /** How deep to look, as `FindOptions.maxDepth`: 1 searches only the root's own files. @default unlimited */
  maxDepth?: number;
  /** Stops the search; the hits found so far are returned, marked `aborted`. */
  signal?: AbortSignal;
  /**
   * `'auto'` by default on the real disk: ripgrep where it is installed and answers as fully, the
   * pure-TS path otherwise; with an injected `fs`, `'walker'` (ripgrep reads only the real disk).
   * @default 'auto' ('walker' with `fs`)
   */
  backend?: BackendOption;
  /** A `node:fs`-shaped object; the pure-TS path also needs `open`, `read` and `close` (memfs has them). */
  fs?: unknown;
  /** Where `timeBudgetMs` and `elapsedMs` are read; tests inject a fake. @default a monotonic clock (`process.hrtime`) */
  clock?: Clock;
  /** Path flavour, as `FindOptions.platform`. @default the running platform */
  platform?: Platform;
  /** Absolute path to the ripgrep executable. @default `FIND_FILE_RG`, then `rg` on the PATH */
  rgPath?: string;
  /** Starts ripgrep; tests inject a fake. @default child_process.spawn, no shell */
  runner?: ProcessRunner;
  /** Receives a recovery event when ripgrep was retried or failed; never the query, paths or output. */
  onEvent?: (event: RecoveryEvent) => void;
  /** The project the search belongs to, absolute: ripgrep is never run from a PATH folder inside it (as `FindOptions.workspace`). */
  workspace?: string;
  /** Watches the walk of the pure-TS path, as `FindOptions.onDirectory` does. */
  onDirectory?: (dir: string, entries: readonly DirentLike[]) => void;
  /** Where `FIND_FILE_RG` and `PATH` are read, and what ripgrep's (minimal) environment is taken from. @default process.env */
  env?: Env;
}

/** One matching line. */
export interface ContentHit {
  /** Root-relative with `/`. */
  path: string;
  /** 1-based line number (of the first line, for a match that spans lines). */
  line: number;
  /** 1-based column of the line's first match, in characters of the line as a JavaScript string (UTF-16 code units). */
  column: number;
  /** The line without its line ending (`\n`, `\r\n`), cut to `maxLineChars`. The first line only, for a match that spans lines. */
  text: string;
  /** Present and true when `text` was cut. */
  textTruncated?: true;
  /** Present when the match spans lines (a query that can match a line break): the 1-based number of its last line. */
  endLine?: number;
  /**
   * With `contextBefore`: the lines just before this hit, in order, not already shown (so fewer
   * than asked after an earlier hit or at the start of the file). Absent without the option.
   */
  before?: ContextLine[];
  /**
   * With `contextAfter`: the lines just after this hit (after `endLine` for a match that spans
   * lines), in order, up to the next hit or the end of the file. Absent without the option.
   */
  after?: ContextLine[];
}

/** A line shown around a hit: the same text rules as the hit's own line. */
export interface ContextLine {
  /** 1-based line number. */
  line: number;
  /** The line without its line ending, cut to `maxLineChars`. */
  text: string;
  /** Present and true when `text` was cut. */
  textTruncated?: true;
}

/**
 * Why a content search is incomplete: the `findFiles` reasons, plus `output-limit` (the
 * `maxOutputBytes` cap stopped the search).
 */
export type ContentIncompleteReason = IncompleteReason | 'output-limit';

/** Every content-search reason, in no particular order: for validation and exhaustive tests. */
export const CONTENT_INCOMPLETE_REASONS: readonly ContentIncompleteReason[] = [
  'time-budget', 'result-limit', 'output-limit', 'depth-limit', 'permission-denied', 'aborted', 'io-error',
];

/** Counters that describe the work done; they never change the meaning of the result. */
export interface ContentStats {
  /** Directories listed (pure-TS path; 0 for ripgrep, which does not say). */
  dirsRead: number;
  /** Directory entries looked at (pure-TS path; 0 for ripgrep). */
  entriesSeen: number;
  /** Time from start to result, by the injected clock, in milliseconds. */
  elapsedMs: number;
  /** Bytes of file content read (pure-TS path); for ripgrep, what its summary reports (files with hits only). */
  bytesSearched: number;
}

/** Everything a content search reports except the hits: what the streaming form ends with. */
export interface ContentSummary {
  /** Hits returned (never more than `maxResults`). */
  hitCount: number;
  /**
   * The file the search was reading hits from when a stop (`result-limit`, `output-limit`,
   * `time-budget`, `aborted`) ended it: the last file with a hit, in the order found. Its hits, and
   * so its count of matching lines, may be cut short (a lower bound); every other file's are whole,
   * as an engine hands out a file's hits together. Absent when no stop cut the search.
   */
  partialFile?: string;
  /**
   * Files whose content was searched. Pure-TS path: every file opened and searched (binary files
   * skipped at their first chunk not included). ripgrep path: the files ripgrep reported hits in
   * (its JSON does not count the others): a lower bound.
   */
  filesSearched: number;
  /**
   * Files where binary data (a NUL byte) was found: in the first 64 KiB the file is not searched
   * at all; later, its search stops there and the hits before it are kept (as ripgrep does).
   * ripgrep reports only the second kind. Policy, not a coverage gap.
   */
  binarySkipped: number;
  /**
   * False when ripgrep answered: it leaves a binary file without a word unless it printed hits
   * in it first, so `binarySkipped` is a lower bound, and 0 does not mean that no file was left
   * unsearched. True on the pure-TS path, which counts every one.
   */
  binaryCounted: boolean;
  /**
   * With `maxHitsPerFile`: the files whose hits reached it. They were read no further, so each may
   * hold more matching lines than its hits show (a lower bound). Absent without the option.
   */
  filesAtHitCap?: number;
  /** Directories and files that could not be read: directories first, then files, each in the order met. */
  skipped: SkippedEntry[];
  /** `skipped.length`. */
  skippedCount: number;
  /** Symlinks and junctions met and, by policy, neither followed nor searched. Not a coverage gap. */
  symlinkSkipped: number;
  /** Entries left out by `exclude`. Policy, not a coverage gap. */
  excludedCount: number;
  /** Entries left out by ignore files (`gitignore: true`), as `FindSummary.ignoredCount`: 0 from ripgrep. */
  ignoredCount: number;
  /**
   * Symlinked directories the walk would have searched in, root-relative, sorted, at most
   * `MAX_LINK_MATCHES` (as `FindSummary.linksOnTheWay`). Links are never followed: a complete
   * answer with no hit proves absence only outside them. Empty when `linksExamined` is false.
   */
  linksOnTheWay: string[];
  /** How many such links were met, all of them. */
  linkOnTheWayCount: number;
  /**
   * Symlinks whose path the file patterns match and that are not named on the way (a link to a
   * file, a dangling one, a link to a directory the walk would not have entered), root-relative,
   * sorted, at most `MAX_LINK_MATCHES` (as
   * `FindSummary.linkMatches`). Never followed, so never searched: "the text does not occur" never
   * covers them. Empty when `linksExamined` is false.
   */
  linkMatches: string[];
  /** How many such links were met, all of them. */
  linkMatchedCount: number;
  /**
   * FIFOs, sockets and devices whose path the file patterns match, root-relative, sorted, at most
   * `MAX_LINK_MATCHES`: never opened (a FIFO's open blocks), so never searched. Policy, as links are,
   * never a coverage gap; `[]` when `linksExamined` is false (ripgrep does not say of them either).
   */
  specialMatches: string[];
  /** How many such files were met, all of them. */
  specialMatchedCount: number;
  /**
   * `true` when links were seen: the pure-TS path, or (`auto`) a listing walk after ripgrep's complete
   * empty answer. `false` for ripgrep alone: it cannot see links, so `linksOnTheWay` is empty for that reason.
   */
  linksExamined: boolean;
  /**
   * True when every file in scope was searched to its end (binary files aside): with no hits, that
   * proves the text is not there. False never proves absence; `incompleteReasons` says why.
   */
  complete: boolean;
  /** The first entry of `incompleteReasons`; absent when complete. */
  incompleteReason?: ContentIncompleteReason;
  /** Every reason that applied: the one that stopped the search first, then the others in the order they happened. */
  incompleteReasons: ContentIncompleteReason[];
  /** A display cut happened: some hit's or context line's text was cut (`maxLineChars`), or a hit or context line was dropped at `maxOutputBytes`. */
  truncated: boolean;
  /** ripgrep output lines that were not valid `--json` events (failure kind `protocol`). 0 on the pure-TS path. */
  protocolErrors: number;
  /** Counters of the work done; they never change what the result means. */
  stats: ContentStats;
  /** The engine whose answer this is: `walker` is the pure-TS path, also when `auto` fell back to it. */
  backend: BackendName;
  /** ripgrep's run: present whenever ripgrep was selected, including when the pure-TS path then replaced it. */
  recovery?: RecoveryInfo;
  /** Present when `auto` ran the pure-TS path: why ripgrep did not (or did not usefully) answer. */
  fallbackReason?: FallbackReason;
}

/** The answer to a content search: the hits, what was not searched and why, and whether coverage was complete. */
export interface ContentResult extends ContentSummary {
  /** In path order (UTF-16 code units, as `findFiles`), then line order. */
  hits: ContentHit[];
}

/** Hits as they are found (not sorted), then the summary. */
export interface ContentStream extends AsyncIterable<ContentHit> {
  /**
   * The summary once the search has ended and the loop has taken every hit or left. Iterate the
   * stream to the end (or break out: `aborted`, counting the hits taken, also when the search had
   * ended first) before awaiting this.
   */
  readonly summary: Promise<ContentSummary>;
  /** The same hits in batches (all that waits at each turn). Read either the batches or the stream itself, not both. */
  batches(): AsyncIterable<ContentHit[]>;
}

/** Asked as the search goes (each file and chunk, each ripgrep chunk); a promise means "wait: the reader has enough". */
export type WaitForReader = () => Promise<void> | undefined;
