/**
 * `nameRegex`: fd's way of naming files, as a filter on base names beside the glob. Each regex
 * (RE2, as content regexes: linear time whatever the caller typed) must find a match somewhere in
 * the base name, as fd's pattern does; several are all required (the CLI's `-e ts` with
 * `--name-regex`, or `-F`). Compiled once, here, and folded into the glob matcher, so the walker
 * and the ripgrep listing (which filters its paths through the same matcher) apply it alike. A
 * name filter only narrows what matches: the verdict rules (complete, incomplete) are the glob's.
 */
import { compileRe2 } from '../content/query.js';
import { loadRe2 } from '../re2.js';
import { FindFileError } from '../errors.js';
import type { PathMatcher } from '../patterns.js';
import { describe } from './read.js';

/** The compiled `nameRegex`, or undefined when none was given. `caseSensitive` is the search's case. */
export function readNameRegex(value: unknown, caseSensitive: boolean): ((name: string) => boolean) | undefined {
  if (value === undefined) return undefined;
  const sources = Array.isArray(value) ? value : [value];
  if (sources.length === 0 || sources.some((s) => typeof s !== 'string' || s === '')) {
    throw new FindFileError('FF_INVALID_OPTION', `nameRegex must be a non-empty string or an array of them, got ${describe(value)}`, 'nameRegex');
  }
  const RE2 = loadRe2();
  const regexes = (sources as string[]).map((source) => compileRe2(source, caseSensitive ? 0 : RE2.CASE_INSENSITIVE, 'FF_INVALID_OPTION', 'nameRegex'));
  return (name) => regexes.every((regex) => regex.matcher(name).find());
}

/** The glob matcher, narrowed by a name test: a match must pass both. Pruning stays the glob's (a name test cannot prune). */
export function withNameTest(matcher: PathMatcher, test: ((name: string) => boolean) | undefined): PathMatcher {
  if (test === undefined) return matcher;
  return {
    ...matcher,
    matches: (rel, name) => matcher.matches(rel, name) && test(name),
    couldMatchUndecoded: (rel, name) => matcher.couldMatchUndecoded(rel, name),
    couldMatchInside: (relDir) => matcher.couldMatchInside(relDir),
    cost: matcher.cost + 8,
  };
}
