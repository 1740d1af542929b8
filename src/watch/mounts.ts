/**
 * The mounts that decide what the index's paths name. No inotify event says that a file system
 * was mounted over a watched directory, or unmounted from one: the watches stay on the covered
 * directories, and their kept listings answer for a directory the path no longer names (an
 * adversarial run: a bind mount over `sub`, and the index answered `sub/before.txt`, complete, where
 * a walk found only `sub/hidden-by-mount.txt`). Linux lists the process's mounts in
 * /proc/self/mountinfo: read once a query, its lines that matter (a mount at or below the root, or
 * on one of the root's parents) compared with the last reading's.
 *
 * The same table says which directories no watch can vouch for at all: those on a network, FUSE or
 * kernel file system (`BLIND_TYPES`), whose changes made elsewhere (another machine, the server, the
 * kernel) raise no inotify event here. They are never kept: read at every query (`isBlind`). Nor
 * does a watch outside the tree vouch for one (`isBlindIdentity`, by device: a sentinel on
 * `/proc/<pid>`), nor for a file on one or a file mount (`isWatchableFile`: a write through either
 * name of a bind-mounted file is an event in that name's directory only). Those facts are read from
 * the whole table, again only when it changes.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';

/**
 * Reads the mount table: the kernel's bytes, or a text (tests play tables; taken as UTF-8);
 * undefined when there is none to read (not Linux, no /proc).
 */
export type MountTableReader = () => Promise<Uint8Array | string | undefined>;

/**
 * Read synchronously: procfs answers from the kernel's memory, never from a disk or a network. Read
 * through the pool (open, stat, read, close), it took a reused answer from 0.71 to 0.96-1.10 ms a
 * query over /usr/share/doc; read so, 0.65-0.70 against 0.68-0.70 (300 queries, two runs each).
 */
export const procMountTable: MountTableReader = () => {
  try {
    return Promise.resolve(readFileSync('/proc/self/mountinfo'));
  } catch {
    return Promise.resolve(undefined);
  }
};

/**
 * File system types whose changes made elsewhere no inotify watch here reports: network and
 * cluster file systems, FUSE (sshfs and the like: `fuse.*`; `fuseblk`, a local disk through FUSE, is
 * trusted), a host's share in a VM, and the kernel's own (`/proc`, `/sys`, cgroups...).
 */
const BLIND_TYPES = /^(nfs4?|cifs|smb3|smbfs|ncpfs|afs|coda|ceph|glusterfs|lustre|gpfs|9p|virtiofs|vboxsf|fuse|fuse\..+|proc|sysfs|cgroup2?|debugfs|tracefs|securityfs|configfs|pstore|bpf|efivarfs|fusectl|mqueue|autofs|devpts|binfmt_misc|rpc_pipefs|nfsd)$/;

/**
 * What the whole table says of a file or directory a walk read, wherever it is (src/watch/coverage.ts):
 * whether a watch of its directory can vouch for it.
 */
export interface MountFacts {
  /** True when `dir` (in the tree: the root as given, then the path below it) lies on a blind file system. */
  isBlind(dir: string): boolean;
  /** True when a directory whose identity (`dev:ino`, src/watch/watcher.ts) this is lies on a blind file system. */
  isBlindIdentity(identity: string): boolean;
  /**
   * False for a file a change to which may raise no event in its directory's watch: on a blind
   * file system, or a file mount (`mount --bind /elsewhere/rules root/.ignore`: a write to it, or
   * through it, is an event in the source's directory only, as for a hard link).
   */
  isWatchableFile(stats: { dev?: number; ino?: number }): boolean;
}

/** Facts for an index with no mount table (tests of the view alone): every file system trusted. */
export const TRUST_ALL: MountFacts = { isBlind: () => false, isBlindIdentity: () => false, isWatchableFile: () => true };

export class MountWatch implements MountFacts {
  /** The last table read, and what it says for the root and for every file. */
  private table: Buffer | undefined;
  private last: MountsOfRoot | undefined;
  private facts: TableFacts = { blindDevices: new Set(), fileMounts: new Set(), filePoints: new Set() };
  /** The root as given, without a trailing separator, and its real path (what the table names). */
  private given: string;
  private root: string;

  /**
   * `root`: the index's root, as given. `onFileMounts`: files mounted or unmounted anywhere since the
   * last reading (their points, real paths), where no mount matters to the root (over an ignore file
   * outside it): no event says so.
   */
  constructor(
    root: string,
    private readonly read: MountTableReader = procMountTable,
    private readonly onFileMounts: (points: string[]) => void = () => {},
  ) {
    this.given = withoutSeparator(root);
    this.root = realRoot(this.given);
  }

  /** The index's root resolves to another path now (`root`, as given); the restart that follows rebases. */
  moveTo(root: string): void {
    this.given = withoutSeparator(root);
  }

  /**
   * True when a mount that matters came, went or was replaced (a new mount id) since the last
   * reading; false for the first (the index's build takes it), and whenever there is no table to
   * read (the index runs on Linux only, where /proc/self/mountinfo has been since 2.6.26).
   */
  async changed(): Promise<boolean> {
    const read = await this.read();
    if (read === undefined) return false;
    const table = bytesOf(read);
    // The same bytes say the same for the same root (`rebase` judges the kept table again when the
    // root moves). Perf: the table was parsed at every query, 40 of a reused answer's ~1,000 µs.
    const same = this.table?.equals(table) === true;
    if (same && this.last !== undefined) return false;
    const now = readMounts(table, this.root);
    const changed = this.last !== undefined && now.key !== this.last.key;
    if (!same) {
      // Synchronous, so that no walk runs with the new table and the old facts.
      const before = this.facts.filePoints;
      this.facts = readFacts(table);
      const moved = [...symmetricDifference(before, this.facts.filePoints)].map((line) => line.slice(line.indexOf(' ') + 1));
      if (this.table !== undefined && moved.length > 0) this.onFileMounts(moved);
    }
    this.table = table;
    this.last = now;
    return changed;
  }

  isBlindIdentity(identity: string): boolean {
    return this.facts.blindDevices.has(identity.slice(0, identity.indexOf(':')));
  }

  isWatchableFile(stats: { dev?: number; ino?: number }): boolean {
    const { dev, ino } = stats;
    if (dev === undefined || ino === undefined) return false;
    return !this.facts.blindDevices.has(String(dev)) && !this.facts.fileMounts.has(`${dev}:${ino}`);
  }

  /**
   * True when `dir` (the root as given, then the path below it, no trailing separator) lies on a
   * blind file system, by the last reading. Below the root a walk follows no link: the path below
   * the root's real path is the same.
   */
  isBlind(dir: string): boolean {
    const real = dir.startsWith(this.given) ? this.root + dir.slice(this.given.length) : dir;
    return this.last?.blind.some((point) => isAtOrBelow(real, point)) === true;
  }

  /** After a restart (the root's path may name another directory now): the root's real path read again, the last table judged for it. */
  rebase(): void {
    this.root = realRoot(this.given);
    if (this.table !== undefined) this.last = readMounts(this.table, this.root);
  }
}

function withoutSeparator(root: string): string {
  return root.length > 1 && root.endsWith('/') ? root.slice(0, -1) : root;
}

function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return root; // gone: the root check says so; the table is compared by this path meanwhile
  }
}

/** What a table says for a root: its mounts that matter (`key`), and where blind file systems start. */
export interface MountsOfRoot {
  /** The lines whose mount point is the root, below it or one of its parents, as `id point`, sorted. */
  key: string;
  /** The blind mount points at or below the root; the root itself when the mount holding it is blind. */
  blind: string[];
}

/** One line of a mountinfo table: `id parent major:minor root point options [tags] - type source options`. */
interface MountLine {
  id: string;
  /** `major:minor`, as `st_dev` shows it for every file of that mount. */
  device: string;
  point: string;
  blind: boolean;
}

/** The table's bytes: the kernel's, or a played text's as UTF-8. */
function bytesOf(table: Uint8Array | string): Buffer {
  return typeof table === 'string' ? Buffer.from(table, 'utf8') : Buffer.from(table.buffer, table.byteOffset, table.byteLength);
}

function readLines(table: Uint8Array | string): MountLine[] {
  const lines: MountLine[] = [];
  // One char per byte, so that splitting and unescaping work on the kernel's bytes (`decodePoint`).
  for (const line of bytesOf(table).toString('latin1').split('\n')) {
    const fields = line.split(' ');
    if (fields.length < 5) continue;
    const dash = fields.indexOf('-', 6); // the optional tags end there; the type follows
    const blind = dash > 0 && BLIND_TYPES.test(fields[dash + 1] ?? '');
    lines.push({ id: fields[0]!, device: fields[2]!, point: decodePoint(fields[4]!), blind });
  }
  return lines;
}

/**
 * Reads a mountinfo table for `root`. The point's space, tab, newline and backslash are written
 * `\040`, `\011`, `\012`, `\134`. Of the root's parents, only the deepest holds it (a local /home
 * on an NFS /).
 */
export function readMounts(table: Uint8Array | string, root: string): MountsOfRoot {
  const kept: string[] = [];
  const blind: string[] = [];
  let holder = { point: '', blind: false };
  for (const { id, point, blind: isBlindType } of readLines(table)) {
    const below = isAtOrBelow(point, root) && point !== root;
    if (!below && !isAtOrBelow(root, point)) continue;
    kept.push(`${id} ${point}`);
    if (below) {
      if (isBlindType) blind.push(point);
    } else if (point.length >= holder.point.length) holder = { point, blind: isBlindType };
  }
  if (holder.blind) blind.push(root);
  return { key: kept.sort().join('\n'), blind };
}

/** What a table says of files anywhere: the devices of blind file systems (`st_dev`, decimal), the files mounted (`dev:ino`, and `id point`). */
interface TableFacts {
  blindDevices: Set<string>;
  fileMounts: Set<string>;
  filePoints: Set<string>;
}

function symmetricDifference<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): Set<T> {
  const out = new Set<T>();
  for (const item of a) if (!b.has(item)) out.add(item);
  for (const item of b) if (!a.has(item)) out.add(item);
  return out;
}

/**
 * Reads the facts of a table: one `stat` per mount point of a file system that is not blind (a
 * blind one may hang, and its files are distrusted by device anyway), read again only when the
 * table changes. A file mount has the identity of its source, so a read through either name is
 * found.
 */
export function readFacts(table: Uint8Array | string): TableFacts {
  const facts: TableFacts = { blindDevices: new Set(), fileMounts: new Set(), filePoints: new Set() };
  for (const { id, device, point, blind } of readLines(table)) {
    if (blind) facts.blindDevices.add(deviceNumber(device));
    else {
      try {
        const stats = statSync(point);
        if (stats.isDirectory()) continue;
        facts.fileMounts.add(`${stats.dev}:${stats.ino}`);
        facts.filePoints.add(`${id} ${point}`);
      } catch {
        // not reachable from here: nothing this process reads through it
      }
    }
  }
  return facts;
}

/** `major:minor` as the decimal `st_dev` Node gives (glibc's makedev). */
export function deviceNumber(device: string): string {
  const [major = 0n, minor = 0n] = device.split(':').map((part) => BigInt(/^\d+$/.test(part) ? part : 0));
  return String(((major & 0xfffn) << 8n) | ((major & ~0xfffn) << 32n) | (minor & 0xffn) | ((minor & ~0xffn) << 12n));
}

/**
 * A mount point as the text Node gives for the same path: the kernel writes the point's bytes as
 * they are (UTF-8 for a name such as `é`), escaping only four of them in octal. Bytes first, then
 * the escapes, then UTF-8: read as latin1 and only unescaped, `/tmp/adv-é` was `/tmp/adv-Ã©` and
 * never equalled the root's real path (an adversarial run: a bind mount over `sub` unseen, a procfs
 * below such a root watched and trusted). Bytes that are not UTF-8 decode to U+FFFD, as Node
 * decodes such a name: a point then stands for more than one directory, which only costs rescans.
 */
function decodePoint(field: string): string {
  const unescaped = field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8) & 0xff));
  return Buffer.from(unescaped, 'latin1').toString('utf8');
}

function isAtOrBelow(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir === '/' ? '/' : dir + '/');
}
