/**
 * Guidance after an empty answer (seed 004: an empty result invites blind retries). Two facts let
 * the model tell a wrong pattern from a wrong directory without another round trip:
 *
 * - the overview: how many entries the search root holds and the first few names, from one
 *   `readdir` (or from the walk's own listing of the root, when it has one);
 * - similar names: the file names the search saw that are closest to the pattern (similar.ts);
 * - a missing folder: where the pattern's literal folders (`sorc/` in `sorc/a.ts`) do not exist,
 *   the walk was pruned there and saw nothing to compare; the deepest folder that does exist is
 *   listed instead, with its names closest to the missing one, and the pattern's literal rest
 *   under each (`src/a.ts`) when that exists.
 */
import { kindOf, type DirentLike, type FsLike } from '../fs.js';
import { splitSegments } from '../glob/parse.js';
import type { EntryType } from '../plan/select.js';
import { errorCodeOf } from '../result.js';
import type { SeenNames } from './seen.js';
import { closestFolderNames, closestNames, literalOf } from './similar.js';
import { specialMark, type MissingFolder, type Overview, type SimilarNames } from './text-guidance.js';

/**
 * Sorted names, directories marked with a trailing `/` (as `ls -p`), special files with their
 * kind: after "No files matching app.sock", a bare `app.sock` in the overview would read as a
 * file the answer denied; `app.sock (socket)` says why it was not listed.
 */
function namesOf(entries: readonly DirentLike[]): { names: string[]; kinds: (EntryType | undefined)[] } {
  const marked = entries.map((e) => ({ name: e.isDirectory() ? `${e.name}/` : e.name + specialMark(kindOf(e)), kind: kindOf(e) }));
  marked.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { names: marked.map((e) => e.name), kinds: marked.map((e) => e.kind) };
}

/** The overview of `root`: the walk's listing when it has one, else one `readdir`. */
export function buildOverview(fs: FsLike, root: string, display: string, listed?: readonly DirentLike[]): Promise<Overview> {
  if (listed !== undefined) return Promise.resolve({ root: display, ...namesOf(listed) });
  return new Promise((resolve) => {
    try {
      fs.readdir(root, { withFileTypes: true }, (error, entries) => {
        resolve(error ? { root: display, code: errorCodeOf(error) } : { root: display, ...namesOf(entries) });
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
  const pool = boundedPool(seen.paths);
  const closest = closestNames(literal, pool);
  const special = closest.filter((rel) => seen.special.has(rel));
  return {
    literal: literal.text,
    paths: closest.map(toWorkspace),
    ...(special.length === 0 ? {} : { special: Object.fromEntries(special.map((rel) => [toWorkspace(rel), seen.special.get(rel)!])) }),
    seen: pool.length,
    poolCapped: seen.capped || pool.length < seen.paths.length,
  };
}

/**
 * The names compared, at most `SCORED_NAME_CHARS` characters of them, the first seen: scoring costs
 * a few steps per character, and runs after the search's budget, on the host's thread (50,000
 * names of 214 characters took 2 s more after a 1 s budget). The answer says so when it cut.
 */
export const SCORED_NAME_CHARS = 1_000_000;

function boundedPool(paths: readonly string[]): readonly string[] {
  let chars = 0;
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    chars += path.length - path.lastIndexOf('/') - 1;
    if (chars > SCORED_NAME_CHARS) return paths.slice(0, i);
  }
  return paths;
}

/** A segment with glob syntax (a wildcard, a class, braces, an escape, an extglob): not a folder name to look up. */
const GLOB_SYNTAX = /[*?[\]{}\\]|[!+@]\(/;

/**
 * The pattern's first literal folder that does not exist under `root`, with the deepest folder
 * that does (its names, and the ones closest to the missing name); undefined when every literal
 * folder exists, or when one exists as something else (a link: the walk does not follow it, and
 * that is said elsewhere). Failure path only: one `readdir` per literal folder, and one `lstat`
 * per suggestion.
 */
export async function buildMissingFolder(fs: FsLike, root: string, display: string, pattern: string, caseSensitive: boolean, sep: string): Promise<MissingFolder | undefined> {
  const segments = splitSegments(pattern, true).filter((s) => s !== '' && s !== '.');
  // The last segment names the file; only the folders before it are looked up.
  const firstGlob = segments.findIndex((s) => GLOB_SYNTAX.test(s) || s === '..');
  const folders = segments.slice(0, firstGlob < 0 ? segments.length - 1 : Math.min(firstGlob, segments.length - 1));
  const same = caseSensitive ? (a: string, b: string) => a === b : (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  let dir = root;
  for (let i = 0; i < folders.length; i++) {
    const entries = await listed(fs, dir);
    if (entries === undefined) return undefined;
    const name = folders[i]!;
    const found = entries.find((e) => same(e.name, name));
    if (found !== undefined) {
      if (!found.isDirectory()) return undefined;
      dir = dir + sep + found.name;
      continue;
    }
    const existing = folders.slice(0, i).join('/');
    const near = closestFolderNames(name, entries.filter((e) => e.isDirectory()).map((e) => e.name));
    const rest = segments.slice(i + 1);
    const literalRest = rest.every((s) => !GLOB_SYNTAX.test(s) && s !== '..');
    const suggestions: string[] = [];
    const kinds: (EntryType | undefined)[] = [];
    for (const folder of near) {
      const candidate = [existing, folder, ...rest].filter(Boolean).join('/');
      const kind = literalRest ? await kindAt(fs, root + sep + candidate.split('/').join(sep)) : null;
      if (kind !== null) suggestions.push(candidate), kinds.push(kind);
    }
    return {
      missing: [existing, name].filter(Boolean).join('/') + '/',
      existing: existing === '' ? display : display + sep + existing.split('/').join(sep),
      atRoot: existing === '',
      ...namesOf(entries),
      similar: near.map((n) => `${n}/`),
      existingPaths: suggestions,
      existingKinds: kinds,
    };
  }
  return undefined;
}

function listed(fs: FsLike, dir: string): Promise<readonly DirentLike[] | undefined> {
  return new Promise((resolve) => {
    try {
      fs.readdir(dir, { withFileTypes: true }, (error, entries) => resolve(error ? undefined : entries));
    } catch {
      resolve(undefined);
    }
  });
}

/** What is at `path` (lstat: a link is a link): null when nothing is, undefined for a kind the fs does not say. */
export function kindAt(fs: FsLike, path: string): Promise<EntryType | undefined | null> {
  return new Promise((resolve) => {
    try {
      fs.lstat(path, (error, stats) => resolve(error ? null : stats === undefined ? undefined : kindOf(stats)));
    } catch {
      resolve(null);
    }
  });
}

/** True when `pattern` is a plain path: no glob syntax, no `..`, so it names at most one entry. */
export function isLiteralPath(pattern: string): boolean {
  return splitSegments(pattern, true).every((s) => !GLOB_SYNTAX.test(s) && s !== '..');
}
