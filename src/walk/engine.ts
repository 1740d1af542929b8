/**
 * The walk's state and its decisions, with no I/O of its own: a driver (sync or async) reads the
 * directories this engine queues and hands back entries or errors, in queue order. Because every
 * decision is made here, in that order, the sync and async walks visit the same directories, find
 * the same matches and stop at the same place, whatever the timing of the reads.
 *
 * The order is breadth first: a match limit returns the shallowest matches, and the queue holds
 * small records (a relative path and a depth), never open handles.
 */
import { rootError } from '../errors.js';
import type { DirentLike, StatsLike } from '../fs.js';
import type { WalkPlan } from '../options.js';
import { MAX_LINK_MATCHES, ReasonLog, classifyErrorCode, errorCodeOf, verdictFields, type FindProgress, type FindSummary, type SkippedEntry } from '../result.js';
import { nativePath } from '../paths.js';

/** A directory the walk has decided to list. */
export interface DirTask {
  /** Root-relative path with `/`, ending in `/`; `''` for the root. */
  rel: string;
  /** The directory's own depth: 0 for the root. */
  depth: number;
  /**
   * A directory at the depth limit: it is listed only to learn whether something the pattern
   * could match lies beyond the limit (then the result is incomplete, `depth-limit`), and
   * nothing in it is returned.
   */
  peek: boolean;
}

/** Entries whose type the filesystem did not report; the driver lstats them. */
export type UnknownEntries = string[] | undefined;

/**
 * Receives each match as its directory's root-relative path (ending in `/`, `''` for the root)
 * and its name. Perf: the walk never joins the two unless the pattern needs the whole path.
 */
export type MatchSink = (base: string, name: string) => void;

/** How often, in entries, a large directory checks the clock and the signal. */
const CHECK_EVERY = 256;

export class Walk {
  readonly plan: WalkPlan;
  private readonly queue: DirTask[] = [];
  private head = 0;
  private readonly reasons = new ReasonLog();
  private readonly skipped: SkippedEntry[] = [];
  private readonly startedAt: number;
  private readonly onMatch: MatchSink;
  private matchedCount = 0;
  private symlinkSkipped = 0;
  /** Root-relative paths of matching links, the first `MAX_LINK_MATCHES` met. */
  private readonly linkMatches: string[] = [];
  private linkMatchedCount = 0;
  private excludedCount = 0;
  private dirsRead = 0;
  private dirsPeeked = 0;
  private entriesSeen = 0;

  constructor(plan: WalkPlan, onMatch: MatchSink) {
    this.plan = plan;
    this.onMatch = onMatch;
    this.startedAt = plan.clock.now();
    if (plan.signal?.aborted) this.reasons.stop('aborted');
    const rootIsBoundary = plan.maxDepth === 0;
    this.queue.push({ rel: '', depth: 0, peek: rootIsBoundary });
  }

  /** True once a limit, the budget or the signal has ended the walk. */
  get stopped(): boolean {
    return this.reasons.stopped;
  }

  /** The native path of a queued directory. */
  pathOf(task: DirTask): string {
    return nativePath(this.plan.rootPrefix, this.plan.sep, task.rel);
  }

  /** The next directory to list, or undefined when the queue is empty. Peeks made pointless are dropped. */
  nextTask(): DirTask | undefined {
    while (this.head < this.queue.length) {
      const task = this.queue[this.head]!;
      this.queue[this.head++] = undefined as unknown as DirTask; // let the record go
      if (this.head > 4096 && this.head * 2 > this.queue.length) {
        this.queue.splice(0, this.head);
        this.head = 0;
      }
      // One directory beyond the limit is proof enough: further peeks would prove nothing new.
      if (task.peek && this.reasons.has('depth-limit')) continue;
      return task;
    }
    return undefined;
  }

  /** True when the next queued task is a peek at the depth limit. */
  get nextIsPeek(): boolean {
    return this.head < this.queue.length && this.queue[this.head]!.peek;
  }

  /** True once a peek has shown something beyond the depth limit (further peeks are pointless). */
  get depthLimitSeen(): boolean {
    return this.reasons.has('depth-limit');
  }

  get hasQueued(): boolean {
    return this.head < this.queue.length;
  }

  /** Checks the signal and the time budget; true when the walk must stop. */
  shouldStop(): boolean {
    if (this.reasons.stopped) return true;
    if (this.plan.signal?.aborted) return this.reasons.stop('aborted');
    if (this.plan.clock.now() - this.startedAt >= this.plan.timeBudgetMs) return this.reasons.stop('time-budget');
    return false;
  }

  /** Marks the walk aborted (the signal's listener calls this between reads). */
  abort(): void {
    this.reasons.stop('aborted');
  }

  /**
   * Takes the entries of a listed directory. Returns the names whose type the filesystem did not
   * report: the driver must lstat each and call `acceptStat`, in order, before the next task.
   */
  acceptEntries(task: DirTask, entries: DirentLike[]): UnknownEntries {
    if (task.peek) return this.acceptPeek(task, entries);
    this.dirsRead++;
    this.plan.onDirectory?.(task.rel, entries);
    const { matcher, excluder, hidden, maxDepth } = this.plan;
    const base = task.rel;
    const childDepth = task.depth + 1;
    const descend = childDepth < maxDepth;
    const filterExcluded = excluder.active;
    const needsPath = !matcher.nameOnly;
    let unknown: UnknownEntries;
    let undecodable: Set<string> | undefined;
    let i = 0;
    for (; i < entries.length; i++) {
      if (i % CHECK_EVERY === CHECK_EVERY - 1 && this.shouldStop()) break;
      const entry = entries[i]!;
      const name = entry.name;
      if (!hidden && name.charCodeAt(0) === 46 /* . */) continue;
      // Two names can decode to one string (`d\xff` and a real `d\uFFFD`): only one of them is
      // what the string opens. The first is handled as usual (a read or an lstat then finds which it
      // is); every later one can never be opened: a gap, never a second copy of the first.
      const maybeUndecodable = name.includes(REPLACEMENT_CHAR);
      if (maybeUndecodable) {
        if ((undecodable ??= new Set()).has(name)) {
          this.skipTwin(base + name, name);
          continue;
        }
        undecodable.add(name);
      }
      if (entry.isFile()) {
        if (filterExcluded && excluder.isExcluded(base + name, name, false)) this.excludedCount++;
        else if (matcher.matches(needsPath ? base + name : name, name)) {
          // A name that was not valid UTF-8 may not round-trip: lstat it before returning it.
          if (maybeUndecodable) (unknown ??= []).push(name);
          else if (!this.addMatch(base, name)) break;
        }
      } else if (entry.isDirectory()) {
        this.addDir(base + name, name, childDepth, descend);
      } else if (entry.isSymbolicLink()) {
        if (filterExcluded && excluder.isExcluded(base + name, name, false)) this.excludedCount++;
        else {
          this.symlinkSkipped++;
          if (matcher.matches(needsPath ? base + name : name, name)) this.addLinkMatch(base + name);
        }
      } else if (!isSpecialFile(entry)) {
        (unknown ??= []).push(name);
      }
    }
    this.entriesSeen += i;
    return this.stopped ? undefined : unknown;
  }

  /** Takes the lstat answer for an entry `acceptEntries` could not type. */
  acceptStat(task: DirTask, name: string, stats: StatsLike | undefined, error: unknown): void {
    if (this.stopped) return;
    const rel = task.rel + name;
    if (error !== undefined || stats === undefined) {
      this.skip(rel, addressableCode(errorCodeOf(error), rel));
      return;
    }
    const { matcher, excluder } = this.plan;
    if (stats.isDirectory()) {
      if (task.peek) this.peekFound(rel, true);
      else this.addDir(rel, name, task.depth + 1, task.depth + 1 < this.plan.maxDepth);
    } else if (excluder.active && excluder.isExcluded(rel, name, false)) {
      this.excludedCount++;
    } else if (stats.isSymbolicLink()) {
      this.symlinkSkipped++;
      // Beyond the depth limit nothing is returned, links included.
      if (!task.peek && matcher.matches(rel, name)) this.addLinkMatch(rel);
    } else if (stats.isFile() && matcher.matches(rel, name)) {
      if (task.peek) this.peekFound(rel, false);
      else this.addMatch(task.rel, name);
    }
  }

  /** Takes the error that kept a directory from being listed. */
  acceptError(task: DirTask, error: unknown): void {
    const code = addressableCode(errorCodeOf(error), task.rel);
    const isRoot = task.rel === '';
    if (isRoot && (code === 'ENOENT' || code === 'ENOTDIR')) throw rootError(this.plan.root, code);
    // A directory at the limit that cannot be listed may hold anything: that is the depth limit's gap.
    if (task.peek) {
      if (classifyErrorCode(code) !== 'vanished') this.reasons.note('depth-limit');
      return;
    }
    this.skip(isRoot ? '.' : task.rel.slice(0, -1), code);
  }

  /** Live counters, cheap enough to read on every progress tick. */
  progress(): FindProgress {
    return { dirsRead: this.dirsRead, entriesSeen: this.entriesSeen, matchedCount: this.matchedCount, elapsedMs: this.plan.clock.now() - this.startedAt };
  }

  /** The summary of everything seen so far. */
  summary(): FindSummary {
    const incompleteReasons = this.reasons.list();
    return {
      matchedCount: this.matchedCount,
      skipped: this.skipped,
      skippedCount: this.skipped.length,
      symlinkSkipped: this.symlinkSkipped,
      // Sorted here, as `matches` are: the same tree gives the same list whatever the read timing.
      linkMatches: [...this.linkMatches].sort(),
      linkMatchedCount: this.linkMatchedCount,
      linksExamined: true,
      excludedCount: this.excludedCount,
      ...verdictFields(incompleteReasons),
      stats: {
        dirsRead: this.dirsRead,
        entriesSeen: this.entriesSeen,
        elapsedMs: this.plan.clock.now() - this.startedAt,
        dirsPeeked: this.dirsPeeked,
      },
      backend: 'walker',
    };
  }

  /** Records a match; false (and the walk stopped) when it is one more than `maxResults`. */
  private addMatch(base: string, name: string): boolean {
    if (this.matchedCount >= this.plan.maxResults) {
      this.reasons.stop('result-limit');
      return false;
    }
    this.matchedCount++;
    this.onMatch(base, name);
    return true;
  }

  /** Records a matching link: counted always, named up to the cap. Never a match, never a limit. */
  private addLinkMatch(rel: string): void {
    this.linkMatchedCount++;
    if (this.linkMatches.length < MAX_LINK_MATCHES) this.linkMatches.push(rel);
  }

  private addDir(rel: string, name: string, depth: number, descend: boolean): void {
    const { excluder, matcher } = this.plan;
    if (excluder.active && excluder.isExcluded(rel, name, true)) {
      this.excludedCount++;
      return;
    }
    // Perf: a directory no pattern can match into is never read; that is not a coverage gap.
    if (matcher.prunes && !matcher.couldMatchInside(rel)) return;
    if (descend) this.queue.push({ rel: rel + '/', depth, peek: false });
    else if (!this.reasons.has('depth-limit')) this.queue.push({ rel: rel + '/', depth, peek: true });
  }

  private acceptPeek(task: DirTask, entries: DirentLike[]): UnknownEntries {
    // A read issued before another peek proved the point has nothing left to prove.
    if (this.reasons.has('depth-limit')) return undefined;
    this.dirsPeeked++;
    const { matcher, excluder, hidden } = this.plan;
    let unknown: UnknownEntries;
    for (const entry of entries) {
      const name = entry.name;
      if (!hidden && name.charCodeAt(0) === 46) continue;
      const rel = task.rel + name;
      const isDir = entry.isDirectory();
      if (excluder.active && excluder.isExcluded(rel, name, isDir)) continue;
      if (isDir) {
        if (this.peekFound(rel, true)) return undefined;
      } else if (entry.isFile()) {
        if (matcher.matches(rel, name) && this.peekFound(rel, false)) return undefined;
      } else if (!entry.isSymbolicLink() && !isSpecialFile(entry)) {
        (unknown ??= []).push(name);
      }
    }
    return unknown;
  }

  /** Something beyond the depth limit: a matching file, or a directory the pattern could enter. */
  private peekFound(rel: string, isDir: boolean): boolean {
    if (isDir && this.plan.matcher.prunes && !this.plan.matcher.couldMatchInside(rel)) return false;
    this.reasons.note('depth-limit');
    return true;
  }

  /** A later name that decodes like an earlier one in the same directory: unreadable, if it could matter. */
  private skipTwin(rel: string, name: string): void {
    const { matcher, excluder } = this.plan;
    if (excluder.active && excluder.isExcluded(rel, name, false) && excluder.isExcluded(rel, name, true)) {
      this.excludedCount++;
      return;
    }
    const couldMatter = matcher.matches(rel, name) || !matcher.prunes || matcher.couldMatchInside(rel);
    if (couldMatter) this.skip(rel, 'EILSEQ');
  }

  private skip(path: string, code: string): void {
    this.skipped.push({ path, code });
    this.reasons.noteSkipped(code);
  }
}

const REPLACEMENT_CHAR = '\uFFFD';

/**
 * Node decodes names as UTF-8 (UTF-16 on Windows). A name that is not valid in that encoding comes
 * back with U+FFFD and cannot be opened by that string: its "ENOENT" (or "ENOTDIR", when the string
 * opens a twin of another type) does not mean it vanished.
 * Reported as EILSEQ (illegal byte sequence), an io-error, so the gap is never read as absence.
 */
function addressableCode(code: string, rel: string): string {
  // ENOTDIR too: the string may open a twin of another type (a file where a directory was listed).
  return (code === 'ENOENT' || code === 'ENOTDIR') && rel.includes(REPLACEMENT_CHAR) ? 'EILSEQ' : code;
}

/** FIFOs, sockets and devices: reported by type, never returned (as `rg --files` and `fd -t f`). */
function isSpecialFile(entry: DirentLike): boolean {
  return entry.isFIFO() || entry.isSocket() || entry.isCharacterDevice() || entry.isBlockDevice();
}
