/**
 * Shared by the index's tests: a temp tree on the real disk, the oracle (a fresh `findFiles` of
 * the same query, the walker), and a watcher whose faults a test switches on.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { findFiles, type FindOptions, type FindResult } from '../../src/index.js';
import type { FileIndex, IndexOptions, IndexQuery } from '../../src/watch/watched-index.js';
import { nodeWatcher, type DirectoryWatcher, type WatchListener } from '../../src/watch/watcher.js';

/** A fresh temp directory (its real path, so `absolute` answers compare), with `files` in it. */
export function makeTree(files: string[] = []): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'ff-watch-')));
  for (const file of files) {
    if (file.endsWith('/')) mkdirSync(join(root, file), { recursive: true });
    else {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), 'x');
    }
  }
  return root;
}

export function removeTree(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** The answer without what differs between two runs of the same walk: the time it took. */
export function comparable(result: FindResult): FindResult {
  return { ...result, stats: { ...result.stats, elapsedMs: 0 } };
}

/** Asks the index and a fresh `findFiles` the same query and returns both, comparable. */
export async function bothAnswers(index: FileIndex, tree: IndexOptions, query: IndexQuery): Promise<{ indexed: FindResult; fresh: FindResult }> {
  const indexed = comparable(await index.find(query));
  const fresh = comparable(await findFiles({ ...tree, ...query, backend: 'walker' } as FindOptions));
  return { indexed, fresh };
}

export async function expectSameAnswer(index: FileIndex, tree: IndexOptions, query: IndexQuery): Promise<FindResult> {
  const { indexed, fresh } = await bothAnswers(index, tree, query);
  expect(indexed).toEqual(fresh);
  return indexed;
}

/** Node's watcher with switches: refuse new watches with a code, swallow events, report an overflow, lose a watch. */
export class FaultyWatcher implements DirectoryWatcher {
  refuseWith: string | undefined;
  /** Names whose events are swallowed (a lost event, as after a queue overflow). */
  swallow: (name: string | undefined) => boolean = () => false;
  /** Swallow the events a directory's own watch gives about the directory itself (moved, removed). */
  swallowSelf = false;
  readonly watched = new Map<string, WatchListener>();
  /** Watches open now (two on one directory count twice, as the kernel's watches do not, but each must be closed). */
  open = 0;
  private readonly inner = nodeWatcher();
  private overflow: () => void = () => {};

  watch(dir: string, listener: WatchListener) {
    if (this.refuseWith !== undefined) throw Object.assign(new Error(`watch ${dir}: ${this.refuseWith}`), { code: this.refuseWith });
    const wrapped: WatchListener = {
      change: (name) => {
        if (this.swallowSelf && name === basename(dir)) return;
        if (!this.swallow(name)) listener.change(name);
      },
      lost: (error) => listener.lost(error),
    };
    const handle = this.inner.watch(dir, wrapped);
    this.watched.set(dir, wrapped);
    this.open++;
    let closed = false;
    return {
      close: () => {
        this.watched.delete(dir);
        if (!closed) this.open--;
        closed = true;
        handle.close();
      },
    };
  }

  onOverflow(handler: () => void): () => void {
    this.overflow = handler;
    return () => (this.overflow = () => {});
  }

  /** What an inotify queue overflow does: events lost that nobody can name. */
  fireOverflow(): void {
    this.overflow();
  }
}

/**
 * A watch of `dir` through `inner`, each event handed to `route` as a delivery to run now or later
 * (none is delivered once the watch is closed): what the test watchers below change.
 */
function routedWatch(inner: DirectoryWatcher, dir: string, listener: WatchListener, route: (deliver: () => void, kind: 'change' | 'lost') => void) {
  let open = true;
  const handle = inner.watch(dir, {
    change: (name) => route(() => open && listener.change(name), 'change'),
    lost: (error) => route(() => open && listener.lost(error), 'lost'),
  });
  return {
    close: () => {
      open = false;
      handle.close();
    },
  };
}

/**
 * Node's watcher, its events held back and delivered later, in order (a busy event loop, a slow
 * watcher): an answer that does not wait for its cookie is then stale, one that waits is not.
 */
export class LateWatcher implements DirectoryWatcher {
  private readonly inner = nodeWatcher();
  private readonly queue: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly delayMs: number) {}

  watch(dir: string, listener: WatchListener) {
    return routedWatch(this.inner, dir, listener, (deliver) => {
      this.queue.push(deliver);
      this.timer ??= setTimeout(() => this.flush(), this.delayMs);
    });
  }

  onOverflow(): () => void {
    return () => {};
  }

  private flush(): void {
    this.timer = undefined;
    for (const deliver of this.queue.splice(0)) deliver();
  }
}

/**
 * Node's watcher, its events held back while `holding` and handed over by `release()` in order,
 * one per turn of the event loop (so what each event wakes runs before the next is delivered): a
 * test decides when the queue is read, with no clock.
 */
export class HeldWatcher implements DirectoryWatcher {
  holding = false;
  private readonly inner = nodeWatcher();
  private readonly held: (() => void)[] = [];
  private onHeld: (() => void) | undefined;

  watch(dir: string, listener: WatchListener) {
    return routedWatch(this.inner, dir, listener, (deliver, kind) => {
      if (kind === 'lost' || !this.holding) return deliver();
      this.held.push(deliver);
      this.onHeld?.();
    });
  }

  onOverflow(): () => void {
    return () => {};
  }

  /** Resolves once `count` events are held. */
  async heldAtLeast(count: number): Promise<void> {
    while (this.held.length < count) await new Promise<void>((resolve) => (this.onHeld = resolve));
  }

  /** Delivers every held event (and any that comes meanwhile), one per turn, then stops holding. */
  async release(): Promise<void> {
    while (this.held.length > 0) {
      this.held.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.holding = false;
  }
}

/**
 * The indexes and trees a test file opens, closed and removed after each test: `opened.push` an
 * index, `tree(files)` makes a tree that goes with the test.
 */
export function closedAfterEach(): { opened: FileIndex[]; roots: string[]; tree(files: string[]): string } {
  const opened: FileIndex[] = [];
  const roots: string[] = [];
  afterEach(() => {
    for (const index of opened.splice(0)) index.close();
    for (const root of roots.splice(0)) removeTree(root);
  });
  return {
    opened,
    roots,
    tree(files) {
      const root = makeTree(files);
      roots.push(root);
      return root;
    },
  };
}

/**
 * Whether this process may mount (root with CAP_SYS_ADMIN, as in CI): a bind mount tried once on a
 * scratch tree. A need for describeIf/itIf (test/helpers/skip-why.ts): skipped elsewhere, saying why.
 */
export function canMount(): readonly [boolean, string] {
  const why = 'this process may not mount (not root, or no CAP_SYS_ADMIN)';
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return [false, why];
  const scratch = makeTree(['a/x', 'b/y']);
  try {
    execFileSync('mount', ['--bind', join(scratch, 'a'), join(scratch, 'b')], { stdio: 'ignore' });
    execFileSync('umount', [join(scratch, 'b')], { stdio: 'ignore' });
    return [true, why];
  } catch {
    return [false, why];
  } finally {
    removeTree(scratch);
  }
}
