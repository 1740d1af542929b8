/**
 * The words the `find-file` command prints on stderr: the summary after a search and the live
 * progress line. The summary's first line carries the verdict, and the verdict is worded so that
 * "no matches, but the search was incomplete" cannot be read as "the file does not exist": an
 * incomplete summary starts with `INCOMPLETE`, before any count. Symlinks whose name matches are
 * named (they are not regular files, so never matches), so "no matching file" is never read as
 * "nothing by that name"; an engine that cannot see links (ripgrep) says so. Every path it shows
 * (the root, skipped paths, matching links) is escaped (src/text-escape.ts), terminal or not: the
 * summary is for people, and a name must not forge its verdict.
 */
import { skippedFor, type FallbackReason, type FindSummary, type IncompleteReason } from '../result.js';
import { escapeText, shortMessage } from '../text-escape.js';

const PATH_SHOWN_WHOLE = 4096;

/** ANSI styles, or none: chosen once per run by color.ts `shouldColor` for stderr. */
export interface Styles {
  good(text: string): string;
  warn(text: string): string;
  dim(text: string): string;
}

const plain: Styles = { good: (t) => t, warn: (t) => t, dim: (t) => t };
const ansi: Styles = {
  good: (t) => `\x1b[32m${t}\x1b[39m`,
  warn: (t) => `\x1b[1;33m${t}\x1b[22;39m`,
  dim: (t) => `\x1b[2m${t}\x1b[22m`,
};

export function stylesFor(color: boolean): Styles {
  return color ? ansi : plain;
}

/** What the summary needs beyond the result itself. */
export interface SummaryContext {
  /** The root, absolute: the line a person may paste into an agent's transcript. */
  root: string;
  /** The limits as given on the command line, to name them in the reasons. */
  maxResults?: number | undefined;
  maxDepth?: number | undefined;
  timeBudgetMs?: number | undefined;
  /** `--max-count` as given: at most this many hits were read in each file. */
  maxCount?: number | undefined;
  /** `-l` or `-x` with `--contains`: the hits are the files' first, one a file, so they are counted as files. */
  filesOnly?: boolean;
  /** True when entries were left out by choice (`--no-hidden`): absence is then claimed only for the rest. */
  hiddenLeftOut: boolean;
  /** True when ignore files were applied (`--gitignore`, `--ignore-file`): absence is then claimed only for what they did not leave out. */
  ignoreFiles?: boolean;
  /** `--ignore-file` given: `-u` does not lift it, so the way to include what it left out says so. */
  ignoreFileGiven?: boolean;
  /** `--exclude` given: ripgrep applies it without counting what it left out, so absence is claimed only for the rest. */
  excludesGiven?: boolean;
  /** What a match is called (`--type`): `file` (the default), `directory`, `symlink`, or `entry` for several kinds. */
  noun?: string;
  /** `--sort mtime`: the result limit kept the newest of the whole tree rather than stopping the walk. */
  newestFirst?: boolean;
  /** The patterns that chose which files were read (a content search says which files it searched). @default none: every file */
  patterns?: readonly string[];
  /** The metadata filters given (`--changed-*`, `--size`): absence is then claimed for what passes them, named as given. */
  filters?: { time: boolean; size: boolean };
  /** Turns a root-relative skipped path into the form the command prints paths in. */
  displayPath: (rel: string) => string;
  /**
   * Turns a path the library returned (a matching link: root-relative, or already native absolute
   * with `--absolute`) into the form the command prints matches in. @default displayPath
   */
  displayMatch?: (path: string) => string;
  styles: Styles;
  /** A link's target as it reads (`readlink`), to show where a link on the way leads; undefined when it cannot be read. */
  linkTarget?: (path: string) => string | undefined;
  /** How many skipped paths to name before counting the rest. @default 5 */
  showSkipped?: number;
}

/**
 * The context with every path it yields escaped. The two formatters apply it once, on entry, so
 * no wording below them can show a raw path. A path is shown whole up to 4,096 characters (the
 * longest a system opens); past that (a root of 50,000 characters, which the walk skipped as
 * ENAMETOOLONG) as its start and its end: it was printed whole, twice, 100 KB (an adversarial run).
 */
export function escapedContext(ctx: SummaryContext): SummaryContext {
  const { displayPath } = ctx;
  const displayMatch = ctx.displayMatch ?? displayPath;
  const { linkTarget } = ctx;
  const escapedTarget = linkTarget === undefined ? {} : { linkTarget: (p: string) => mapDefined(linkTarget(p), escapeText) };
  const shown = (path: string) => escapeText(shortMessage(path, PATH_SHOWN_WHOLE));
  return { ...ctx, root: shown(ctx.root), patterns: ctx.patterns?.map(escapeText), displayPath: (rel) => shown(displayPath(rel)), displayMatch: (p) => shown(displayMatch(p)), ...escapedTarget };
}

function mapDefined<T, U>(value: T | undefined, f: (value: T) => U): U | undefined {
  return value === undefined ? undefined : f(value);
}

export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** One line per reason: what happened, with the option or count that explains it. */
export function explainReason(reason: IncompleteReason | string, summary: FindSummary, ctx: SummaryContext): string {
  const unreadable = (reason: 'permission-denied' | 'io-error') => skippedFor(reason, summary.skipped).length;
  switch (reason) {
    case 'time-budget':
      return `time-budget: the ${ctx.timeBudgetMs ?? '?'} ms budget (--time-budget-ms) ran out before the walk ended`;
    case 'result-limit':
      // --sort mtime reads the whole tree and keeps the newest: nothing stopped, but more matched.
      if (ctx.newestFirst) return `result-limit: --max-results ${ctx.maxResults ?? '?'} kept the newest of more matches`;
      return `result-limit: stopped at --max-results ${ctx.maxResults ?? '?'}; more matches exist`;
    case 'depth-limit':
      return `depth-limit: --max-depth ${ctx.maxDepth ?? '?'} kept the search out of deeper directories that may hold matches`;
    case 'permission-denied':
      return `permission-denied: ${count(unreadable('permission-denied'), 'path', 'paths')} could not be read (access denied)`;
    case 'io-error':
      // ripgrep failed or was stopped with nothing to name (a flood of lines no path explains): not "0 paths".
      if (unreadable('io-error') === 0) return `io-error: ripgrep did not finish cleanly (${summary.recovery?.failureKind ?? 'failure'})`;
      return `io-error: ${count(unreadable('io-error'), 'path', 'paths')} could not be read (read errors)`;
    case 'aborted':
      return 'aborted: interrupted before the walk ended';
    case 'output-limit': // content search (src/content/types.ts)
      return 'output-limit: the text of the hits reached its size cap; the rest was not searched';
    default:
      return reason;
  }
}

/**
 * The first line of an incomplete summary, file or content: the incompleteness first, so a reader
 * who stops after a few words (or a tool that keeps only the start) never sees a bare "no matches".
 */
export function incompleteHeadline(found: string, none: boolean, ctx: SummaryContext): string {
  const rest = none ? 'NOT proof of absence' : 'there may be more';
  return `find-file: ${ctx.styles.warn('INCOMPLETE')} search under ${ctx.root}: ${found} in the part searched, ${rest}`;
}

/** How many matching links a summary names before counting the rest. */
const SHOWN_LINKS = 5;

/** The filters given, as the summary names them: `the time filter`, `the size filter`, `the time and size filters`; undefined for none. */
export function filterWords(filters: SummaryContext['filters']): string | undefined {
  if (filters === undefined || (!filters.time && !filters.size)) return undefined;
  if (filters.time && filters.size) return 'the time and size filters';
  return filters.time ? 'the time filter' : 'the size filter';
}

/**
 * `2 symlinks match (not followed): a, b`, with the first few named and the rest counted. Under
 * a metadata filter only the name matched: a size bound keeps regular files only (plan/select.ts),
 * so a link can never pass it, and a link not followed was never checked against a time filter.
 */
export function linkSentence(summary: Pick<FindSummary, 'linkMatches' | 'linkMatchedCount'>, ctx: SummaryContext): string {
  const names = namedLinks(summary.linkMatches, summary.linkMatchedCount, ctx.displayMatch ?? ctx.displayPath);
  const n = summary.linkMatchedCount;
  if (ctx.filters?.size) return `${count(n, 'symlink has', 'symlinks have')} a matching name (not followed; the size filter keeps regular files only): ${names}`;
  if (ctx.filters?.time) return `${count(n, 'symlink has', 'symlinks have')} a matching name (not followed, so not checked against the time filter): ${names}`;
  return `${count(n, 'symlink matches', 'symlinks match')} (not followed): ${names}`;
}

/** `a, b, and 3 more (--json lists them all)`: the first few links named, the rest counted. */
export function namedLinks(links: readonly string[], total: number, name: (link: string) => string): string {
  const shown = links.slice(0, SHOWN_LINKS).map(name);
  const rest = total - shown.length;
  const more = rest > 0 ? `, and ${rest} more (--json lists ${links.length < total ? `the first ${links.length}` : 'them all'})` : '';
  return shown.join(', ') + more;
}

/**
 * `1 symlinked directory on the way was not followed: linked-src -> real`: the links the pattern
 * would have descended into (FindSummary.linksOnTheWay), so an empty answer is never read as "no
 * such file down that path".
 */
export function onTheWaySentence(summary: Pick<FindSummary, 'linksOnTheWay' | 'linkOnTheWayCount'>, ctx: SummaryContext): string {
  const display = ctx.displayMatch ?? ctx.displayPath;
  const names = namedLinks(summary.linksOnTheWay, summary.linkOnTheWayCount, (link) => {
    const target = ctx.linkTarget?.(link);
    return target === undefined ? display(link) : `${display(link)} -> ${target}`;
  });
  return `${count(summary.linkOnTheWayCount, 'symlinked directory on the way was', 'symlinked directories on the way were')} not followed: ${names}`;
}

export const LINKS_UNEXAMINED = 'symlinks were not examined (ripgrep lists regular files only): a matching symlink or a symlinked directory on the way would not be named; --backend walker names them';

/**
 * The first line, then what the links add: a complete search proves absence of a regular file,
 * an incomplete one never does, and a matching link is named either way.
 */
function headlines(summary: FindSummary, ctx: SummaryContext): { headline: string; details: string[] } {
  const { good } = ctx.styles;
  const files = summary.matchedCount;
  const links = summary.linkMatchedCount;
  const details: string[] = [];
  if (links > 0 && (files > 0 || !summary.complete)) details.push(`  ${files > 0 ? 'also ' : ''}${linkSentence(summary, ctx)}`);
  if (files === 0 && links === 0 && !summary.linksExamined) details.push(`  ${LINKS_UNEXAMINED}`);
  const onTheWay = summary.linkOnTheWayCount > 0 ? onTheWaySentence(summary, ctx) : undefined;
  // Complete and empty, a link on the way is the headline's: never "no matching file exists there".
  if (onTheWay !== undefined && (files > 0 || links > 0 || !summary.complete)) details.push(`  ${files > 0 || links > 0 ? 'also ' : ''}${onTheWay}; search its target to look inside`);
  if (!summary.complete) {
    const found = files > 0 ? count(files, 'match', 'matches') : links > 0 ? 'no regular file matches' : 'no matches';
    return { headline: incompleteHeadline(found, files === 0, ctx), details };
  }
  if (files > 0) return { headline: `find-file: ${count(files, 'match', 'matches')} under ${ctx.root}: ${good('complete')}, every directory was read`, details };
  const filters = filterWords(ctx.filters);
  const passing = filters === undefined ? '' : ` passing ${filters}`;
  // A matching link does not lift the qualifier: a regular file may still lie down a link on the way (named below).
  const outside = onTheWay === undefined ? '' : ' outside symlinked directories';
  const aside = leftOutAside(summary, ctx, 'entries');
  if (links > 0) return { headline: `find-file: no regular file${passing} matches under ${ctx.root}${outside}${aside} (${good('complete')}, every directory was read); ${linkSentence(summary, ctx)}`, details };
  const what = summary.linksExamined ? (ctx.noun ?? 'file') : 'regular file';
  // Ignored paths were never read (the CLI's default): an empty answer claims nothing about them.
  if (onTheWay === undefined && hasIgnored(summary, ctx)) {
    const links = summary.linksExamined ? '' : ' and symlinked directories';
    // The ignored paths are named here: the aside says only what else was left out (--exclude, --no-hidden).
    const others = leftOutAside({ ...summary, ignoredCount: 0 }, { ...ctx, ignoreFiles: false }, 'entries');
    return { headline: `find-file: no matches under ${ctx.root}: ${good('complete')}, but none outside ignored paths${links}${others}: ${ignoredWords(summary)}, ${ctx.ignoreFileGiven === true ? '-u and no --ignore-file' : '-u'} to include them`, details };
  }
  if (onTheWay !== undefined) {
    const headline = `find-file: no matches under ${ctx.root}: ${good('complete')}, every directory was read, but symlinks are never followed: no matching ${what}${passing} outside symlinked directories${aside}; ${onTheWay}`;
    return { headline, details: [...details, '  search its target to look inside'] };
  }
  // ripgrep cannot see a symlinked directory on the way: absence is claimed only outside them.
  const outsideLinks = summary.linksExamined ? '' : ' outside symlinked directories';
  return { headline: `find-file: no matches under ${ctx.root}: ${good('complete')}, every directory was read, so no matching ${what}${passing} exists there${outsideLinks}${aside}`, details };
}

/**
 * ` (among entries not excluded, hidden or ignored)`: what a complete, empty answer's absence is
 * about, naming only what was left out by choice in this search (hidden entries searched are not
 * "not hidden"): excluded when --exclude left something out, hidden with --no-hidden, ignored when
 * ignore files left something out (or may have: ripgrep does not count). Ignore files are on by
 * default in the command, so "on" alone is no news.
 */
export function leftOutAside(summary: Pick<FindSummary, 'excludedCount' | 'ignoredCount' | 'backend'>, ctx: SummaryContext, noun: string): string {
  const excluded = summary.excludedCount > 0 || (summary.backend === 'ripgrep' && ctx.excludesGiven === true);
  const ways = [...(excluded ? ['excluded'] : []), ...(ctx.hiddenLeftOut ? ['hidden'] : []), ...(hasIgnored(summary, ctx) ? ['ignored'] : [])];
  if (ways.length === 0) return '';
  const listed = ways.length === 1 ? ways[0]! : `${ways.slice(0, -1).join(', ')} or ${ways.at(-1)!}`;
  return ` (among ${noun} not ${listed})`;
}

/**
 * After a complete answer that found nothing, with ignore files applied: what they left out, and
 * how to include it, so an empty answer never hides an ignored match.
 */
export function ignoredLine(summary: Pick<FindSummary, 'ignoredCount' | 'backend'>, ctx: Pick<SummaryContext, 'ignoreFileGiven'>): string {
  const what = summary.backend === 'ripgrep' ? 'ignore files were applied (ripgrep does not count what they left out)' : `ignored (ignore files, .git/): ${count(summary.ignoredCount, 'path', 'paths')}`;
  return `  ${what}; search again with ${includeIgnored(ctx)} to include them`;
}

/** How to include what ignore files left out: `-u` lifts every ignore file but those given by `--ignore-file`. */
function includeIgnored(ctx: Pick<SummaryContext, 'ignoreFileGiven'>): string {
  return ctx.ignoreFileGiven === true ? '-u (--no-ignore) and without --ignore-file' : '-u (--no-ignore)';
}

/** Ignore files left something out, or may have (ripgrep does not count): absence then holds only outside them. */
function hasIgnored(summary: Pick<FindSummary, 'ignoredCount' | 'backend'>, ctx: SummaryContext): boolean {
  return ctx.ignoreFiles === true && (summary.ignoredCount > 0 || summary.backend === 'ripgrep');
}

/** `3 ignored`, or for ripgrep, which does not count them, `ripgrep does not count what it ignored`. */
function ignoredWords(summary: Pick<FindSummary, 'ignoredCount' | 'backend'>): string {
  return summary.backend === 'ripgrep' ? 'ripgrep does not count what it ignored' : `${summary.ignoredCount} ignored`;
}

/** What the file and content summaries share: everything but the count, the verdict and the reasons' wording. */
type SummaryBody = Pick<FindSummary, 'skipped' | 'skippedCount' | 'symlinkSkipped' | 'excludedCount' | 'ignoredCount' | 'backend' | 'fallbackReason' | 'recovery'> & {
  incompleteReasons: readonly string[];
};

/** What a summary says that the shared layout does not. */
export interface SummaryParts {
  /** The first line: the count and the verdict. */
  headline: string;
  /** Lines right after the first (e.g. the symlinks whose name matches). */
  details?: string[];
  explain(reason: string): string;
  /** Lines after the reasons (e.g. a display cut, which is not a gap). */
  notes?: string[];
  /** Policy counts said before the shared ones (e.g. binary files not searched). */
  policy?: string[];
  /** The search was complete and found nothing: with ignore files on, say what they left out. */
  foundNothing?: boolean;
}

/**
 * The layout every summary on stderr follows: the count and the verdict (and the details that go
 * with it: matching symlinks), then for an incomplete
 * result every reason, then the first few skipped paths with their codes and a count of the rest,
 * then the policy counts (symlinks not followed, entries excluded), which are not gaps.
 */
export function layoutSummary(summary: SummaryBody, ctx: SummaryContext, parts: SummaryParts): string {
  const { dim } = ctx.styles;
  const lines = [parts.headline, ...(parts.details ?? [])];
  if (parts.foundNothing && hasIgnored(summary, ctx)) lines.push(ignoredLine(summary, ctx));
  summary.incompleteReasons.forEach((reason, i) => lines.push(`  ${i === 0 ? 'why:' : '    '} ${parts.explain(reason)}`));
  lines.push(...(parts.notes ?? []));
  const show = ctx.showSkipped ?? 5;
  for (const entry of summary.skipped.slice(0, show)) {
    lines.push(`  skipped: ${ctx.displayPath(entry.path)} ${dim(`(${escapeText(entry.code)})`)}`);
  }
  const rest = summary.skippedCount - Math.min(show, summary.skipped.length);
  if (rest > 0) lines.push(`  ... and ${count(rest, 'more skipped path', 'more skipped paths')} (--json lists them all)`);
  const policy = [...(parts.policy ?? [])];
  if (summary.symlinkSkipped > 0) policy.push(count(summary.symlinkSkipped, 'symlink not followed', 'symlinks not followed'));
  if (summary.excludedCount > 0) policy.push(count(summary.excludedCount, 'entry excluded', 'entries excluded'));
  // The command ignores .git/ with the ignore files (ignoreGitDirs): one count for both.
  if (summary.ignoredCount > 0) policy.push(count(summary.ignoredCount, 'entry ignored', 'entries ignored') + ' (ignore files, .git/)');
  if (policy.length > 0) lines.push(`  ${policy.join(', ')} ${dim('(by policy, not coverage gaps)')}`);
  const engine = describeEngine(summary);
  if (engine !== undefined) lines.push(`  ${dim(engine)}`);
  return lines.join('\n') + '\n';
}

/** The summary printed on stderr after the paths. */
export function formatSummary(summary: FindSummary, raw: SummaryContext): string {
  const ctx = escapedContext(raw);
  // An empty answer with ignored paths says so in its headline (headlines above), not twice.
  const foundNothing = summary.complete && summary.matchedCount === 0 && summary.linkMatchedCount === 0 && (summary.linkOnTheWayCount > 0 || !hasIgnored(summary, ctx));
  // What the filters left out is policy too: said, so an empty answer never hides a file that was too old or too big.
  const policy = summary.filteredCount > 0 ? [`${count(summary.filteredCount, 'match', 'matches')} of the pattern left out by ${filterWords(ctx.filters) ?? 'the filters'}`] : [];
  return layoutSummary(summary, ctx, { ...headlines(summary, ctx), explain: (reason) => explainReason(reason, summary, ctx), foundNothing, policy });
}

/**
 * A reason whose code alone misleads: `rg-not-found` is also what a search of /usr gets while
 * /usr/bin/rg exists, since an rg inside the searched root (or the current directory) is never run
 * (docs/ripgrep.md): read as "ripgrep is not installed", it would be a "not there" that is not so.
 */
const FALLBACK_DETAIL: Partial<Record<FallbackReason, string>> = {
  'rg-not-found': ': no rg on the PATH outside the searched root and the current directory; FIND_FILE_RG names one to use',
};

/** Said only when the engine is news: `auto` fell back to the walker, or ripgrep failed or was retried. */
export function describeEngine(summary: Pick<FindSummary, 'backend' | 'fallbackReason' | 'recovery'>): string | undefined {
  const notes: string[] = [];
  if (summary.fallbackReason !== undefined) notes.push(`auto ran the walker (${summary.fallbackReason}${FALLBACK_DETAIL[summary.fallbackReason] ?? ''})`);
  const recovery = summary.recovery;
  if (recovery?.failureKind !== undefined) notes.push(`ripgrep failed (${recovery.failureKind})`);
  if (recovery?.retryTriggered) notes.push(`ripgrep was retried with one thread${recovery.retrySucceeded ? ' and succeeded' : ''}`);
  return notes.length === 0 ? undefined : `backend ${summary.backend}: ${notes.join(', ')}`;
}

/** What the progress line reports. `dirsRead` is absent when the backend does not say. */
export interface ProgressState {
  dirsRead: number | undefined;
  /** Absent when matches arrive only at the end (the promise-only backends). */
  matches: number | undefined;
  elapsedMs: number;
}

export function formatProgress(state: ProgressState, styles: Styles): string {
  const parts = [
    ...(state.dirsRead === undefined ? [] : [count(state.dirsRead, 'dir read', 'dirs read')]),
    ...(state.matches === undefined ? [] : [count(state.matches, 'match', 'matches')]),
    `${(state.elapsedMs / 1000).toFixed(1)}s`,
  ];
  return styles.dim(`searching: ${parts.join(', ')}`);
}
