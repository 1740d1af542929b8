/**
 * What the content oracles (test/content/*-oracle.test.ts) share: random files of lines written to
 * a scratch directory, and a search's hits read back in order as the lines ripgrep or grep prints.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContentHit } from '../../src/index.js';

/** A file as lines, its line ending, and whether the last line ends with one. */
export interface LineFile {
  lines: string[];
  crlf: boolean;
  finalNewline: boolean;
}

/** Writes `f0.txt`, `f1.txt`... into `dir` (created); their names, in order. */
export function writeLineFiles(dir: string, files: readonly LineFile[]): string[] {
  mkdirSync(dir);
  return files.map((file, i) => {
    const eol = file.crlf ? '\r\n' : '\n';
    writeFileSync(join(dir, `f${i}.txt`), file.lines.join(eol) + (file.finalNewline && file.lines.length > 0 ? eol : ''));
    return `f${i}.txt`;
  });
}

/**
 * Hits read in order, file by file, as a printer shows them: each hit's `before` lines
 * (`c<n>:<text>`), the hit (`m<n>:<text>`, then `m<n>` for each further line of a match that spans
 * lines), its `after` lines.
 */
export function shownLines(hits: readonly ContentHit[]): Map<string, string[]> {
  const files = new Map<string, string[]>();
  for (const hit of hits) {
    const shown = files.get(hit.path) ?? [];
    for (const c of hit.before ?? []) shown.push(`c${c.line}:${c.text}`);
    shown.push(`m${hit.line}:${hit.text}`);
    for (let n = hit.line + 1; n <= (hit.endLine ?? hit.line); n++) shown.push(`m${n}`);
    for (const c of hit.after ?? []) shown.push(`c${c.line}:${c.text}`);
    files.set(hit.path, shown);
  }
  return files;
}
