/**
 * The words for every reason a search can be incomplete: a label for the one-line summary, a
 * sentence for "Not searched:", and the next step. One table, `Record<KnownReason, …>`: a reason
 * added to the library's `IncompleteReason` (or `ContentIncompleteReason`) without wording here
 * fails to compile. A reason from a newer library (or another backend) that this table does not
 * know still gets an honest sentence.
 */
import type { ContentIncompleteReason } from '../content/types.js';
import { skippedFor, type IncompleteReason, type SkippedEntry } from '../result.js';
import { escapeText } from '../text-escape.js';
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
  const named = hits.slice(0, LISTED_PATHS);
  const codes = kind === 'io-error' ? named.map((s) => ` (${escapeText(s.code)})`) : [];
  return `${count(hits.length, 'path')} could not be read (${words}): ${listedPaths(named.map((s) => s.path), hits.length, codes)}`;
}

/** What leaves a named file out of a search: the host's excludes, ignore files. */
export type DroppedCause = 'excluded' | 'ignored';

/** Why grep's one file (`path` naming a file) was not read: dropped, or binary data. */
export type UnreadCause = DroppedCause | 'binary';

const UNREAD: Record<UnreadCause, { label: string; why: string; next: string }> = {
  excluded: {
    label: 'excluded by the host',
    why: 'the host excludes it',
    next: 'this tool cannot search it with the host\'s settings',
  },
  ignored: {
    label: 'ignored',
    why: 'ignore files (.gitignore, .ignore) ignore it',
    next: 'to search it, call again with respect_git_ignore: false',
  },
  binary: {
    label: 'binary',
    why: 'it holds binary data (a NUL byte), and a binary file is not searched as text (at most up to that byte)',
    next: 'its text cannot be searched with this tool',
  },
};

/**
 * grep with `path` naming one file that was then not read: never "No matches", which would read as
 * "the text is not in that file". Only that file's facts: the policy counts of its directory
 * are about other entries, so they are not shown. `shown` is the file as answers show it.
 */
export function unreadFileText(causes: readonly UnreadCause[], shown: string, query: string): { content: string; summary: string } {
  const why = causes.map((c) => UNREAD[c].why).join('; and ');
  const next = causes.map((c) => UNREAD[c].next);
  // Excluded outranks the rest: lifting the ignore files alone would not make it searchable.
  const step = causes.includes('excluded') ? next[0]! : next.join('; ');
  const file = escapeText(shown);
  return {
    content: `Not searched: the file ${file} was not read, so whether it holds ${quote(query)} is unknown: ${why}. Next: ${step}.`,
    summary: `File not searched (${causes.map((c) => UNREAD[c].label).join(', ')}): ${quote(query)} was not looked for in ${file}`,
  };
}

/** After a refusal's suggested search, when the excludes or ignore files would drop the file from it. */
export function droppedText(causes: readonly DroppedCause[]): string {
  if (causes.includes('excluded')) return `But the host excludes it${causes.includes('ignored') ? ' (and ignore files ignore it)' : ''}: that search will not list it, nor will any other with the host's settings.`;
  return 'But ignore files (.gitignore, .ignore) ignore it: add respect_git_ignore: false to that search, or it will not list it.';
}
