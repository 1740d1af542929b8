/**
 * What a `stat` or a `realpath` the walk makes outside a kept listing depends on, for an answer to
 * be reused: the one entry of each directory the path goes through, hop by hop along a chain of
 * links (docs/index.md, "a link on the way"). The decisions are apart from the view's listings
 * (src/watch/snapshot.ts), which hands over `trackerOf`: the watch a change in a directory shows in.
 *
 * The rule every path here obeys: coverage is derived only from a path text that names the file the
 * kernel resolves. Node decodes a name that is not UTF-8 with U+FFFD, and that text names another
 * file or none: a watch set up on it watches nothing the walk read, and its "ENOENT" is no proof of
 * absence (an adversarial run: `.gitignore` -> `out/\xff/rules`, the rules edited, the kept answer
 * reused with the old ones). So links and real paths are read as bytes, and a text that does not
 * round-trip leaves the answer uncovered (exact, never reused); a missing directory proves nothing
 * when its text holds U+FFFD (as for the walker, src/fs.ts `addressableCode`).
 */
import * as nodeFs from 'node:fs';
import { posix } from 'node:path';
import { addressableCode, REPLACEMENT_CHAR, type FsLike } from '../fs.js';
import { depend, dirOf, entryOf, selfAndAncestors, type ReadCoverage, type WatchedDir } from './coverage.js';

type Callback<T> = (error: NodeJS.ErrnoException | null, value: T) => void;

/** Links the kernel follows in one path before ELOOP (Linux's MAXSYMLINKS). */
const MAX_LINK_HOPS = 40;

/** The path's text when it names these bytes; undefined when they are not UTF-8 (U+FFFD would name another file). */
export function textOf(bytes: Buffer): string | undefined {
  const text = bytes.toString('utf8');
  // Perf: only a text holding U+FFFD can fail to round-trip (a real U+FFFD in a name does not).
  return text.includes(REPLACEMENT_CHAR) && !Buffer.from(text, 'utf8').equals(bytes) ? undefined : text;
}

/** Whether `error` proves `path` absent: not when the text holds U+FFFD (it may not name the real bytes). */
function isAbsent(error: NodeJS.ErrnoException | null, path: string): boolean {
  const code = error?.code === undefined ? undefined : addressableCode(error.code, path);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

export class PathCover {
  constructor(
    /** The watch a change in `dir` (native, no trailing separator) would show in; undefined when none can be set up. */
    private readonly trackerOf: (dir: string) => WatchedDir | undefined,
    private readonly disk: FsLike,
  ) {}

  /**
   * Before a link on the way is `stat`ed: every directory the kernel passes through to its final
   * target watched first, so that any link of the chain or the target turning into something else
   * shows in a watch the answer depends on. A link's content cannot change in place (it is replaced: an event in its
   * watched directory), so watching each hop's directory, by its path and by its real path (a
   * relative target is resolved from the real one), covers the chain. The answer depends on the
   * one entry of each directory the path goes through, not on the directory's whole listing (a
   * file touched beside the entry changes nothing the kernel resolves). Uncovered: a chain longer
   * than the kernel follows, or any hop that cannot be read or watched. Not a link at all (an
   * ignore file, `.git`; missing or not): the entries on the way to it, as for a hop.
   */
  link(path: string, coverage: ReadCoverage, then: () => void): void {
    if (!coverage.covered) return then();
    this.hops(path, coverage, MAX_LINK_HOPS, (covered) => {
      if (!covered) coverage.covered = false;
      then();
    });
  }

  private hops(link: string, coverage: ReadCoverage, hopsLeft: number, done: (covered: boolean) => void): void {
    if (hopsLeft === 0) return done(false);
    nodeFs.realpath.native(dirOf(link), { encoding: 'buffer' }, (unresolved, realBytes) => {
      // Its directory missing (`.git/info/exclude` with no `info/`): the stat fails on the first
      // missing directory on the way, whose creation moves its entry.
      if (isAbsent(unresolved, dirOf(link))) return this.paths([link], coverage, done);
      const realDir = unresolved ? undefined : textOf(realBytes);
      if (realDir === undefined) return done(false);
      nodeFs.readlink(link, { encoding: 'buffer' }, (unreadable, targetBytes) => {
        // Not a link (EINVAL) or missing (ENOENT): its creation, removal, replacement or a write
        // to it is an event naming it. (Taken for a failed hop, no gitignore answer was reused.)
        if (unreadable?.code === 'EINVAL' || isAbsent(unreadable, link)) return this.paths([link, posix.join(realDir, posix.basename(link))], coverage, done);
        const target = unreadable ? undefined : textOf(targetBytes);
        if (target === undefined) return done(false);
        // `..` after another segment (`s/../t`) is resolved by the kernel through `s` (a link, maybe),
        // not by text: the hop read here could be the wrong place (an adversarial run: `s -> E/deep`
        // made it E/t, not root/t). Such a chain is not covered: its answers are not kept.
        if (/(^|\/)(?!\.\.(\/|$))[^/]+\/\.\.(\/|$)/.test(target)) return done(false);
        const next = posix.resolve(realDir, target);
        // The link by its path and by its real one, and the next hop.
        this.paths([link, posix.join(realDir, posix.basename(link)), next], coverage, (covered) => {
          if (!covered) return done(false);
          nodeFs.lstat(next, (missing, stats) => {
            // Missing: its creation is an event on an entry already depended on. Anything else unreadable: uncovered.
            if (missing) return done(isAbsent(missing, next));
            if (stats.isSymbolicLink()) return this.hops(next, coverage, hopsLeft - 1, done);
            done(true);
          });
        });
      });
    });
  }

  /**
   * Before a `realpath` (the root's, for the ignore files above it): the entries on the way to the
   * path and to its real path, read just before (as bytes: a real path that is not UTF-8 is
   * uncovered), are depended on, and the walk's own read must give that real path again (else
   * something changed in between: uncovered). A link on the way retargeted moves an entry of its
   * directory, or a sentinel's identity (`Sentinels.recheck`).
   */
  realpath(path: string, coverage: ReadCoverage, callback: Callback<string>): void {
    const disk = this.disk;
    if (!coverage.covered) return disk.realpath!(path, callback);
    nodeFs.realpath.native(path, { encoding: 'buffer' }, (unresolved, bytes) => {
      const before = unresolved ? undefined : textOf(bytes);
      this.paths(before === undefined ? [] : [path, before], coverage, (covered) => {
        disk.realpath!(path, (error, real) => {
          if (before === undefined || !covered || error || real !== before) coverage.covered = false;
          callback(error, real);
        });
      });
    });
  }

  /**
   * Each entry on the way to each of `paths`, nearest the root first. A directory on the way that
   * cannot be watched because it is missing (a dangling link into `lib/`, as
   * `/usr/lib/jvm/*\/src.zip`) ends that path covered: the kernel stops there, and its appearance
   * moves the entry of it already depended on. One that exists and cannot be watched leaves it
   * uncovered, and so does one whose text holds U+FFFD (its "ENOENT" may only mean the text names nothing).
   */
  private paths(paths: readonly string[], coverage: ReadCoverage, done: (covered: boolean) => void): void {
    for (let p = 0; p < paths.length; p++) {
      const parts = selfAndAncestors(paths[p]!);
      for (let i = 1; i < parts.length; i++) {
        const dir = dirOf(parts[i]!);
        const owner = this.trackerOf(dir);
        if (owner === undefined) {
          const rest = paths.slice(p + 1);
          return nodeFs.lstat(dir, (error) => (isAbsent(error, dir) ? this.paths(rest, coverage, done) : done(false)));
        }
        depend(coverage, entryOf(owner, posix.basename(parts[i]!)));
      }
    }
    done(coverage.covered);
  }
}
