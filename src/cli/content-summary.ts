/**
 * The summary `find-file --contains` prints on stderr after the hits. Same layout and reasons as the
 * file-listing summary (src/cli/summary.ts), worded for text: a complete search with no hit says
 * the text does not occur in the files searched; an incomplete one never reads as "not there". A
 * display cut (`truncated`) is said on its own line: it is not a coverage gap, and a gap is not it.
 */
import type { ContentSummary } from '../content/types.js';
import type { FindSummary } from '../result.js';
import { count, escapedContext, explainReason, incompleteHeadline, layoutSummary, leftOutAside, type SummaryContext } from './summary.js';

/** The first line: the incompleteness first when there is one, as in the file-listing summary. */
function headline(summary: ContentSummary, ctx: SummaryContext): string {
  const { good } = ctx.styles;
  const found = summary.hitCount === 0 ? 'no hits' : count(summary.hitCount, 'hit', 'hits');
  if (!summary.complete) return incompleteHeadline(found, summary.hitCount === 0, ctx);
  if (summary.hitCount > 0) return `find-file: ${found} under ${ctx.root}: ${good('complete')}, every file was searched`;
  const aside = leftOutAside(summary, ctx, 'files');
  return `find-file: ${found} under ${ctx.root}: ${good('complete')}, every file was searched, so the text does not occur there${aside}`;
}

/** An io-error no skipped path explains: ripgrep failed, or its output could not be read. */
function explainContentReason(reason: string, summary: ContentSummary, ctx: SummaryContext): string {
  if (reason === 'result-limit') return `result-limit: stopped at --max-results ${ctx.maxResults ?? '?'}; more hits exist`;
  if (reason === 'io-error' && summary.skipped.length === 0) {
    if (summary.protocolErrors > 0) return `io-error: ripgrep printed ${count(summary.protocolErrors, 'line', 'lines')} that are not valid JSON events`;
    return `io-error: ripgrep did not finish cleanly (${summary.recovery?.failureKind ?? 'failure'})`;
  }
  // The file-listing wording reads only the skipped entries and the limits: the same for content.
  return explainReason(reason, { ...summary, matchedCount: summary.hitCount } as unknown as FindSummary, ctx);
}

export function formatContentSummary(summary: ContentSummary, raw: SummaryContext): string {
  const ctx = escapedContext(raw);
  return layoutSummary(summary, ctx, {
    headline: headline(summary, ctx),
    explain: (reason) => explainContentReason(reason, summary, ctx),
    notes: summary.truncated ? ['  truncated: some hit text was cut or left out for length (not a coverage gap; --json flags each cut line)'] : [],
    policy: summary.binarySkipped > 0 ? [count(summary.binarySkipped, 'binary file', 'binary files') + ' not searched'] : [],
    foundNothing: summary.complete && summary.hitCount === 0,
  });
}
