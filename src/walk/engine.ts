/**
 * The walk's state and its decisions, with no I/O of its own: a driver (sync or async) reads the
 * directories this engine queues and hands back entries or errors, in queue order. Because every
 * decision is made here, in that order, the sync and async walks visit the same directories, find
 * the same matches and stop at the same place, whatever the timing of the reads. The order is
 * breadth first: a match limit returns the shallowest matches, and the queue holds small records.
 */
import { rootError } from '../errors.js';
import { REPLACEMENT_CHAR, addressableCode, canFollowLinks, kindOf, specialKindOf, type DirentLike, type StatsLike } from '../fs.js';
import { Deadline } from '../limits.js';
import { UNDECODED_COST_FACTOR } from '../patterns.js';
import type { SearchPlan } from '../plan/search-plan.js';
import { ReasonLog, classifyErrorCode, errorCodeOf, verdictFields, type FindProgress, type FindSummary, type SkippedEntry } from '../result.js';
import { buildIgnoreLevel, IGNORE_RULE_TOO_LARGE, ignoreNamesIn, readDirectoryTexts, readTopLevels, type IgnoreLevel, type IgnoreReads, type IgnoreTexts } from './ignore.js';
import { HostPrune } from './prune.js';
import { MatchTaker, WalkRules, type MatchPolicy, type MatchSink } from './rules.js';
import { PAUSED, type DirTask, type EntryVerdict, type OpenListing, type UnknownEntries } from './task.js';

/**
 * A large directory checks the clock and the signal every 256 entries, and after about 1M units of
 * matching (pattern cost × path length, per depth a `**` may stand for; the ignore rules' cost; a
 * name holding U+FFFD, counted before its undecoded check, `UNDECODED_COST_FACTOR` times more): 1 s
 * budgets ran 15 s over long names 15 deep, 100 ms 430 over U+FFFD names. The async walk pauses
 * (`PAUSED`) for the event loop at a check made by work. */
const CHECK_EVERY_ENTRIES = 256;
const MATCH_WORK_PER_CHECK = 1 << 20;

export class Walk {
  readonly plan: SearchPlan<unknown>;
  /** The budget, from the walk's start. */
  readonly deadline: Deadline;
  private readonly rules: WalkRules;
  /** What one match costs per character of the path: the patterns' `cost`. */
  private readonly matchCost: number;
  private readonly queue: DirTask[] = [];
  private head = 0;
  private readonly reasons = new ReasonLog();
  private readonly skipped: SkippedEntry[] = [];
  private readonly matches: MatchTaker;
  private readonly prune: HostPrune | undefined;
  /** Directories of the task being judged that are candidates waiting for their lstat (already queued). */
  private statDirs: Set<string> | undefined;
  /** Queued directories whose lstat failed, named as gaps already: their failed listing is no second one. */
  private dirGapsNamed: Set<string> | undefined;
  private excludedCount = 0;
  private ignoredCount = 0;
  private dirsRead = 0;
  private dirsPeeked = 0;
  private entriesSeen = 0;
  private open: OpenListing | undefined;

  /**
   * `policy`: a number is the matches to return before the walk stops (`result-limit`): the plan's
   * `maxResults` for a file search; content search counts hits, not files, so its walk has none. */
  constructor(plan: SearchPlan<unknown>, onMatch: MatchSink, policy: number | MatchPolicy = plan.limits.maxResults) {
    const matchPolicy: MatchPolicy = typeof policy === 'number' ? { maxMatches: policy, atLimit: 'stop', withMeta: false } : policy;
    this.plan = plan;
    this.matches = new MatchTaker(plan.scope.select, matchPolicy, onMatch, this.reasons, (path, code) => this.skip(path, code));
    this.rules = new WalkRules(plan.scope);
    this.matchCost = Math.max(1, plan.scope.matcher.cost + plan.scope.excluder.cost);
    this.deadline = new Deadline(plan.limits.clock, plan.limits.timeBudgetMs);
    this.prune = plan.walk.pruneDirectory && new HostPrune(plan.walk.pruneDirectory, this.deadline);
    if (plan.limits.signal?.aborted) this.reasons.stop('aborted');
    const rootIsBoundary = plan.scope.maxDepth === 0;
    this.queue.push({ rel: '', depth: 0, peek: rootIsBoundary });
  }

  /** True once a limit, the budget or the signal has ended the walk. */
  get stopped(): boolean {
    return this.reasons.stopped;
  }

  /** The native path of a queued directory. */
  pathOf(task: DirTask): string {
    return this.plan.scope.nativePath(task.rel);
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
    if (this.plan.limits.signal?.aborted) return this.reasons.stop('aborted');
    if (this.deadline.passed()) return this.reasons.stop('time-budget');
    return false;
  }

  /** Marks the walk aborted (the signal's listener calls this between reads). */
  abort(): void {
    this.reasons.stop('aborted');
  }

  /** `gitignore: true`: the reads that give the rules of the root's parents; the driver answers them before the first listing. */
  parentIgnoreReads(): IgnoreReads<IgnoreLevel | undefined> | undefined {
    const geometry = this.plan.scope.ignore;
    return geometry === undefined ? undefined : readTopLevels(geometry, this.plan.scope.sep, () => this.shouldStop(), (path) => this.skip(path, IGNORE_RULE_TOO_LARGE));
  }

  acceptParentIgnore(level: IgnoreLevel | undefined): void {
    if (this.head === 0 && this.queue.length > 0) this.queue[0]!.ignore = level;
  }

  /**
   * `gitignore: true`: the reads that give a listed directory's own ignore rules, or undefined when
   * it has none (its entries then follow its parent's). The driver answers them, then calls
   * `acceptIgnoreTexts` (a file it could not read is a gap, not "no rules"), before `acceptEntries`.
   */
  ignoreReadsFor(task: DirTask, entries: readonly DirentLike[]): IgnoreReads<IgnoreTexts> | undefined {
    // Only `gitignore: true` reads each directory's files (`ignoreFiles` alone are read once, at the top).
    if (this.plan.scope.ignore?.defaults !== true) return undefined;
    const present = ignoreNamesIn(entries, task.ignore?.inRepository === true);
    return present === undefined ? undefined : readDirectoryTexts(this.pathOf(task), this.plan.scope.sep, present, this.plan.scope.root, task.ignore?.inRepository);
  }

  acceptIgnoreTexts(task: DirTask, texts: IgnoreTexts): void {
    for (const { name, code } of texts.unreadable ?? []) this.skip(task.rel + name, code);
    task.ignore = buildIgnoreLevel(task.ignore, task.rel, texts, '', () => this.shouldStop(), (path) => this.skip(path, IGNORE_RULE_TOO_LARGE));
  }

  /**
   * Takes the entries of a listed directory. Returns the names to lstat (types the filesystem did
   * not report, candidates waiting for their metadata): the driver must lstat each and call
   * `acceptStat`, in order, before the next task. `pausable` (the async driver): may return
   * `PAUSED` instead, after some matching; the driver then calls `resumeEntries`, and nothing else,
   * on a later turn of the event loop.
   */
  acceptEntries(task: DirTask, entries: DirentLike[]): UnknownEntries;
  acceptEntries(task: DirTask, entries: DirentLike[], pausable: boolean): UnknownEntries | typeof PAUSED;
  acceptEntries(task: DirTask, entries: DirentLike[], pausable = false): UnknownEntries | typeof PAUSED {
    // Stopped (the budget spent while its ignore files were read: their rules may be cut short), or a peek issued before another proved the point: nothing to judge.
    if (this.stopped || (task.peek && this.reasons.has('depth-limit'))) return undefined;
    if (task.peek) this.dirsPeeked++;
    else {
      this.dirsRead++;
      this.plan.walk.onDirectory?.(task.rel, entries);
    }
    this.statDirs = undefined;
    this.matches.probes = undefined; // a name probed in the last listing is not this one's
    this.open = { task, entries, next: 0, unknown: undefined, undecodable: undefined };
    return this.judgeEntries(pausable);
  }

  /** Goes on judging the listing `acceptEntries` paused; answers as it does. */
  resumeEntries(): UnknownEntries | typeof PAUSED {
    return this.judgeEntries(true);
  }

  private judgeEntries(pausable: boolean): UnknownEntries | typeof PAUSED {
    const open = this.open!;
    const { task, entries } = open;
    const base = task.rel;
    let { unknown, undecodable } = open;
    const workPerChar = this.matchCost * (task.depth + 1) + (task.ignore?.costPerChar ?? 0);
    const workFixed = task.ignore?.costFixed ?? 0;
    let work = 0;
    const from = open.next;
    let i = from;
    for (; i < entries.length; i++) {
      const entry = entries[i]!;
      const name = entry.name;
      const maybeUndecodable = name.includes(REPLACEMENT_CHAR);
      work += (workPerChar + (maybeUndecodable ? this.matchCost * (task.depth + 1) * UNDECODED_COST_FACTOR : 0)) * (base.length + name.length + 1) + workFixed;
      const host = this.prune?.took(); // the host's code ran for the last entry (prune.ts): a check now, a pause after a slow call
      if (host === 'slow') work = MATCH_WORK_PER_CHECK;
      if (work >= MATCH_WORK_PER_CHECK || host === 'quick' || i % CHECK_EVERY_ENTRIES === CHECK_EVERY_ENTRIES - 1) {
        // Only a check made by work restarts the count (else entries under 4,096 units never paused).
        const byWork = work >= MATCH_WORK_PER_CHECK;
        if (byWork) work = 0;
        if (this.shouldStop()) break;
        // At least one entry a turn, however dear: a pause must never be all a turn does.
        if (byWork && pausable && i > from) {
          Object.assign(open, { next: i, unknown, undecodable });
          if (!task.peek) this.entriesSeen += i - from;
          return PAUSED;
        }
      }
      if (this.rules.isHiddenName(name)) continue;
      let verdict: EntryVerdict;
      if (task.peek) verdict = this.peekAt(task, entry);
      else {
        // Two names can decode to one string (`d\xff` and a real `d\uFFFD`): only one of them is what the string opens. The first is
        // handled as usual (a read or an lstat then finds which it is); every later one can never be opened: a gap, never a second copy.
        if (maybeUndecodable) {
          if ((undecodable ??= new Set()).has(name)) {
            this.skipTwin(base + name, name, task.ignore, entry.isDirectory());
            continue;
          }
          undecodable.add(name);
        }
        // A name that was not valid UTF-8 may not round-trip, and a filter needs metadata: such a candidate is lstat'ed before it is returned (`acceptStat` judges it again).
        verdict = this.judgeEntry(task, entry, maybeUndecodable || this.matches.needsStat);
      }
      if (verdict === 'lstat') (unknown ??= []).push(name);
      else if (verdict === 'stop') {
        unknown = undefined;
        break;
      }
    }
    if (!task.peek) this.entriesSeen += i - from;
    this.open = undefined;
    return this.stopped ? undefined : unknown;
  }

  /** One entry of a listing: taken as a match, queued, counted or left out here; `lstat` when only its metadata can tell. */
  private judgeEntry(task: DirTask, entry: DirentLike, mustStat: boolean): EntryVerdict {
    const rules = this.rules;
    const { rel: base } = task;
    const { name } = entry;
    // A regular file or a special one (FIFO, socket, device): matched by name alike, never opened.
    const fileKind = entry.isFile() ? 'file' : specialKindOf(entry);
    if (fileKind !== undefined) {
      const verdict = rules.file(base, name, task.ignore);
      if (verdict === 'excluded') this.excludedCount++;
      else if (verdict === 'ignored') this.ignoredCount++;
      else if (verdict === 'match') return this.matches.select[fileKind] ? (mustStat ? 'lstat' : this.take(base, name)) : fileKind === 'file' ? undefined : this.matches.passSpecial(base + name);
      // lstat tells: a real name (`acceptStat` judges it again: no match) or a gap (EILSEQ).
      else if (verdict === 'undecoded' && this.matches.select[fileKind]) return 'lstat';
      return undefined;
    }
    if (entry.isDirectory()) {
      if (!this.addDir(base + name, name, task.depth + 1, task.ignore) || !rules.isDirectoryMatch(base + name, name)) return undefined;
      if (!mustStat) return this.take(base, name);
      (this.statDirs ??= new Set()).add(name);
      return 'lstat';
    }
    if (entry.isSymbolicLink()) {
      const link = this.judgeLink(base, name, task, true);
      if (link === 'candidate') return mustStat ? 'lstat' : this.take(base, name);
      return link === 'probe' ? 'lstat' : undefined;
    }
    return 'lstat'; // the filesystem did not say what it is (DT_UNKNOWN)
  }

  /** A match taken; `stop` when it was one too many (the result limit). */
  private take = (base: string, name: string): EntryVerdict => (this.matches.add(base, name) ? undefined : 'stop');

  /** An entry beyond the depth limit: nothing is returned, and the first that could match proves the gap. */
  private peekAt(task: DirTask, entry: DirentLike): EntryVerdict {
    const kind = kindOf(entry);
    if (kind === undefined) return 'lstat'; // type unknown (DT_UNKNOWN)
    if (!this.rules.isBeyondLimit(task.rel + entry.name, entry.name, kind, task.ignore)) return undefined;
    this.reasons.note('depth-limit');
    return 'stop';
  }

  /**
   * Takes the lstat answer for an entry `acceptEntries` could not type, or for a candidate that
   * needed its metadata (a filter, `sort: 'mtime'`, `stats`) or whose name may not round-trip. */
  acceptStat(task: DirTask, name: string, stats: StatsLike | undefined, error: unknown): void {
    if (this.stopped) return;
    const rel = task.rel + name;
    // A link on the way was `stat`ed (followed), not lstat'ed: its answer is about the target.
    if (this.matches.probes?.has(name)) return this.matches.linkTarget(rel, stats, error);
    if (error !== undefined || stats === undefined) {
      // A candidate that cannot be judged is a gap with its code (a vanished one is not).
      this.skip(rel, addressableCode(errorCodeOf(error), rel));
      if (this.statDirs?.has(name)) (this.dirGapsNamed ??= new Set()).add(rel);
      return;
    }
    // A directory candidate was queued with its listing: only its match waited for this answer.
    if (this.statDirs?.has(name)) return this.matches.take(task.rel, name, 'directory', stats);
    const isDirectory = stats.isDirectory();
    // Beyond the depth limit nothing is returned: an entry only proves the gap.
    if (task.peek) {
      const kind = kindOf(stats);
      if (kind !== undefined && this.rules.isBeyondLimit(rel, name, kind, task.ignore)) this.reasons.note('depth-limit');
    } else if (isDirectory) {
      if (this.addDir(rel, name, task.depth + 1, task.ignore) && this.rules.isDirectoryMatch(rel, name)) this.matches.take(task.rel, name, 'directory', stats);
      if (this.prune?.took() !== undefined) this.shouldStop(); // the host's code ran (prune.ts): the budget and signal asked now, not 128 lstats later
    } else if (stats.isSymbolicLink()) {
      if (this.judgeLink(task.rel, name, task, false) === 'candidate') this.matches.take(task.rel, name, 'symlink', stats);
    } else {
      const verdict = this.rules.file(task.rel, name, task.ignore, true);
      if (!this.leftOut(verdict) && verdict === 'match') {
        // A regular file or a special one, when its kind was asked for.
        const fileKind = stats.isFile() ? 'file' : specialKindOf(stats);
        if (fileKind !== undefined && this.matches.select[fileKind]) this.matches.take(task.rel, name, fileKind, stats);
      }
    }
  }

  /** Takes the error that kept a directory from being listed. */
  acceptError(task: DirTask, error: unknown): void {
    const code = addressableCode(errorCodeOf(error), task.rel);
    const isRoot = task.rel === '';
    if (isRoot && (code === 'ENOENT' || code === 'ENOTDIR')) throw rootError(this.plan.scope.root, code);
    // A directory at the limit that cannot be listed may hold anything: that is the depth limit's gap.
    if (task.peek) {
      if (classifyErrorCode(code) !== 'vanished') this.reasons.note('depth-limit');
      return;
    }
    if (!this.dirGapsNamed?.delete(task.rel.slice(0, -1))) this.skip(isRoot ? '.' : task.rel.slice(0, -1), code);
  }

  /** Live counters, cheap enough to read on every progress tick. */
  progress(): FindProgress {
    return { dirsRead: this.dirsRead, entriesSeen: this.entriesSeen, matchedCount: this.matches.matchedCount, elapsedMs: this.deadline.elapsed() };
  }

  /** The summary of everything seen so far. */
  summary(): FindSummary {
    return {
      matchedCount: this.matches.matchedCount,
      skipped: this.skipped,
      skippedCount: this.skipped.length,
      symlinkSkipped: this.matches.symlinkSkipped,
      // Sorted here, as `matches` are: the same tree gives the same list whatever the read timing.
      linkMatches: [...this.matches.linkMatches].sort(),
      linkMatchedCount: this.matches.linkMatchedCount,
      linksOnTheWay: [...this.matches.linksOnTheWay].sort(),
      linkOnTheWayCount: this.matches.linkOnTheWayCount,
      linksExamined: true,
      excludedCount: this.excludedCount,
      ignoredCount: this.ignoredCount,
      filteredCount: this.matches.filteredCount,
      ...verdictFields(this.reasons.list()),
      stats: { dirsRead: this.dirsRead, entriesSeen: this.entriesSeen, elapsedMs: this.deadline.elapsed(), dirsPeeked: this.dirsPeeked },
      backend: 'walker',
    };
  }

  /**
   * A symlink: never followed. `candidate` when it matches and `type` lists links. Otherwise passed
   * (`MatchTaker.passLink`), "on the way" when the walk would have entered it as a directory (the
   * partial test's verdict): `probe` asks the driver for one `stat`; an untyped one is named unchecked.
   */
  private judgeLink(base: string, name: string, task: DirTask, canProbe: boolean): 'candidate' | 'probe' | 'none' {
    const level = task.ignore;
    const verdict = this.rules.file(base, name, level);
    if (this.leftOut(verdict)) return 'none';
    if (verdict === 'match' && this.matches.select.symlink) return 'candidate';
    const rel = base + name;
    const onTheWay = this.rules.directory(rel, name, task.depth + 1, level) === 'read';
    return this.matches.passLink(rel, verdict === 'match', onTheWay ? (canProbe && canFollowLinks(this.plan.scope.fs) ? 'probe' : 'named') : 'no') ? 'probe' : 'none';
  }

  /** True when the driver must `stat` (follow) this name of the task being judged, not lstat it. */
  followsLink(name: string): boolean {
    return this.matches.probes?.has(name) === true;
  }

  /** Queues a directory as its verdict says (`pruneDirectory`: counted, left unread, still an entry); false when left out (excluded, ignored): it cannot match either. */
  private addDir(rel: string, name: string, depth: number, ignore: IgnoreLevel | undefined): boolean {
    const verdict = this.rules.directory(rel, name, depth, ignore);
    if (this.leftOut(verdict)) return false;
    if ((verdict === 'read' || verdict === 'limit') && this.prune?.ask(rel + '/') === true) this.excludedCount++;
    else if (verdict === 'read') this.queue.push({ rel: rel + '/', depth, peek: false, ignore });
    else if (verdict === 'limit' && !this.reasons.has('depth-limit')) this.queue.push({ rel: rel + '/', depth, peek: true, ignore });
    return true;
  }

  /** A later name that decodes like an earlier one in the same directory: unreadable, if it could matter (below a directory the host prunes, nothing does). */
  private skipTwin(rel: string, name: string, level: IgnoreLevel | undefined, isDirectory: boolean): void {
    let verdict = this.rules.twin(rel, name, level);
    if (verdict === 'gap' && isDirectory && this.prune?.ask(rel + '/') === true) verdict = this.rules.twin(rel, name, level, true);
    if (!this.leftOut(verdict) && verdict === 'gap') this.skip(rel, 'EILSEQ');
  }

  /** Counts an entry the excludes or the ignore files left out; true when they did. */
  private leftOut(verdict: string): boolean {
    if (verdict !== 'excluded' && verdict !== 'ignored') return false;
    if (verdict === 'excluded') this.excludedCount++;
    else this.ignoredCount++;
    return true;
  }

  private skip(path: string, code: string): void {
    this.skipped.push({ path, code });
    this.reasons.noteSkipped(code);
  }
}
