/**
 * What the walk's engine (engine.ts) and its drivers (drivers.ts) hand each other: a directory to
 * list, the names to lstat, and where a listing being judged stands when the async driver has
 * let the event loop run in the middle of it.
 */
import type { DirentLike } from '../fs.js';
import type { IgnoreLevel } from './ignore.js';

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
  /**
   * `gitignore: true`: the ignore rules for this directory's entries: its parent's, then, once the
   * driver has read them (`ignoreReadsFor`), extended by its own files.
   */
  ignore?: IgnoreLevel | undefined;
}

/** Entries whose type the filesystem did not report; the driver lstats them. */
export type UnknownEntries = string[] | undefined;

/** What judging one entry left to do: lstat it, stop the listing (a limit reached, or a gap proved), or nothing. */
export type EntryVerdict = 'lstat' | 'stop' | undefined;

/** `acceptEntries` stopped mid-listing to let the event loop run: the driver calls `resumeEntries` on a later turn. */
export const PAUSED = 'paused';

/** A listing being judged: where it stopped, and what it has gathered so far. */
export interface OpenListing {
  task: DirTask;
  entries: DirentLike[];
  next: number;
  unknown: UnknownEntries;
  /** Names holding U+FFFD met so far: a later equal one is a twin (see `judgeEntries`). */
  undecodable: Set<string> | undefined;
}

