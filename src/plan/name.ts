/**
 * `nameRegex`: fd's way of naming files, as a filter on base names beside the glob. Each regex
 * (RE2, as content regexes: linear time whatever the caller typed) must find a match somewhere in
 * the base name, as fd's pattern does; several are all required (the CLI's `-e ts` with
 * `--name-regex`, or `-F`). Compiled once, here, and folded into the glob matcher, so the walker
 * and the ripgrep listing (which filters its paths through the same matcher) apply it alike. A
 * name filter only narrows what matches: the verdict rules (complete, incomplete) are the glob's.
 */
import { compileRe2 } from '../content/query.js';
import { checkRe2Size, loadRe2, re2Size } from '../re2.js';
import { FindFileError } from '../errors.js';
import { literalNameRegex } from './name-literals.js';
import type { PathMatcher } from '../patterns.js';
import { describe } from './read.js';

/**
 * What all the `nameRegex` entries together may expand to (`re2Size` units). Lower than a content
 * query's `MAX_RE2_SIZE`: every name is matched against every one of them, and a test costs up to
 * (program size × name length), about 30 ns a unit here: at this size a 255-character name takes
 * up to about 0.15 s, the most a budget or an abort can be overshot by one name.
 */
export const MAX_NAME_REGEX_SIZE = 20_000;

/** A name test, and what one test costs per character of the name (its regexes' sizes). */
export interface NameTest {
  test: (name: string) => boolean;
  cost: number;
}

/** The compiled `nameRegex`, or undefined when none was given. `caseSensitive` is the search's case. */
export function readNameRegex(value: unknown, caseSensitive: boolean): NameTest | undefined {
  if (value === undefined) return undefined;
  const sources = Array.isArray(value) ? value : [value];
  if (sources.length === 0 || sources.some((s) => typeof s !== 'string' || s === '')) {
    throw new FindFileError('FF_INVALID_OPTION', `nameRegex must be a non-empty string or an array of them, got ${describe(value)}`, 'nameRegex');
  }
  // Sized before any is compiled: the sum is what a name test costs, and what compiling them all costs.
  const option = sources.length > 1 ? 'nameRegex (all entries together)' : 'nameRegex';
  const cost = checkRe2Size((sources as string[]).reduce((sum, s) => sum + re2Size(s), 0), option, 'FF_INVALID_OPTION', MAX_NAME_REGEX_SIZE);
  // Perf: the command's literal shapes (`-F`, `-e`, the hint) need no RE2 (src/plan/name-literals.ts).
  const tests = (sources as string[]).map((source): ((name: string) => boolean) => {
    const literal = literalNameRegex(source, !caseSensitive);
    if (literal !== undefined) return (name) => literal.test(name);
    const regex = compileRe2(source, caseSensitive ? 0 : loadRe2().CASE_INSENSITIVE, 'FF_INVALID_OPTION', 'nameRegex');
    return (name) => regex.matcher(name).find();
  });
  return { test: (name) => tests.every((test) => test(name)), cost };
}

/**
 * The glob matcher, narrowed by a name test: a match must pass both. Pruning stays the glob's (a
 * name test cannot prune). The test's cost joins the matcher's, so the walk checks the clock and
 * the signal as often as the regexes need (a fixed 8 let 600 names of a costly regex run 18 s past a 500 ms budget).
 */
export function withNameTest(matcher: PathMatcher, name: NameTest | undefined): PathMatcher {
  if (name === undefined) return matcher;
  const { test } = name;
  return {
    ...matcher,
    matches: (rel, base) => matcher.matches(rel, base) && test(base),
    couldMatchUndecoded: (rel, base) => matcher.couldMatchUndecoded(rel, base),
    couldMatchInside: (relDir) => matcher.couldMatchInside(relDir),
    cost: matcher.cost + name.cost,
  };
}
