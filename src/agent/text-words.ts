/**
 * The small word helpers every text module shares (text.ts, text-reasons.ts, text-guidance.ts):
 * how a string is quoted, how a count reads, how many paths are named before "and N more".
 */

/** How many paths are listed by name before "and N more". */
export const LISTED_PATHS = 5;

export function quote(s: string): string {
  return JSON.stringify(s);
}

export function queryText(query: string, regex: boolean): string {
  return regex ? `regex ${quote(query)}` : quote(query);
}

export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
