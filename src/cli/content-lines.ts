/**
 * The stdout lines of a content search, one formatter per output: each hit (with its context, as
 * rg prints it), each file once (`-l`), or each file with its count (`-c`). A formatter is given
 * the hits in the order found; a file's hits always come together, in every engine.
 */
import { breaksGroup, shownUpTo, type ShownSoFar } from '../content/hits.js';
import type { ContentHit, ContentOptions, ContentSummary, ContextLine } from '../content/types.js';

/**
 * Hits as `path:line:column: text`; with context (-A/-B/-C), context lines as `path-line- text`,
 * each line once (the library hands out each line once), and `--` between groups of lines that
 * do not follow each other or belong to different files, as rg prints them.
 * `path(rel)` is the path as displayed; with -0 (`print0`) a NUL follows it instead of `:` or `-`, as `rg -0`.
 */
export function buildHitLines(path: (rel: string) => string, text: (raw: string) => string, options: HitLineOptions): (hit: ContentHit) => string {
  const [hitSep, contextSep] = options.print0 ? ['\0', '\0'] : [':', '-'];
  const { lineNumber = String, hitText = text } = options;
  const hitLine = (hit: ContentHit) => `${path(hit.path)}${hitSep}${lineNumber(hit.line)}:${hit.column}: ${hitText(hit.text)}\n`;
  if (!options.context) return hitLine;
  const contextLine = (rel: string, c: ContextLine) => `${path(rel)}${contextSep}${lineNumber(c.line)}- ${text(c.text)}\n`;
  let shown: ShownSoFar | undefined;
  return (hit) => {
    let out = breaksGroup(shown, hit) ? '--\n' : '';
    for (const c of hit.before ?? []) out += contextLine(hit.path, c);
    out += hitLine(hit);
    for (const c of hit.after ?? []) out += contextLine(hit.path, c);
    shown = shownUpTo(hit);
    return out;
  };
}

export interface HitLineOptions {
  context: boolean;
  print0: boolean;
  /** A line number as shown (with colour: green, as rg). @default String */
  lineNumber?: (n: number) => string;
  /** A hit's own line as shown (with colour: its matches highlighted). @default text */
  hitText?: (raw: string) => string;
}

/** True when the search asks for context lines. */
export function withContext(options: Pick<ContentOptions, 'contextBefore' | 'contextAfter'>): boolean {
  return (options.contextBefore ?? 0) > 0 || (options.contextAfter ?? 0) > 0;
}

/** `-l`: a file's line for its first hit, nothing for the others (a file's hits come together, in every engine). */
export function onceEach(line: (hit: ContentHit) => string): (hit: ContentHit) => string {
  let last: string | undefined;
  return (hit) => {
    if (hit.path === last) return '';
    last = hit.path;
    return line(hit);
  };
}

/**
 * `-c`: a file's line once its hits are over (the next file's first hit, or the end): `path:N`.
 * Only the last file can have been cut short by a stop (`partialFile`): its line reads `path:N+`.
 */
export function countEach(line: (path: string, n: string) => string): { take(hit: ContentHit): string; last(summary: Pick<ContentSummary, 'partialFile'>): string } {
  let path: string | undefined;
  let n = 0;
  const flush = (atLeast: boolean) => (path === undefined ? '' : line(path, atLeast ? `${n}+` : String(n)));
  return {
    take(hit) {
      if (hit.path === path) {
        n++;
        return '';
      }
      const done = flush(false);
      path = hit.path;
      n = 1;
      return done;
    },
    last: (summary) => flush(summary.partialFile !== undefined && summary.partialFile === path),
  };
}

