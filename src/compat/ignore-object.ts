/**
 * node-glob's `ignore` as an object (its `IgnoreLike`): `ignored(path)` drops a match,
 * `childrenIgnored(path)` leaves a directory's entries unread. Hosts pass one to put their own
 * rules (a `.gitignore` read by the `ignore` package, an agent's own ignore files) in the walk
 * itself, so that `node_modules` is never read. Each is called with a `PathEntry`, node-glob's
 * `Path` for the members docs/compat.md lists, as a method of the object (`this` is the object).
 *
 * `childrenIgnored` becomes the walk's `pruneDirectory`: what it leaves unread is the host's
 * policy, never a gap (`complete` holds). node-glob asks it of `cwd` too, and then returns
 * nothing at all; of the other directories, find-file asks each one the walk would read, literal
 * steps of a pattern included (node-glob steps through `a` of `a/b/*` without asking).
 */
import { join } from 'node:path';
import { FindFileError } from '../errors.js';
import type { EntryType } from '../options.js';
import { PathEntry } from './path-entry.js';

/**
 * What a hook may read of the entry it is handed: the members of node-glob's `Path` that
 * `PathEntry` answers (docs/compat.md). A structural type, so that a hook typed for node-glob's
 * `Path` is accepted as it is.
 */
export type IgnoredPath = Pick<
  PathEntry,
  'name' | 'fullpath' | 'fullpathPosix' | 'relative' | 'relativePosix' | 'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isBlockDevice' | 'isCharacterDevice' | 'isUnknown'
>;

/**
 * node-glob's `IgnoreLike` (its `add`, for `includeChildMatches: false`, is not used: that option is
 * not carried). Methods, as there, so a host's object typed for node-glob fits.
 */
export interface IgnoreLike {
  /** True: the path is not returned (its entries are still read). */
  ignored?(path: IgnoredPath): boolean;
  /** True: nothing below the directory is read or returned (the directory itself still may be). */
  childrenIgnored?(path: IgnoredPath): boolean;
}

/** The object's two hooks, checked: each a function or absent (node-glob would throw a `TypeError` at its first call). */
export function readIgnoreObject(value: object, entry: string): IgnoreLike {
  for (const hook of ['ignored', 'childrenIgnored'] as const) {
    const f = (value as IgnoreLike)[hook];
    if (f !== undefined && typeof f !== 'function') {
      throw new FindFileError('FF_INVALID_OPTION', `${entry}: ignore.${hook} must be a function, got ${f === null ? 'null' : typeof f}`, 'ignore');
    }
  }
  return value as IgnoreLike;
}

/** What an `IgnoreLike` does to one search of `root` (the cwd: absolute patterns with one are refused). */
export interface IgnoreHooks {
  /** `childrenIgnored(cwd)`: node-glob then returns nothing at all. */
  cwdPruned: boolean;
  /** `ignored(cwd)`: `cwd` itself is not returned where a pattern names it. */
  cwdIgnored: () => boolean;
  /** The walk's `pruneDirectory`, when the object has `childrenIgnored`. */
  pruneDirectory: ((dir: string) => boolean) | undefined;
  /**
   * `childrenIgnored` of a directory (root-relative, no trailing `/`), asked once per directory.
   * node-glob matches a directory-only pattern (`**` + `/`, `*` + `/`) at the directory itself,
   * where `childrenIgnored` stops it first: such a pattern never returns a directory it prunes,
   * also one the walk has no reason to read (`*` + `/` reads no folder below cwd). `**` does return it.
   */
  childrenIgnoredAt: ((rel: string, kind?: EntryType) => boolean) | undefined;
  /** Whether a match of the walk is dropped (`ignored`), given its entry. */
  ignores: ((entry: PathEntry) => boolean) | undefined;
}

export function buildIgnoreHooks(ignore: IgnoreLike, root: string): IgnoreHooks {
  const cwd = () => new PathEntry(root, '', 'directory');
  // Called as methods: a host's object may keep its rules on `this`.
  const childrenIgnored = ignore.childrenIgnored === undefined ? undefined : (entry: PathEntry) => Boolean(ignore.childrenIgnored!(entry));
  const ignores = ignore.ignored === undefined ? undefined : (entry: PathEntry) => Boolean(ignore.ignored!(entry));
  const asked = new Map<string, boolean>();
  // The kind the listing gave: node-glob hands a link's own `Path` (`*` + `/` asks of links too).
  const childrenIgnoredAt = (rel: string, kind: EntryType | undefined = 'directory') => {
    let answer = asked.get(rel);
    if (answer === undefined) asked.set(rel, (answer = childrenIgnored!(new PathEntry(join(root, rel), rel, kind))));
    return answer;
  };
  return {
    cwdPruned: childrenIgnored?.(cwd()) ?? false,
    cwdIgnored: () => ignores?.(cwd()) ?? false,
    // The walk's directories are root-relative and end in `/`.
    pruneDirectory: childrenIgnored === undefined ? undefined : (dir) => childrenIgnoredAt(dir.slice(0, -1)),
    childrenIgnoredAt: childrenIgnored === undefined ? undefined : childrenIgnoredAt,
    ignores,
  };
}
