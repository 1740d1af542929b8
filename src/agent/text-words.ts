/**
 * The small word helpers every text module shares (text.ts, text-reasons.ts, text-guidance.ts):
 * how a string is quoted, how a count reads, how many paths are named before "and N more".
 */
import { exactGlob, type Platform } from '../patterns.js';
import { escapeText } from '../text-escape.js';

/** How many paths are listed by name before "and N more". */
export const LISTED_PATHS = 5;

/** `a, b (EIO), and 3 more`: the first `LISTED_PATHS` of `paths`, each an item (`listItem`) with its mark, then how many of `total` are left. */
export function listedPaths(paths: readonly string[], total: number, marks: readonly string[] = []): string {
  const named = paths.slice(0, LISTED_PATHS);
  const more = total > named.length ? `, and ${total - named.length} more` : '';
  return named.map((path, i) => listItem(path) + (marks[i] ?? '')).join(', ') + more;
}

/**
 * A name or path as one item of a `, `-joined list (the overview, similar names, listed paths,
 * examples): bare when it cannot be misread, else in double quotes, escaped (`escapeText`) with
 * each `"` written `\u{22}`, so the item ends at the next `"` and `unescapeText` reads it back. A
 * name never reads as something it is not: `"config.ts, secrets.ts"` is one file, `"notes (pipe)"`
 * a regular file (a pipe named `notes` reads `notes (pipe)`), `" lead.ts"` keeps its space.
 */
export function listItem(name: string): string {
  const shown = escapeText(name);
  return isBareItem(name) && shown === name ? name : `"${shown.replaceAll('"', '\\u{22}')}"`;
}

/**
 * A name shown bare in a `, `-joined list: no `,` anywhere (two items in one, or a `,` the mark
 * after it would join), no `(` or `)` (the list's own marks: `notes (pipe)`), no quote, and no
 * invisible or blank character at an end (lost between items) nor a joiner or blank inside that
 * could stand where a space reads (ZWJ, ZWNJ, U+2800 BRAILLE BLANK, the Hangul fillers: `a.ts,` +
 * U+2800 + `b.ts` reads as two files), nor the list's own count. Everything else is quoted.
 */
function isBareItem(name: string): boolean {
  if (name === '' || name.startsWith(' ') || name.endsWith(' ') || LIST_SYNTAX.test(name)) return false;
  // An ordinary space inside a name reads as itself; any other blank or invisible character does not.
  return !BLANKISH.test(name.replaceAll(' ', ''));
}

const LIST_SYNTAX = /[,"()]|^and \d+ more$/;
const BLANKISH = /[\s\p{Z}\p{Cf}\u2800\u3164\u115F\u1160\uFFA0]/u;

/**
 * A text the model gave (a query, a pattern, a path) or a name, as the answer's words show it:
 * JSON-quoted, and what JSON leaves raw and could forge a line or hide text escaped too (U+2028, a
 * bidi override, C1 controls, DEL: an adversarial run's query `zzz\u2028(search complete)` put a
 * line of its own into the headline). Headlines, notes and guidance are not escaped again; rows are.
 */
export function quote(s: string): string {
  return escapeText(JSON.stringify(s));
}

export function queryText(query: string, regex: boolean): string {
  return regex ? `regex ${quote(query)}` : quote(query);
}

export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * `pattern "./b\\{1,2}.txt" and path "real"`: the call that lists exactly the file at `shown` (a
 * path as answers show it). The name is escaped and anchored as grep's file path is (`./` and
 * `exactGlob`): bare, a `{1,2}` would expand to other names, a `[`, `*` or `?` would match them, a
 * leading `!` would negate, and a name without `/` would match at any depth. On win32 a brace
 * expression cannot be escaped, so each brace becomes a `?`, which still matches it.
 */
export function findItWith(shown: string, platform: Platform): string {
  const cut = lastSeparator(shown, platform);
  const name = shown.slice(cut + 1);
  return `pattern ${quote(`./${nameGlob(name, platform)}`)}${cut < 0 ? '' : ` and path ${quote(dirOf(shown, cut))}`}`;
}

/** A glob for exactly `text` (`exactGlob`), or on win32, where a brace cannot be escaped, with each brace a `?`, which still matches it. */
export function nameGlob(text: string, platform: Platform): string {
  return exactGlob(text, platform, true) ?? exactGlob(text, platform, false)!.replace(/[{}]/g, '?');
}

/** Where the last segment of a path as answers show it starts: after its last `/`, or `\\` too on win32. */
function lastSeparator(shown: string, platform: Platform): number {
  return platform === 'win32' ? Math.max(shown.lastIndexOf('/'), shown.lastIndexOf('\\')) : shown.lastIndexOf('/');
}

/** The directory part of a path as answers show it, up to its last separator (at `cut`). */
function dirOf(shown: string, cut: number): string {
  // A filesystem root keeps its separator: "" would be the primary root, and "C:" the current directory of drive C.
  return shown.slice(0, /^([A-Za-z]:)?$/.test(shown.slice(0, cut)) ? cut + 1 : cut);
}

/**
 * A path as the first field of a hit (`path:line:column: text`), a count (`path:N`) or a context
 * row (`path-line- text`): JSON-quoted when it holds what reads as that field's end, a `:` before
 * a digit or a `-digits-`. A file named `config.ts:12:5: const key = 1` read as line 12 of the real
 * `config.ts` (an adversarial run); quoted, it reads as itself. Other names stay bare, as rg prints them.
 */
export function placePath(path: string): string {
  return /:\d|-\d+-/.test(path) ? JSON.stringify(path) : path;
}
