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
 */
import type { Excluder, PathMatcher } from '../patterns.js';
import type { Scope } from '../plan/search-plan.js';
import type { EntrySelection, EntryType } from '../plan/select.js';
import { isIgnored, type IgnoreLevel } from './ignore.js';

/** What a listed file (or symlink) is to the search: `excluded` and `ignored` are left out and counted. */
export type FileVerdict = 'excluded' | 'ignored' | 'match' | 'other';

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
function buildFileVerdict(matcher: PathMatcher, excluder: Excluder, ignoreRoot: string): (base: string, name: string, level?: IgnoreLevel) => FileVerdict {
  const needsPath = !matcher.nameOnly;
  const ignored = (base: string, name: string, level: IgnoreLevel | undefined) => level !== undefined && isIgnored(level, ignoreRoot + base + name, false);
  if (!excluder.active && !needsPath) return (base, name, level) => (ignored(base, name, level) ? 'ignored' : matcher.matches(name, name) ? 'match' : 'other');
  if (!excluder.active) return (base, name, level) => (ignored(base, name, level) ? 'ignored' : matcher.matches(base + name, name) ? 'match' : 'other');
  return (base, name, level) => {
    const rel = base + name;
    if (excluder.isExcluded(rel, name, false)) return 'excluded';
    if (ignored(base, name, level)) return 'ignored';
    return matcher.matches(needsPath ? rel : name, name) ? 'match' : 'other';
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
   * directory's: src/walk/ignore.ts), matching, or neither.
   */
  readonly file: (base: string, name: string, level?: IgnoreLevel) => FileVerdict;
  private readonly matcher: PathMatcher;
  private readonly excluder: Excluder;
  private readonly hidden: boolean;
  private readonly maxDepth: number;
  private readonly select: EntrySelection;
  /** The root relative to the outermost directory whose ignore files apply (`gitignore: true`). */
  private readonly ignoreRoot: string;

  constructor(scope: Scope) {
    this.matcher = scope.matcher;
    this.excluder = scope.excluder;
    this.hidden = scope.hidden;
    this.maxDepth = scope.maxDepth;
    this.select = scope.select;
    // Perf: both are asked of every entry, so each is compiled once for the options at hand.
    this.isHiddenName = scope.hidden ? () => false : (name) => name.charCodeAt(0) === DOT;
    this.ignoreRoot = scope.ignore?.rootDir ?? '';
    this.file = buildFileVerdict(scope.matcher, scope.excluder, this.ignoreRoot);
  }

  /** A directory at root-relative `rel` (no trailing `/`), `depth` levels down (1: the root's child). */
  directory(rel: string, name: string, depth: number, level?: IgnoreLevel): DirectoryVerdict {
    if (this.excluder.active && this.excluder.isExcluded(rel, name, true)) return 'excluded';
    // Never read, so nothing below it can be re-included (as git and ripgrep).
    if (this.isIgnoredAt(level, rel, true)) return 'ignored';
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
    if (this.isIgnoredAt(level, rel, isDirectory)) return false;
    if (isDirectory) return !this.matcher.prunes || this.matcher.couldMatchInside(rel) || this.isDirectoryMatch(rel, name);
    return this.select[kind] && this.matcher.matches(rel, name);
  }

  /** A later name that decodes like an earlier one: it can never be opened (src/walk/engine.ts). */
  twin(rel: string, name: string, level?: IgnoreLevel): TwinVerdict {
    const { excluder, matcher } = this;
    if (excluder.active && excluder.isExcluded(rel, name, false) && excluder.isExcluded(rel, name, true)) return 'excluded';
    if (this.isIgnoredAt(level, rel, false) && this.isIgnoredAt(level, rel, true)) return 'ignored';
    return matcher.matches(rel, name) || !matcher.prunes || matcher.couldMatchInside(rel) ? 'gap' : 'none';
  }

  /** The ignore files' verdict on root-relative `rel` (none when `level` is: ignore files off). */
  private isIgnoredAt(level: IgnoreLevel | undefined, rel: string, isDirectory: boolean): boolean {
    return level !== undefined && isIgnored(level, this.ignoreRoot + rel, isDirectory);
  }

  // Per listed path: `rel` is root-relative with `/`, as ripgrep prints it (without `./`).

  /**
   * Would the walker return this listed file? Its directories, in order, must each be read (not
   * hidden, excluded, or at the depth limit), then the file itself must match. `onExcluded` counts
   * an exclusion as the walker counts it. Perf: with the common options (hidden files in, nothing
   * excluded, no depth limit) only the matcher is asked: no directory is then left out but a
   * pruned one, and a file inside a directory no pattern can match into does not match either.
   */
  buildListedFileTest(onExcluded: () => void): (rel: string) => boolean {
    const { matcher } = this;
    if (this.hidden && !this.excluder.active && !Number.isFinite(this.maxDepth)) return (rel) => matcher.matches(rel, rel.slice(rel.lastIndexOf('/') + 1));
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
