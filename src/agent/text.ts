/**
 * Every sentence the model reads, in one place: this module and its three companions
 * (text-reasons.ts: why a search is incomplete; text-guidance.ts: the help after an empty answer;
 * text-words.ts: quoting and counting). The tools gather facts; these modules word them, and no
 * other module holds a word the model reads. Tests compare these texts word for word, and
 * docs/agent.md is generated from them.
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
 *   never read as "nothing by that name"; so are symlinked directories the pattern leads into
 *   ("on the way"), so an empty answer is never read as "nothing down that path"; an engine that
 *   cannot see links says so.
 * - Text from the disk (every path, name, root and line of a file) goes through `escapeText`
 *   (src/text-escape.ts) where it is worded, exactly once: a file name cannot forge a line of the
 *   answer, nor carry a control or invisible formatting character to the model. The facts stay
 *   raw; so does `metadata`.
 */
import { breaksGroup, type ShownSoFar } from '../content/hits.js';
import type { ContentHit, ContextLine } from '../content/types.js';
import type { Platform } from '../patterns.js';
import { escapeText } from '../text-escape.js';
import type { RefusalKind } from './paths.js';
import { describeReason, isCoverageGap, nextStep, reasonLabels, statedReasons, type Gaps } from './text-reasons.js';
import { count, findItWith, listedPaths, placePath, queryText, quote } from './text-words.js';
import { afterEmptyAnswer, policyLine } from './text-policy.js';

/** How many matches exist, as far as the search knows. */
export interface Total {
  /** Results the search counted (see `kind` for how far to trust it). */
  count: number;
  /** `exact`: the search was complete. `at-least`: it did not finish. `more-than`: it stopped counting at `count`. */
  kind: 'exact' | 'at-least' | 'more-than';
}

/** What was left out on purpose. Never a coverage gap. */
export interface Policy {
  /** The context's `exclude` globs. */
  exclude: readonly string[];
  /** Entries they left out. */
  excludedCount: number;
  /** Symlinks and junctions met and, by policy, neither followed nor returned. */
  symlinkSkipped: number;
  /** grep only: files not searched (or searched up to there) because they hold binary data. */
  binarySkipped?: number;
  /** grep only: false when the engine does not count binary files (ripgrep): `binarySkipped` is then a lower bound. */
  binaryCounted?: boolean;
  /** Symlinks whose path matches (file search only): not followed, never results, but named. */
  links?: LinkMatches;
  /** Present when ignore files applied (`respect_git_ignore`): how many paths they left out, if the engine counted them (ripgrep does not). */
  ignored?: {
    /** Paths left out (0 when not `counted`). */
    count: number;
    /** False for ripgrep, which does not report them. */
    counted: boolean;
  };
}

/** The result's `linkMatches`, `linkMatchedCount` and `linksExamined`, in workspace terms. */
export interface LinkMatches {
  /** Workspace-relative with `/`: the first of them (the result stores at most 1,000). */
  paths: readonly string[];
  /** How many there are, all of them. */
  count: number;
  /** False when the engine could not see links (ripgrep): then `count` is 0 for that reason. */
  examined: boolean;
  /**
   * The result's `linksOnTheWay` and `linkOnTheWayCount`: symlinked directories the pattern would
   * have descended into, never followed. Absence is never claimed while there is one.
   */
  onTheWay?: {
    /** Workspace-relative with `/`, the first of them. */
    paths: readonly string[];
    /** How many there are, all of them. */
    count: number;
  };
}

/** The facts of one answer, as the tools hand them over. */
/** One result of a page: a line, or (a grep hit with context) its lines; each is escaped on its own, so no name can forge a line. */
export type Row = string | readonly string[];

export interface AnswerFacts {
  tool: 'glob' | 'grep';
  /** The headline for a complete search that found nothing. */
  emptyHeadline: string;
  /** What was looked for and where, for the incomplete headline: `files matching "x" under /w`. */
  scope: string;
  /** The page: one row per result, raw (`renderAnswer` escapes each line). */
  lines: readonly Row[];
  total: Total;
  complete: boolean;
  gaps: Gaps;
  policy: Policy;
  limit: number;
  /** The largest page the host allows (`ToolContext.maxLimit`). */
  maxLimit: number;
  /** The model's `limit`, when it was above the maximum. */
  limitRequested?: number;
  /** Extra notes after the labels (e.g. lines cut at a width). */
  notes?: readonly string[];
  /** Lines that help after an empty answer. */
  guidance?: readonly string[];
}

/** What a glob lists (its `type`): the unit of its counts and the noun of its words. */
export type EntryUnit = 'file' | 'directory' | 'entry';

/** A count's unit, in the plural. */
export type Unit = EntryUnit | 'match';
const PLURAL: Record<Unit, string> = { file: 'files', directory: 'directories', entry: 'entries', match: 'matches' };

export function noFilesHeadline(pattern: string, root: string, unit: EntryUnit = 'file'): string {
  return `No ${PLURAL[unit]} matching ${quote(pattern)} under ${escapeText(root)} (search complete).`;
}

/**
 * ` in files matching "*.md"`: which files a grep read, said wherever it claims absence (the
 * headline, the scope, the one-line summary), so "no matches" never reaches beyond them.
 */
export function includeText(include: string | undefined): string {
  return include === undefined ? '' : ` in files matching ${quote(include)}`;
}

export function noMatchesHeadline(query: string, root: string, include: string | undefined, regex: boolean): string {
  return `No matches for ${queryText(query, regex)}${includeText(include)} under ${escapeText(root)} (search complete).`;
}

export function globScope(pattern: string, root: string, unit: EntryUnit = 'file'): string {
  return `${PLURAL[unit]} matching ${quote(pattern)} under ${escapeText(root)}`;
}

export function grepScope(query: string, root: string, include: string | undefined, regex: boolean): string {
  return `${queryText(query, regex)}${includeText(include)} under ${escapeText(root)}`;
}

export const INCOMPLETE_LABEL = '(incomplete)';
export const INCOMPLETE_WARNING = 'Warning: the search did not cover everything, so absence elsewhere cannot be concluded.';
export const INCOMPLETE_EMPTY = 'Search incomplete: no matches in the part that could be searched';
export const NOT_PROOF = 'Absence cannot be concluded: part of the tree was not searched.';
export const GREP_LINKS_UNEXAMINED = 'Symlinks and special files were not examined (ripgrep does not see them): a symlinked directory the search would have entered, or a matching link to a file, FIFO or device (never searched), would not be named here.';
export const LINKS_UNEXAMINED = 'Symlinks were not examined (ripgrep lists regular files only): a symlink whose name matches, or a symlinked directory the pattern leads into, would not be named here.';

/** `2 symlinks match (not followed): a, b`, the first few named; grep's were never opened: `1 matching symlink was not searched ...`. */
export function linksText(links: LinkMatches, tool: AnswerFacts['tool'] = 'glob'): string {
  const said = tool === 'grep' ? `${unsearchedCount(links.count)} (links are never followed)` : `${linkCount(links.count)} (not followed)`;
  return `${said}: ${listedPaths(links.paths, links.count)}`;
}

function unsearchedCount(n: number): string {
  return count(n, 'matching symlink was not searched', 'matching symlinks were not searched');
}

/** `1 symlinked directory on the way was not followed: a. Links are never followed: ...`: the first few named. */
export function onTheWayText(onTheWay: NonNullable<LinkMatches['onTheWay']>): string {
  return `${onTheWayCount(onTheWay.count)} ${onTheWay.count === 1 ? 'was' : 'were'} not followed: ${listedPaths(onTheWay.paths, onTheWay.count)}. ${ON_THE_WAY_NEXT}`;
}

export const ON_THE_WAY_NEXT = 'To look inside, search the target by a path inside the workspace, if it has one.';

function onTheWayCount(n: number): string {
  return count(n, 'symlinked directory on the way', 'symlinked directories on the way');
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

export function isTruncated(returned: number, total: Total): boolean {
  return returned < total.count || total.kind === 'more-than';
}

/** The text the model reads. */
export function renderAnswer(facts: AnswerFacts): string {
  const out: string[] = [];
  const gap = isCoverageGap(facts.complete, facts.gaps.reasons);
  const truncated = isTruncated(facts.lines.length, facts.total);
  const noun = facts.tool === 'glob' ? 'pattern' : 'query';
  const links = facts.policy.links;
  const hasLinks = links !== undefined && links.count > 0;
  const onTheWay = links?.onTheWay !== undefined && links.onTheWay.count > 0 ? onTheWayText(links.onTheWay) : undefined;
  if (facts.lines.length === 0 && !gap) {
    // Complete, but a link on the way was not followed: never the "No ... (search complete)" headline.
    // grep through ripgrep alone cannot see them: absence only outside them, said the same way.
    const outside = onTheWay !== undefined || (facts.tool === 'grep' && links?.examined === false);
    const emptyHeadline = outside ? `Search complete, but symlinks are never followed: no matches (${facts.scope}) outside symlinked directories.` : facts.emptyHeadline;
    // A matching link does not lift the qualifier: a regular file may still lie down a link on the way.
    const [but, outsideLinks] = onTheWay === undefined ? ['', ''] : [', but symlinks are never followed', ' outside symlinked directories'];
    if (!hasLinks) out.push(emptyHeadline);
    else if (facts.tool === 'grep') out.push(`${emptyHeadline.slice(0, -1)}; ${linksText(links, 'grep')}.`);
    else out.push(`Search complete${but}: no regular file matches (${facts.scope})${outsideLinks}; ${linksText(links)}.`);
  } else if (facts.lines.length === 0) {
    const found = facts.tool === 'grep' ? INCOMPLETE_EMPTY : 'Search incomplete: no regular file matches in the part that could be searched';
    out.push(hasLinks ? `${found} (${facts.scope}); ${linksText(links, facts.tool)}.` : `${INCOMPLETE_EMPTY} (${facts.scope}).`, NOT_PROOF);
  } else {
    for (const row of facts.lines) {
      if (typeof row === 'string') out.push(escapeText(row));
      else for (const line of row) out.push(escapeText(line));
    }
    if (truncated) out.push(truncatedLabel(facts.lines.length, facts.total));
    if (gap) out.push(INCOMPLETE_LABEL, INCOMPLETE_WARNING);
    if (hasLinks) out.push(`Also ${linksText(links, facts.tool)}.`);
  }
  if (onTheWay !== undefined) out.push(facts.lines.length > 0 || hasLinks ? `Also ${onTheWay}` : onTheWay);
  if (facts.lines.length === 0 && links?.examined === false) out.push(facts.tool === 'grep' ? GREP_LINKS_UNEXAMINED : LINKS_UNEXAMINED);
  const steps: string[] = [];
  if (gap) {
    const reasons = statedReasons(facts.gaps.reasons);
    out.push('Not searched:', ...reasons.map((r) => `- ${describeReason(r, facts.gaps)}`));
    for (const r of reasons) {
      const step = nextStep(r, noun);
      if (!steps.includes(step)) steps.push(step);
    }
  }
  if (truncated && facts.lines.length > 0) steps.push(restStep(facts, noun));
  if (steps.length > 0) out.push(`Next: ${steps.join('; ')}.`);
  const policy = policyLine(facts.policy);
  if (policy !== undefined) out.push(policy);
  if (facts.lines.length === 0 && !gap) out.push(...afterEmptyAnswer(facts.policy));
  if (facts.limitRequested !== undefined) out.push(`(limit ${facts.limitRequested} is above the maximum: capped at ${facts.limit})`);
  out.push(...(facts.notes ?? []), ...(facts.guidance ?? []));
  return out.join('\n');
}

/**
 * What brings the rest of a cut page. `limit` only when the page is full: a shorter page was cut by
 * the count cap (the search stopped counting), and a larger limit returns the same page.
 */
function restStep(facts: AnswerFacts, noun: string): string {
  const specific = `for the rest, make the ${noun} or path more specific`;
  if (facts.lines.length >= facts.limit) return facts.limit < facts.maxLimit ? `${specific}, or raise limit (at most ${facts.maxLimit})` : specific;
  if (facts.total.kind !== 'more-than') return specific;
  // grep's short page with an open total is count mode's: files_with_matches reads one line per file.
  const grep = facts.tool === 'grep' ? ', or use output_mode "files_with_matches" (it counts files, not lines)' : '';
  return `${specific}${grep}: the search stopped counting, so a larger limit would not list more`;
}

/**
 * The one-line summary for a UI or a log: `3 files matching "*.ts"`, `No matches for "q" (search
 * complete)`, `Incomplete search (permission denied): 0 files matching "x" found in the part
 * searched`. An incomplete one starts with the incompleteness, whatever it found. `links` (file
 * search): the result's matching symlinks, said after the count.
 */
export function summaryLine(
  unit: Unit,
  rest: string,
  returned: number,
  total: Total,
  complete: boolean,
  reasons: readonly string[],
  links?: Pick<LinkMatches, 'count' | 'examined' | 'onTheWay'>,
): string {
  const gap = isCoverageGap(complete, reasons);
  const many = PLURAL[unit];
  // grep's are files its pattern chose, never opened (`unit` match): said so, never "no regular matches".
  const grep = unit === 'match';
  const linkCountText = links !== undefined && links.count > 0 ? (grep ? unsearchedCount(links.count) : `${linkCount(links.count)} (not followed)`) : undefined;
  const onTheWay = links?.onTheWay?.count ?? 0;
  // A complete empty answer with a link on the way claims absence only outside symlinked directories.
  if (!gap && returned === 0 && onTheWay > 0) {
    const also = linkCountText === undefined ? '' : `; ${linkCountText}`;
    return `No ${many} ${rest} outside symlinked directories (search complete)${also}; ${onTheWayCount(onTheWay)} not followed`;
  }
  const counted = isTruncated(returned, total) ? `${returned} of ${totalText(total)} ${many}` : `${returned} ${returned === 1 ? unit : many}`;
  if (gap) {
    return `Incomplete search (${reasonLabels(reasons)}): ${counted} ${rest} found in the part searched${linkCountText === undefined ? '' : `; ${linkCountText}`}`;
  }
  if (returned === 0) {
    if (linkCountText !== undefined) return `No ${grep ? '' : 'regular '}${many} ${rest} (search complete); ${linkCountText}`;
    return `No ${many} ${rest} (search complete${links?.examined === false ? '; symlinks not examined' : ''})`;
  }
  return `${counted} ${rest}${linkCountText === undefined ? '' : `; also ${linkCountText}`}`;
}

/** A grep hit's place, `path:line:column` (the path workspace-relative). */
export function hitPlace(path: string, hit: Pick<ContentHit, 'line' | 'column'>): string {
  return `${placePath(path)}:${hit.line}:${hit.column}`;
}

/** The page left out lines past `max_matches_per_file`: they are counted in the total, not listed. */
export function perFileCapNote(cap: number): string {
  return `(max_matches_per_file ${cap}: only the first ${cap === 1 ? 'matching line of each file is' : `${cap} matching lines of each file are`} listed; the total counts them all)`;
}

/** `output_mode: 'count'`: `path:N`, the number of the file's matching lines; `path:N+` when the search stopped inside the file. */
export function countLine(path: string, count: number, atLeast = false): string {
  return `${placePath(path)}:${count}${atLeast ? '+' : ''}`;
}

/** Why a count reads `N+`, and how to get the exact number. */
export function partialCountNote(path: string, count: number, countCap: number): string {
  // A note is not a row: renderAnswer does not escape it, so the name is escaped here, in both places.
  return `(${escapeText(countLine(path, count, true))}: the search stopped inside this file, so it holds at least ${count} matching lines. For the exact number, search it alone (path ${quote(path)}); one search counts up to ${countCap} matching lines.)`;
}

/** A grep hit as a line of the page, `path:line:column: text`; `…` marks a cut line (cutLinesNote). */
export function hitLine(hit: ContentHit): string {
  // A match past the cut is not in the text shown (an adversarial run: column 902 of a line cut at
  // 500): said, so the line is not read as one that holds no match.
  const past = hit.textTruncated === true && hit.column > hit.text.length ? ` (the match, at column ${hit.column}, lies past the cut)` : '';
  return `${hitPlace(hit.path, hit)}: ${hit.text}${hit.textTruncated ? '…' : ''}${past}`;
}

/**
 * A grep hit with its context lines, as `rg -C` prints them: `path-line- text` before and after
 * the hit's line, and a `--` first when the lines shown before it (`previous`: its file and last
 * line) do not run on into these.
 */
export function hitRows(hit: ContentHit, previous: ShownSoFar | undefined): string[] {
  const rows = breaksGroup(previous, hit) ? ['--'] : [];
  const context = (c: ContextLine) => `${placePath(hit.path)}-${c.line}- ${c.text}${c.textTruncated ? '…' : ''}`;
  rows.push(...(hit.before ?? []).map(context), hitLine(hit), ...(hit.after ?? []).map(context));
  return rows;
}

/** Context lines were asked with an output mode that lists no lines. */
export function contextNotShownNote(mode: string): string {
  return `(context, before and after apply to output_mode "content" only: no context lines are listed with "${mode}")`;
}

/** Context lines asked past the cap. */
export function contextCappedNote(asked: number, cap: number): string {
  return `(context ${asked} is above the maximum: capped at ${cap} lines)`;
}

export function cutLinesNote(maxLineChars: number): string {
  return `(lines ending in "…" were cut at ${maxLineChars} characters)`;
}

// ---- Refusals and errors ----

/** Why a `path` was refused. `root`: the root it was resolved against; `roots`: all of them, the primary first (most hosts: one). */
export function refusalText(kind: RefusalKind, input: string, at: string, root: string, roots: readonly string[] = [root], platform: Platform = 'posix'): string {
  const p = quote(input);
  const workspaceRoot = escapeText(root);
  const [primary, ...others] = roots.map(escapeText);
  const advice =
    others.length === 0
      ? `Only the workspace root ${workspaceRoot} can be searched: give a path relative to it (for example "src"), or omit path to search all of it.`
      : `Only the workspace roots ${[primary, ...others].join(', ')} can be searched: give a path relative to ${primary} (for example "src"), an absolute path inside one of them, or omit path to search ${primary}.`;
  switch (kind) {
    case 'nul':
      return `Refused: path ${p} holds a NUL byte. ${advice}`;
    case 'absolute-outside':
      return `Refused: path ${p} is outside ${others.length === 0 ? `the workspace root ${workspaceRoot}` : 'every workspace root'}. ${advice}`;
    case 'climbs-out':
      return `Refused: path ${p} climbs out of the workspace root ${workspaceRoot} with "..". ${advice}`;
    case 'drive':
      return `Refused: path ${p} names a drive, outside the workspace root ${workspaceRoot}. ${advice}`;
    case 'link':
      return `Refused: path ${p} goes through the symbolic link ${quote(at)}, which may lead outside the workspace root ${workspaceRoot}; links are never followed. Search its target by a path inside the workspace, if it has one.`;
    case 'not-found':
      return `Path ${p} does not exist under the workspace root ${workspaceRoot}.`;
    case 'special-file':
      return `Path ${p} is a special file (a FIFO, socket or device), not a directory or a regular file: it is never opened, so it has no text to search. To list it, search with ${findItWith(at, platform)} and type "any".`;
    case 'not-directory':
      return `Path ${p} is a file, not a directory. To find it, search with ${findItWith(at, platform)}.`;
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
