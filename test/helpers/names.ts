/**
 * Real-disk trees whose names are not valid UTF-8 (Linux: names are bytes). Node decodes such a
 * name with U+FFFD and cannot open it by that string: the walker and ripgrep must both report it
 * as EILSEQ, never as vanished (test/walk/disk.test.ts, test/rg/parity.test.ts).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A temp dir holding `bad\xff/in.txt` (a directory that cannot be opened by name), `f\xfe.txt` (a
 * file that cannot be), `ok.txt`, and `real-\uFFFD.txt` (a valid name that holds U+FFFD itself).
 */
export function buildUndecodableTree(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const raw = (name: number[]) => Buffer.concat([Buffer.from(`${dir}/`), Buffer.from(name)]);
  mkdirSync(raw([0x62, 0x61, 0x64, 0xff])); // "bad\xff"
  writeFileSync(Buffer.concat([raw([0x62, 0x61, 0x64, 0xff]), Buffer.from('/in.txt')]), '');
  writeFileSync(raw([0x66, 0xfe, 0x2e, 0x74, 0x78, 0x74]), ''); // "f\xfe.txt"
  writeFileSync(join(dir, 'ok.txt'), '');
  writeFileSync(join(dir, 'real-\uFFFD.txt'), '');
  return dir;
}
