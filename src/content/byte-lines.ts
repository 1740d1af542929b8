/**
 * The pure-TS path's byte mode (src/content/scanner.ts): an exact-case literal, line by line, in
 * UTF-8, without context. Perf: the literal's UTF-8 bytes are found in the file's bytes, and only
 * the lines that hold one are decoded; the others are only counted (scanning /usr/include's files
 * from memory: 200 ms decoded, 140 ms in bytes). The same hits as the text search: a valid UTF-8
 * literal (without U+FFFD: `buildNeedle`) occurs in the bytes exactly where it occurs in the
 * decoded text, and a line decoded alone is what it is in the whole text (a line break is ASCII,
 * never inside a character, so an invalid sequence is replaced the same way).
 */

/**
 * The search, as a class with no import: the read worker runs it from its source text too
 * (sync-reader.ts), so a file decided there gets the hits this thread would give it.
 */
export class ByteLines {
  /** Decodes one line as the file's decoder would have: a BOM there is a character (U+FEFF), not a BOM. */
  private readonly lineDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

  /**
   * Searches whole lines (`block` ends with `\n`, or is the file's last line) whose first line is
   * `line`. `add` takes each hit (its text without the line ending) and returns false when the
   * search must stop. Returns the line after the block, and false when `add` stopped it.
   */
  search(block: Buffer, needle: Uint8Array, line: number, add: (line: number, column: number, text: string) => boolean): { line: number; more: boolean } {
    let counted = 0;
    for (let from = 0; from < block.length; ) {
      const at = block.indexOf(needle, from);
      if (at < 0) break;
      const start = at === 0 ? 0 : block.lastIndexOf(10, at - 1) + 1;
      line += this.countNewlines(block, counted, start);
      counted = start;
      let end = block.indexOf(10, at);
      if (end < 0) end = block.length;
      let text = this.lineDecoder.decode(block.subarray(start, end));
      if (text.endsWith('\r')) text = text.slice(0, -1); // CRLF: the text without its \r (hits.ts `dropCr`)
      if (!add(line, this.utf16Length(block, start, at) + 1, text)) return { line, more: false };
      from = end + 1;
    }
    return { line: line + this.countNewlines(block, counted, block.length), more: true };
  }

  /** Perf: a native search per line beat a loop over the bytes (scanning /usr/include: 140 ms against 190). */
  private countNewlines(bytes: Buffer, from: number, to: number): number {
    let n = 0;
    for (let i = bytes.indexOf(10, from); i >= 0 && i < to; i = bytes.indexOf(10, i + 1)) n++;
    return n;
  }

  /** The UTF-16 length of bytes `from`..`to` decoded (invalid sequences are one U+FFFD each, as the decoder makes them). */
  private utf16Length(bytes: Uint8Array, from: number, to: number): number {
    for (let i = from; i < to; i++) if (bytes[i]! >= 0x80) return this.lineDecoder.decode(bytes.subarray(from, to)).length;
    return to - from;
  }
}

const byteLines = new ByteLines();

/** `ByteLines.search` on this thread. */
export function searchLineBytes(block: Buffer, needle: Uint8Array, line: number, add: (line: number, column: number, text: string) => boolean): { line: number; more: boolean } {
  return byteLines.search(block, needle, line, add);
}
