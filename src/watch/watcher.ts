/**
 * The watcher behind the index, as a small interface so tests can inject faults (an overflow, a
 * watch refused with ENOSPC, a watch lost) that the kernel cannot be made to produce on demand.
 *
 * The contract the index relies on: one watch per directory, reporting changes to that
 * directory's own entries (not deeper); every event of every watch delivered in the order the
 * kernel queued it (Linux: one inotify descriptor per event loop in libuv, so a cookie's event
 * arrives after the events of every change completed before the cookie was written).
 */
import * as nodeFs from 'node:fs';
import { loopGauge, type BurstGauge } from './burst.js';

/** What a directory's watch reports. */
export interface WatchListener {
  /** An entry of the directory changed (created, removed, renamed, written, chmod), or the directory itself (`name` is then its own base name, or undefined). */
  change(name: string | undefined): void;
  /** The watch stopped working: nothing more will be reported for this directory. */
  lost(error: unknown): void;
}

/**
 * True when an event of `dir`'s watch is about `dir` itself (removed, renamed, replaced: its watch
 * is then dead) rather than about one of its entries: no name, or the directory's own base name.
 */
export function isSelfEvent(dir: string, name: string | undefined): boolean {
  return name === undefined || name === '' || name === dir.slice(dir.lastIndexOf('/') + 1);
}

/**
 * Which directory `path` names now: its device and inode, links followed as `fs.watch` follows
 * them; undefined when it names none. A watch is bound to the inode it was set up on, not to the
 * path: when the path comes to name another directory (a parent renamed, a link retargeted, a
 * swap), no event tells the old watch, so the index compares these (docs/index.md).
 */
export function identitySync(path: string): string | undefined {
  try {
    const stats = nodeFs.statSync(path, { bigint: true });
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return undefined;
  }
}

/** `identitySync`, without blocking: one `stat`. */
export function identityOf(path: string): Promise<string | undefined> {
  return new Promise((resolve) => nodeFs.stat(path, { bigint: true }, (error, stats) => resolve(error ? undefined : `${stats.dev}:${stats.ino}`)));
}

/** One directory's watch. */
export interface WatchHandle {
  /** Stops the watch; no call to its listener follows. */
  close(): void;
}

/** What the index needs from a filesystem watcher. */
export interface DirectoryWatcher {
  /**
   * Watches one directory (not recursively). Throws when it cannot (`ENOSPC`: the per-user watch
   * limit; `EACCES`: unreadable; `ENOENT`: gone); the index then keeps that directory unwatched.
   */
  watch(dir: string, listener: WatchListener): WatchHandle;
  /**
   * Calls `handler` when the watcher may have lost events it cannot name (an inotify queue
   * overflow); returns what unsubscribes it. Node's `fs.watch` never reports one (libuv drops
   * `IN_Q_OVERFLOW`): `nodeWatcher` tells it by the size of a burst (src/watch/burst.ts).
   */
  onOverflow(handler: () => void): () => void;
}

/**
 * Node's own `fs.watch`, one per directory. Chosen over `@parcel/watcher` because the index must
 * know exactly which directories are watched: a listing is kept only when its own watch was in
 * place before the read, and a watch the kernel refuses leaves that one directory read afresh
 * at every query, never a silent gap (see docs/index.md).
 *
 * @param gauge the count of events per turn that tells an overflow (src/watch/burst.ts): the event
 * loop's own unless a test gives one.
 */
export function nodeWatcher(gauge: BurstGauge = loopGauge()): DirectoryWatcher {
  return {
    watch: (dir, listener) => new NodeWatch(dir, listener, gauge),
    onOverflow: (handler) => gauge.subscribe(handler),
  };
}

/** The watch each `fs.watch` serves, for the two handlers all watches share. */
const OWNER = Symbol('find-file watch');
type OwnedWatcher = nodeFs.FSWatcher & { [OWNER]: NodeWatch };

/**
 * One directory's `fs.watch`. Perf: the index holds one per directory, so the handlers are shared
 * functions that find their watch on the `FSWatcher`, not two closures per directory.
 */
class NodeWatch implements WatchHandle {
  private open = true;
  private readonly watcher: OwnedWatcher;

  constructor(
    dir: string,
    private readonly listener: WatchListener,
    private readonly gauge: BurstGauge,
  ) {
    this.watcher = nodeFs.watch(dir, { persistent: false }) as OwnedWatcher;
    this.watcher[OWNER] = this;
    this.watcher.on('change', onWatchEvent);
    this.watcher.on('error', onWatchError);
  }

  event(name: string | null): void {
    // Counted even after close(): the event was in the queue all the same.
    this.gauge.event();
    if (this.open) this.listener.change(name ?? undefined);
  }

  error(error: unknown): void {
    this.open = false;
    this.watcher.close();
    this.listener.lost(error);
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    this.gauge.closeLater(() => this.watcher.close());
  }
}

function onWatchEvent(this: OwnedWatcher, _event: string, name: string | null): void {
  this[OWNER].event(name);
}

function onWatchError(this: OwnedWatcher, error: unknown): void {
  this[OWNER].error(error);
}
