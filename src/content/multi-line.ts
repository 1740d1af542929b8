/**
 * The search of a whole file's text for a query that can match a line break (`rg --multiline`),
 * for `FileScanner` (scanner.ts), which holds the text.
 *
 * - Every match in the text. Like ripgrep, matches whose lines touch or overlap (the next match
 *   starts on the line where the last one ended, or the line after) make one hit: the first
 *   match's line and column, and that line's text; `endLine` its group's last line.
 * - Binary: ripgrep 13 reads the whole file and looks for a NUL in its first 64 KiB only (the
 *   scanner's first chunk: such a file is not searched); then it searches all of it, and quits the
 *   file at the first line it would show that holds a NUL: a match's lines, or a context line it
 *   prints (grep-searcher's `MultiLine`, `detect_binary` on each sink call). Lines it would not show
 *   may hold NULs: the hits after them are found. The same here: `binary-late`, the hits before kept.
 */
import { dropCr, type HitCollector } from './hits.js';
import type { Matcher } from './query.js';

/** How the search ended: every match seen; stopped by the hit limits or the gate (`halted`); a NUL in a line shown. */
export type WholeTextEnd = 'done' | 'halted' | 'binary-late';

export function searchWholeText(text: string, matcher: Matcher, hits: HitCollector, path: string): WholeTextEnd {
  const search = new WholeText(text, hits, path);
  return search.run(matcher) ? 'done' : search.sawNul ? 'binary-late' : 'halted';
}

/** A multi-line hit being built: where its first line starts, its column, and the offset just past its last line. */
interface Group {
  start: number;
  column: number;
  rangeEnd: number;
}

class WholeText {
  /** The offset of the first line not offered yet, and its number. */
  private offset = 0;
  private line = 1;
  /** The first NUL at or after the last place asked (`holdsNul`), -1 for none: moved forward only. */
  private nextNul: number;
  sawNul = false;

  constructor(
    private readonly text: string,
    private readonly hits: HitCollector,
    private readonly path: string,
  ) {
    this.nextNul = text.indexOf('\0');
  }

  run(matcher: Matcher): boolean {
    const { text } = this;
    let group: Group | undefined;
    for (let from = 0; from <= text.length; ) {
      const at = matcher.find(text, from);
      if (at < 0 && matcher.refused) return group !== undefined && this.addGroup(group) && false; // the hit so far kept
      // An empty match after the last line break is on no line: ripgrep has no line there.
      if (at < 0 || (at === text.length && at > 0 && text.endsWith('\n'))) break;
      const end = matcher.lastEnd;
      const start = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
      const lastChar = end > at ? end - 1 : at;
      const nl = text.indexOf('\n', lastChar);
      const rangeEnd = nl < 0 ? text.length : nl + 1;
      if (group !== undefined && start <= group.rangeEnd) {
        group.rangeEnd = Math.max(group.rangeEnd, rangeEnd);
      } else {
        if (group !== undefined && !this.addGroup(group)) return false;
        group = { start, column: at - start + 1, rangeEnd };
      }
      from = end > at ? end : at + codeUnitsAt(text, at);
    }
    if (group !== undefined && !this.addGroup(group)) return false;
    return !this.hits.wantsContext || this.offerLines(text.length, false);
  }

  /** One multi-line hit, after the lines before it are offered as context. */
  private addGroup(group: Group): boolean {
    const { hits, path, text } = this;
    if (hits.wantsContext && !this.offerLines(group.start, true)) return false;
    // Past `maxHitsPerFile` a match is its lines, each a context line (every line of it, not its first only).
    if (hits.atCap(path)) return this.offerLines(group.rangeEnd, false);
    if (this.holdsNul(group.start, group.rangeEnd)) return this.quit();
    const line = this.moveTo(group.start);
    const lineEnd = text.indexOf('\n', group.start);
    // The group's last line: the one its range ends on (a range ends after that line's `\n`, or at the end).
    const last = group.rangeEnd > group.start && text[group.rangeEnd - 1] === '\n' ? group.rangeEnd - 1 : group.rangeEnd;
    const endLine = line + countNewlines(text, group.start, last);
    const more = hits.add(path, line, group.column, dropCr(text.slice(group.start, lineEnd < 0 ? text.length : lineEnd)), endLine);
    this.offset = group.rangeEnd;
    this.line = endLine + 1;
    return more;
  }

  /**
   * Context: each line from the cursor up to offset `to` (a line start, or the end). A line shown
   * (a hit still owes after-context, or it is one of the `before` lines of the hit at `to`) that
   * holds a NUL ends the file, as in ripgrep.
   */
  private offerLines(to: number, beforeHit: boolean): boolean {
    const { hits, path, text } = this;
    const shownFrom = beforeHit && this.nextNul >= 0 ? startOfLastLines(text, to, hits.beforeLines) : to;
    while (this.offset < to) {
      const nl = text.indexOf('\n', this.offset);
      const end = nl < 0 ? text.length : nl;
      if ((this.offset >= shownFrom || hits.owesAfter) && this.holdsNul(this.offset, end)) return this.quit();
      if (!hits.context(path, this.line, dropCr(text.slice(this.offset, end)))) return false;
      this.offset = end + 1;
      this.line++;
    }
    return true;
  }

  /** True when a NUL lies in [from, to). Perf: `from` only moves forward, so each NUL is found once. */
  private holdsNul(from: number, to: number): boolean {
    if (this.nextNul >= 0 && this.nextNul < from) this.nextNul = this.text.indexOf('\0', from);
    return this.nextNul >= 0 && this.nextNul < to;
  }

  private quit(): false {
    this.sawNul = true;
    return false;
  }

  /** Moves the cursor to `offset` (forward), counting the line breaks passed; returns the line number there. */
  private moveTo(offset: number): number {
    this.line += countNewlines(this.text, this.offset, offset);
    this.offset = offset;
    return this.line;
  }
}

/** Where the last `count` lines before offset `to` (a line start) begin. */
function startOfLastLines(text: string, to: number, count: number): number {
  let start = to;
  for (let i = 0; i < count && start > 0; i++) start = start >= 2 ? text.lastIndexOf('\n', start - 2) + 1 : 0;
  return start;
}

export function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** 2 for a surrogate pair, else 1: an empty match moves on by a whole character. */
function codeUnitsAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1;
}
