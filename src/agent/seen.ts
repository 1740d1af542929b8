/**
 * The file names a search saw, for the similar-names guidance, without a second walk.
 *
 * Temporary approach: the library has no hook that reports the entries a walk looked at, so this
 * wraps the fs the walker reads through and keeps the file names of every directory it lists
 * (pruned and excluded directories are never listed, so they are never in the pool: exactly "what
 * the search saw"). It only works when the walker runs, which is why the tools use it only with the
 * `walker` backend. A library hook (an `onEntry(relDir, name, kind)` option on the walk) would
 * replace this module.
 */
import type { DirentLike, FsLike } from '../fs.js';

/** Memory bound: beyond this many names the pool stops growing, and the guidance says so. */
export const SEEN_NAMES_CAP = 50_000;

export interface SeenNames {
  /** The fs to give the search. */
  fs: FsLike;
  /** Root-relative paths with `/` of the files seen, in the order listed. */
  readonly paths: string[];
  /** True once the cap stopped the pool from growing. */
  readonly capped: boolean;
  /** The search root's own listing, when the walk read it. */
  readonly rootEntries: DirentLike[] | undefined;
}

export function recordSeenNames(base: FsLike, root: string, sep: '/' | '\\', cap = SEEN_NAMES_CAP): SeenNames {
  const rootPrefix = root.endsWith(sep) ? root : root + sep;
  const paths: string[] = [];
  const seen = { paths, capped: false, rootEntries: undefined as DirentLike[] | undefined };
  const record = (dir: string, entries: DirentLike[]) => {
    let rel: string;
    if (dir === root || dir === rootPrefix) {
      rel = '';
      seen.rootEntries ??= entries;
    } else if (dir.startsWith(rootPrefix)) {
      rel = dir.slice(rootPrefix.length).replace(/[\\/]*$/, '');
      rel = (sep === '\\' ? rel.replace(/\\/g, '/') : rel) + '/';
    } else {
      return;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      if (paths.length >= cap) {
        seen.capped = true;
        return;
      }
      paths.push(rel + entry.name);
    }
  };
  const fs: FsLike = {
    readdir(dir, options, callback) {
      base.readdir(dir, options, (error, entries) => {
        if (!error) record(dir, entries);
        callback(error, entries);
      });
    },
    readdirSync(dir, options) {
      const entries = base.readdirSync(dir, options);
      record(dir, entries);
      return entries;
    },
    lstat: (p, callback) => base.lstat(p, callback),
    lstatSync: (p) => base.lstatSync(p),
  };
  return Object.assign(seen, { fs }) as SeenNames;
}
