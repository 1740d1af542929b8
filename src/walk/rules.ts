/**
 * The walk's rules, each written once, in the two forms the engines need them:
 *
 * - per entry: the walker (src/walk/engine.ts) judges each name of a directory it listed;
 * - per listed path: ripgrep lists whole paths (`rg --files`, `rg --json`), and its answer is
 *   filtered to what the walker would have returned (src/rg/files.ts, src/content/rg.ts). Each
 *   per-path form is the per-entry rules applied to the path's segments, one by one, in the
 *   walker's order, so the two cannot drift apart.
 *
 * A rule added here (ignore files, entry types, metadata filters) is added once, for every engine.
 * Below the rules: `MatchTaker`, what a candidate (a matching entry of a kind asked for) becomes.
 */
import { REPLACEMENT_CHAR, type StatsLike } from '../fs.js';
import type { Excluder, PathMatcher } from '../patterns.js';
import type { Scope } from '../plan/search-plan.js';
import type { EntryMeta, EntrySelection, EntryType } from '../plan/select.js';
import { MAX_LINK_MATCHES, errorCodeOf, type ReasonLog } from '../result.js';
import { GIT_DIR, isIgnored, type IgnoreLevel } from './ignore.js';

/**
 * What a listed file (or symlink) is to the search: `excluded` and `ignored` are left out and
 * counted. `undecoded`: the name holds U+FFFD and does not match as decoded, but some reading of
 * the bytes it may stand for could (src/glob/nfa.ts): the walk must learn whether the name is real
 * (then it does not match) or cannot be opened (an `EILSEQ` gap, never silence).
 */
export type FileVerdict = 'excluded' | 'ignored' | 'match' | 'undecoded' | 'other';

/**
 * What a listed directory is to the search: `excluded` (left out, counted), `pruned` (no pattern
 * can match inside: never read, and no gap), `read`, or `limit` (at the depth limit: only peeked
 * at, to learn whether anything beyond it could match).
 */
export type DirectoryVerdict = 'excluded' | 'ignored' | 'pruned' | 'read' | 'limit';

/**
 * The file rule, compiled for the options: an excluded file is counted, not matched; a base-name
 * matcher is given the name alone (the walk never joins the path it does not need).
 */
function buildFileVerdict(matcher: PathMatcher, excluder: Excluder): (base: string, name: string, level?: IgnoreLevel, real?: boolean) => FileVerdict {
  const needsPath = !matcher.nameOnly;
  const ignored = (base: string, name: string, level: IgnoreLevel | undefined) => level !== undefined && isIgnored(level, base + name, false);
  // Perf: the undecoded question is asked only of names holding U+FFFD (one scan of a name that missed).
  // A name an lstat found (`real`) is what it reads as: the question is moot, and costs ms a name.
  const miss = (base: string, name: string, real = false): FileVerdict => (!real && name.includes(REPLACEMENT_CHAR) && matcher.couldMatchUndecoded(base + name, name) ? 'undecoded' : 'other');
  if (!excluder.active && !needsPath) return (base, name, level, real) => (ignored(base, name, level) ? 'ignored' : matcher.matches(name, name) ? 'match' : miss(base, name, real));
  if (!excluder.active) return (base, name, level, real) => (ignored(base, name, level) ? 'ignored' : matcher.matches(base + name, name) ? 'match' : miss(base, name, real));
  return (base, name, level, real) => {
    const rel = base + name;
    if (excluder.isExcluded(rel, name, false)) return 'excluded';
    if (ignored(base, name, level)) return 'ignored';
    return matcher.matches(needsPath ? rel : name, name) ? 'match' : miss(base, name, real);
  };
}

/** What a name that cannot be opened (an undecodable twin) is: excluded, a gap, or nothing the search needed. */
export type TwinVerdict = 'excluded' | 'ignored' | 'gap' | 'none';

const DOT = 46;

export class WalkRules {
  // Per entry: `base` is the directory's root-relative path ending in `/` (`''` for the root).

  /** A name `hidden: false` leaves out, uncounted (a dot name). */
  readonly isHiddenName: (name: string) => boolean;
  /**
   * A file or a symlink in `base`: excluded, ignored (by the ignore files of `level`, the
   * directory's: src/walk/ignore.ts), matching, or neither. `real`: an lstat found the name as it
   * reads (never `undecoded` then).
   */
  readonly file: (base: string, name: string, level?: IgnoreLevel, real?: boolean) => FileVerdict;
  private readonly matcher: PathMatcher;
  private readonly excluder: Excluder;
  private readonly hidden: boolean;
  private readonly maxDepth: number;
  private readonly select: EntrySelection;
  private readonly gitDirsIgnored: boolean;

  constructor(scope: Scope) {
    this.matcher = scope.matcher;
    this.excluder = scope.excluder;
    this.hidden = scope.hidden;
    this.maxDepth = scope.maxDepth;
    this.select = scope.select;
    this.gitDirsIgnored = scope.gitDirsIgnored;
    // Perf: both are asked of every entry, so each is compiled once for the options at hand.
    this.isHiddenName = scope.hidden ? () => false : (name) => name.charCodeAt(0) === DOT;
    this.file = buildFileVerdict(scope.matcher, scope.excluder);
  }

  /** A directory at root-relative `rel` (no trailing `/`), `depth` levels down (1: the root's child). */
  directory(rel: string, name: string, depth: number, level?: IgnoreLevel): DirectoryVerdict {
    if (this.excluder.active && this.excluder.isExcluded(rel, name, true)) return 'excluded';
    // Never read, so nothing below it can be re-included (as git and ripgrep).
    if (this.isIgnoredAt(level, rel, name, true)) return 'ignored';
    // Perf: a directory no pattern can match into is never read; that is not a coverage gap.
    if (this.matcher.prunes && !this.matcher.couldMatchInside(rel)) return 'pruned';
    return depth < this.maxDepth ? 'read' : 'limit';
  }

  /**
   * `type` includes directories and this one (not excluded or ignored: `directory` said so) matches
   * by its root-relative path, as a file would. Whether it is entered is `directory`'s answer,
   * independently: a directory can match and be read.
   */
  isDirectoryMatch(rel: string, name: string): boolean {
    return this.select.directory && this.matcher.matches(rel, name);
  }

  /**
   * In a directory at the depth limit: true when this entry proves that a match may lie beyond it:
   * a directory the patterns could enter (or that would itself match), or an entry of a kind asked
   * for that matches. Metadata filters are not checked here (nothing is lstat'ed in a peek): an
   * entry that might pass them is enough to say `depth-limit`.
   */
  isBeyondLimit(rel: string, name: string, kind: EntryType, level?: IgnoreLevel): boolean {
    const isDirectory = kind === 'directory';
    if (this.excluder.active && this.excluder.isExcluded(rel, name, isDirectory)) return false;
    if (this.isIgnoredAt(level, rel, name, isDirectory)) return false;
    if (isDirectory) return !this.matcher.prunes || this.matcher.couldMatchInside(rel) || this.isDirectoryMatch(rel, name);
    return this.select[kind] && this.matcher.matches(rel, name);
  }

  /** A later name that decodes like an earlier one: it can never be opened (src/walk/engine.ts). */
  twin(rel: string, name: string, level?: IgnoreLevel, insidePruned = false): TwinVerdict {
    const { excluder, matcher } = this;
    if (excluder.active && excluder.isExcluded(rel, name, false) && excluder.isExcluded(rel, name, true)) return 'excluded';
    if (this.isIgnoredAt(level, rel, name, false) && this.isIgnoredAt(level, rel, name, true)) return 'ignored';
    // `insidePruned`: the host's `pruneDirectory` leaves what is below it out, so only its own name can matter.
    return matcher.matches(rel, name) || matcher.couldMatchUndecoded(rel, name) || (!insidePruned && (!matcher.prunes || matcher.couldMatchInside(rel))) ? 'gap' : 'none';
  }

  /**
   * Ignored: a `.git` directory with `ignoreGitDirs`, or by the ignore files' verdict on
   * root-relative `rel` (none when `level` is: ignore files off).
   */
  private isIgnoredAt(level: IgnoreLevel | undefined, rel: string, name: string, isDirectory: boolean): boolean {
    if (isDirectory && this.gitDirsIgnored && name === GIT_DIR) return true;
    return level !== undefined && isIgnored(level, rel, isDirectory);
  }

  // Per listed path: `rel` is root-relative with `/`, as ripgrep prints it (without `./`).

  /**
   * Would the walker return this listed file? Its directories, in order, must each be read (not
   * hidden, excluded, or at the depth limit), then the file itself must match. `onExcluded` counts
   * an exclusion as the walker counts it. Perf: with the common options (hidden files in, nothing
   * excluded, no depth limit) only the matcher is asked: no directory is then left out but a
   * pruned one, and a file inside a directory no pattern can match into does not match either.
   * `onUndecoded`: a file that does not match but could in another reading of the bytes behind its
   * U+FFFD, in its name or in a directory's (the walker opens a directory by its string first, so a
   * directory it reads is real; ripgrep's listed directories are not checked yet).
   */
  buildListedFileTest(onExcluded: () => void, onUndecoded: (rel: string) => void = () => {}): (rel: string) => boolean {
    const { matcher } = this;
    if (this.hidden && !this.excluder.active && !this.gitDirsIgnored && !Number.isFinite(this.maxDepth)) {
      return (rel) => {
        const name = rel.slice(rel.lastIndexOf('/') + 1);
        if (matcher.matches(rel, name)) return true;
        if (rel.includes(REPLACEMENT_CHAR) && matcher.couldMatchUndecoded(rel, name)) onUndecoded(rel);
        return false;
      };
    }
    return (rel) => {
      let depth = 1;
      let start = 0;
      for (let slash = rel.indexOf('/'); slash >= 0; slash = rel.indexOf('/', start)) {
        const name = rel.slice(start, slash);
        if (this.isHiddenName(name)) return false;
        const verdict = this.directory(rel.slice(0, slash), name, depth);
        if (verdict === 'excluded') onExcluded();
        if (verdict !== 'read') return false;
        depth++;
        start = slash + 1;
      }
      const name = rel.slice(start);
      if (this.isHiddenName(name)) return false;
      const verdict = this.file(rel.slice(0, start), name);
      if (verdict === 'excluded') onExcluded();
      if (verdict === 'undecoded' || (verdict === 'other' && start > 0 && rel.lastIndexOf(REPLACEMENT_CHAR, start - 1) >= 0 && matcher.couldMatchUndecoded(rel, name))) onUndecoded(rel);
      return verdict === 'match';
    };
  }

  /**
   * Would the walker have read this directory (`.`: the root)? ripgrep enters directories the
   * walker prunes, leaves out or only peeks at (where a failure is `depth-limit`, not `skipped`):
   * a read error there is not the walker's gap.
   */
  wouldRead(rel: string): boolean {
    if (rel === '.') return true;
    let depth = 0;
    let start = 0;
    for (;;) {
      const slash = rel.indexOf('/', start);
      const end = slash < 0 ? rel.length : slash;
      const name = rel.slice(start, end);
      depth++;
      if (this.isHiddenName(name) || this.directory(rel.slice(0, end), name, depth) !== 'read') return false;
      if (slash < 0) return true;
      start = slash + 1;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// What a candidate becomes, once for both walk drivers: a candidate is an entry whose path
// matches and whose kind `type` asked for. It is a match at once, or, when a metadata filter,
// `sort: 'mtime'` or `stats` needs its metadata, after one `lstat` (never a `stat`: links are
// never followed), made by the drivers (src/walk/drivers.ts) only for candidates. Here too: the
// match limit (stop, or count on for the newest-first order), and the links that are not
// candidates (counted, and named when they match).
// ---------------------------------------------------------------------------------------------

/**
 * Receives each match as its directory's root-relative path (ending in `/`, `''` for the root)
 * and its name, and its metadata when the walk was asked for it (`MatchPolicy.withMeta`). Perf:
 * the walk never joins the two unless the pattern needs the whole path.
 */
export type MatchSink = (base: string, name: string, meta?: EntryMeta) => void;

/** How the walk treats matches, beyond the plan's selection. */
export interface MatchPolicy {
  /** Matches to return; seeing one more is `result-limit`. */
  maxMatches: number;
  /**
   * `stop`: the walk stops at match `maxMatches + 1` (breadth first, so the shallowest are kept).
   * `count`: the walk goes on and every match reaches the sink, which keeps the `maxMatches` it
   * wants (`sort: 'mtime'`: the newest of the whole tree); `result-limit` is noted, not a stop.
   */
  atLimit: 'stop' | 'count';
  /**
   * Content search: a link is never a result (its content is not searched). A matching link is named
   * on the way when it leads to a directory, as any other link, and otherwise in `linkMatches`: a
   * file the pattern names that was not searched, so "the text does not occur" never covers it.
   */
  linksAreNotResults?: boolean;
  /**
   * Content search: a FIFO, socket or device its patterns match is never opened (a FIFO's open
   * blocks), so it is told here, to be named: "the text does not occur" must not cover it.
   */
  onSpecialMatch?: (rel: string) => void;
  /** lstat every match and hand its metadata to the sink (`sort: 'mtime'`, `stats`). */
  withMeta: boolean;
}

/** What a candidate's lstat answer makes it. */
type MetaVerdict = { kind: 'match'; meta: EntryMeta } | { kind: 'filtered' } | { kind: 'unreadable' };

const NS_PER_S = 1_000_000_000n;

/**
 * The metadata a filter or the caller needs, from an lstat answer. `unreadable`: the fs gave no
 * numeric size or time (an injected fs that leaves them out): the entry cannot be judged, a gap,
 * never a silent "does not match".
 */
function judgeMeta(type: EntryType, stats: StatsLike, select: EntrySelection): MetaVerdict {
  const { size, mtimeMs, mtimeNs } = stats as StatsLike & { size?: unknown; mtimeMs?: unknown; mtimeNs?: unknown };
  // A `bigint` lstat (`exactTimes`): every number is a bigint, the time exact in mtimeNs. Its mtimeMs
  // as node's own lstat gives it (seconds and nanoseconds apart): `Number(ns) / 1e6` rounds twice.
  if (typeof size === 'bigint' && typeof mtimeNs === 'bigint') {
    return judged({ type, size: Number(size), mtimeMs: Number(mtimeNs / NS_PER_S) * 1e3 + Number(mtimeNs % NS_PER_S) / 1e6, mtimeNs }, select);
  }
  if (typeof size !== 'number' || typeof mtimeMs !== 'number' || !Number.isFinite(mtimeMs)) return { kind: 'unreadable' };
  return judged({ type, size, mtimeMs }, select);
}

function judged(meta: EntryMeta, select: EntrySelection): MetaVerdict {
  return select.filter === undefined || select.filter(meta) ? { kind: 'match', meta } : { kind: 'filtered' };
}

/** A followed link's errors that mean it leads to no directory: dangling, a loop, a file on its path. */
const LEADS_NOWHERE: ReadonlySet<string> = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

export class MatchTaker {
  /** Matches returned (at most `maxMatches`). */
  matchedCount = 0;
  /** Candidates the metadata filters left out: policy, never a gap. */
  filteredCount = 0;
  /** Links met that are not candidates: never followed, never returned. */
  symlinkSkipped = 0;
  linkMatchedCount = 0;
  /** Root-relative paths of matching links that are not candidates, the first `MAX_LINK_MATCHES` met. */
  readonly linkMatches: string[] = [];
  linkOnTheWayCount = 0;
  /** Root-relative paths of links on the way (FindSummary.linksOnTheWay), the first `MAX_LINK_MATCHES` met. */
  readonly linksOnTheWay: string[] = [];
  /**
   * The names of links on the way in the directory being judged, waiting for their `stat` (the
   * engine clears it per directory), each with whether its path matched (content search names a
   * matching one in `linkMatches` unless it leads to a directory).
   */
  probes: Map<string, boolean> | undefined;
  readonly select: EntrySelection;
  /** Candidates are lstat'ed before they are matches: a metadata filter, or the sink wants metadata. */
  readonly needsStat: boolean;
  private readonly maxMatches: number;
  private readonly countPastLimit: boolean;
  private readonly linksAreNotResults: boolean;
  private readonly onSpecialMatch: ((rel: string) => void) | undefined;

  constructor(
    select: EntrySelection,
    policy: MatchPolicy,
    private readonly onMatch: MatchSink,
    private readonly reasons: ReasonLog,
    private readonly skip: (path: string, code: string) => void,
  ) {
    this.select = select;
    this.maxMatches = policy.maxMatches;
    this.countPastLimit = policy.atLimit === 'count';
    this.linksAreNotResults = policy.linksAreNotResults === true;
    this.onSpecialMatch = policy.onSpecialMatch;
    this.needsStat = policy.withMeta || select.filter !== undefined;
  }

  /** Records a match; false (and the walk stopped) when it is one more than a `stop` limit. */
  add(base: string, name: string, meta?: EntryMeta): boolean {
    if (this.matchedCount >= this.maxMatches) {
      if (!this.countPastLimit) {
        this.reasons.stop('result-limit');
        return false;
      }
      this.reasons.note('result-limit');
    } else this.matchedCount++;
    this.onMatch(base, name, meta);
    return true;
  }

  /** A candidate with its lstat answer: a match, left out by the filters, or (no numbers) a gap. */
  take(base: string, name: string, type: EntryType, stats: StatsLike): void {
    if (!this.needsStat) {
      this.add(base, name);
      return;
    }
    const verdict = judgeMeta(type, stats, this.select);
    if (verdict.kind === 'unreadable') this.skip(base + name, 'UNKNOWN');
    else if (verdict.kind === 'filtered') this.filteredCount++;
    else this.add(base, name, verdict.meta);
  }

  /**
   * A link that is not a candidate: counted, and named when its path matches. `onTheWay`: the walk
   * would have entered it as a directory: named at once (`named`: it cannot be followed), or
   * (`probe`, true returned) once its `stat` says where it leads (`linkTarget`).
   */
  passLink(rel: string, matches: boolean, onTheWay: 'no' | 'named' | 'probe' = 'no'): boolean {
    this.symlinkSkipped++;
    // Named once: a matching link is not named again as one on the way. Content search asks where
    // a matching link on the way leads first (a directory is on the way, anything else a match).
    if (matches && (!this.linksAreNotResults || onTheWay === 'no')) {
      this.linkMatch(rel);
      return false;
    }
    if (onTheWay === 'named') this.onTheWay(rel);
    if (onTheWay !== 'probe') return false;
    (this.probes ??= new Map()).set(rel.slice(rel.lastIndexOf('/') + 1), matches);
    return true;
  }

  /** A special file (FIFO, socket, device) whose path matches but whose kind is not selected: told to the content search. */
  passSpecial(rel: string): undefined {
    this.onSpecialMatch?.(rel);
    return undefined;
  }

  private linkMatch(rel: string): void {
    this.linkMatchedCount++;
    if (this.linkMatches.length < MAX_LINK_MATCHES) this.linkMatches.push(rel);
  }

  /**
   * A link on the way, followed once (`stat`): named when its target is a directory. A dangling
   * link, a loop or a link to a file leads nowhere the pattern could go; any other error may hide a
   * directory, so the link is named (never a gap: links are not followed, by policy). So is a link
   * whose name holds U+FFFD: its "ENOENT" may only mean the string does not open it. One that leads
   * nowhere but matched (content search) is named as a matching link: a file left unsearched.
   */
  linkTarget(rel: string, stats: StatsLike | undefined, error: unknown): void {
    const leadsToDirectory =
      stats !== undefined && error === undefined ? stats.isDirectory() : !LEADS_NOWHERE.has(errorCodeOf(error)) || rel.includes(REPLACEMENT_CHAR);
    if (leadsToDirectory) this.onTheWay(rel);
    else if (this.probes?.get(rel.slice(rel.lastIndexOf('/') + 1)) === true) this.linkMatch(rel);
  }

  /** A link (already counted by `passLink`) on the way: its target is (or may be) a directory the pattern could lead into. */
  onTheWay(rel: string): void {
    this.linkOnTheWayCount++;
    if (this.linksOnTheWay.length < MAX_LINK_MATCHES) this.linksOnTheWay.push(rel);
  }
}
