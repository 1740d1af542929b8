/**
 * A directory listing as the index keeps it: names and kinds only, in the order `readdir` gave
 * them, served to the walker as `DirentLike`s. Perf: one small object per entry sharing its
 * methods through the prototype (no closures, no copy of node's `Dirent` and its path fields).
 */
import type { DirentLike } from '../fs.js';

/** The kind `readdir` reported, as a small number (0: the fs did not say). */
const enum Kind {
  Unknown = 0,
  File,
  Directory,
  Symlink,
  Fifo,
  Socket,
  Block,
  Char,
}

function kindOfDirent(entry: DirentLike): Kind {
  if (entry.isFile()) return Kind.File;
  if (entry.isDirectory()) return Kind.Directory;
  if (entry.isSymbolicLink()) return Kind.Symlink;
  if (entry.isFIFO()) return Kind.Fifo;
  if (entry.isSocket()) return Kind.Socket;
  if (entry.isBlockDevice()) return Kind.Block;
  if (entry.isCharacterDevice()) return Kind.Char;
  return Kind.Unknown;
}

/** A `DirentLike` kept by the index: the name and the kind the listing reported, nothing else. */
export class KeptDirent implements DirentLike {
  constructor(
    readonly name: string,
    private readonly kind: Kind,
  ) {}
  isFile(): boolean {
    return this.kind === Kind.File;
  }
  isDirectory(): boolean {
    return this.kind === Kind.Directory;
  }
  isSymbolicLink(): boolean {
    return this.kind === Kind.Symlink;
  }
  isFIFO(): boolean {
    return this.kind === Kind.Fifo;
  }
  isSocket(): boolean {
    return this.kind === Kind.Socket;
  }
  isBlockDevice(): boolean {
    return this.kind === Kind.Block;
  }
  isCharacterDevice(): boolean {
    return this.kind === Kind.Char;
  }
}

/** The listing to keep, without the entries `isHidden` names (the index's own cookie files). */
export function keepListing(entries: readonly DirentLike[], isHidden: (name: string) => boolean): KeptDirent[] {
  const kept: KeptDirent[] = [];
  for (const entry of entries) if (!isHidden(entry.name)) kept.push(new KeptDirent(entry.name, kindOfDirent(entry)));
  return kept;
}
