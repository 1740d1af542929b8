/**
 * Names that are not valid UTF-8. ripgrep prints a name's raw bytes; decoded, the bad bytes become
 * U+FFFD and the string no longer names the file, so it must not be returned as a path. The walker
 * meets the same names and records them as `skipped` with `EILSEQ` (a directory it cannot open by the
 * decoded string, a matching file whose `lstat` fails). This applies the walker's rule to what
 * ripgrep listed, with one `lstat` per distinct suspect path, so both backends answer alike. A name
 * that really holds U+FFFD round-trips and is returned as usual.
 *
 * ripgrep reads such directories itself (it works on bytes). When it lists nothing from one, its
 * "nothing there" is true, and no entry is made, where the walker, which cannot open it, reports a gap.
 */
import { promises as fsp } from 'node:fs';
import { REPLACEMENT_CHAR } from '../fs.js';
import type { Scope } from '../plan/search-plan.js';
import { errorCodeOf, type IncompleteReason, type SkippedEntry } from '../result.js';
import type { PostRunStop } from './exit.js';


export interface Checked {
  /** Suspects that name real files. */
  matches: string[];
  skipped: SkippedEntry[];
  /** Why the checks stopped early (the signal, the budget): the paths left were not checked (none of them is in `matches`). */
  cut: IncompleteReason | undefined;
}

/**
 * Checks listed paths that hold U+FFFD: `suspects` match as decoded (each real one is a match),
 * `undecoded` match only in another reading of their bytes (a real one is not a match: it was
 * judged as decoded). One call for both, so a directory above paths of both kinds is counted once.
 * `keepDir` says whether the walker would have tried to read a directory (the same rule as for
 * ripgrep's stderr).
 *
 * Several names may decode to one string (`dir-\xe9`, `dir-\xe2\x82`, `dir-\xff`, and a real
 * `dir-\uFFFD`) and ripgrep's listing, decoded, cannot tell them apart: the parent directory is
 * listed, and each name that decodes to the string but is not the one the string opens is a gap of
 * its own, as the walker counts them.
 *
 * The caller's signal and the budget (`stop`) are read before each path (its lstats, the listings
 * of its parents, and `keepDir`, which may ask every reading of a name's bytes): once either says
 * stop, no more I/O, and the paths left are unchecked: never returned (a suspect may name
 * nothing), `cut` says why for them, as the walker's stop does for the entries it did not reach.
 */
export async function checkUndecodable(
  scope: Scope,
  suspects: readonly string[],
  undecoded: readonly string[],
  keepDir: (entry: SkippedEntry) => boolean,
  stop: PostRunStop,
): Promise<Checked> {
  const answer: Checked = { matches: [], skipped: [], cut: undefined };
  const disk = new DiskLook(scope);
  const reported = new Set<string>();
  const matched = new Set<string>();
  const report = (path: string, code: string, count: number, isFile: boolean) => {
    const entry = { path, code };
    if (count === 0 || reported.has(path) || !(isFile || keepDir(entry))) return;
    reported.add(path);
    for (let i = 0; i < count; i++) answer.skipped.push({ ...entry });
  };
  for (const [index, rel] of [...suspects, ...undecoded].entries()) {
    answer.cut = stop();
    if (answer.cut !== undefined) break;
    const segments = rel.split('/');
    let prefix = '';
    let ok = true;
    // A name above was counted as unreadable: a file the string does not find below it is that gap.
    let explained = false;
    for (let i = 0; i < segments.length && ok; i++) {
      prefix = i === 0 ? segments[0]! : `${prefix}/${segments[i]}`;
      const isFile = i === segments.length - 1;
      const holdsFffd = segments[i]!.includes(REPLACEMENT_CHAR);
      // The file itself is always checked: a directory that passes may be the twin of the one listed.
      if (!isFile && !holdsFffd) continue;
      const code = await disk.code(prefix, isFile);
      ok = code === undefined;
      if (holdsFffd && (code === undefined || code === MISMATCH || code === 'EILSEQ') && !reported.has(prefix)) {
        // Each name that decodes alike and that the string does not open (all of them when it opens nothing).
        const unread = code === 'EILSEQ' ? Math.max(1, await disk.alike(prefix)) : (await disk.alike(prefix)) - 1;
        report(prefix, 'EILSEQ', unread, isFile);
      } else if (code !== undefined && code !== MISMATCH && !explained) report(prefix, code, 1, isFile);
      explained ||= reported.has(prefix);
    }
    if (!ok || index >= suspects.length) continue;
    // Twins: `d\xff/x` and a real `d\uFFFD/x` decode alike; only one path is what the string opens.
    // The first is returned (it exists), each later one is the gap of an unreadable name (counted
    // above, from the parent's listing; here when that listing failed).
    if (matched.has(rel)) {
      const at = segments.findIndex((segment) => segment.includes(REPLACEMENT_CHAR));
      report(segments.slice(0, at + 1).join('/'), 'EILSEQ', 1, at === segments.length - 1);
      continue;
    }
    matched.add(rel);
    answer.matches.push(rel);
  }
  return answer;
}

/** What the disk says of suspect paths, each asked once. */
class DiskLook {
  private readonly codes = new Map<string, Promise<string | undefined>>();
  /** Per parent, how many of its names read as each string. Perf: a count, not the listing to scan per suspect (n² in a directory of n). */
  private readonly listings = new Map<string, Promise<Map<string, number> | undefined>>();

  constructor(private readonly scope: Scope) {}

  code(rel: string, wantFile: boolean): Promise<string | undefined> {
    let answer = this.codes.get(rel);
    if (answer === undefined) this.codes.set(rel, (answer = lstatCode(this.scope, rel, wantFile)));
    return answer;
  }

  /** How many names of `rel`'s parent decode to `rel`'s name (0 when the parent cannot be listed). */
  async alike(rel: string): Promise<number> {
    const slash = rel.lastIndexOf('/');
    const parent = slash < 0 ? '' : rel.slice(0, slash);
    let listing = this.listings.get(parent);
    if (listing === undefined) this.listings.set(parent, (listing = countNames(this.scope.nativePath(parent))));
    return (await listing)?.get(rel.slice(slash + 1)) ?? 0;
  }
}

/** How many names of a directory read as each string; undefined when it cannot be listed. */
async function countNames(dir: string): Promise<Map<string, number> | undefined> {
  try {
    const counts = new Map<string, number>();
    for (const name of await fsp.readdir(dir)) counts.set(name, (counts.get(name) ?? 0) + 1);
    return counts;
  } catch {
    return undefined;
  }
}

/** The decoded path names something else than ripgrep listed (a link, a directory): drop it, no entry. */
const MISMATCH = 'mismatch';

/** Undefined when the decoded path names what ripgrep saw; else the code to skip it with, or MISMATCH. */
async function lstatCode(scope: Scope, rel: string, wantFile: boolean): Promise<string | undefined> {
  try {
    const stats = await fsp.lstat(scope.nativePath(rel));
    return (wantFile ? stats.isFile() : stats.isDirectory()) ? undefined : MISMATCH;
  } catch (error) {
    const code = errorCodeOf(error);
    return code === 'ENOENT' ? 'EILSEQ' : code;
  }
}

/**
 * Content search: ripgrep's JSON gives a path that is not valid UTF-8 as its bytes. Decoded, it
 * names nothing: like the walker, the first segment that does not decode (a directory the walker
 * could not open, or the file) is a gap (EILSEQ), once per distinct bytes: `dir-\xe9` and
 * `dir-\xff` decode alike and are two gaps, as the walker counts them.
 */
export class UndecodablePaths {
  readonly entries: SkippedEntry[] = [];
  /** The bytes (as latin1) of each segment path in `entries`. */
  private readonly seen = new Set<string>();
  private readonly strict = new TextDecoder('utf-8', { fatal: true });

  /** `bytes`: the path as ripgrep prints it, from `./`. */
  note(bytes: Uint8Array): void {
    const path = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let start = 2; // after "./"
    for (;;) {
      const slash = path.indexOf(0x2f, start);
      const end = slash < 0 ? path.length : slash;
      try {
        this.strict.decode(path.subarray(start, end));
      } catch {
        const key = path.toString('latin1', 2, end);
        if (!this.seen.has(key)) {
          this.seen.add(key);
          this.entries.push({ path: path.toString('utf8', 2, end), code: 'EILSEQ' });
        }
        return;
      }
      if (slash < 0) return;
      start = slash + 1;
    }
  }
}
