/**
 * Test doubles for the engine: an inline memfs tree, a fault-injecting fs over it, a fake clock,
 * and a win32 path adapter (Windows can't run here; this is how its path flavour gets exercised).
 */
import { Volume } from 'memfs';
import type { DirentLike, FsLike, StatsLike } from '../../src/fs.js';

/** A tree as nested objects: a string is a file's content, an object a directory, `{ link: target }` a symlink. */
export interface Tree {
  [name: string]: string | Tree | { link: string };
}

function isLink(value: unknown): value is { link: string } {
  return typeof value === 'object' && value !== null && typeof (value as { link?: unknown }).link === 'string' && Object.keys(value).length === 1;
}

/** Builds a memfs volume holding `tree` under `root`. */
export function buildVolume(tree: Tree, root = '/root'): InstanceType<typeof Volume> {
  const vol = new Volume();
  vol.mkdirSync(root, { recursive: true });
  const fill = (dir: string, node: Tree) => {
    for (const [name, value] of Object.entries(node)) {
      const path = `${dir}/${name}`;
      if (typeof value === 'string') vol.writeFileSync(path, value);
      else if (isLink(value)) vol.symlinkSync(value.link, path);
      else {
        vol.mkdirSync(path);
        fill(path, value as Tree);
      }
    }
  };
  fill(root, tree);
  return vol;
}

export function asFs(vol: unknown): FsLike {
  return vol as FsLike;
}

/** A clock the test moves by hand. */
export class FakeClock {
  time = 0;
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

export type Call = 'readdir' | 'lstat' | 'stat';

export interface FaultOptions {
  /** Path (as the walker asks for it) → error code thrown by readdir on it. */
  readdir?: Record<string, string>;
  /** Path → error code thrown by lstat on it. */
  lstat?: Record<string, string>;
  /** Path → error code thrown by stat (a followed link) on it. */
  stat?: Record<string, string>;
  /** Leave `stat` out, as an injected fs may: links on the way are then named unchecked. */
  noStat?: boolean;
  /** Fail the first N readdir calls (any path) with this code, then behave. */
  failFirst?: { count: number; code: string };
  /** Report every entry with no type (as filesystems that return DT_UNKNOWN do), so the walker must lstat. */
  untyped?: boolean;
  /** Called before every readdir; lets a test advance a clock or change the tree mid-walk. */
  beforeReaddir?: (path: string) => void;
  /**
   * A seed: each readdir answers after a random pause of 0-2 ms (real timers), so reads finish in
   * another order than they were asked in, as on a real disk.
   */
  jitter?: number;
}

function errno(code: string, syscall: string, path: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: ${syscall} '${path}'`);
  error.code = code;
  error.syscall = syscall;
  error.path = path;
  return error;
}

function untypedEntry(entry: DirentLike): DirentLike {
  const no = () => false;
  return { name: entry.name, isFile: no, isDirectory: no, isSymbolicLink: no, isFIFO: no, isSocket: no, isBlockDevice: no, isCharacterDevice: no };
}

/** Wraps an fs so chosen paths fail with chosen codes; records every call. */
export function faultyFs(base: FsLike, faults: FaultOptions = {}) {
  const calls: { call: Call; path: string }[] = [];
  let failuresLeft = faults.failFirst?.count ?? 0;
  const readdirFault = (path: string): NodeJS.ErrnoException | undefined => {
    if (failuresLeft > 0) {
      failuresLeft--;
      return errno(faults.failFirst!.code, 'scandir', path);
    }
    const code = faults.readdir?.[path];
    return code ? errno(code, 'scandir', path) : undefined;
  };
  const shape = (entries: DirentLike[]) => (faults.untyped ? entries.map(untypedEntry) : entries);
  let seed = faults.jitter ?? 0;
  const later = (answer: () => void) => {
    if (faults.jitter === undefined) return answer();
    seed = (seed * 1103515245 + 12345) % 2147483648;
    setTimeout(answer, seed % 3);
  };
  const fs: FsLike & { calls: typeof calls } = {
    calls,
    readdir(path, options, callback) {
      calls.push({ call: 'readdir', path });
      faults.beforeReaddir?.(path);
      const fault = readdirFault(path);
      if (fault) return void setImmediate(() => later(() => callback(fault, [])));
      base.readdir(path, options, (error, entries) => later(() => callback(error, error ? entries : shape(entries))));
    },
    readdirSync(path, options) {
      calls.push({ call: 'readdir', path });
      faults.beforeReaddir?.(path);
      const fault = readdirFault(path);
      if (fault) throw fault;
      return shape(base.readdirSync(path, options));
    },
    lstat(path, callback) {
      calls.push({ call: 'lstat', path });
      const code = faults.lstat?.[path];
      if (code) return void setImmediate(() => callback(errno(code, 'lstat', path), undefined as unknown as StatsLike));
      base.lstat(path, callback);
    },
    lstatSync(path) {
      calls.push({ call: 'lstat', path });
      const code = faults.lstat?.[path];
      if (code) throw errno(code, 'lstat', path);
      return base.lstatSync(path);
    },
  };
  if (!faults.noStat && base.stat !== undefined && base.statSync !== undefined) {
    fs.stat = (path, callback) => {
      calls.push({ call: 'stat', path });
      const code = faults.stat?.[path];
      if (code) return void setImmediate(() => callback(errno(code, 'stat', path), undefined as unknown as StatsLike));
      base.stat!(path, callback);
    };
    fs.statSync = (path) => {
      calls.push({ call: 'stat', path });
      const code = faults.stat?.[path];
      if (code) throw errno(code, 'stat', path);
      return base.statSync!(path);
    };
  }
  return fs;
}

/**
 * Presents a memfs volume (POSIX paths) under win32 paths: `C:\proj\a` is `/C/proj/a` inside.
 * The walker is told `platform: 'win32'` and sees only backslashes and a drive letter.
 */
export function win32Fs(base: FsLike): FsLike {
  const toPosix = (p: string) => p.replace(/^([A-Za-z]):\\?/, '/$1/').replace(/\\/g, '/').replace(/\/+$/, '') || '/';
  return {
    readdir: (p, o, cb) => base.readdir(toPosix(p), o, cb),
    readdirSync: (p, o) => base.readdirSync(toPosix(p), o),
    lstat: (p, cb) => base.lstat(toPosix(p), cb),
    lstatSync: (p) => base.lstatSync(toPosix(p)),
    ...(base.stat === undefined ? {} : { stat: (p: string, cb: Parameters<NonNullable<FsLike['stat']>>[1]) => base.stat!(toPosix(p), cb), statSync: (p: string) => base.statSync!(toPosix(p)) }),
    // Content search opens files by path; reads go by descriptor.
    ...(base.open === undefined ? {} : { open: (p: string, flags: string | number, cb: Parameters<NonNullable<FsLike['open']>>[2]) => base.open!(toPosix(p), flags, cb), read: base.read, close: base.close }),
  };
}
