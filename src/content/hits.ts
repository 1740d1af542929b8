/**
 * Hits and their budgets, the same for both paths: the `maxLineChars` cut (a display cut: the hit
 * is kept, flagged), `maxResults` (stop on seeing one more: the limit cut something off) and
 * `maxOutputBytes` (the hit that would pass it is dropped and the search stops: a display cut and
 * a coverage gap at once). Which hits a limit keeps is the order the engine finds them in.
 *
 * Context lines (`contextBefore`, `contextAfter`) are decided here too, so both engines hand out
 * the same ones: an engine offers a file's lines in order (each hit with `add`, the lines around
 * with `context`), and the collector keeps the last `before` lines not yet shown and gives the
 * next `after` lines to the hit before. A hit with after-context is handed on once its context is
 * complete: at the next hit, after `after` lines, or when its file (or the search) ends (`endFile`).
 */
import type { ContentHit, ContextLine } from './types.js';
import { cutText } from '../text-escape.js';

export const DEFAULT_MAX_LINE_CHARS = 500;
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

export interface HitLimits {
  maxResults: number;
  maxLineChars: number;
  maxOutputBytes: number;
  /** Hits kept per file (`maxHitsPerFile`); Infinity for no cap. */
  perFile: number;
  /** Context lines before and after each hit; 0 for none. */
  before: number;
  after: number;
}

export type HitStop = 'result-limit' | 'output-limit';

/** Takes candidate hits, applies the limits, and hands on the ones kept. */
export class HitCollector {
  hitCount = 0;
  outputBytes = 0;
  truncated = false;
  stopReason: HitStop | undefined;
  /** Files whose hits reached `perFile`: read no further, they may hold more matching lines. */
  filesAtCap = 0;
  /** True when the engines must offer the lines around hits (`context`). */
  readonly wantsContext: boolean;

  /** The file the lines offered belong to, and its path's size in UTF-8 (counted once per file). */
  private file: string | undefined;
  private fileBytes = 0;
  private fileHits = 0;
  /**
   * Perf: hits' sizes are counted only under a cap that can be reached. The command passes
   * `Number.MAX_SAFE_INTEGER` (no cap), and two `Buffer.byteLength` calls per hit were 8-10 ms of a
   * 22,476-hit search of /usr/include when the process is young (3-5 once warm).
   */
  private readonly counting: boolean;
  /** The latest lines offered since the last one shown (a hit or context), the last `before` of them kept (trimmed in steps). */
  private recent: ContextLine[] = [];
  /** The hit waiting for its after-context, and how many lines it still takes. */
  private pending: ContentHit | undefined;
  private afterLeft = 0;

  constructor(
    private readonly limits: HitLimits,
    private readonly emit: (hit: ContentHit) => void,
  ) {
    this.wantsContext = limits.before > 0 || limits.after > 0;
    this.counting = limits.maxOutputBytes < Number.MAX_SAFE_INTEGER;
  }

  /**
   * Offers a hit (`text`: the whole line, without its line ending; `endLine`: the last line of a
   * match that spans lines). False once the search must stop.
   */
  add(path: string, line: number, column: number, text: string, endLine = line): boolean {
    if (this.stopReason !== undefined) return false;
    if (path !== this.file) this.startFile(path);
    // Past the file's cap a matching line is only a line: shown as after-context if one is still
    // owed (as grep -m; ripgrep 13 sends such lines as matches), never a hit, never the limit's.
    // (An engine offers a match spanning lines as its lines: `atCap`.)
    if (this.fileHits >= this.limits.perFile) return this.context(path, line, text);
    if (this.hitCount >= this.limits.maxResults) return this.stop('result-limit');
    this.flushPending();
    const cut = cutText(text, this.limits.maxLineChars);
    const before = this.limits.before > 0 ? this.takeBefore(line) : undefined;
    if (this.counting) {
      let bytes = this.fileBytes + Buffer.byteLength(cut, 'utf8');
      for (const context of before ?? []) bytes += Buffer.byteLength(context.text, 'utf8');
      if (this.outputBytes + bytes > this.limits.maxOutputBytes) return this.stop('output-limit');
      this.outputBytes += bytes;
    }
    this.hitCount++;
    if (++this.fileHits === this.limits.perFile) this.filesAtCap++;
    const hit: ContentHit = { path, line, column, text: cut };
    if (cut.length < text.length) {
      this.truncated = true;
      hit.textTruncated = true;
    }
    if (endLine > line) hit.endLine = endLine;
    if (before !== undefined) {
      hit.before = before;
      if (before.some((context) => context.textTruncated)) this.truncated = true;
    }
    if (this.limits.after === 0) {
      this.emit(hit);
      return true;
    }
    hit.after = [];
    this.pending = hit;
    this.afterLeft = this.limits.after;
    return true;
  }

  /** Offers a line that is not a hit, in line order after the file's hits before it. False once the search must stop. */
  context(path: string, line: number, text: string): boolean {
    if (this.stopReason !== undefined) return false;
    if (path !== this.file) this.startFile(path);
    if (this.pending !== undefined) {
      const context = contextLine(line, text, this.limits.maxLineChars);
      if (this.counting) {
        const bytes = Buffer.byteLength(context.text, 'utf8');
        if (this.outputBytes + bytes > this.limits.maxOutputBytes) return this.stop('output-limit');
        this.outputBytes += bytes;
      }
      if (context.textTruncated) this.truncated = true;
      this.pending.after!.push(context);
      if (--this.afterLeft === 0) this.flushPending();
      return true;
    }
    if (this.limits.before > 0) {
      // Cut now: a long line is held only as far as it can be shown.
      this.recent.push(contextLine(line, text, this.limits.maxLineChars));
      if (this.recent.length > 2 * this.limits.before + 16) this.recent = this.recent.slice(-this.limits.before);
    }
    return true;
  }

  /**
   * A hit an earlier run already handed on (a retried ripgrep run): the lines offered before it
   * were shown with it, so they are not the next hit's before-context.
   */
  passOver(path: string): void {
    if (path !== this.file) this.startFile(path);
    this.flushPending();
    this.recent = [];
    this.fileHits++; // counted toward the file's cap (already counted in filesAtCap if it reached it)
  }

  /** True when the next line offered as context is shown: a hit still takes after-context. */
  get owesAfter(): boolean {
    return this.pending !== undefined;
  }

  /** How many lines before a hit are shown with it. */
  get beforeLines(): number {
    return this.limits.before;
  }

  /** True when `path`'s hits reached the cap: a match there is offered as context lines, each of its lines (`context`). */
  atCap(path: string): boolean {
    return path === this.file && this.fileHits >= this.limits.perFile;
  }

  /** True when `path` can give nothing more: its hits reached the cap and their after-context is complete. Engines stop reading it. */
  isFull(path: string): boolean {
    return this.atCap(path) && this.pending === undefined;
  }

  /** The summary's `filesAtHitCap`, present only when a cap was asked for. */
  capField(): { filesAtHitCap?: number } {
    return Number.isFinite(this.limits.perFile) ? { filesAtHitCap: this.filesAtCap } : {};
  }

  /** The file's lines end here (or the search does): the waiting hit is handed on. */
  endFile(): void {
    this.flushPending();
    this.file = undefined;
    this.recent = [];
  }

  private startFile(path: string): void {
    this.endFile();
    this.file = path;
    this.fileHits = 0;
    this.fileBytes = this.counting ? Buffer.byteLength(path, 'utf8') : 0;
  }

  private stop(reason: HitStop): false {
    this.stopReason = reason;
    if (reason === 'output-limit') this.truncated = true;
    this.flushPending();
    return false;
  }

  private flushPending(): void {
    const hit = this.pending;
    if (hit === undefined) return;
    this.pending = undefined;
    this.afterLeft = 0;
    this.emit(hit);
  }

  /** The kept lines just before `line`, and no older than `before` lines. */
  private takeBefore(line: number): ContextLine[] {
    const from = line - this.limits.before;
    const before = this.recent.filter((context) => context.line >= from && context.line < line);
    this.recent = [];
    return before;
  }
}

function contextLine(line: number, text: string, maxLineChars: number): ContextLine {
  const cut = cutText(text, maxLineChars);
  return cut.length < text.length ? { line, text: cut, textTruncated: true } : { line, text };
}

/** A line's text for a hit: up to the first `\n` (a multi-line match shows its first line), without a `\r` before it. */
export function firstLine(text: string): string {
  const nl = text.indexOf('\n');
  return dropCr(nl < 0 ? text : text.slice(0, nl));
}

/** A line's text without the `\r` of a CRLF ending. */
export function dropCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The UTF-16 index in `text` of the UTF-8 byte offset `byteOffset` (ripgrep reports byte offsets),
 * or undefined when the offset is past the end or inside a character.
 */
export function utf16IndexOfByteOffset(text: string, byteOffset: number): number | undefined {
  let bytes = 0;
  let i = 0;
  while (bytes < byteOffset && i < text.length) {
    const code = text.codePointAt(i)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    i += code < 0x10000 ? 1 : 2;
  }
  return bytes === byteOffset ? i : undefined;
}

/** The same for raw bytes (ripgrep's `bytes` form: not valid UTF-8), decoded as the whole line is. */
export function utf16IndexOfByteOffsetIn(bytes: Uint8Array, byteOffset: number): number | undefined {
  if (byteOffset > bytes.length) return undefined;
  return decoder.decode(bytes.subarray(0, byteOffset)).length;
}

/** Decodes bytes as UTF-8, invalid sequences as U+FFFD, a BOM kept (it is part of the line). */
export function decodeUtf8(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** What a reader of hits with context has shown so far: the file, and its last line shown. */
export interface ShownSoFar {
  path: string;
  lastLine: number;
}

/** What a hit shows up to: its file, and the last of its context lines, its match's lines or its own line. */
export function shownUpTo(hit: ContentHit): ShownSoFar {
  return { path: hit.path, lastLine: hit.after?.at(-1)?.line ?? hit.endLine ?? hit.line };
}

/** True when a hit's lines do not run on from what was shown before it (another file, or lines left out): rg prints `--` there. */
export function breaksGroup(previous: ShownSoFar | undefined, hit: ContentHit): boolean {
  if (previous === undefined) return false;
  return previous.path !== hit.path || (hit.before?.[0]?.line ?? hit.line) > previous.lastLine + 1;
}
