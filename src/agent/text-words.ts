/**
 * The small word helpers every text module shares (text.ts, text-reasons.ts, text-guidance.ts):
 * how a string is quoted, how a count reads, how many paths are named before "and N more".
 */
import { escapeText } from '../text-escape.js';

/** How many paths are listed by name before "and N more". */
export const LISTED_PATHS = 5;

/** `a, b, and 3 more`: the first `LISTED_PATHS` of `paths`, escaped, then how many of `total` are left. */
export function listedPaths(paths: readonly string[], total: number): string {
  const named = paths.slice(0, LISTED_PATHS);
  const more = total > named.length ? `, and ${total - named.length} more` : '';
  return named.map(escapeText).join(', ') + more;
}

export function quote(s: string): string {
  return JSON.stringify(s);
}

export function queryText(query: string, regex: boolean): string {
  return regex ? `regex ${quote(query)}` : quote(query);
}

export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
