/**
 * The sorted answer of a walk: the same tree gives the same \`matches\`, whatever order the reads
 * finished in: by path (`SortedCollector`), or newest first (`NewestCollector`).
 */
import type { EntryMeta } from '../plan/select.js';

/**
 * Collects matches and returns them sorted (the same tree gives the same answer, whatever order
 * the reads finished in), without sorting whole paths.
 *
 * Perf: a plain sort of 200k fresh paths cost a tenth of a whole walk, most of it comparing long
 * shared prefixes. Here each directory's names are sorted on their own (short strings), the
 * directories are sorted by path, and one linear pass interleaves a directory's files with its
 * subdirectories' blocks. That equals plain string order because, within a directory, a file `f`
 * sorts before every path under subdirectory `d` exactly when `f < d + '/'`, and all paths under a
 * directory are contiguous in string order.
 */
export class SortedCollector {
  private readonly byDir = new Map<string, string[]>();
  private unsorted: string[][] = [];
  private lastDir = '\0';
  private lastNames: string[] = [];
  private count = 0;
  /** `stats: true`: each match's metadata, by path (looked up once the paths are sorted). */
  private metas: Map<string, EntryMeta> | undefined;

  readonly add = (base: string, name: string, meta?: EntryMeta): void => {
    if (meta !== undefined) (this.metas ??= new Map()).set(base + name, meta);
    if (base !== this.lastDir) {
      this.lastDir = base;
      let names = this.byDir.get(base);
      if (names === undefined) {
        this.byDir.set(base, (names = []));
        this.unsorted.push(names);
      }
      this.lastNames = names;
    }
    this.lastNames.push(name);
    this.count++;
  };

  /**
   * Sorts the names of the directories taken since the last call. Perf: the async walk calls this
   * while it waits for reads (a quarter of its time in a profile), so the final pass mostly merges.
   */
  readonly sortPending = (): void => {
    // Every directory here was taken whole: the walk idles only between directories.
    for (const names of this.unsorted) names.sort();
    this.unsorted = [];
  };

  sorted(): string[] {
    this.sortPending();
    // Perf: the answer's length is known, so the array is made once, not grown.
    const out: string[] = new Array<string>(this.count);
    let filled = 0;
    const open: { dir: string; names: string[]; next: number }[] = [];
    // Emits a directory's files that sort before `below` (all of them when there is none): the
    // rest of a subdirectory's path after the directory's own. Perf: `dir + name > dir + below`
    // is `name > below`, and comparing the short names never flattens the joined paths.
    const flush = (frame: (typeof open)[number], below?: string) => {
      const { dir, names } = frame;
      for (; frame.next < names.length; frame.next++) {
        const name = names[frame.next]!;
        if (below !== undefined && name > below) return;
        out[filled++] = dir + name;
      }
    };
    for (const dir of [...this.byDir.keys()].sort()) {
      while (open.length > 0 && !dir.startsWith(open[open.length - 1]!.dir)) flush(open.pop()!);
      const parent = open[open.length - 1];
      if (parent !== undefined) flush(parent, dir.slice(parent.dir.length));
      open.push({ dir, names: this.byDir.get(dir)!, next: 0 });
    }
    while (open.length > 0) flush(open.pop()!);
    return out;
  }

  /** The metadata of sorted paths, in their order (every match has one when the walk gave any). */
  metasOf(rels: readonly string[]): EntryMeta[] {
    return rels.map((rel) => this.metas!.get(rel)!);
  }
}

/** A match newest first: its path and metadata. */
export interface DatedMatch {
  rel: string;
  meta: EntryMeta;
}

/**
 * Newest first; equal times by path (UTF-16 code units), so the same tree gives the same answer.
 * The exact nanoseconds decide where the walk read them (node's fs): a float `mtimeMs` holds
 * ~240 ns steps today, so two times closer than that would otherwise tie.
 */
function newestFirst(a: DatedMatch, b: DatedMatch): number {
  const an = a.meta.mtimeNs;
  const bn = b.meta.mtimeNs;
  const byTime = an !== undefined && bn !== undefined ? (bn > an ? 1 : bn < an ? -1 : 0) : b.meta.mtimeMs - a.meta.mtimeMs;
  return byTime || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0);
}

/**
 * Keeps the `limit` newest matches of the whole walk (`sort: 'mtime'`; the walk counts past the
 * limit and hands every match here). Perf: memory stays at about twice the limit: once the list
 * holds `2 * limit + 1024`, it is sorted and cut to the newest `limit`. That is exact: a match cut
 * then already had `limit` newer ones (by the same total order), so it cannot be among the newest
 * `limit` at the end.
 */
export class NewestCollector {
  private items: DatedMatch[] = [];

  constructor(private readonly limit: number) {}

  readonly add = (base: string, name: string, meta?: EntryMeta): void => {
    this.items.push({ rel: base + name, meta: meta! });
    if (this.items.length >= 2 * this.limit + 1024) this.trim();
  };

  sorted(): DatedMatch[] {
    this.trim();
    return this.items;
  }

  private trim(): void {
    this.items.sort(newestFirst);
    if (this.items.length > this.limit) this.items.length = this.limit;
  }
}
