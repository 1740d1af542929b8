/**
 * The depth limit under ripgrep. The walker proves a `depth-limit` gap by peeking one level past the
 * limit for a matching file or a directory the pattern could enter. ripgrep cannot do the same:
 * `--files` lists files, never directories, so however deep it is allowed to look (`--max-depth N+1`,
 * `N+2`, ...) a directory past the limit that holds only directories (`src/main/java/...`) stays
 * invisible, and a match below it would go unreported. Rather than claim completeness it cannot prove,
 * the ripgrep backend reports `depth-limit` whenever the patterns can reach deeper than `maxDepth`.
 * When they cannot (every pattern anchored, no `**`, no more segments than the limit), nothing past the
 * limit could match and the result may be complete.
 */

import { splitSegments } from '../glob/parse.js';
import { isAnchored } from '../patterns.js';

/**
 * The deepest level (1 = the root's children) any pattern can match at; Infinity when unbounded.
 * `patterns` are the plan's normalised alternatives (braces already expanded, never again).
 */
export function patternReach(patterns: readonly string[]): number {
  let reach = 0;
  for (const alternative of patterns) {
    // An anchored one-segment glob (`./x`): the root's entries only.
    if (isAnchored(alternative)) {
      reach = Math.max(reach, 1);
      continue;
    }
    // Normalised: a `\` left in one is an escape (win32's became `/`).
    const segments = splitSegments(alternative, true);
    // No `/`: a base name at any depth. A `**` segment: any number of levels.
    if (segments.length === 1 || segments.includes('**')) return Infinity;
    reach = Math.max(reach, segments.length);
  }
  return reach;
}

/** True when something past `maxDepth` could match: the ripgrep result must say `depth-limit`. */
export function isDepthLimited(maxDepth: number, patterns: readonly string[]): boolean {
  return maxDepth < patternReach(patterns);
}
