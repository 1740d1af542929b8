/**
 * A directory listing as the index keeps it: names and kinds only, in the order `readdir` gave
 * them, served to the walker as `DirentLike`s, each kind read once by `kindOf` (src/fs.ts). Perf:
 * one small object per entry sharing its methods through the prototype (no closures, no copy of
 * node's `Dirent` and its path fields).
 */
import { kindOf, type DirentLike } from '../fs.js';
import type { EntryType } from '../plan/select.js';

/** A `DirentLike` kept by the index: the name and the kind the listing reported, nothing else. */
export class KeptDirent implements DirentLike {
  constructor(
    readonly name: string,
    /** As `kindOf` read it from the listing (undefined: the fs did not say). */
    private readonly kind: EntryType | undefined,
  ) {}
  isFile(): boolean {
    return this.kind === 'file';
  }
  isDirectory(): boolean {
    return this.kind === 'directory';
  }
  isSymbolicLink(): boolean {
    return this.kind === 'symlink';
  }
  isFIFO(): boolean {
    return this.kind === 'pipe';
  }
  isSocket(): boolean {
    return this.kind === 'socket';
  }
  isBlockDevice(): boolean {
    return this.kind === 'block-device';
  }
  isCharacterDevice(): boolean {
    return this.kind === 'char-device';
  }
}

/** The listing to keep, without the entries `isHidden` names (the index's own cookie files). */
export function keepListing(entries: readonly DirentLike[], isHidden: (name: string) => boolean): KeptDirent[] {
  // Perf: sized once (a pushed array keeps up to half again its length spare, for every directory kept).
  const kept = new Array<KeptDirent>(entries.length);
  let count = 0;
  for (const entry of entries) if (!isHidden(entry.name)) kept[count++] = new KeptDirent(entry.name, kindOf(entry));
  kept.length = count;
  return kept;
}
