/**
 * The words of the guidance after an empty answer (guidance.ts gathers the facts): the overview
 * of the search root, the similar file names, and grep's "Tried:" list of the searches after it.
 */
import type { EntryType, SpecialType } from '../plan/select.js';
import { escapeText } from '../text-escape.js';
import { totalText, type Total } from './text.js';
import { isCoverageGap, reasonLabels, type DroppedCause } from './text-reasons.js';
import type { Platform } from '../patterns.js';
import { count, findItWith, listItem, queryText, quote } from './text-words.js';

/** What a directory holds (the search root, or the nearest existing one), shown when an answer is empty. */
export interface Overview {
  /** Native path of the directory listed. */
  root: string;
  /** Names, sorted, directories ending in `/`, special files followed by their kind (`app.sock (socket)`); all of them (the wording shows the first few). */
  names?: string[];
  /** The kind of each of `names` (readdir's), which tells a name from its mark: a pipe `notes` from a file named `notes (pipe)`. */
  kinds?: (EntryType | undefined)[];
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
  const shown = names.slice(0, OVERVIEW_NAMES).map((name, i) => entryText(name, overview.kinds?.[i])).join(', ');
  return names.length > OVERVIEW_NAMES
    ? `${lead} ${root} holds ${names.length} entries; the first ${OVERVIEW_NAMES}: ${shown}`
    : `${lead} ${root} holds ${count(names.length, 'entry', 'entries')}: ${shown}`;
}

/**
 * A listed entry, its name an item of the list (`listItem`) and its mark after it. Without kinds
 * (an overview built by a caller), a trailing `/` or special mark is read as the mark.
 */
function entryText(marked: string, kind: EntryType | undefined): string {
  const mark = kind !== undefined ? markOf(kind) : (MARKS.find((m) => marked.endsWith(m)) ?? '');
  return listItem(marked.slice(0, marked.length - mark.length)) + mark;
}

/** What follows an entry's name in a listing: `/` after a directory, the kind after a special file. */
export function markOf(kind: EntryType | undefined): string {
  return kind === 'directory' ? '/' : specialMark(kind);
}

const SPECIAL_MARKS: Partial<Record<EntryType, string>> = { pipe: ' (pipe)', socket: ' (socket)', 'block-device': ' (block device)', 'char-device': ' (character device)' };
/** Every mark a listing puts after a name: a directory's `/`, a special file's kind. */
const MARKS = ['/', ...Object.values(SPECIAL_MARKS)];

/** ` (socket)` after a special file's name, nothing after any other: a special file is never shown as a file. */
export function specialMark(kind: EntryType | undefined): string {
  return (kind && SPECIAL_MARKS[kind]) ?? '';
}

/** File names the search saw that are closest to the pattern's literal part: a likely typo or a different extension. */
export interface SimilarNames {
  /** The literal part of the pattern the names were compared with. */
  literal: string;
  /** Workspace-relative paths, best first. */
  paths: string[];
  /** The special files among `paths`, with their kind (`type: "any"` lists them; the default does not). */
  special?: Record<string, SpecialType>;
  /** How many file names the search saw (the pool). */
  seen: number;
  /** True when the pool stopped growing at its cap. */
  poolCapped: boolean;
}

export function similarNamesLine(similar: SimilarNames): string {
  const pool = similar.poolCapped ? ` (compared with the first ${similar.seen} file names seen)` : '';
  // Never a line starting with "No": it follows incomplete answers too.
  if (similar.paths.length === 0) return `Similar file names seen in the search: none resembles ${quote(similar.literal)}${pool}.`;
  const { special } = similar;
  const shown = similar.paths.map((p) => listItem(p) + specialMark(special !== undefined && Object.hasOwn(special, p) ? special[p] : undefined));
  return `Similar file names seen in the search: ${shown.join(', ')}${pool}`;
}

/** The pattern's first literal folder that does not exist (guidance.ts `buildMissingFolder`). */
export interface MissingFolder {
  /** Root-relative, ending in `/`: `sorc/`, `src/lbi/`. */
  missing: string;
  /** Native path of the deepest folder of the pattern that exists (the search root, or below it). */
  existing: string;
  /** True when that folder is the search root (the overview already lists it). */
  atRoot: boolean;
  /** Its names, sorted, as the overview's. */
  names: string[];
  /** The kind of each of `names`, as the overview's. */
  kinds?: (EntryType | undefined)[];
  /** Its folder names closest to the missing one, best first, ending in `/`. */
  similar: string[];
  /** The pattern with a similar folder in place of the missing one, where that path exists (`src/a.ts`), workspace-relative. */
  existingPaths: string[];
  /** The kind of each of `existingPaths` (lstat: a link is a link); undefined where the fs does not say. */
  existingKinds?: (EntryType | undefined)[];
  /** For each of `existingPaths`, what leaves it out of this search (excludes, ignore files) and the call that lists it; undefined when nothing does. */
  existingDropped?: (Dropped | undefined)[];
}

/** What leaves an existing path out of the search, and the call that lists it (none when no call with the host's settings can). */
export interface Dropped {
  /** What leaves it out: the host's excludes, ignore files, or both. */
  causes: DroppedCause[];
  /** `search with pattern "./index.js" and path "node_modules/pkg"`, or `add respect_git_ignore: false`. */
  findWith?: string;
}

/**
 * An existing path as the guidance shows it (docs/agent.md): a directory ends in `/`, a special
 * file names its kind, a link is a link; a path the search leaves out says what leaves it out and
 * what lists it, since the model would use it verbatim and be told "No files matching".
 */
export function existingPathText(path: string, kind: EntryType | undefined, dropped?: Dropped): string {
  const shown = listItem(path) + (kind === 'symlink' ? ' (symlink, not followed)' : markOf(kind));
  if (dropped === undefined) return shown;
  return `${shown} (${dropped.causes.includes('excluded') ? 'excluded by the host' : 'ignored by ignore files'}: ${findText(dropped)})`;
}

/**
 * The call that lists a dropped path: `search with pattern "./index.js" and path "node_modules/pkg"`
 * (its own folder: the excludes do not apply to a search root), with `respect_git_ignore: false`
 * when ignore files drop it too; `shown` undefined: that option alone.
 */
export function listWith(shown: string | undefined, platform: Platform, unignore: boolean): string {
  if (shown === undefined) return 'add respect_git_ignore: false';
  return `search with ${findItWith(shown, platform)}${unignore ? ' and respect_git_ignore: false' : ''}`;
}

function findText(dropped: Dropped): string {
  return dropped.findWith === undefined ? "no search with the host's settings lists it" : `to list it, ${dropped.findWith}`;
}

/** After an empty answer to a plain path that exists: why it was not listed, and what lists it. */
export function existsButLine(path: string, kind: EntryType | undefined, unit: 'file' | 'directory' | 'entry', dropped?: Dropped): string | undefined {
  const shown = existingPathText(path, kind, undefined);
  if (dropped !== undefined) return `The path ${shown} exists, but ${dropped.causes.includes('excluded') ? 'the host excludes it' : 'ignore files ignore it'}: ${findText(dropped)}.`;
  if (kind === 'directory' && unit === 'file') return `The path ${shown} exists: it is a directory, which type "directory" or "any" lists.`;
  if (kind !== undefined && kind !== 'file' && kind !== 'directory' && kind !== 'symlink' && unit !== 'entry') return `The path ${shown} exists: type "any" lists it.`;
  return undefined;
}

/**
 * Why the walk saw nothing to compare: the folder does not exist. Words the model can act on:
 * the folder, what the deepest existing one holds, and the names close to the missing one.
 */
export function missingFolderLines(missing: MissingFolder): string[] {
  const lines = [`The folder ${quote(missing.missing)} does not exist, so the search could not look inside it.`];
  if (!missing.atRoot) lines.push(overviewLine({ root: missing.existing, names: missing.names, ...(missing.kinds === undefined ? {} : { kinds: missing.kinds }) }, 'The deepest folder of the pattern that exists,'));
  const where = escapeText(missing.existing);
  if (missing.similar.length === 0) lines.push(`No folder in ${where} resembles ${quote(missing.missing.replace(/\/$/, '').split('/').pop()!)}.`);
  else lines.push(`Similar folder names in ${where}: ${missing.similar.map((folder) => `${listItem(folder.replace(/\/$/, ''))}/`).join(', ')}`);
  const shown = missing.existingPaths.map((p, i) => existingPathText(p, missing.existingKinds?.[i], missing.existingDropped?.[i]));
  if (shown.length > 0) lines.push(`With a similar folder in its place, these exist: ${shown.join(', ')}`);
  return lines;
}

/** One attempt in a grep's "Tried:" list. */
export interface Attempt {
  /** What was tried, in words: `"Foo", exact case`. */
  what: string;
  /** Why it was not run, when it was not. */
  notTried?: string;
  /** How many it found, when it ran. */
  total?: Total;
  /** Whether its search was complete, when it ran. */
  complete?: boolean;
  /** Its search's `incompleteReasons`, when it ran. */
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
  const reasons = a.reasons ?? [];
  // The incompleteness first, as in every summary.
  const found = isCoverageGap(a.complete ?? true, reasons) ? `incomplete search (${reasonLabels(reasons)}): ${n} in the part that could be searched` : n;
  const examples = a.examples ?? [];
  return examples.length === 0 ? found : `${found}, e.g. ${examples.map(listItem).join(', ')}`;
}

export function attemptQuery(query: string, regex: boolean, caseMode: 'exact' | 'ignore' | 'smart-ignore'): string {
  const how = caseMode === 'exact' ? 'exact case' : caseMode === 'ignore' ? 'ignoring case' : 'ignoring case (the query has no capital letter)';
  return `${queryText(query, regex)}, ${how}`;
}

/** The file-name retry: `file names matching "**\/*word*"`, or just `file names` when there is no glob to try. */
export function attemptNames(glob?: string): string {
  return glob === undefined ? 'file names' : `file names matching ${quote(glob)}`;
}

// A library message can quote a path: escaped like any text from outside.
export function couldNotRunText(message: string): string {
  return `it could not run: ${escapeText(message)}`;
}

export const NAMES_NOT_TRIED = {
  regex: 'the query is a regular expression',
  noWord: 'the query holds no run of 3 or more letters, digits, "_", "." or "-"',
} as const;
