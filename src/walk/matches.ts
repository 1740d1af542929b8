/**
 * What a candidate becomes, once for both walk drivers: a candidate is an entry whose path
 * matches and whose kind `type` asked for. It is a match at once, or, when a metadata filter,
 * `sort: 'mtime'` or `stats` needs its metadata, after one `lstat` (never a `stat`: links are
 * never followed), made by the drivers (src/walk/drivers.ts) only for candidates. Here too: the
 * match limit (stop, or count on for the newest-first order), and the links that are not
 * candidates (counted, and named when they match).
 */
import type { StatsLike } from '../fs.js';
import type { EntryMeta, EntrySelection, EntryType } from '../plan/select.js';
import { MAX_LINK_MATCHES, type ReasonLog } from '../result.js';

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
  /** lstat every match and hand its metadata to the sink (`sort: 'mtime'`, `stats`). */
  withMeta: boolean;
}

/** What a candidate's lstat answer makes it. */
type MetaVerdict = { kind: 'match'; meta: EntryMeta } | { kind: 'filtered' } | { kind: 'unreadable' };

/**
 * The metadata a filter or the caller needs, from an lstat answer. `unreadable`: the fs gave no
 * numeric size or time (an injected fs that leaves them out): the entry cannot be judged, a gap,
 * never a silent "does not match".
 */
function judgeMeta(type: EntryType, stats: StatsLike, select: EntrySelection): MetaVerdict {
  const { size, mtimeMs } = stats as StatsLike & { size?: unknown; mtimeMs?: unknown };
  if (typeof size !== 'number' || typeof mtimeMs !== 'number' || !Number.isFinite(mtimeMs)) return { kind: 'unreadable' };
  const meta: EntryMeta = { type, size, mtimeMs };
  return select.filter === undefined || select.filter(meta) ? { kind: 'match', meta } : { kind: 'filtered' };
}

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
  readonly select: EntrySelection;
  /** Candidates are lstat'ed before they are matches: a metadata filter, or the sink wants metadata. */
  readonly needsStat: boolean;
  private readonly maxMatches: number;
  private readonly countPastLimit: boolean;

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

  /** A link that is not a candidate: counted, and named when its path matches. */
  passLink(rel: string, matches: boolean): void {
    this.symlinkSkipped++;
    if (!matches) return;
    this.linkMatchedCount++;
    if (this.linkMatches.length < MAX_LINK_MATCHES) this.linkMatches.push(rel);
  }
}
