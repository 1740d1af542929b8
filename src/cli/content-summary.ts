/**
 * The summary `find-file --contains` prints on stderr after the hits. Same layout and reasons as the
 * file-listing summary (src/cli/summary.ts), worded for text: a complete search with no hit says
 * the text does not occur in the files searched, and names them when a pattern chose them (never
 * "every file" for `*.ts`); an incomplete one never reads as "not there". A
 * display cut (`truncated`) is said on its own line: it is not a coverage gap, and a gap is not it.
 */
import type { ContentSummary } from '../content/types.js';
import type { FindSummary } from '../result.js';
import { count, escapedContext, explainReason, incompleteHeadline, layoutSummary, leftOutAside, namedLinks, onTheWaySentence, type SummaryContext } from './summary.js';

/** Patterns that select every file (`*` matches a base name at any depth): no narrower set to name. */
const EVERY_FILE = new Set(['*', '**', '**/*']);

/**
 * Which files were read, in the words of the headline: "every file", or "every file matching
 * '*.ts'" when a pattern chose them, so absence is never claimed for files nobody opened; "every
 * text file" when binary files were left unsearched (the policy line counts them), so the
 * headline never contradicts it, and always after ripgrep, which leaves binary files without a word.
 */
function filesSearched(summary: ContentSummary, ctx: SummaryContext): { files: string; all: boolean } {
  const patterns = ctx.patterns ?? [];
  const every = summary.binarySkipped > 0 || !summary.binaryCounted ? 'every text file' : 'every file';
  if (patterns.every((p) => EVERY_FILE.has(p))) return { files: every, all: true };
  return { files: `${every} matching ${patterns.map((p) => `'${p}'`).join(' or ')}`, all: false };
}

/**
 * The first line: the incompleteness first when there is one, as in the file-listing summary.
 * Links are never followed: a complete answer with no hit claims absence only outside symlinked
 * directories when one was met (named after it) or when ripgrep could not see them.
 */
function headline(summary: ContentSummary, ctx: SummaryContext): string {
  const { good } = ctx.styles;
  const found = summary.hitCount === 0 ? 'no hits' : ctx.filesOnly === true ? count(summary.hitCount, 'file with a hit', 'files with a hit') : count(summary.hitCount, 'hit', 'hits');
  if (!summary.complete) return incompleteHeadline(found, summary.hitCount === 0, ctx);
  const { files, all } = filesSearched(summary, ctx);
  const onTheWay = summary.linkOnTheWayCount > 0;
  const outside = summary.hitCount === 0 && (onTheWay || !summary.linksExamined) ? ' outside symlinked directories' : '';
  const searched = `find-file: ${found} under ${ctx.root}: ${good('complete')}, ${files}${outside} was searched`;
  // What was left out by choice is said with hits too: "every file" never covers an ignored one.
  const aside = leftOutAside(summary, ctx, 'files');
  if (summary.hitCount > 0) return searched + aside;
  const absent = all ? 'so the text does not occur there' : 'and the text does not occur in them';
  const links = unsearched(summary, ctx).map((sentence) => `; ${sentence}`).join('');
  return `${searched}, ${absent}${aside}${links}${onTheWay ? `; ${onTheWaySentence(summary, ctx)}` : ''}`;
}

/**
 * What the patterns chose and the search never opened, each kind a sentence: `1 matching symlink was
 * not searched (links are never followed): config.yml`, `1 matching special file was not searched
 * (a FIFO, socket or device is never opened): app.log`. "The text does not occur" must not cover them.
 */
function unsearched(summary: ContentSummary, ctx: SummaryContext): string[] {
  const name = ctx.displayMatch ?? ctx.displayPath;
  const sentence = (paths: readonly string[], n: number, what: string, why: string) =>
    n > 0 ? [`${count(n, `matching ${what} was`, `matching ${what}s were`)} not searched (${why}): ${namedLinks(paths, n, name)}`] : [];
  return [
    ...sentence(summary.linkMatches, summary.linkMatchedCount, 'symlink', 'links are never followed'),
    ...sentence(summary.specialMatches, summary.specialMatchedCount, 'special file', 'a FIFO, socket or device is never opened'),
  ];
}

/**
 * After the headline: the links on the way (the headline names them for an empty complete answer),
 * or ripgrep's blind spots: the symlinked directories it does not see, and for an empty answer
 * the binary files it leaves without a word (the text may be inside one).
 */
function details(summary: ContentSummary, ctx: SummaryContext): string[] {
  const empty = summary.complete && summary.hitCount === 0;
  const lines: string[] = [];
  if (!empty) lines.push(...unsearched(summary, ctx).map((sentence) => `  also ${sentence}`));
  if (summary.linkOnTheWayCount > 0) lines.push(empty ? '  search its target to look inside' : `  also ${onTheWaySentence(summary, ctx)}; search its target to look inside`);
  else if (empty && !summary.linksExamined) lines.push(`  ${CONTENT_LINKS_UNEXAMINED}`);
  if (empty && !summary.binaryCounted && summary.binarySkipped === 0) lines.push(`  ${BINARY_UNCOUNTED}`);
  // A count printed for such a file is its first N hits, not all of them: said, as a lower bound.
  const capped = summary.filesAtHitCap ?? 0;
  if (capped > 0 && ctx.maxCount !== undefined) lines.push(`  ${count(capped, 'file', 'files')} reached --max-count ${ctx.maxCount}: the rest of ${capped === 1 ? 'it was' : 'each was'} not read`);
  return lines;
}

export const CONTENT_LINKS_UNEXAMINED = 'symlinks and special files were not examined (ripgrep does not see them): a symlinked directory on the way, a matching link to a file or a matching FIFO or device would not be named; --backend walker names them';
export const BINARY_UNCOUNTED = 'binary files were not searched, and ripgrep does not count them: --backend walker counts them';

/** The policy line's binary count: a lower bound after ripgrep. */
function binaryPolicy(summary: ContentSummary): string[] {
  if (summary.binarySkipped === 0) return [];
  return [`${summary.binaryCounted ? '' : 'at least '}${count(summary.binarySkipped, 'binary file', 'binary files')} not searched`];
}

/** An io-error no skipped path explains: ripgrep failed, or its output could not be read. */
function explainContentReason(reason: string, summary: ContentSummary, ctx: SummaryContext): string {
  if (reason === 'result-limit') return `result-limit: stopped at --max-results ${ctx.maxResults ?? '?'}; more hits exist`;
  if (reason === 'io-error' && summary.skipped.length === 0) {
    if (summary.protocolErrors > 0) return `io-error: ripgrep printed ${count(summary.protocolErrors, 'line that is', 'lines that are')} not valid JSON events`;
    return `io-error: ripgrep did not finish cleanly (${summary.recovery?.failureKind ?? 'failure'})`;
  }
  // The file-listing wording reads only the skipped entries and the limits: the same for content.
  return explainReason(reason, { ...summary, matchedCount: summary.hitCount } as unknown as FindSummary, ctx);
}

export function formatContentSummary(summary: ContentSummary, raw: SummaryContext): string {
  const ctx = escapedContext(raw);
  return layoutSummary(summary, ctx, {
    headline: headline(summary, ctx),
    details: details(summary, ctx),
    explain: (reason) => explainContentReason(reason, summary, ctx),
    notes: summary.truncated ? ['  truncated: some hit text was cut or left out for length (not a coverage gap; --json flags each cut line)'] : [],
    policy: binaryPolicy(summary),
    foundNothing: summary.complete && summary.hitCount === 0,
  });
}
