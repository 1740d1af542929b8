/**
 * The pure-TS path's byte mode (src/content/scanner.ts): an exact-case literal, line by line, in
 * UTF-8, without context. Perf: the literal's UTF-8 bytes are found in the file's bytes, and only
 * the lines that hold one are decoded; the others are only counted (scanning /usr/include's files
 * from memory: 200 ms decoded, 140 ms in bytes). The same hits as the text search: a valid UTF-8
 * literal (without U+FFFD: `buildNeedle`) occurs in the bytes exactly where it occurs in the
 * decoded text, and a line decoded alone is what it is in the whole text (a line break is ASCII,
 * never inside a character, so an invalid sequence is replaced the same way).
 */

/** What a file's first bytes decide (`ByteLines.firstLook`). */
export type FirstLook = 'binary' | 'no-hit' | 'holds-needle';

/**
 * The search, and the first look at a file's bytes, as a class with no import: the read worker
 * runs it from its source text too (sync-reader.ts), so a file decided there is decided as the
 * scanner on this thread decides it, and gets the hits this thread would give it.
 */
export class ByteLines {
  /** Decodes one line as the file's decoder would have: a BOM there is a character (U+FEFF), not a BOM. */
  private readonly lineDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

  /**
   * Searches whole lines (`block` ends with `\n`, or is the file's last line) whose first line is
   * `line`. `add` takes each hit (its text without the line ending) and returns false when the
   * search must stop. Returns the line after the block, and false when `add` stopped it.
   * `last`: the file ends with this block, so the line after it is never asked: its newlines after
   * the last hit are not counted (one native search per line; most of a file's lines).
   */
  search(block: Buffer, needle: Uint8Array, line: number, add: (line: number, column: number, text: string) => boolean, last = false): { line: number; more: boolean } {
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
    return { line: last ? line : line + this.countNewlines(block, counted, block.length), more: true };
  }

  /**
   * What a file's first bytes decide before any line is read (scanner.ts `FileScanner.push`):
   * `binary`, a NUL (never searched); for all of a file (`eof`) with a needle, `no-hit` when its
   * bytes are not there, else `holds-needle`; undefined where the scanner needs more (fewer than a
   * BOM's three bytes) or decodes first (a UTF-16 BOM), or has no needle to look for.
   */
  firstLook(bytes: Uint8Array, eof: boolean, needle: Uint8Array | undefined): FirstLook | undefined {
    if (bytes.length < 3 || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return undefined;
    if (this.nulAt(bytes) >= 0) return 'binary';
    if (!eof || needle === undefined) return undefined;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf(needle) < 0 ? 'no-hit' : 'holds-needle';
  }

  /**
   * The first NUL byte. Perf: through a Buffer view (native `memchr`): a Uint8Array's own `indexOf`
   * took 19 us per 64 KiB chunk against 1 (the chunks of /usr/include's 114 MB: ~35 ms).
   */
  nulAt(bytes: Uint8Array): number {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf(0);
  }

  /** A file's first bytes without a UTF-8 BOM: the decoder drops it there, and so does byte mode. */
  withoutBom(bytes: Uint8Array): Uint8Array {
    return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
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

/** `ByteLines` on this thread. */
export const byteLines = new ByteLines();
