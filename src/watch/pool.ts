/**
 * A pool of watched indexes behind the signature of `findFiles`, for a host that searches the same
 * roots again and again (the MCP server's `--watch`): each search whose options an index can answer
 * goes to the index of its tree (opened on first use, one per root and tree options), and every
 * other search goes to `findFiles` unchanged. Either way the answer is what `findFiles` gives: an
 * index answers word for word as the walker (docs/index.md).
 *
 * What goes to `findFiles` instead of an index:
 * - an engine other than the walker (`backend: 'ripgrep' | 'auto'`), an injected `fs`, a `platform`
 *   other than the running one: no index answers for them;
 * - a tree no watcher can serve (`openIndex` refused with `FF_WATCH_UNAVAILABLE`: remembered, not
 *   asked again) or that could not be opened (a missing root: `findFiles` then says why, as ever).
 *
 * At most `maxIndexes` are kept: opening one more closes the one used longest ago.
 */
import { resolvePath } from '../plan/read.js';
import { findFiles } from '../find.js';
import type { FindOptions } from '../options.js';
import { buildFindPlan } from '../plan/search-plan.js';
import { errorCodeOf, type FindResult } from '../result.js';
import { ENGINE_OPTIONS, TREE_OPTIONS, openIndex, type FileIndex, type IndexOptions, type IndexQuery } from './watched-index.js';

/** How a pool opens an index: `openIndex`, or one a test injects. */
export type IndexOpener = (options: IndexOptions) => Promise<FileIndex>;

/** The options of `new IndexPool()`. */
export interface IndexPoolOptions {
  /** Indexes kept open at once. @default 8 */
  maxIndexes?: number;
  /** How an index is opened. @default openIndex */
  open?: IndexOpener;
}

/** What shapes an index's tree (an injected `fs` never reaches here): the rest of `FindOptions` is the query. */
const TREE_KEYS = TREE_OPTIONS.filter((name) => name !== 'fs');
/** Options that choose ripgrep's run (or the running platform): meaningless to the walker here, so dropped. */
const ENGINE_KEYS: readonly string[] = ENGINE_OPTIONS;

const DEFAULT_MAX_INDEXES = 8;

/**
 * Watched indexes behind the signature of `findFiles`: pass `pool.findFiles` where a host calls
 * `findFiles` (the agent tools' `ToolContext.findFiles`), and repeat searches of a root read
 * nothing twice, with the same answers. Linux only; elsewhere every search goes to `findFiles`.
 * @example
 * const pool = new IndexPool();
 * const result = await pool.findFiles({ root: 'repo', pattern: '**\/*.ts', gitignore: true });
 * pool.close();
 */
export class IndexPool {
  /** By tree key, in the order of last use (a Map keeps insertion order: used ones are moved to the end). */
  private readonly indexes = new Map<string, Promise<FileIndex | undefined>>();
  /** Trees `openIndex` refused with FF_WATCH_UNAVAILABLE: searched with findFiles from then on. */
  private readonly unwatchable = new Set<string>();
  /** Indexes kept open at most. */
  private readonly maxIndexes: number;
  /** Opens an index of a tree. */
  private readonly open: IndexOpener;
  /** After `close()`: every search walks. */
  private closed = false;

  /** A pool that opens indexes on first use, at most `maxIndexes` at once. */
  constructor(options: IndexPoolOptions = {}) {
    this.maxIndexes = options.maxIndexes ?? DEFAULT_MAX_INDEXES;
    this.open = options.open ?? openIndex;
  }

  /** `findFiles`, answered by an index where one can (bound: pass it as a function). */
  readonly findFiles = async (options: FindOptions): Promise<FindResult> => {
    const split = splitOptions(options);
    if (this.closed || split === undefined || this.unwatchable.has(split.key)) return findFiles(options);
    // Settings the index drops are checked first, as findFiles checks them (the same plan, thrown
    // away): an adversarial run had the pool answer `rgPath: 'rg'`, `onEvent: 42`, `workspace:
    // 'relative/ws'` where findFiles rejects them. Only when one is given: the usual search pays nothing.
    if (split.dropsSettings) buildFindPlan(options);
    const index = await this.indexFor(split.key, split.tree);
    if (index === undefined) return findFiles(options);
    try {
      return await index.find(split.query);
    } catch (error) {
      const code = errorCodeOf(error);
      // A bad query: findFiles would refuse it with the same code.
      if (code.startsWith('FF_') && code !== 'FF_WATCH_UNAVAILABLE') throw error;
      // The root went away (ENOENT) or the index was closed under us: forget it; findFiles answers as it would.
      this.forget(split.key);
      return findFiles(options);
    }
  };

  /** The number of indexes open. */
  get size(): number {
    return this.indexes.size;
  }

  /** Closes every index; later searches go to findFiles. */
  close(): void {
    this.closed = true;
    for (const key of [...this.indexes.keys()]) this.forget(key);
  }

  /** The index of a tree, opened now if it is not open (and then the oldest closed past `maxIndexes`); undefined when it cannot be. */
  private indexFor(key: string, tree: IndexOptions): Promise<FileIndex | undefined> {
    const kept = this.indexes.get(key);
    if (kept !== undefined) {
      this.indexes.delete(key);
      this.indexes.set(key, kept);
      return kept;
    }
    const opening = this.open(tree).catch((error: unknown) => {
      this.indexes.delete(key);
      if (errorCodeOf(error) === 'FF_WATCH_UNAVAILABLE') this.unwatchable.add(key);
      return undefined;
    });
    this.indexes.set(key, opening);
    while (this.indexes.size > this.maxIndexes) this.forget(this.indexes.keys().next().value!);
    return opening;
  }

  /** Closes a tree's index, once it is open. */
  private forget(key: string): void {
    const index = this.indexes.get(key);
    this.indexes.delete(key);
    void index?.then((opened) => opened?.close());
  }
}

/**
 * The options as an index's tree and query, with the tree's key; undefined when no index answers
 * for them. The root is made absolute (relative roots resolve against the current directory, as
 * in findFiles), so `.` and its absolute path share one index.
 */
function splitOptions(options: FindOptions): { key: string; tree: IndexOptions; query: IndexQuery; dropsSettings: boolean } | undefined {
  if (typeof options !== 'object' || options === null || typeof options.root !== 'string') return undefined;
  if (options.fs !== undefined || (options.backend !== undefined && options.backend !== 'walker')) return undefined;
  if (options.platform !== undefined && options.platform !== (process.platform === 'win32' ? 'win32' : 'posix')) return undefined;
  const tree: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  let dropsSettings = false;
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined) continue;
    if (ENGINE_KEYS.includes(name)) {
      dropsSettings = true;
      continue;
    }
    if ((TREE_KEYS as readonly string[]).includes(name)) tree[name] = name === 'root' ? resolvePath(options.root) : value;
    else query[name] = value;
  }
  const key = JSON.stringify(TREE_KEYS.map((name) => tree[name] ?? null));
  return { key, tree: tree as unknown as IndexOptions, query: query as IndexQuery, dropsSettings };
}
