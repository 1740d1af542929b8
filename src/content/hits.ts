/**
 * Hits and their budgets, the same for both paths: the `maxLineChars` cut (a display cut: the hit
 * is kept, flagged), `maxResults` (stop on seeing one more: the limit cut something off) and
 * `maxOutputBytes` (the hit that would pass it is dropped and the search stops: a display cut and
 * a coverage gap at once). Which hits a limit keeps is the order the engine finds them in.
 */
import type { ContentHit } from './types.js';

export const DEFAULT_MAX_LINE_CHARS = 500;
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;

export interface HitLimits {
  maxResults: number;
  maxLineChars: number;
  maxOutputBytes: number;
}

export type HitStop = 'result-limit' | 'output-limit';

/** Takes candidate hits, applies the limits, and hands on the ones kept. */
export class HitCollector {
  hitCount = 0;
  outputBytes = 0;
  truncated = false;
  stopReason: HitStop | undefined;

  constructor(
    private readonly limits: HitLimits,
    private readonly emit: (hit: ContentHit) => void,
  ) {}

  /** Offers a hit (`text`: the whole line, without its line ending). False once the search must stop. */
  add(path: string, line: number, column: number, text: string): boolean {
    if (this.stopReason !== undefined) return false;
    if (this.hitCount >= this.limits.maxResults) {
      this.stopReason = 'result-limit';
      return false;
    }
    const cut = cutText(text, this.limits.maxLineChars);
    const bytes = Buffer.byteLength(path, 'utf8') + Buffer.byteLength(cut, 'utf8');
    if (this.outputBytes + bytes > this.limits.maxOutputBytes) {
      this.stopReason = 'output-limit';
      this.truncated = true;
      return false;
    }
    this.outputBytes += bytes;
    this.hitCount++;
    if (cut.length < text.length) {
      this.truncated = true;
      this.emit({ path, line, column, text: cut, textTruncated: true });
    } else {
      this.emit({ path, line, column, text });
    }
    return true;
  }
}

/** The first `max` UTF-16 units, never ending on half of a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = max > 0 && isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** A line's text for a hit: up to the first `\n` (a multi-line match shows its first line), without a `\r` before it. */
export function firstLine(text: string): string {
  const nl = text.indexOf('\n');
  const line = nl < 0 ? text : text.slice(0, nl);
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
