/**
 * Which paths ripgrep could not read are gaps in a content search's answer: those the walker would
 * have read too. A file the walker would search (its pattern selects it, or could in another reading
 * of the bytes behind a U+FFFD in its path: an EILSEQ gap to the walker), or a directory it would
 * read. ripgrep's stderr does not say which a path is, and `wouldRead` reads any path as a
 * directory (with a base-name pattern every directory is read), so a file the pattern does not
 * select, say a `chmod 000` `secret.bin` beside the `target.cfg` searched for, would count as a
 * gap the walker never has. What is ambiguous (not selected, yet a directory the walker would read)
 * is held to the disk: an `lstat` that finds no directory drops it; one that fails keeps it.
 */
import { promises as fsp } from 'node:fs';
import { REPLACEMENT_CHAR } from '../fs.js';
import type { Scope } from '../plan/search-plan.js';
import type { IncompleteReason, SkippedEntry } from '../result.js';
import type { PostRunStop } from '../rg/exit.js';
import { judgeGaps } from '../rg/stderr.js';
import type { WalkRules } from '../walk/rules.js';

/**
 * The entries that are the walker's gaps, in their order. `mayRead`: false for a run stopped for the
 * caller (its signal, the budget), which does no more I/O: every ambiguous entry is then kept.
 * Within the caller's signal and the budget (`judgeGaps`): `cut` says which ended it, the entries left kept unjudged.
 */
export function gapsOf(scope: Scope, rules: WalkRules, entries: readonly SkippedEntry[], mayRead: boolean, stop: PostRunStop): Promise<{ gaps: SkippedEntry[]; cut: IncompleteReason | undefined }> {
  // Selected, or selected in another reading of the bytes behind a U+FFFD in its path (src/glob/nfa.ts).
  let undecoded = false;
  const accept = rules.buildListedFileTest(
    () => {},
    () => (undecoded = true),
  );
  const isGap = (entry: SkippedEntry): boolean | Promise<boolean> => {
    undecoded = false;
    if (accept(entry.path) || undecoded) return true;
    if (!rules.wouldRead(entry.path)) return false;
    return !mayRead || entry.path.includes(REPLACEMENT_CHAR) || isNoDirectory(scope, entry.path).then((no) => !no);
  };
  return judgeGaps(entries, isGap, stop);
}

/**
 * True only when `lstat` proves the path is something else than a directory (a link is not entered
 * either). Not asked of a path holding U+FFFD, which stays a gap: ripgrep prints a byte that is not
 * UTF-8 so, and the decoded path may name a twin (`d\uFFFD`, a file, beside the denied directory
 * `d\xff`) or nothing.
 */
async function isNoDirectory(scope: Scope, rel: string): Promise<boolean> {
  try {
    return !(await fsp.lstat(scope.nativePath(rel))).isDirectory();
  } catch {
    return false;
  }
}
