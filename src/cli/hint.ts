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
import type { EntryType, FindOptions } from '../options.js';
import { findFiles } from '../find.js';
import type { FindSummary } from '../result.js';
import { escapeRegex } from '../regex-escape.js';
import { escapeText } from '../text-escape.js';
import { literalSyntax } from '../regex-syntax.js';
import { smartCaseFlag } from './names.js';

/** Glob syntax and separators: a pattern holding any of them was written as a glob, on purpose. */
const GLOB_LIKE = /[*?[\]{}()!\\/]/;

/** The pattern when it is one plain name (no glob syntax, no name regex): what a hint may read as text. */
function plainName(options: FindOptions): string | undefined {
  const text = options.pattern;
  return typeof text !== 'string' || GLOB_LIKE.test(text) || options.nameRegex !== undefined ? undefined : text;
}

/**
 * How long the hints' searches may take together: what is left of `--time-budget-ms`, and never more
 * than the answer took (at least half a second, so that a small tree's hint, a few ms of work, never
 * depends on a loaded machine). Without it an empty answer to a plain name over /usr walked it three times (0.40 s ->
 * 1.36 s, an adversarial run), and the second hint got the budget the first had spent.
 */
export class HintTime {
  private leftMs: number;

  constructor(options: Pick<FindOptions, 'timeBudgetMs'>, summary: Pick<FindSummary, 'stats'>) {
    const elapsed = summary.stats.elapsedMs;
    const budgetLeft = options.timeBudgetMs === undefined ? Infinity : options.timeBudgetMs - elapsed;
    // Whole milliseconds: `timeBudgetMs` takes integers only, and a fraction failed the run with a usage error after its answer.
    this.leftMs = Math.floor(Math.min(budgetLeft, Math.max(500, elapsed)));
  }

  /** The options of a hint's search: the answer's, without what only shaped its printing; undefined when no time is left. */
  searchOptions(options: FindOptions): FindOptions | undefined {
    if (this.leftMs <= 0) return undefined;
    const { onDirectory: _progress, maxResults: _limit, sort: _sort, stats: _stats, ...rest } = options;
    return { ...rest, timeBudgetMs: this.leftMs };
  }

  /** A hint's search took `ms`: the next one gets the rest. */
  spent(ms: number): void {
    this.leftMs = Math.floor(this.leftMs - ms);
  }
}

/** The hints after an empty answer, in order: the first that has something to say. */
export async function hintAfter(options: FindOptions, summary: Pick<FindSummary, 'matchedCount' | 'linkMatchedCount' | 'stats'>, typed: readonly string[]): Promise<string | undefined> {
  const time = new HintTime(options, summary);
  return (await nameHint(options, summary, typed, time)) ?? (await kindHint(options, summary, typed, time));
}

/** `  hint: 2 names contain "make": find-file -F make`, or undefined when there is nothing to say. */
export async function nameHint(options: FindOptions, summary: Pick<FindSummary, 'matchedCount' | 'linkMatchedCount'>, typed: readonly string[], time: HintTime): Promise<string | undefined> {
  const text = plainName(options);
  if (text === undefined || summary.matchedCount > 0 || summary.linkMatchedCount > 0) return undefined;
  const again = time.searchOptions(options);
  if (again === undefined) return undefined;
  // Smart case on the text alone, as the hinted -F command reads it (names.ts): given as the search's
  // `caseSensitive`, it folded `-E 'README*'` too, and the count was not the command's (an adversarial run).
  const found = await findFiles({ ...again, pattern: '*', nameRegex: smartCaseFlag(options.caseSensitive !== undefined, [literalSyntax(text)]) + escapeRegex(text) });
  time.spent(found.stats.elapsedMs);
  if (found.matchedCount === 0) return undefined;
  const names = found.matchedCount === 1 ? '1 name contains' : `${found.matchedCount} names contain`;
  return `  hint: a glob matches whole names; ${names} ${JSON.stringify(escapeText(text))}${found.complete ? '' : ' (at least)'}: find-file ${['-F', ...typed].map(quoteArg).join(' ')}\n`;
}

/** The kinds a listing leaves out by default (regular files only; a matching link is named in the summary already), with their `-t` letters. */
const OTHER_KINDS: [EntryType, string, string][] = [
  ['directory', 'd', 'directory'],
  ['pipe', 'p', 'pipe'],
  ['socket', 's', 'socket'],
  ['block-device', 'b', 'block device'],
  ['char-device', 'c', 'character device'],
];

/**
 * After an empty answer to a plain name with the default kind (regular files), when the -F hint
 * had nothing to say: fd lists every kind, so `find-file docs` meant the folder `docs/` as often
 * as a file (an adversarial run: "no matching file exists there", true of files, and nothing
 * more). One more search (the walker), the same options with the other kinds, up to 3 entries, in
 * what is left of the budget; the hint names them and the `-t` to add.
 */
export async function kindHint(options: FindOptions, summary: Pick<FindSummary, 'matchedCount'>, typed: readonly string[], time: HintTime): Promise<string | undefined> {
  // A plain name, as for the -F hint: a glob was written on purpose, and the second walk is paid only here.
  if (plainName(options) === undefined || options.type !== undefined || summary.matchedCount > 0) return undefined;
  const again = time.searchOptions(options);
  if (again === undefined) return undefined;
  // The walker: ripgrep lists regular files only.
  const found = await findFiles({ ...again, backend: 'walker', type: OTHER_KINDS.map(([kind]) => kind), maxResults: 3, stats: true });
  const entries = found.entries ?? [];
  if (entries.length === 0) return undefined;
  const kinds = OTHER_KINDS.filter(([kind]) => entries.some((e) => e.type === kind));
  const count = found.complete ? `${entries.length}` : `at least ${entries.length}`;
  const one = entries.length === 1;
  const [, , word] = kinds[0]!;
  const what = kinds.length > 1 ? `${count} entries of other kinds` : `${count} ${one ? word : word === 'directory' ? 'directories' : `${word}s`}`;
  const names = entries.map((e) => escapeText(e.path) + (e.type === 'directory' ? '/' : '')).join(', ');
  // The flags go before a `--`, after which every word is a pattern.
  const end = typed.indexOf('--');
  const flags = kinds.flatMap(([, letter]) => ['-t', letter]);
  const command = end < 0 ? [...typed, ...flags] : [...typed.slice(0, end), ...flags, ...typed.slice(end)];
  return `  hint: no regular file matches, but ${what} ${one ? 'does' : 'do'} (${names}): find-file ${command.map(quoteArg).join(' ')}\n`;
}

/** A word as a POSIX shell reads it back: as is when plain, else in single quotes. */
export function quoteArg(word: string): string {
  return /^[\w./-]+$/.test(word) ? word : `'${escapeText(word).replace(/'/g, `'\\''`)}'`;
}
