/**
 * Watchman's cookie, as the index's sync before each answer: write a file of a unique name, wait
 * for the watcher to report it, remove it. Events reach the index in the order the kernel queued
 * them (one inotify instance per event loop in libuv, one queue for every watch), so once the
 * cookie's event has arrived, so has the event of every change completed before the cookie was
 * written: the kept listings are then exactly what a fresh read would give.
 *
 * Where: inside `.git/` when the root has one (no change to the user's working tree; git ignores
 * unknown files there), else in the root. Where neither can be written (a read-only root), in a
 * private temp directory: any directory watched through the same inotify instance gives the same
 * ordering. The cookies' names are never listed (src/watch/snapshot.ts filters them) and their
 * events invalidate nothing. A sync that still cannot complete says why (`SyncOutcome`).
 *
 * The watch is bound to the directory's inode, the cookie is written by path: before each write,
 * one `stat` checks that the path still names the watched directory (a root swapped, a parent
 * renamed, a link retargeted tell the old watch nothing). When it does not, the cookie's place is
 * looked up again and watched anew (an adversarial run: one swap of the root, then every sync
 * waited its full 10 s for a cookie written where no watch of the index could see it).
 */
import { randomBytes } from 'node:crypto';
import { close, mkdtempSync, open, rmSync, unlink } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { errorCodeOf } from '../result.js';
import { identityOf, identitySync, isSelfEvent, type DirectoryWatcher, type WatchHandle } from './watcher.js';

/** How a sync ended: `synced`, or the code of what stopped it (`ETIMEDOUT`: the event did not come in time; `ENOSPC`, `EACCES`...: no cookie could be written or watched; `ABORT_ERR`). */
export type SyncOutcome = { synced: true } | { synced: false; code: string };

/** The file operations a cookie needs; node's by default, a fault in tests. */
export interface CookieIo {
  write(path: string): Promise<void>;
  remove(path: string): Promise<void>;
}

/**
 * A cookie is made new (`wx`) and closed, then unlinked (a missing one is already gone). Perf: one
 * call each, with callbacks: `fs.promises.writeFile` (a FileHandle, open, write, close) and
 * `fs.promises.rm` (an `lstat` first) cost every sync more: 0.76-1.02 ms of CPU per reused answer
 * against 0.57-0.83 (2,000 queries of a 100-file tree, four alternations).
 */
const nodeIo: CookieIo = {
  write: (path) => new Promise((resolve, reject) => open(path, 'wx', (error, fd) => (error ? reject(error) : close(fd, (closed) => (closed ? reject(closed) : resolve()))))),
  remove: (path) => new Promise((resolve, reject) => unlink(path, (error) => (error !== null && error.code !== 'ENOENT' ? reject(error) : resolve()))),
};

/** The longest a sync waits when the query gives no time budget. */
export const DEFAULT_SYNC_WAIT_MS = 10_000;

/** Codes that say the cookie's directory cannot take a file: try the private temp directory. */
const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT']);
/** Codes that say the cookie's directory (the root, `.git`) is gone or was replaced (`EMOVED`: its path names another directory now): look again. */
const MOVED = new Set(['ENOENT', 'ENOTDIR', 'EWATCHLOST', 'EMOVED']);
/** Tries per sync: the directory may move once, and fall back to the temp directory once. */
const ATTEMPTS = 3;

export class CookieJar {
  private readonly prefix = `.find-file-cookie-${process.pid}-${randomBytes(6).toString('hex')}-`;
  private serial = 0;
  private dir: string;
  private temp: string | undefined;
  private handle: WatchHandle | undefined;
  /** The identity of the directory `handle` watches, read before the watch was set up (src/watch/watcher.ts). */
  private watchedId: string | undefined;
  /** Moves each time the cookie's place is looked up again: a sync that saw an older one only tries again. */
  private placement = 0;
  /** After `close()`: no watch is set up again (a sync in flight would otherwise look its place up anew). */
  private closed = false;
  /** Syncs waiting, by cookie name: what ends the wait, and whether the cookie's event came (it may come after the wait ended, before the sync looks). */
  private readonly waiting = new Map<string, { stop: (outcome: SyncOutcome) => void; arrived: boolean }>();
  /**
   * Cookies whose wait the query's budget cut short, by name: each must still arrive before any
   * cookie written after it (one queue); one that has not when such a cookie does was lost, and so
   * may have been other events (an overflow): `onUntrusted` then. Only *after* it: a concurrent
   * query's cookie written before it arrives before it, as it should (an adversarial run: 30
   * queries at once, one with a 2 ms budget, dropped everything 13 times in 600 on a still tree).
   */
  private readonly overdue = new Map<string, { path: string; written: number }>();
  /** Cookie writes completed so far: a cookie whose write began at `n` was queued after every one whose `written` is at most `n`. */
  private writes = 0;
  /** Removals of given-up cookie files under way. */
  private readonly removing = new Set<Promise<void>>();

  /**
   * @param placeDir where the cookie goes now (`.git/` or the root), native, without a trailing separator.
   * @param onUntrusted called when what the index kept cannot be trusted: the cookie's directory
   * vanished, was replaced or is no longer the one its path names (`moved`: a tree that is gone
   * or swapped), or an overdue cookie was lost (`lost`).
   */
  constructor(
    private readonly placeDir: () => string,
    private readonly watcher: DirectoryWatcher,
    private readonly onUntrusted: (why: 'moved' | 'lost') => void,
    private readonly io: CookieIo = nodeIo,
  ) {
    this.dir = placeDir();
  }

  /** True for the name of one of this index's cookies. */
  readonly isCookie = (name: string): boolean => name.startsWith(this.prefix);

  /** Watches the cookie's directory now, so the first sync does not have to. */
  prepare(): void {
    this.watchDir();
  }

  /** Stops watching for cookies and removes the private temp directory, if one was made. */
  close(): void {
    this.closed = true;
    this.clearOverdue();
    this.unwatch();
    this.interrupt('ABORT_ERR');
    if (this.temp !== undefined) rmSync(this.temp, { recursive: true, force: true });
  }

  /** Writes a cookie and waits, at most `waitMs` or until `signal`, for its event; moves the cookie where it must. */
  async sync(waitMs: number, signal: AbortSignal | undefined): Promise<SyncOutcome> {
    const until = Date.now() + waitMs;
    let outcome: SyncOutcome = { synced: false, code: 'ETIMEDOUT' };
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const placement = this.placement;
      outcome = await this.syncOnce(Math.max(0, until - Date.now()), signal);
      if (outcome.synced) return outcome;
      // Moved: the first sync to see it looks the place up again; one that saw it moved already just tries again.
      if (MOVED.has(outcome.code)) {
        if (placement === this.placement) this.moved();
      }
      else if (NOT_WRITABLE.has(outcome.code) && this.temp === undefined) this.useTemp();
      else return outcome;
    }
    return outcome;
  }

  /**
   * Ends every wait now, unsynced with `code`: the index closed, the cookie's directory's watch
   * died, or the watcher lost events (an overflow), so a cookie's event may never come and the
   * index reads the disk instead of waiting it out.
   */
  interrupt(code: string): void {
    for (const { stop } of this.waiting.values()) stop({ synced: false, code });
  }

  /** Forgets the overdue cookies: the index has dropped everything they could have vouched for. */
  clearOverdue(): void {
    for (const { path } of this.overdue.values()) this.removeLater(path);
    this.overdue.clear();
  }

  /** Resolves once every cookie file this jar gave up on is removed: an answer leaves none behind. */
  async settled(): Promise<void> {
    while (this.removing.size > 0) await Promise.all(this.removing);
  }

  private removeLater(path: string): void {
    const removal: Promise<void> = this.io
      .remove(path)
      .catch(() => undefined)
      .finally(() => this.removing.delete(removal));
    this.removing.add(removal);
  }

  private moved(): void {
    this.relocate();
    this.onUntrusted('moved');
  }

  /**
   * Stops watching the cookie's place and looks it up again (the next sync watches it anew); the
   * syncs waiting on the old place try again there. The index calls it when a sync failed or the
   * root is no longer the directory it watched: a watch that may be on the wrong directory.
   */
  relocate(): void {
    this.unwatch();
    this.placement++;
    if (this.temp === undefined) this.dir = this.placeDir();
    this.interrupt('EWATCHLOST');
  }

  private useTemp(): void {
    this.unwatch();
    this.temp = mkdtempSync(join(tmpdir(), 'find-file-cookies-'));
    this.dir = this.temp;
  }

  private async syncOnce(waitMs: number, signal: AbortSignal | undefined): Promise<SyncOutcome> {
    if (signal?.aborted) return { synced: false, code: 'ABORT_ERR' };
    const name = this.prefix + String(++this.serial);
    let path = '';
    let stop: (outcome: SyncOutcome) => void = () => {};
    const seen = new Promise<SyncOutcome>((resolve) => (stop = resolve));
    const timer = setTimeout(() => stop({ synced: false, code: 'ETIMEDOUT' }), waitMs);
    const onAbort = () => stop({ synced: false, code: 'ABORT_ERR' });
    signal?.addEventListener('abort', onAbort, { once: true });
    const waiter = { stop, arrived: false };
    this.waiting.set(name, waiter);
    let written = false;
    try {
      // Waiting already: an interrupt during the check (an overflow, a close) ends this sync too.
      const refused = await this.checkPlace();
      if (refused !== undefined) return { synced: false, code: refused };
      path = this.dir + '/' + name;
      const before = this.writes;
      await this.io.write(path);
      written = true;
      const done = ++this.writes;
      const outcome = await seen;
      if (outcome.synced && this.lostBefore(before)) {
        this.clearOverdue();
        this.onUntrusted('lost');
      } else if (!outcome.synced && outcome.code === 'ETIMEDOUT' && !waiter.arrived) {
        // Overdue only if its event has not come yet: one that came between the timer and this
        // look (the write's own await) would never come again, and the next cookie would take it
        // for lost (an adversarial run: every budget-ended cookie written just before its event).
        this.overdue.set(name, { path, written: done });
      }
      return outcome;
    } catch (error) {
      return { synced: false, code: errorCodeOf(error) };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      this.waiting.delete(name);
      // An overdue cookie stays until its event comes: its removal's event (same name) must not pass for it.
      if (written && !this.overdue.has(name)) await this.io.remove(path).catch(() => undefined);
    }
  }

  /** Whether an overdue cookie was written before a write that began at `before` (so its event, not yet come, was lost). */
  private lostBefore(before: number): boolean {
    for (const { written } of this.overdue.values()) if (written <= before) return true;
    return false;
  }

  private unwatch(): void {
    this.handle?.close();
    this.handle = undefined;
  }

  /**
   * The cookie's directory watched, and still the directory its path names: undefined, or the
   * code that says why not (`EMOVED`, or the watch's refusal).
   */
  private async checkPlace(): Promise<string | undefined> {
    const handle = this.handle;
    if (handle === undefined) return this.watchDir();
    const now = await identityOf(this.dir);
    if (this.closed) return 'ABORT_ERR';
    if (this.handle !== handle) return 'EWATCHLOST'; // lost or looked up again meanwhile
    return now !== undefined && now === this.watchedId ? undefined : 'EMOVED';
  }

  /** Sets up the cookie directory's watch when it has none; returns the refusal's code, or undefined. */
  private watchDir(): string | undefined {
    if (this.closed) return 'ABORT_ERR';
    if (this.handle !== undefined) return undefined;
    const dir = this.dir;
    // Read before the watch: a swap in between makes the two differ at the next sync (a needless
    // look-up), never agree while the watch is on another directory.
    const identity = identitySync(dir);
    let handle: WatchHandle | undefined;
    // The directory itself removed or replaced: its watch is dead; a sync waiting on it tries again.
    const lost = () => {
      if (handle === undefined || this.handle !== handle) return;
      this.unwatch();
      this.interrupt('EWATCHLOST');
    };
    try {
      handle = this.watcher.watch(dir, {
        change: (name) => {
          if (name !== undefined && this.isCookie(name)) {
            const waiter = this.waiting.get(name);
            if (waiter !== undefined) {
              waiter.arrived = true;
              waiter.stop({ synced: true });
            }
            const late = this.overdue.get(name);
            if (late !== undefined) {
              // Arrived late, in order: nothing was lost before it.
              this.overdue.delete(name);
              this.removeLater(late.path);
            }
          }
          else if (isSelfEvent(dir, name)) lost();
        },
        lost,
      });
      this.handle = handle;
      this.watchedId = identity;
      return undefined;
    } catch (error) {
      return errorCodeOf(error);
    }
  }
}
