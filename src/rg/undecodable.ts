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
import { errorCodeOf, type SkippedEntry } from '../result.js';


export interface Checked {
  /** Suspects that name real files. */
  matches: string[];
  skipped: SkippedEntry[];
}

/**
 * Checks listed, matching paths that hold U+FFFD. `keepDir` says whether the walker would have
 * tried to read a directory (the same rule as for ripgrep's stderr).
 */
export async function checkUndecodable(scope: Scope, suspects: readonly string[], keepDir: (entry: SkippedEntry) => boolean): Promise<Checked> {
  const answer: Checked = { matches: [], skipped: [] };
  const checked = new Map<string, Promise<string | undefined>>();
  const reported = new Set<string>();
  const matched = new Set<string>();
  const check = (rel: string, wantFile: boolean) => {
    let answer = checked.get(rel);
    if (answer === undefined) checked.set(rel, (answer = lstatCode(scope, rel, wantFile)));
    return answer;
  };
  for (const rel of suspects) {
    const segments = rel.split('/');
    let prefix = '';
    let ok = true;
    for (let i = 0; i < segments.length && ok; i++) {
      prefix = i === 0 ? segments[0]! : `${prefix}/${segments[i]}`;
      const isFile = i === segments.length - 1;
      // The file itself is always checked: a directory that passes may be the twin of the one listed.
      if (!isFile && !segments[i]!.includes(REPLACEMENT_CHAR)) continue;
      const code = await check(prefix, isFile);
      if (code === undefined) continue;
      ok = false;
      if (code === MISMATCH || reported.has(prefix)) continue;
      const entry = { path: prefix, code };
      if (isFile || keepDir(entry)) {
        reported.add(prefix);
        answer.skipped.push(entry);
      }
    }
    if (!ok) continue;
    // Twins: `d\xff/x` and a real `d\uFFFD/x` decode alike; only one path is what the string opens.
    // The first is returned (it exists), each later one is the gap of an unreadable name.
    if (matched.has(rel)) {
      const at = segments.findIndex((segment) => segment.includes(REPLACEMENT_CHAR));
      const twin = segments.slice(0, at + 1).join('/');
      const entry = { path: twin, code: 'EILSEQ' };
      if (!reported.has(twin) && (twin === rel || keepDir(entry))) {
        reported.add(twin);
        answer.skipped.push(entry);
      }
      continue;
    }
    matched.add(rel);
    answer.matches.push(rel);
  }
  return answer;
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
