/**
 * Searches one file's bytes, chunk by chunk, as ripgrep does, with no I/O of its own (the caller
 * reads; tests feed bytes directly):
 *
 * - Encoding: a UTF-16 BOM (FF FE, FE FF) means UTF-16, decoded; anything else is UTF-8, a UTF-8
 *   BOM dropped, invalid bytes as U+FFFD (ripgrep's default `--encoding auto` does the same).
 * - Binary: a NUL in the first chunk (64 KiB, ripgrep's buffer size) and the file is not searched
 *   (UTF-16: ripgrep's 8 KiB pieces, `utf16Binary`).
 *   A NUL later: line by line, the search stops before the chunk that holds it, keeping the hits
 *   already found (ripgrep's later buffers are not cut at the same offsets, so which lines near a
 *   late NUL are searched can differ slightly); a multi-line search reads on (multi-line.ts).
 * - Lines end at `\n`. A line's text drops a `\r` before it, so CRLF files give the text and
 *   columns ripgrep gives; matching sees the `\r`, as ripgrep's does.
 * - Memory: one chunk, plus the unfinished line (whole text, for a multi-line query). Past
 *   `MAX_HELD_CHARS` the file is given up (`too-long`): the caller records it as skipped.
 */
import { utf16Decoder, utf8Decoder, type Decoder } from './decoders.js';
import { dropCr, type HitCollector } from './hits.js';
import { byteLines } from './byte-lines.js';
import { countNewlines, searchWholeText } from './multi-line.js';
import type { Matcher } from './query.js';

/** Bytes read at a time, and the binary sniff window: ripgrep's default buffer size. */
export const READ_CHUNK_BYTES = 64 * 1024;

/** ripgrep's UTF-16 decoding: the bytes it decodes at a time, and the BOM's among the first. */
const UTF16_PIECE_BYTES = 8 * 1024;
const UTF16_BOM_BYTES = 2;

/** The longest line (whole text, for a multi-line query) held for one file. */
export const MAX_HELD_CHARS = 16 * 1024 * 1024;

export type ScanState =
  /** Give it more bytes. */
  | 'more'
  /** The hit limits ended the search (see `HitCollector.stopReason`). */
  | 'stop'
  /** A NUL in the first chunk: the file was not searched. */
  | 'binary'
  /** A NUL in a later chunk (multi-line: in a line shown): the search of this file ended there, the hits before it kept. */
  | 'binary-late'
  /** A line (or a multi-line query's whole text) outgrew `MAX_HELD_CHARS`. */
  | 'too-long'
  /** The matcher's gate refused a call (match-gate.ts): the gate says whether the file or the search ends. */
  | 'refused'
  /** The whole file was searched. */
  | 'done';

export class FileScanner {
  private decoder: Decoder | undefined;
  private utf16 = false;
  /** UTF-16: the code units decoded so far (`utf16Binary`). */
  private units = 0;
  /**
   * Byte mode (see byte-lines.ts `ByteLines.search`): an exact-case literal, line by line, in UTF-8, without
   * context. The unfinished line is then held as bytes, in pieces joined when it ends.
   */
  private bytes = false;
  private carryParts: Uint8Array[] = [];
  private carryBytes = 0;
  /** The first bytes, while fewer than a BOM's three have come. */
  private head: Uint8Array | undefined;
  /** Line mode: the unfinished line. Multi-line mode: every piece of text so far. */
  private carry = '';
  private readonly parts: string[] = [];
  private held = 0;
  /** The number of the line `carry` starts on. */
  private line = 1;
  private state: ScanState = 'more';

  constructor(
    private readonly path: string,
    private readonly matcher: Matcher,
    private readonly multiline: boolean,
    private readonly hits: HitCollector,
    /** The query's UTF-8 bytes, when finding none in a file's bytes proves there is no match (see `buildNeedle`). */
    private readonly needle?: Uint8Array,
  ) {}

  /** Takes the next chunk of the file; `last` when the file is known to end with it. */
  push(chunk: Uint8Array, last = false): ScanState {
    if (this.state !== 'more') return this.state;
    const first = this.decoder === undefined;
    if (first) {
      // The BOM decides the encoding: wait for its three bytes (a read may return fewer).
      if (this.head !== undefined) chunk = concat(this.head, chunk);
      if (chunk.length < 3) {
        this.head = chunk.slice(); // copied: the reader may reuse its buffer
        return 'more';
      }
      this.head = undefined;
      this.decoder = this.openDecoder(chunk);
      // Perf: a whole file in one chunk, without the query's bytes and without a NUL, has no hit
      // and is not binary: no need to decode it. (Most files are read this way.)
      if (last && byteLines.firstLook(chunk, true, this.needle) === 'no-hit') return (this.state = 'done');
    }
    return this.take(chunk, first);
  }

  private take(chunk: Uint8Array, first: boolean): ScanState {
    // A UTF-8 file's BOM is dropped at its start, whichever mode searches it (UTF-16's decoder drops its own).
    if (first && !this.utf16) chunk = byteLines.withoutBom(chunk);
    if (this.bytes) {
      if (byteLines.nulAt(chunk) >= 0) return this.binary(first);
      return (this.state = this.takeLineBytes(chunk));
    }
    let text: string;
    // Line by line ripgrep looks for a NUL in every buffer; a multi-line search reads the whole file
    // and looks in its first 64 KiB only (later NULs: multi-line.ts).
    const sniff = first || !this.multiline;
    if (this.utf16) {
      text = this.decoder!.write(chunk);
      // ripgrep drops a U+FEFF right after the BOM too (its decoder drops the BOM, then a UTF-8 one).
      if (this.units === 0 && text.charCodeAt(0) === 0xfeff) {
        text = text.slice(1);
        this.units++;
      }
      const nul = sniff ? text.indexOf('\0') : -1;
      if (nul >= 0) return this.multiline ? this.binary(first) : this.utf16Binary(text, nul, first);
      this.units += text.length;
    } else {
      if (sniff && byteLines.nulAt(chunk) >= 0) return this.binary(first);
      text = this.decoder!.write(chunk);
    }
    return (this.state = this.multiline ? this.hold(text) : this.takeLines(text));
  }

  /** The end of the file: searches what is left. */
  finish(): ScanState {
    if (this.state !== 'more') return this.state;
    if (this.head !== undefined) {
      // A file of one or two bytes.
      this.decoder = this.openDecoder(this.head);
      const state = this.take(this.head, true);
      this.head = undefined;
      if (state !== 'more') return state;
    }
    if (this.bytes) {
      const last = this.joinCarry(EMPTY);
      return (this.state = last.length === 0 || this.searchLineBytes(last) ? 'done' : 'stop');
    }
    const rest = this.decoder?.end() ?? '';
    if (this.multiline) {
      if (this.hold(rest) !== 'more') return this.state;
      const end = searchWholeText(this.parts.join(''), this.matcher, this.hits, this.path);
      return (this.state = end === 'halted' ? this.halted() : end);
    }
    const last = this.carry + rest;
    this.carry = '';
    if (last.length > MAX_HELD_CHARS) return (this.state = 'too-long');
    return (this.state = last === '' || this.searchLines(last) ? 'done' : this.halted());
  }

  private openDecoder(chunk: Uint8Array): Decoder {
    // A BOM is only a BOM at the start of the file: it is dropped there (`take`) and nowhere else.
    if (chunk[0] === 0xff && chunk[1] === 0xfe) {
      this.utf16 = true;
      return utf16Decoder('utf-16le');
    }
    if (chunk[0] === 0xfe && chunk[1] === 0xff) {
      this.utf16 = true;
      return utf16Decoder('utf-16be');
    }
    this.bytes = this.needle !== undefined && !this.multiline && !this.hits.wantsContext;
    return utf8Decoder();
  }

  /** Byte mode: searches the lines this chunk completes, keeps the unfinished one. */
  private takeLineBytes(chunk: Uint8Array): ScanState {
    const nl = chunk.lastIndexOf(NEWLINE);
    if (nl < 0) {
      // Copied: the reader may reuse its buffer.
      this.carryParts.push(chunk.slice());
      this.carryBytes += chunk.length;
      return this.carryBytes > MAX_HELD_CHARS ? this.toTextMode() : 'more';
    }
    // Perf: only the unfinished line and the chunk's first line are joined (copied); the lines after
    // it are searched in place. Joining the whole chunk copied each 64 KiB chunk of a long file
    // once more: 34 ms of a search of /usr/include (docs/performance.md, Round 12).
    const firstNl = this.carryParts.length === 0 ? -1 : chunk.indexOf(NEWLINE);
    const head = this.joinCarry(chunk.subarray(0, firstNl + 1));
    const body = firstNl === nl ? undefined : Buffer.from(chunk.buffer, chunk.byteOffset + firstNl + 1, nl - firstNl);
    if (nl + 1 < chunk.length) {
      this.carryParts.push(chunk.slice(nl + 1));
      this.carryBytes = chunk.length - nl - 1;
    }
    if (head.length > 0 && !this.searchLineBytes(head)) return 'stop';
    return body === undefined || this.searchLineBytes(body) ? 'more' : 'stop';
  }

  /** The unfinished line and `tail`, as one buffer; the carry is emptied. */
  private joinCarry(tail: Uint8Array): Buffer {
    const parts = this.carryParts;
    this.carryParts = [];
    this.carryBytes = 0;
    if (parts.length === 0) return Buffer.from(tail.buffer, tail.byteOffset, tail.length);
    parts.push(tail);
    return Buffer.concat(parts);
  }

  /**
   * A line longer than the cap in bytes may still be within it in characters: the text mode, which
   * counts characters, decides. Nothing was decoded in byte mode, so a decoder starts here; one
   * that keeps a BOM: byte mode already dropped the file's own, and any other is a character.
   */
  private toTextMode(): ScanState {
    this.bytes = false;
    this.decoder = utf8Decoder();
    this.carry = this.decoder.write(this.joinCarry(EMPTY));
    return this.carry.length > MAX_HELD_CHARS ? 'too-long' : 'more';
  }

  /** Byte mode's `searchLines` (src/content/byte-lines.ts). */
  private searchLineBytes(block: Buffer): boolean {
    const { hits, path } = this;
    const found = byteLines.search(block, this.needle!, this.line, (line, column, text) => hits.add(path, line, column, text));
    this.line = found.line;
    return found.more;
  }

  private binary(first: boolean): ScanState {
    return (this.state = first ? 'binary' : 'binary-late');
  }

  /**
   * A U+0000 in UTF-16, line by line. ripgrep decodes UTF-16 8 KiB of the file's bytes at a time
   * (its BOM's 2 included) and looks for a NUL in each piece: in the first, the file is binary; in a
   * later one, the lines that end before that piece were searched. So here: a UTF-16 code unit is 2
   * bytes (a pair's halves, an invalid one's U+FFFD alike), and `units` have come before `text`.
   */
  private utf16Binary(text: string, nul: number, first: boolean): ScanState {
    const piece = Math.floor((UTF16_BOM_BYTES + 2 * (this.units + nul)) / UTF16_PIECE_BYTES);
    if (piece === 0) return this.binary(first);
    const cut = (piece * UTF16_PIECE_BYTES - UTF16_BOM_BYTES) / 2 - this.units;
    const state = cut > 0 ? this.takeLines(text.slice(0, cut)) : 'more';
    return (this.state = state === 'more' ? 'binary-late' : state);
  }

  private hold(text: string): ScanState {
    this.held += text.length;
    if (this.held > MAX_HELD_CHARS) return (this.state = 'too-long');
    if (text !== '') this.parts.push(text);
    return 'more';
  }

  /** Line mode: searches the lines this text completes, keeps the unfinished one. */
  private takeLines(text: string): ScanState {
    const nl = text.lastIndexOf('\n');
    if (nl < 0) {
      // Perf: `+=` builds a rope; the long line is flattened once, when it ends.
      this.carry += text;
      return this.carry.length > MAX_HELD_CHARS ? 'too-long' : 'more';
    }
    const block = this.carry + text.slice(0, nl + 1);
    this.carry = text.slice(nl + 1);
    return this.searchLines(block) ? 'more' : this.halted();
  }

  /** Why a search of lines said "no more": the hit limits, or the matcher's gate. */
  private halted(): ScanState {
    return this.matcher.refused ? 'refused' : 'stop';
  }

  /**
   * Searches whole lines (`block` ends with `\n`, or is the file's last line). Returns false when
   * the hit limits ended the search, or the matcher's gate refused a call. Advances `this.line` past the block.
   */
  private searchLines(block: string): boolean {
    const { matcher, hits, path } = this;
    if (!matcher.blockSafe || hits.wantsContext) {
      // A regex may match across a line break, and context needs the lines around a hit: one line at a time.
      for (let start = 0; start < block.length; this.line++) {
        let end = block.indexOf('\n', start);
        if (end < 0) end = block.length;
        const line = block.slice(start, end);
        const at = matcher.find(line, 0);
        if (at < 0 && matcher.refused) return false;
        const more = at >= 0 ? hits.add(path, this.line, at + 1, dropCr(line)) : !hits.wantsContext || hits.context(path, this.line, dropCr(line));
        if (!more) return false;
        start = end + 1;
      }
      return true;
    }
    // Perf: a literal cannot span lines, so the whole block is searched at once and only the
    // lines that hold a match are cut out; the others are only counted.
    let counted = 0;
    for (let from = 0; from < block.length; ) {
      const at = matcher.find(block, from);
      if (at < 0 && matcher.refused) return false;
      if (at < 0) break;
      const start = at === 0 ? 0 : block.lastIndexOf('\n', at - 1) + 1;
      this.line += countNewlines(block, counted, start);
      counted = start;
      let end = block.indexOf('\n', at);
      if (end < 0) end = block.length;
      if (!hits.add(path, this.line, at - start + 1, dropCr(block.slice(start, end)))) return false;
      from = end + 1;
    }
    this.line += countNewlines(block, counted, block.length);
    return true;
  }
}

/**
 * The bytes a match must contain, or undefined when a byte search cannot decide: only an exact-case
 * literal is the same bytes wherever it occurs, and U+FFFD also stands for invalid bytes.
 */
export function buildNeedle(query: { text: string; mode: string; ignoreCase: boolean }): Uint8Array | undefined {
  if (query.mode !== 'literal' || query.ignoreCase || query.text.includes('\uFFFD')) return undefined;
  return Buffer.from(query.text, 'utf8');
}

const NEWLINE = 10;
const EMPTY = new Uint8Array(0);

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
