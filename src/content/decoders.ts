/**
 * The text of a file's bytes, chunk by chunk, for the scanner (src/content/scanner.ts): a character
 * cut by a chunk's end is completed by the next chunk, and every invalid sequence is one U+FFFD.
 */
import { StringDecoder } from 'node:string_decoder';
import { TextDecoder } from 'node:util';

/** Text out of a file's bytes, chunk by chunk: `write` each chunk, `end` for the rest (and a last piece). */
export interface Decoder {
  write(bytes: Uint8Array): string;
  end(bytes?: Uint8Array): string;
}

/**
 * UTF-8 through Node's `StringDecoder`: it keeps a BOM (the scanner drops the file's own) and gives
 * the same U+FFFD as `TextDecoder` for any invalid or cut sequence (test/content/scanner.test.ts
 * compares it with byte mode, whose hit lines `TextDecoder` decodes). Perf: on Node 20 a streaming
 * `TextDecoder` goes through ICU's converter: 6,000 files of /usr/include (66 MB) decoded in
 * 75-112 ms against 18-28, and a smart-case search of /usr/include spent ~170 ms of ~1,160 in it.
 */
export function utf8Decoder(): Decoder {
  return new StringDecoder('utf8');
}

/** UTF-16 (rare) through `TextDecoder`, which drops the BOM that chose it; `StringDecoder` has no big-endian form. */
export function utf16Decoder(label: 'utf-16le' | 'utf-16be'): Decoder {
  const decoder = new TextDecoder(label);
  return { write: (bytes) => decoder.decode(bytes, { stream: true }), end: (bytes) => decoder.decode(bytes) };
}
