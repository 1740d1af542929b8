/**
 * Shared by the index's tests: a temp tree on the real disk, the oracle (a fresh `findFiles` of
 * the same query, the walker), and a watcher whose faults a test switches on.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { expect } from 'vitest';
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
    return {
      close: () => {
        this.watched.delete(dir);
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
 * Node's watcher, its events held back and delivered later, in order (a busy event loop, a slow
 * watcher): an answer that does not wait for its cookie is then stale, one that waits is not.
 */
export class LateWatcher implements DirectoryWatcher {
  private readonly inner = nodeWatcher();
  private readonly queue: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly delayMs: number) {}

  watch(dir: string, listener: WatchListener) {
    let open = true;
    const later = (deliver: () => void) => {
      this.queue.push(() => open && deliver());
      this.timer ??= setTimeout(() => this.flush(), this.delayMs);
    };
    const handle = this.inner.watch(dir, {
      change: (name) => later(() => listener.change(name)),
      lost: (error) => later(() => listener.lost(error)),
    });
    return {
      close: () => {
        open = false;
        handle.close();
      },
    };
  }

  onOverflow(): () => void {
    return () => {};
  }

  private flush(): void {
    this.timer = undefined;
    for (const deliver of this.queue.splice(0)) deliver();
  }
}
