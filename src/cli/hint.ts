/**
 * The hint after an empty answer to a glob with no glob syntax (`find-file make`): fd users type a
 * part of a name, and a glob is a whole name. One more search (the same options, the text as `-F`
 * with smart case) counts the names that hold the text, and the hint gives the command that lists
 * them. The verdict above it is untouched: the hint is a pointer, never a claim about the glob.
 * That search gets only what is left of `--time-budget-ms`, so the command never outlives its budget.
 *
 * The command hinted is the user's own command line with `-F` in front: every other option stays
 * (`find-file make -t d` had hinted `find-file -F make`, which lists files, not the directory it
 * counted) and a pattern after `--` stays after it (`find-file -F -foo` was a usage error).
 */
import type { FindOptions } from '../options.js';
import { findFiles } from '../find.js';
import type { FindSummary } from '../result.js';
import { escapeRegex } from '../regex-escape.js';
import { escapeText } from '../text-escape.js';
import { ignoresCaseSmartly, literalSyntax } from '../regex-syntax.js';

/** Glob syntax and separators: a pattern holding any of them was written as a glob, on purpose. */
const GLOB_LIKE = /[*?[\]{}()!\\/]/;

/** `  hint: 2 names contain "make": find-file -F make`, or undefined when there is nothing to say. */
export async function nameHint(options: FindOptions, summary: Pick<FindSummary, 'matchedCount' | 'linkMatchedCount' | 'stats'>, typed: readonly string[]): Promise<string | undefined> {
  const text = options.pattern;
  if (typeof text !== 'string' || GLOB_LIKE.test(text) || options.nameRegex !== undefined) return undefined;
  if (summary.matchedCount > 0 || summary.linkMatchedCount > 0) return undefined;
  const caseSensitive = options.caseSensitive ?? (process.platform === 'win32' ? false : !ignoresCaseSmartly(literalSyntax(text), 'fd'));
  // Whole milliseconds: `timeBudgetMs` takes integers only, and a fraction failed the run with a usage error after its answer.
  const left = options.timeBudgetMs === undefined ? undefined : Math.floor(options.timeBudgetMs - summary.stats.elapsedMs);
  if (left !== undefined && left <= 0) return undefined;
  const { signal, onDirectory: _progress, maxResults: _limit, sort: _sort, stats: _stats, ...rest } = options;
  const budget = left === undefined ? {} : { timeBudgetMs: left };
  const found = await findFiles({ ...rest, ...budget, signal, pattern: '*', nameRegex: escapeRegex(text), caseSensitive });
  if (found.matchedCount === 0) return undefined;
  const names = found.matchedCount === 1 ? '1 name contains' : `${found.matchedCount} names contain`;
  return `  hint: a glob matches whole names; ${names} ${JSON.stringify(escapeText(text))}${found.complete ? '' : ' (at least)'}: find-file ${['-F', ...typed].map(quoteArg).join(' ')}\n`;
}

/** A word as a POSIX shell reads it back: as is when plain, else in single quotes. */
function quoteArg(word: string): string {
  return /^[\w./-]+$/.test(word) ? word : `'${escapeText(word).replace(/'/g, `'\\''`)}'`;
}
