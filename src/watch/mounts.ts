/**
 * The mounts that decide what the index's paths name. No inotify event says that a file system
 * was mounted over a watched directory, or unmounted from one: the watches stay on the covered
 * directories, and their kept listings answer for a directory the path no longer names (an
 * adversarial run: a bind mount over `sub`, and the index answered `sub/before.txt`, complete, where
 * a walk found only `sub/hidden-by-mount.txt`). Linux lists the process's mounts in
 * /proc/self/mountinfo: read once a query, its lines that matter (a mount at or below the root, or
 * on one of the root's parents) compared with the last reading's.
 */
import { readFileSync, realpathSync } from 'node:fs';

/** Reads the mount table's text; undefined when there is none to read (not Linux, no /proc). */
export type MountTableReader = () => Promise<string | undefined>;

/**
 * Read synchronously: procfs answers from the kernel's memory, never from a disk or a network. Read
 * through the pool (open, stat, read, close), it took a reused answer from 0.71 to 0.96-1.10 ms a
 * query over /usr/share/doc; read so, 0.65-0.70 against 0.68-0.70 (300 queries, two runs each).
 */
export const procMountTable: MountTableReader = () => {
  try {
    return Promise.resolve(readFileSync('/proc/self/mountinfo', 'latin1'));
  } catch {
    return Promise.resolve(undefined);
  }
};

export class MountWatch {
  /** The last table read, and its lines that matter for the root. */
  private table: string | undefined;
  private last: string | undefined;
  private root: string;

  /** `root`: the index's root, as given (its real path is what the table names). */
  constructor(
    private readonly givenRoot: string,
    private readonly read: MountTableReader = procMountTable,
  ) {
    this.root = realRoot(givenRoot);
  }

  /**
   * True when a mount that matters came, went or was replaced (a new mount id) since the last
   * reading; false for the first (the index's build takes it), and whenever there is no table to
   * read (the index runs on Linux only, where /proc/self/mountinfo has been since 2.6.26).
   */
  async changed(): Promise<boolean> {
    const table = await this.read();
    if (table === undefined) return false;
    const now = mountsThatMatter(table, this.root);
    const changed = this.last !== undefined && now !== this.last;
    this.table = table;
    this.last = now;
    return changed;
  }

  /** After a restart (the root's path may name another directory now): the root's real path read again, the last table judged for it. */
  rebase(): void {
    this.root = realRoot(this.givenRoot);
    if (this.table !== undefined) this.last = mountsThatMatter(this.table, this.root);
  }
}

function realRoot(root: string): string {
  const trimmed = root.length > 1 && root.endsWith('/') ? root.slice(0, -1) : root;
  try {
    return realpathSync(trimmed);
  } catch {
    return trimmed; // gone: the root check says so; the table is compared by this path meanwhile
  }
}

/**
 * The lines of a mountinfo table whose mount point is the root, below it or one of its parents, as
 * `id point`, sorted. Fields: `id parent major:minor root point options ...`; the point's space, tab,
 * newline and backslash are written `\040`, `\011`, `\012`, `\134`.
 */
export function mountsThatMatter(table: string, root: string): string {
  const kept: string[] = [];
  for (const line of table.split('\n')) {
    const fields = line.split(' ');
    if (fields.length < 5) continue;
    const point = fields[4]!.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
    if (isAtOrBelow(point, root) || isAtOrBelow(root, point)) kept.push(`${fields[0]} ${point}`);
  }
  return kept.sort().join('\n');
}

function isAtOrBelow(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir === '/' ? '/' : dir + '/');
}
