/**
 * The file names a search saw, for the similar-names guidance, without a second walk. The pool is
 * filled through the walker's `onDirectory` hook, so it holds exactly what the walk listed: pruned
 * and excluded directories are never listed, so never in it. ripgrep's answer lists no directory,
 * so similar names come with an answer the walker gave (`result.backend === 'walker'`), whatever
 * backend was asked (`auto` falls back to the walker).
 */
import { kindOf, type DirentLike } from '../fs.js';
import { isSpecialKind, type SpecialType } from '../plan/select.js';

/** Memory bound: beyond this many names the pool stops growing, and the guidance says so. */
export const SEEN_NAMES_CAP = 50_000;

export interface SeenNames {
  /** Root-relative paths with `/` of the files seen (regular and special), in the order listed. */
  readonly paths: string[];
  /** The special files among `paths` (a FIFO, a socket, a device), with their kind: named so, never as files. */
  readonly special: Map<string, SpecialType>;
  /** True once the cap stopped the pool from growing. */
  readonly capped: boolean;
  /** The search root's own listing, when the walk read it. */
  readonly rootEntries: readonly DirentLike[] | undefined;
  /** For the search's `onDirectory` option. */
  readonly onDirectory: (dir: string, entries: readonly DirentLike[]) => void;
}

export function collectSeenNames(cap = SEEN_NAMES_CAP): SeenNames {
  const seen = { paths: [] as string[], special: new Map<string, SpecialType>(), capped: false, rootEntries: undefined as readonly DirentLike[] | undefined, onDirectory };
  // `dir` is root-relative: '' for the root, else ending in '/'.
  function onDirectory(dir: string, entries: readonly DirentLike[]): void {
    if (dir === '') seen.rootEntries ??= entries;
    for (const entry of entries) {
      const kind = kindOf(entry);
      // A special file is a name the model may be after (`app.sock`): suggested with its kind.
      if (kind !== 'file' && !isSpecialKind(kind)) continue;
      if (seen.paths.length >= cap) {
        seen.capped = true;
        return;
      }
      seen.paths.push(dir + entry.name);
      if (kind !== 'file') seen.special.set(dir + entry.name, kind);
    }
  }
  return seen;
}
