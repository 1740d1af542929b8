/**
 * The words for every reason a search can be incomplete: a label for the one-line summary, a
 * sentence for "Not searched:", and the next step. One table, `Record<KnownReason, …>`: a reason
 * added to the library's `IncompleteReason` (or `ContentIncompleteReason`) without wording here
 * fails to compile. A reason from a newer library (or another backend) that this table does not
 * know still gets an honest sentence.
 */
import type { ContentIncompleteReason } from '../content/types.js';
import { skippedFor, type IncompleteReason, type SkippedEntry } from '../result.js';
import { LISTED_PATHS, count, listedPaths, quote } from './text-words.js';

/** What the reasons need to be put in words. Skipped paths are already workspace-relative. */
export interface Gaps {
  reasons: readonly string[];
  skipped: readonly SkippedEntry[];
  timeBudgetMs: number;
  maxDepth: number | undefined;
  countCap: number;
  maxOutputBytes?: number;
}

type KnownReason = IncompleteReason | ContentIncompleteReason;

interface ReasonWording {
  /** A few words for a one-line summary: `permission denied`. */
  label: string;
  words(gaps: Gaps): string;
  next(noun: 'pattern' | 'query'): string;
}

const REASONS: Record<KnownReason, ReasonWording> = {
  'permission-denied': {
    label: 'permission denied',
    words: (g) => unreadable(g.skipped, 'permission-denied', 'permission denied'),
    next: () => 'search a path that avoids the unreadable ones, or another folder where it may be',
  },
  'io-error': {
    label: 'I/O error',
    words: (g) => unreadable(g.skipped, 'io-error', 'I/O error'),
    next: () => 'search again; if the error persists, search a path that avoids the failing ones',
  },
  'time-budget': {
    label: 'time budget',
    words: (g) => `time budget of ${g.timeBudgetMs} ms reached`,
    next: (noun) => `narrow the path or make the ${noun} more specific, so the search fits the time budget`,
  },
  'depth-limit': {
    label: 'depth limit',
    words: (g) => (g.maxDepth === undefined ? 'depth limit reached' : `depth limit ${g.maxDepth} reached`),
    next: () => 'search from a deeper path, so the depth limit reaches further',
  },
  'result-limit': {
    label: 'count limit',
    words: (g) => `stopped counting at ${g.countCap} matches`,
    next: (noun) => `make the ${noun} or path more specific`,
  },
  aborted: {
    label: 'cancelled',
    words: () => 'the search was cancelled before it finished',
    next: () => 'search again if it is still needed',
  },
  'output-limit': {
    label: 'output limit',
    words: (g) => (g.maxOutputBytes === undefined ? 'output limit reached' : `output limit of ${g.maxOutputBytes} bytes of matching text reached`),
    next: () => 'make the query or include glob more specific',
  },
};

export function isKnownReason(reason: string): reason is KnownReason {
  return Object.prototype.hasOwnProperty.call(REASONS, reason);
}

/** Stands for the reason an incomplete result did not give. */
const UNSTATED = '';

/** True when the gap is only that counting stopped: every match up to the cap was found, and the page is cut anyway. */
export function isCountCapOnly(complete: boolean, reasons: readonly string[]): boolean {
  return !complete && reasons.length === 1 && reasons[0] === 'result-limit';
}

/** True when part of the tree was not searched: the answer must not conclude absence. */
export function isCoverageGap(complete: boolean, reasons: readonly string[]): boolean {
  return !complete && !isCountCapOnly(complete, reasons);
}

/** The reasons to word for an incomplete result: without any (which breaks the contract), it is still worded as a gap. */
export function statedReasons(reasons: readonly string[]): readonly string[] {
  return reasons.length > 0 ? reasons : [UNSTATED];
}

export function describeReason(reason: string, gaps: Gaps): string {
  if (isKnownReason(reason)) return REASONS[reason].words(gaps);
  if (reason === UNSTATED) return 'the search did not say why it is incomplete';
  return `the search stopped short for a reason this tool cannot describe (${quote(reason)})`;
}

/** The reason in a few words, for a one-line summary; an unknown reason as it came. */
export function reasonLabel(reason: string): string {
  if (isKnownReason(reason)) return REASONS[reason].label;
  return reason === UNSTATED ? 'reason not stated' : reason;
}

/** Every reason of an incomplete result as labels: `permission denied, time budget`. */
export function reasonLabels(reasons: readonly string[]): string {
  return statedReasons(reasons).map(reasonLabel).join(', ');
}

export function nextStep(reason: string, noun: 'pattern' | 'query'): string {
  return isKnownReason(reason) ? REASONS[reason].next(noun) : 'narrow the path and search again';
}

function unreadable(skipped: readonly SkippedEntry[], kind: 'permission-denied' | 'io-error', words: string): string {
  const hits = skippedFor(kind, skipped);
  // Paths, not directories: a file whose lstat or read failed is skipped too.
  if (hits.length === 0) return `some paths could not be read (${words})`;
  const named = hits.slice(0, LISTED_PATHS).map((s) => (kind === 'io-error' ? `${s.path} (${s.code})` : s.path));
  return `${count(hits.length, 'path')} could not be read (${words}): ${listedPaths(named, hits.length)}`;
}
