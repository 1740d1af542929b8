/**
 * Every sentence the model reads, in one place. The tools gather facts; this module words them.
 * Tests compare these texts word for word, and docs/agent.md is generated from them.
 *
 * The rules the wording enforces (docs/contract.md, "the rule that makes the answer usable"):
 * - "(search complete)" and a "No ..." headline only when the search covered everything: that is
 *   the only answer from which absence may be concluded.
 * - An incomplete search never says "No files found": it says what could not be searched, why, and
 *   what to do next, and warns that absence elsewhere cannot be concluded.
 * - A cut list says so, `(truncated: showing N of M)`, and M is only ever what was counted:
 *   "at least M" when the search did not finish, "more than M" when counting itself stopped.
 * - Truncated (a display cut) and incomplete (a coverage gap) are separate labels; both can apply.
 * - A one-line summary of an incomplete search starts with "Incomplete search": a host that shows
 *   only that line (or only its start) must not show an absence.
 * - Symlinks whose name matches are named (not followed, never results), so "no regular file" is
 *   never read as "nothing by that name"; an engine that cannot see links says so.
 * - Text from the disk (every path, name, root and line of a file) goes through `escapeText`
 *   (src/text-escape.ts) where it is worded, exactly once: a file name cannot forge a line of the
 *   answer, nor carry a control or invisible formatting character to the model. The facts stay
 *   raw; so does `metadata`.
 */
import type { ContentIncompleteReason } from '../content/types.js';
import { skippedFor, type IncompleteReason, type SkippedEntry } from '../result.js';
import { escapeText } from '../text-escape.js';
import { MAX_LIMIT } from './context.js';
import type { RefusalKind } from './paths.js';

/** How many matches exist, as far as the search knows. */
export interface Total {
  count: number;
  /** `exact`: the search was complete. `at-least`: it did not finish. `more-than`: it stopped counting at `count`. */
  kind: 'exact' | 'at-least' | 'more-than';
}

/** What the reasons need to be put in words. Skipped paths are already workspace-relative. */
export interface Gaps {
  reasons: readonly string[];
  skipped: readonly SkippedEntry[];
  timeBudgetMs: number;
  maxDepth: number | undefined;
  countCap: number;
  maxOutputBytes?: number;
}

/** What was left out on purpose. Never a coverage gap. */
export interface Policy {
  exclude: readonly string[];
  excludedCount: number;
  symlinkSkipped: number;
  binarySkipped?: number;
  /** Symlinks whose path matches (file search only): not followed, never results, but named. */
  links?: LinkMatches;
}

/** The result's `linkMatches`, `linkMatchedCount` and `linksExamined`, in workspace terms. */
export interface LinkMatches {
  /** Workspace-relative with `/`: the first of them (the result stores at most 1,000). */
  paths: readonly string[];
  /** How many there are, all of them. */
  count: number;
  /** False when the engine could not see links (ripgrep): then `count` is 0 for that reason. */
  examined: boolean;
}

/** The facts of one answer, as the tools hand them over. */
export interface AnswerFacts {
  tool: 'glob' | 'grep';
  /** The headline for a complete search that found nothing. */
  emptyHeadline: string;
  /** What was looked for and where, for the incomplete headline: `files matching "x" under /w`. */
  scope: string;
  /** The page: one line per result, raw (`renderAnswer` escapes each). */
  lines: readonly string[];
  total: Total;
  complete: boolean;
  gaps: Gaps;
  policy: Policy;
  limit: number;
  /** The model's `limit`, when it was above the maximum. */
  limitRequested?: number;
  /** Extra notes after the labels (e.g. lines cut at a width). */
  notes?: readonly string[];
  /** Lines that help after an empty answer. */
  guidance?: readonly string[];
}

export function noFilesHeadline(pattern: string, root: string): string {
  return `No files matching ${quote(pattern)} under ${escapeText(root)} (search complete).`;
}

export function noMatchesHeadline(query: string, root: string, include: string | undefined, regex: boolean): string {
  return `No matches for ${queryText(query, regex)}${include === undefined ? '' : ` in files matching ${quote(include)}`} under ${escapeText(root)} (search complete).`;
}

export function globScope(pattern: string, root: string): string {
  return `files matching ${quote(pattern)} under ${escapeText(root)}`;
}

export function grepScope(query: string, root: string, include: string | undefined, regex: boolean): string {
  return `${queryText(query, regex)}${include === undefined ? '' : ` in files matching ${quote(include)}`} under ${escapeText(root)}`;
}

export const INCOMPLETE_LABEL = '(incomplete)';
export const INCOMPLETE_WARNING = 'Warning: the search did not cover everything, so absence elsewhere cannot be concluded.';
export const INCOMPLETE_EMPTY = 'Search incomplete: no matches in the part that could be searched';
export const NOT_PROOF = 'Absence cannot be concluded: part of the tree was not searched.';
export const LINKS_UNEXAMINED = 'Symlinks were not examined (ripgrep lists regular files only): a symlink whose name matches would not be named here.';

/** `2 symlinks match (not followed): a, b`: the first few named, the rest counted. */
export function linksText(links: LinkMatches): string {
  const named = links.paths.slice(0, LISTED_PATHS);
  const more = links.count > named.length ? `, and ${links.count - named.length} more` : '';
  return `${linkCount(links.count)} (not followed): ${named.map(escapeText).join(', ')}${more}`;
}

function linkCount(n: number): string {
  return count(n, 'symlink matches', 'symlinks match');
}
export function truncatedLabel(shown: number, total: Total): string {
  return `(truncated: showing ${shown} of ${totalText(total)})`;
}

export function totalText(total: Total): string {
  if (total.kind === 'exact') return String(total.count);
  return `${total.kind === 'at-least' ? 'at least' : 'more than'} ${total.count}`;
}

/** True when the gap is only that counting stopped: every match up to the cap was found, and the page is cut anyway. */
export function isCountCapOnly(complete: boolean, reasons: readonly string[]): boolean {
  return !complete && reasons.length === 1 && reasons[0] === 'result-limit';
}

/** The text the model reads. */
export function renderAnswer(facts: AnswerFacts): string {
  const out: string[] = [];
  const gap = !facts.complete && !isCountCapOnly(facts.complete, facts.gaps.reasons);
  const truncated = facts.lines.length < facts.total.count || facts.total.kind === 'more-than';
  const noun = facts.tool === 'glob' ? 'pattern' : 'query';
  const links = facts.policy.links;
  const hasLinks = links !== undefined && links.count > 0;
  if (facts.lines.length === 0 && !gap) {
    out.push(hasLinks ? `Search complete: no regular file matches (${facts.scope}); ${linksText(links)}.` : facts.emptyHeadline);
  } else if (facts.lines.length === 0) {
    out.push(hasLinks ? `Search incomplete: no regular file matches in the part that could be searched (${facts.scope}); ${linksText(links)}.` : `${INCOMPLETE_EMPTY} (${facts.scope}).`, NOT_PROOF);
  } else {
    out.push(...facts.lines.map(escapeText));
    if (truncated) out.push(truncatedLabel(facts.lines.length, facts.total));
    if (gap) out.push(INCOMPLETE_LABEL, INCOMPLETE_WARNING);
    if (hasLinks) out.push(`Also ${linksText(links)}.`);
  }
  if (facts.lines.length === 0 && links?.examined === false) out.push(LINKS_UNEXAMINED);
  const steps: string[] = [];
  if (gap) {
    // An incomplete result without a reason breaks the contract; it is still worded as a gap.
    const reasons = facts.gaps.reasons.length > 0 ? facts.gaps.reasons : [UNSTATED];
    out.push('Not searched:', ...reasons.map((r) => `- ${describeReason(r, facts.gaps)}`));
    for (const r of reasons) {
      const step = nextStep(r, noun);
      if (!steps.includes(step)) steps.push(step);
    }
  }
  if (truncated && facts.lines.length > 0) {
    steps.push(facts.limit < MAX_LIMIT ? `for the rest, make the ${noun} or path more specific, or raise limit (at most ${MAX_LIMIT})` : `for the rest, make the ${noun} or path more specific`);
  }
  if (steps.length > 0) out.push(`Next: ${steps.join('; ')}.`);
  const policy = policyLine(facts.policy);
  if (policy !== undefined) out.push(policy);
  if (facts.limitRequested !== undefined) out.push(`(limit ${facts.limitRequested} is above the maximum: capped at ${facts.limit})`);
  out.push(...(facts.notes ?? []), ...(facts.guidance ?? []));
  return out.join('\n');
}

/**
 * The one-line summary for a UI or a log: `3 files matching "*.ts"`, `No matches for "q" (search
 * complete)`, `Incomplete search (permission denied): 0 files matching "x" found in the part
 * searched`. An incomplete one starts with the incompleteness, whatever it found. `links` (file
 * search): the result's matching symlinks, said after the count.
 */
export function summaryLine(
  unit: 'file' | 'match',
  rest: string,
  returned: number,
  total: Total,
  complete: boolean,
  reasons: readonly string[],
  links?: Pick<LinkMatches, 'count' | 'examined'>,
): string {
  const gap = !complete && !isCountCapOnly(complete, reasons);
  const many = unit === 'file' ? 'files' : 'matches';
  const linkCountText = links !== undefined && links.count > 0 ? linkCount(links.count) : undefined;
  const truncated = returned < total.count || total.kind === 'more-than';
  const counted = truncated ? `${returned} of ${totalText(total)} ${many}` : `${returned} ${returned === 1 ? unit : many}`;
  if (gap) {
    const labels = (reasons.length > 0 ? reasons : [UNSTATED]).map(reasonLabel).join(', ');
    return `Incomplete search (${labels}): ${counted} ${rest} found in the part searched${linkCountText === undefined ? '' : `; ${linkCountText} (not followed)`}`;
  }
  if (returned === 0) {
    if (linkCountText !== undefined) return `No regular ${many} ${rest} (search complete); ${linkCountText} (not followed)`;
    return `No ${many} ${rest} (search complete${links?.examined === false ? '; symlinks not examined' : ''})`;
  }
  return `${counted} ${rest}${linkCountText === undefined ? '' : `; also ${linkCountText} (not followed)`}`;
}

type KnownReason = IncompleteReason | ContentIncompleteReason;

interface ReasonWording {
  /** A few words for a one-line summary: `permission denied`. */
  label: string;
  words(gaps: Gaps): string;
  next(noun: 'pattern' | 'query'): string;
}

/**
 * One entry per reason. The `Record` over the reason type is the exhaustiveness check: a reason
 * added to `IncompleteReason` without wording here fails to compile. A reason from a newer
 * library (or another backend) that this table does not know still gets an honest sentence.
 */
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

const UNSTATED = '';

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

export function nextStep(reason: string, noun: 'pattern' | 'query'): string {
  return isKnownReason(reason) ? REASONS[reason].next(noun) : 'narrow the path and search again';
}

/** How many paths listed by name before "and N more". */
const LISTED_PATHS = 5;

function unreadable(skipped: readonly SkippedEntry[], kind: 'permission-denied' | 'io-error', words: string): string {
  const hits = skippedFor(kind, skipped);
  // Paths, not directories: a file whose lstat or read failed is skipped too.
  if (hits.length === 0) return `some paths could not be read (${words})`;
  const named = hits.slice(0, LISTED_PATHS).map((s) => escapeText(kind === 'io-error' ? `${s.path} (${s.code})` : s.path));
  const more = hits.length > LISTED_PATHS ? `, and ${hits.length - LISTED_PATHS} more` : '';
  return `${count(hits.length, 'path')} could not be read (${words}): ${named.join(', ')}${more}`;
}

function policyLine(policy: Policy): string | undefined {
  const parts: string[] = [];
  if (policy.excludedCount > 0) parts.push(`${count(policy.excludedCount, 'entry', 'entries')} matching the excludes ${policy.exclude.join(', ')}`);
  if (policy.symlinkSkipped > 0) parts.push(`${count(policy.symlinkSkipped, 'symbolic link')} not followed`);
  if ((policy.binarySkipped ?? 0) > 0) parts.push(`${count(policy.binarySkipped!, 'binary file')} skipped`);
  return parts.length === 0 ? undefined : `Left out by policy: ${parts.join('; ')}.`;
}

// ---- Guidance after an empty answer ----

export interface Overview {
  /** Native path of the directory listed. */
  root: string;
  /** Names, sorted, directories ending in `/`; all of them (the wording shows the first few). */
  names?: string[];
  /** Set when the directory could not be listed. */
  code?: string;
}

/** How many names of the search root the overview shows. */
export const OVERVIEW_NAMES = 10;

export function overviewLine(overview: Overview, lead = 'The search root'): string {
  const { names, code } = overview;
  const root = escapeText(overview.root);
  if (names === undefined) return `${lead} ${root} could not be listed (${escapeText(code ?? 'UNKNOWN')}).`;
  if (names.length === 0) return `${lead} ${root} is empty.`;
  const shown = names.slice(0, OVERVIEW_NAMES).map(escapeText).join(', ');
  return names.length > OVERVIEW_NAMES
    ? `${lead} ${root} holds ${names.length} entries; the first ${OVERVIEW_NAMES}: ${shown}`
    : `${lead} ${root} holds ${count(names.length, 'entry', 'entries')}: ${shown}`;
}

export interface SimilarNames {
  /** The literal part of the pattern the names were compared with. */
  literal: string;
  /** Workspace-relative paths, best first. */
  paths: string[];
  /** How many file names the search saw (the pool). */
  seen: number;
  /** True when the pool stopped growing at its cap. */
  poolCapped: boolean;
}

export function similarNamesLine(similar: SimilarNames): string {
  const pool = similar.poolCapped ? ` (compared with the first ${similar.seen} file names seen)` : '';
  // Never a line starting with "No": it follows incomplete answers too.
  if (similar.paths.length === 0) return `Similar file names seen in the search: none resembles ${quote(similar.literal)}${pool}.`;
  return `Similar file names seen in the search: ${similar.paths.map(escapeText).join(', ')}${pool}`;
}

/** One attempt in a grep's "Tried:" list. */
export interface Attempt {
  /** What was tried, in words: `"Foo", exact case`. */
  what: string;
  /** Why it was not run, when it was not. */
  notTried?: string;
  total?: Total;
  complete?: boolean;
  reasons?: readonly string[];
  /** A few of the results (`path:line:column` or paths). */
  examples?: string[];
  /** `match` for text, `file` for names. */
  unit: 'match' | 'file';
}

export function triedLines(attempts: readonly Attempt[]): string[] {
  return ['Tried:', ...attempts.map((a) => `- ${a.what}: ${a.notTried === undefined ? attemptResult(a) : `not tried (${a.notTried})`}`)];
}

function attemptResult(a: Attempt): string {
  const total = a.total ?? { count: 0, kind: 'exact' };
  const many = a.unit === 'match' ? 'matches' : 'files';
  const n = total.kind === 'exact' ? count(total.count, a.unit, many) : `${totalText(total)} ${many}`;
  const complete = a.complete ?? true;
  const reasons = a.reasons ?? [];
  const gap = !complete && !isCountCapOnly(complete, reasons);
  // The incompleteness first, as in every summary.
  const found = gap ? `incomplete search (${(reasons.length > 0 ? reasons : [UNSTATED]).map(reasonLabel).join(', ')}): ${n} in the part that could be searched` : n;
  const examples = a.examples ?? [];
  return examples.length === 0 ? found : `${found}, e.g. ${examples.map(escapeText).join(', ')}`;
}

export function attemptQuery(query: string, regex: boolean, caseMode: 'exact' | 'ignore' | 'smart-ignore'): string {
  const how = caseMode === 'exact' ? 'exact case' : caseMode === 'ignore' ? 'ignoring case' : 'ignoring case (the query has no capital letter)';
  return `${queryText(query, regex)}, ${how}`;
}

export function attemptNames(glob: string): string {
  return `file names matching ${quote(glob)}`;
}

export const NAMES_NOT_TRIED = {
  regex: 'the query is a regular expression',
  noWord: 'the query holds no run of 3 or more letters, digits, "_", "." or "-"',
} as const;

export function cutLinesNote(maxLineChars: number): string {
  return `(lines ending in "…" were cut at ${maxLineChars} characters)`;
}

// ---- Refusals and errors ----

export function refusalText(kind: RefusalKind, input: string, at: string, root: string): string {
  const p = quote(input);
  const workspaceRoot = escapeText(root);
  const advice = `Only the workspace root ${workspaceRoot} can be searched: give a path relative to it (for example "src"), or omit path to search all of it.`;
  switch (kind) {
    case 'nul':
      return `Refused: path ${p} holds a NUL byte. ${advice}`;
    case 'absolute-outside':
      return `Refused: path ${p} is outside the workspace root ${workspaceRoot}. ${advice}`;
    case 'climbs-out':
      return `Refused: path ${p} climbs out of the workspace root ${workspaceRoot} with "..". ${advice}`;
    case 'drive':
      return `Refused: path ${p} names a drive, outside the workspace root ${workspaceRoot}. ${advice}`;
    case 'link':
      return `Refused: path ${p} goes through the symbolic link ${quote(at)}, which may lead outside the workspace root ${workspaceRoot}; links are never followed. Search its target by a path inside the workspace, if it has one.`;
    case 'not-found':
      return `Path ${p} does not exist under the workspace root ${workspaceRoot}.`;
    case 'not-directory':
      return `Path ${p} is a file, not a directory. To find it, search with pattern ${quote(baseName(at))}${at.includes('/') ? ` and path ${quote(at.slice(0, at.lastIndexOf('/')))}` : ''}.`;
  }
}

export function invalidInputText(tool: 'glob' | 'grep', problems: readonly string[]): string {
  return `Invalid ${tool} input: ${problems.join('; ')}.`;
}

// A library message can quote a path or the model's text: escaped like any text from outside.
export function invalidPatternText(message: string, root: string): string {
  return `Invalid pattern: ${escapeText(message)}. Patterns are relative to the search root ${escapeText(root)}.`;
}

export function invalidQueryText(message: string): string {
  return `Invalid query: ${escapeText(message)}.`;
}

export function searchFailedText(message: string): string {
  return `The search could not run: ${escapeText(message)}.`;
}

// ---- Small helpers ----

function quote(s: string): string {
  return JSON.stringify(s);
}

function queryText(query: string, regex: boolean): string {
  return regex ? `regex ${quote(query)}` : quote(query);
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function baseName(rel: string): string {
  return rel.slice(rel.lastIndexOf('/') + 1);
}
