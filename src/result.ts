/**
 * The result contract, in one module: the shape every backend returns, the reasons a result can be
 * incomplete, how a read error is classified, and how reasons are ordered.
 *
 * The rule this module exists to enforce: `complete: true` with zero matches proves absence;
 * `complete: false` never does, and always says why.
 */

/** Why a result does not cover everything the options asked for. */
export type IncompleteReason =
  /** The time budget ran out before the walk ended. */
  | 'time-budget'
  /** A match beyond `maxResults` exists: the walk stopped when it saw it. */
  | 'result-limit'
  /** `maxDepth` kept the walk out of a directory where a match may exist. */
  | 'depth-limit'
  /** A directory (or entry) could not be read: EACCES or EPERM. */
  | 'permission-denied'
  /** The caller's AbortSignal fired. */
  | 'aborted'
  /** Any other read error (EIO, EBUSY, ELOOP, ENAMETOOLONG, EMFILE after retries, ...). */
  | 'io-error';

/** Every reason, in no particular order: for validation and exhaustive tests. */
export const INCOMPLETE_REASONS: readonly IncompleteReason[] = [
  'time-budget',
  'result-limit',
  'depth-limit',
  'permission-denied',
  'aborted',
  'io-error',
];

/** A path the search could not look at, and the error code that stopped it. */
export interface SkippedEntry {
  /** Root-relative with `/` separators; the root itself is `.`. */
  path: string;
  /** The error code as Node reports it, e.g. `EACCES`, `EPERM`, `EIO`; `UNKNOWN` when there is none. */
  code: string;
}

/** Counters that describe the work done; they never change the meaning of the result. */
export interface FindStats {
  /** Directories listed, the root included. */
  dirsRead: number;
  /** Directory entries looked at (hidden and excluded entries included). */
  entriesSeen: number;
  /** Time from start to result, by the injected clock, in milliseconds. */
  elapsedMs: number;
  /** Directories at the depth limit listed only to learn whether anything lies beyond the limit. */
  dirsPeeked: number;
}

/** How far a search has got, while it runs (the streaming form's `progress()`). */
export interface FindProgress {
  /** Directories listed so far, the root included. */
  dirsRead: number;
  /** Directory entries looked at so far. */
  entriesSeen: number;
  /** Matches found so far. */
  matchedCount: number;
  /** Milliseconds since the search started, by the injected clock. */
  elapsedMs: number;
}

/** Which engine produced a result. */
export type BackendName = 'walker' | 'ripgrep';

/**
 * Why a ripgrep run did not end on its own terms. A fixed set, never raw error text.
 * Cancellation (the caller's AbortSignal) and the result limit are not failures.
 */
export type FailureKind =
  /** ripgrep started but could not create its worker threads (EAGAIN), even after the one retry. */
  | 'eagain'
  /** The time budget ran out and the child was killed. */
  | 'timeout'
  /** One output record or stderr line outgrew the byte cap; the child was killed. */
  | 'max_buffer'
  /** ripgrep exited with a status or stderr that does not prove its answer (see docs/ripgrep.md). */
  | 'exit'
  /** The process could not be started. */
  | 'spawn'
  /** ripgrep's `--json` output held a line that is not a valid event (content search only, docs/content-search.md). */
  | 'protocol'
  /**
   * ripgrep went silent, and an ignore file where it reads them is a FIFO, socket or device: its
   * open waits for a writer (src/rg/blocking.ts). The child was killed; the file is in `skipped`.
   */
  | 'blocked';

/** Every failure kind, in no particular order: for validation and exhaustive tests. */
export const FAILURE_KINDS: readonly FailureKind[] = ['eagain', 'timeout', 'max_buffer', 'exit', 'spawn', 'protocol', 'blocked'];

/** How the ripgrep executable was chosen: `explicit` (`rgPath` or `FIND_FILE_RG`) or `system` (the PATH). */
export type SelectionMode = 'explicit' | 'system';

/** What happened to a ripgrep run, without the pattern, paths or output. Present whenever ripgrep was selected. */
export interface RecoveryInfo {
  /** How the ripgrep executable was chosen. */
  selectionMode: SelectionMode;
  /** ripgrep could not create threads and was run again with `--threads 1`. */
  retryTriggered: boolean;
  /** Present when a retry ran: whether it ended without a failure. */
  retrySucceeded?: boolean;
  /** The failure of the last run, if it failed. */
  failureKind?: FailureKind;
}

/** The `onEvent` payload: sent only when a retry happened or ripgrep failed. A clean search sends nothing. */
export interface RecoveryEvent extends RecoveryInfo {
  /** Always `ripgrep-recovery`. */
  type: 'ripgrep-recovery';
}

/** Why the walker answered a search that asked for `auto` (or why ripgrep's answer was replaced). */
export type FallbackReason =
  /** `type` asked for directories or symlinks (or no files): `rg --files` lists regular files only. */
  | 'entry-types'
  /** A size or time filter, `sort: 'mtime'` or `stats`: ripgrep's listing carries no metadata. */
  | 'metadata'
  /** No ripgrep executable could be resolved. */
  | 'rg-not-found'
  /** An injected `fs` can only be read by the walker. */
  | 'fs-injected'
  /** A finite `maxDepth` the patterns could reach beyond: ripgrep cannot prove what lies past it. */
  | 'max-depth'
  /** `findFilesSync` and `findFilesStream` run the walker only. */
  | 'api'
  /**
   * ripgrep's file listing was complete and empty, but `rg --files` never lists symlinks: the walker
   * answered instead, so an empty answer has looked at the links too (file listing only).
   */
  | 'links-unexamined'
  /** ripgrep could not enter the root (its cwd): the walker, which may still list it, answered. */
  | 'root-unreadable'
  /** ripgrep failed without a single match: the failure kind that sent the search to the walker. */
  | 'eagain'
  | 'max_buffer'
  | 'exit'
  | 'spawn'
  | 'protocol'
  /** ripgrep was stopped, blocked on a special ignore file: the walker, which never opens one, answered (a file listing also after matches). */
  | 'blocked';

/** Every fallback reason, in no particular order: for validation and exhaustive tests. */
export const FALLBACK_REASONS: readonly FallbackReason[] = [
  'entry-types', 'metadata', 'rg-not-found', 'fs-injected', 'max-depth', 'api', 'links-unexamined', 'root-unreadable', 'eagain', 'max_buffer', 'exit', 'spawn', 'protocol', 'blocked',
];

/**
 * How many matching symlink paths a result stores in `linkMatches`; `linkMatchedCount` goes on
 * counting past it. Memory stays bounded in a tree of a million matching links.
 */
export const MAX_LINK_MATCHES = 1000;

/** Everything a search reports except the list of matches: what the streaming form ends with. */
export interface FindSummary {
  /** Number of matches returned (never more than `maxResults`). */
  matchedCount: number;
  /** Paths that could not be read, with their error codes. Coverage gaps, unless vanished. */
  skipped: SkippedEntry[];
  /** `skipped.length`. */
  skippedCount: number;
  /** Symlinks and junctions met and, by policy, neither followed nor returned. Not a coverage gap. */
  symlinkSkipped: number;
  /**
   * Symlinks (and junctions) whose path matches the pattern and is not excluded: not regular files,
   * so never in `matches`, but named so that "no matching file" is never read as "nothing by that
   * name" (`/usr/bin/python3` is a link). Root-relative with `/` (native absolute with `absolute:
   * true`), sorted as `matches` are; at most `MAX_LINK_MATCHES` of them (the first met, breadth
   * first). Never limited by `maxResults`, never a reason for `complete`. Empty when
   * `linksExamined` is false.
   */
  linkMatches: string[];
  /** How many matching symlinks were met, all of them (`linkMatches` stops at `MAX_LINK_MATCHES`). */
  linkMatchedCount: number;
  /**
   * Symlinks "on the way": links (not excluded, ignored or hidden) to a directory that the
   * walk would have entered had they been directories, because some path below them could match
   * the pattern (`linked-src` for `linked-src/*.ts`; pnpm's `node_modules/react` for a `**`
   * pattern below it). Never followed, so what lies below them was not searched:
   * by policy (`complete` stays true), but a complete empty answer is then no proof that no
   * matching file can be reached by that path, and every surface says so. Each link is `stat`ed
   * once to learn that its target is a directory (a dangling link or a link to a file leads
   * nowhere the pattern could go); an injected fs without `stat` names each such link unchecked.
   * A link returned as a match (`type` lists links) or named in `linkMatches` is not named again here. Paths as in
   * `linkMatches`, sorted, at most `MAX_LINK_MATCHES`; empty when `linksExamined` is false.
   */
  linksOnTheWay: string[];
  /** How many links on the way were met, all of them (`linksOnTheWay` stops at `MAX_LINK_MATCHES`). */
  linkOnTheWayCount: number;
  /**
   * True when the engine saw the symlinks (the walker). False for ripgrep: `rg --files` lists
   * regular files only, so it cannot know of a matching link or a link on the way, and
   * `linkMatches` and `linksOnTheWay` are empty for that reason, not because there is none.
   */
  linksExamined: boolean;
  /** Entries left out by `exclude`. Policy, not a coverage gap. */
  excludedCount: number;
  /**
   * Entries left out by ignore files (`gitignore: true`; an ignored directory counts once, its
   * contents are never read). Policy, not a coverage gap. Always 0 from ripgrep, which applies the
   * rules itself and does not report what they left out.
   */
  ignoredCount: number;
  /**
   * Candidates (their path matches, their kind was asked for) that the metadata filters
   * (`modifiedAfter`, `modifiedBefore`, `minSize`, `maxSize`) left out. Policy, never a gap; 0
   * without filters.
   */
  filteredCount: number;
  /** True when every directory the pattern could match into was read. */
  complete: boolean;
  /** The first entry of `incompleteReasons`; absent when complete. */
  incompleteReason?: IncompleteReason;
  /** Every reason that applied: the one that stopped the walk first, then the others in the order they happened. */
  incompleteReasons: IncompleteReason[];
  /** Counters of the work done; they never change what the result means. */
  stats: FindStats;
  /** The engine whose answer this is: `walker` also when `auto` fell back to it (see `fallbackReason`). */
  backend: BackendName;
  /** ripgrep's run: present whenever ripgrep was selected, including when the walker then replaced it. */
  recovery?: RecoveryInfo;
  /** Present when `auto` ran the walker: why ripgrep did not (or did not usefully) answer. */
  fallbackReason?: FallbackReason;
}

/** The answer to a search: what was found, what was not looked at and why, and whether coverage was complete. */
export interface FindResult extends FindSummary {
  /** Root-relative paths with `/` separators (native absolute paths with `absolute: true`), sorted (by path, or newest first with `sort: 'mtime'`). */
  matches: string[];
  /** With `stats: true` only: each match's metadata, in the order of `matches` (`entries[i].path === matches[i]`). */
  entries?: MatchEntry[];
}

/** A match with its metadata, from the walk's one `lstat` of it (a link's own, never its target's). */
export interface MatchEntry {
  /** As in `matches`. */
  path: string;
  /** The entry's kind, as `type` names it (the special files: `pipe`, `socket`, `block-device`, `char-device`). */
  type: 'file' | 'directory' | 'symlink' | 'pipe' | 'socket' | 'block-device' | 'char-device';
  /** Bytes, as lstat gives them (a link: its target text's length). */
  size: number;
  /** Modification time, milliseconds since the epoch (fractional where the filesystem has it). */
  mtimeMs: number;
}

/** What a read error means for the result. */
export type ErrorClass =
  /** EACCES/EPERM: skipped, and the result is incomplete (`permission-denied`). */
  | 'permission-denied'
  /** ENOENT/ENOTDIR after the entry was listed: it is gone. Skipped, but the result stays complete. */
  | 'vanished'
  /** EMFILE/ENFILE: out of file handles; worth a retry after a pause. */
  | 'retryable'
  /** Anything else: skipped, and the result is incomplete (`io-error`). */
  | 'io-error';

export function classifyErrorCode(code: string): ErrorClass {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission-denied';
    case 'ENOENT':
    case 'ENOTDIR':
      return 'vanished';
    case 'EMFILE':
    case 'ENFILE':
      return 'retryable';
    default:
      return 'io-error';
  }
}

/**
 * The reason a skipped path gives its result: `permission-denied`, `io-error` (EMFILE that outlived
 * its retries too), or undefined for a path that vanished after it was listed (no gap). The one
 * place that says what a code costs: the walker, ripgrep, content search and every summary ask it.
 */
export function reasonForCode(code: string): 'permission-denied' | 'io-error' | undefined {
  const kind = classifyErrorCode(code);
  if (kind === 'vanished') return undefined;
  return kind === 'permission-denied' ? kind : 'io-error';
}

/** The skipped paths behind one reason, as the summaries count and name them. */
export function skippedFor(reason: string, skipped: readonly SkippedEntry[]): SkippedEntry[] {
  return skipped.filter((entry) => reasonForCode(entry.code) === reason);
}

/** The three verdict fields of every result, from its reasons: complete exactly when there are none. */
export function verdictFields<R extends string>(reasons: R[]): { complete: boolean; incompleteReason?: R; incompleteReasons: R[] } {
  return reasons.length === 0 ? { complete: true, incompleteReasons: reasons } : { complete: false, incompleteReason: reasons[0]!, incompleteReasons: reasons };
}

/**
 * The verdict fields with `aborted` added, last: a stream's reader left hits or matches untaken.
 * Last, because it did not stop the search (it may have ended before); it cut the answer short.
 */
export function withAborted<R extends string>(reasons: readonly R[]): ReturnType<typeof verdictFields<R | 'aborted'>> {
  const list: (R | 'aborted')[] = [...reasons];
  return verdictFields(list.includes('aborted') ? list : [...list, 'aborted']);
}

/** The error code carried by a thrown value, or `UNKNOWN`. */
export function errorCodeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code !== '' ? code : 'UNKNOWN';
}

/**
 * Collects reasons in the order the contract wants: a reason that stopped the walk goes first
 * (only the first stop counts: later ones cannot have happened), the others follow in the order
 * they were first met.
 */
export class ReasonLog<R extends string = IncompleteReason> {
  private stopReason: R | undefined;
  private readonly others: R[] = [];

  /** Record a gap that did not stop the walk. */
  note(reason: R): void {
    if (reason !== this.stopReason && !this.others.includes(reason)) this.others.push(reason);
  }

  /** Record the gap a skipped path leaves, if it leaves one (`reasonForCode`). */
  noteSkipped(code: string): void {
    const reason = reasonForCode(code);
    if (reason !== undefined) this.note(reason as R);
  }

  /** Record the reason the walk stopped; returns false if it had already stopped. */
  stop(reason: R): boolean {
    if (this.stopReason !== undefined) return false;
    this.stopReason = reason;
    const i = this.others.indexOf(reason);
    if (i >= 0) this.others.splice(i, 1);
    return true;
  }

  get stopped(): boolean {
    return this.stopReason !== undefined;
  }

  has(reason: R): boolean {
    return this.stopReason === reason || this.others.includes(reason);
  }

  list(): R[] {
    return this.stopReason === undefined ? [...this.others] : [this.stopReason, ...this.others];
  }
}
