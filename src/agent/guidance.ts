/**
 * Guidance after an empty answer (seed 004: an empty result invites blind retries). Two facts let
 * the model tell a wrong pattern from a wrong directory without another round trip:
 *
 * - the overview: how many entries the search root holds and the first few names, from one
 *   `readdir` (or from the walk's own listing of the root, when it has one);
 * - similar names: the file names the search saw that are closest to the pattern (similar.ts).
 */
import type { DirentLike, FsLike } from '../fs.js';
import type { EntryType } from '../plan/select.js';
import { errorCodeOf } from '../result.js';
import { kindOf } from '../walk/rules.js';
import type { SeenNames } from './seen.js';
import { closestNames, literalOf } from './similar.js';
import type { Overview, SimilarNames } from './text-guidance.js';

const SPECIAL_MARKS: Partial<Record<EntryType, string>> = { pipe: ' (pipe)', socket: ' (socket)', 'block-device': ' (block device)', 'char-device': ' (character device)' };

/**
 * Sorted names, directories marked with a trailing `/` (as `ls -p`), special files with their
 * kind: after "No files matching app.sock", a bare `app.sock` in the overview would read as a
 * file the answer denied; `app.sock (socket)` says why it was not listed.
 */
function namesOf(entries: readonly DirentLike[]): string[] {
  return entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name + (SPECIAL_MARKS[kindOf(e) ?? 'file'] ?? ''))).sort();
}

/** The overview of `root`: the walk's listing when it has one, else one `readdir`. */
export function buildOverview(fs: FsLike, root: string, display: string, listed?: readonly DirentLike[]): Promise<Overview> {
  if (listed !== undefined) return Promise.resolve({ root: display, names: namesOf(listed) });
  return new Promise((resolve) => {
    try {
      fs.readdir(root, { withFileTypes: true }, (error, entries) => {
        resolve(error ? { root: display, code: errorCodeOf(error) } : { root: display, names: namesOf(entries) });
      });
    } catch (error) {
      resolve({ root: display, code: errorCodeOf(error) });
    }
  });
}

/** Similar names among the files the search saw; undefined when there is no literal part or no name to compare. */
export function buildSimilarNames(pattern: string, seen: SeenNames, toWorkspace: (rel: string) => string): SimilarNames | undefined {
  const literal = literalOf(pattern);
  // Nothing seen (the walk stopped before its first read): "nothing resembles" would say nothing.
  if (literal === undefined || seen.paths.length === 0) return undefined;
  return {
    literal: literal.text,
    paths: closestNames(literal, seen.paths).map(toWorkspace),
    seen: seen.paths.length,
    poolCapped: seen.capped,
  };
}
