/**
 * A pool of watched indexes behind the signature of `findFiles`, for a host that searches the same
 * roots again and again (the MCP server's `--watch`): each search whose options an index can answer
 * goes to the index of its tree (one per root and tree options), and every other search goes to
 * `findFiles` unchanged. Either way the answer is what `findFiles` gives: an index answers word for
 * word as the walker (docs/index.md).
 *
 * An index is opened after the first search of its tree, in the background, and answers once it is
 * open. Its first walk has no budget and no signal (it is the whole tree, paid once): a search that
 * waited for it ran past its own `timeBudgetMs` and its signal (an adversarial run: 8 s for a 300 ms
 * budget, under a parent `.ignore` of 20,000 rules). So until the index is open, each search of its
 * tree is a plain `findFiles`, stopped by its own budget and signal; the opening is started once
 * the first of them has answered (it does not take the machine from that answer), and `close()`
 * or an eviction abandons it, closing its watches.
 *
 * What goes to `findFiles` instead of an index:
 * - an engine other than the walker (`backend: 'ripgrep' | 'auto'`), an injected `fs`, a `platform`
 *   other than the running one: no index answers for them;
 * - a tree whose index is not open yet (above);
 * - a tree no watcher can serve (`openIndex` refused with `FF_WATCH_UNAVAILABLE`: remembered, not
 *   asked again) or that could not be opened (tried again after the next search of it);
 * - a search that could not run (a missing root): `findFiles` says why, as ever, and nothing opens.
 *
 * At most `maxIndexes` are kept: opening one more closes the one used longest ago.
 */
import { resolvePath } from '../plan/read.js';
import { findFiles } from '../find.js';
import type { FindOptions } from '../options.js';
import { buildFindPlan } from '../plan/search-plan.js';
import { errorCodeOf, type FindResult } from '../result.js';
import { ENGINE_OPTIONS, TREE_OPTIONS, openIndexWith, type FileIndex, type IndexOptions, type IndexQuery } from './watched-index.js';

/**
 * How a pool opens an index: `openIndex`, or one a test injects. `signal` fires when the pool no
 * longer wants the index (closed, or the tree evicted) while it opens; an opener may ignore it:
 * an index that arrives after that is closed at once.
 */
export type IndexOpener = (options: IndexOptions, signal: AbortSignal) => Promise<FileIndex>;

/** A tree's place in the pool: its index once open; until then, the way to abandon the opening. */
interface Entry {
  index: FileIndex | undefined;
  readonly opening: AbortController;
}

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
  private readonly indexes = new Map<string, Entry>();
  /** Trees `openIndex` refused with FF_WATCH_UNAVAILABLE: searched with findFiles from then on. */
  private readonly unwatchable = new Set<string>();
  /** Indexes kept open at most. */
  private readonly maxIndexes: number;
  /** Opens an index of a tree. */
  private readonly open: IndexOpener;
  /** After `close()`: every search walks. */
  private closed = false;

  /** A pool that opens a tree's index after its first search, at most `maxIndexes` at once. */
  constructor(options: IndexPoolOptions = {}) {
    this.maxIndexes = options.maxIndexes ?? DEFAULT_MAX_INDEXES;
    this.open = options.open ?? ((tree, signal) => openIndexWith(tree, {}, signal));
  }

  /** `findFiles`, answered by an index where one can (bound: pass it as a function). */
  readonly findFiles = async (options: FindOptions): Promise<FindResult> => {
    const split = splitOptions(options);
    if (this.closed || split === undefined || this.unwatchable.has(split.key)) return findFiles(options);
    // Settings the index drops are checked first, as findFiles checks them (the same plan, thrown
    // away): an adversarial run had the pool answer `rgPath: 'rg'`, `onEvent: 42`, `workspace:
    // 'relative/ws'` where findFiles rejects them. Only when one is given: the usual search pays nothing.
    if (split.dropsSettings) buildFindPlan(options);
    const entry = this.use(split.key);
    const index = entry?.index;
    if (index === undefined) {
      // Not open (yet): the walk, within this search's budget and signal. A search that could not
      // run (a missing root, a bad query) opens nothing: findFiles has said why.
      const result = await findFiles(options);
      this.startOpening(split.key, split.tree);
      return result;
    }
    try {
      return await index.find(split.query);
    } catch (error) {
      const code = errorCodeOf(error);
      // A bad query: findFiles would refuse it with the same code.
      if (code.startsWith('FF_') && code !== 'FF_WATCH_UNAVAILABLE') throw error;
      // The root went away (ENOENT) or the index was closed under us: forget it (unless forgotten
      // already: the tree may be opening again); findFiles answers as it would.
      if (this.indexes.get(split.key) === entry) this.forget(split.key);
      return findFiles(options);
    }
  };

  /** The number of indexes open, or opening. */
  get size(): number {
    return this.indexes.size;
  }

  /** Closes every index; later searches go to findFiles. */
  close(): void {
    this.closed = true;
    for (const key of [...this.indexes.keys()]) this.forget(key);
  }

  /** A tree's entry, marked used last; undefined when it has none. */
  private use(key: string): Entry | undefined {
    const entry = this.indexes.get(key);
    if (entry !== undefined) {
      this.indexes.delete(key);
      this.indexes.set(key, entry);
    }
    return entry;
  }

  /** Opens a tree's index in the background, unless one is open or opening (then closes the oldest past `maxIndexes`). */
  private startOpening(key: string, tree: IndexOptions): void {
    if (this.closed || this.indexes.has(key) || this.unwatchable.has(key)) return;
    const entry: Entry = { index: undefined, opening: new AbortController() };
    this.indexes.set(key, entry);
    // An opener that throws at once fails as one that rejects.
    Promise.resolve()
      .then(() => this.open(tree, entry.opening.signal))
      .then(
        (index) => {
          // Forgotten while it opened (closed, evicted, its tree's root gone): nobody will ask it.
          if (this.indexes.get(key) === entry) entry.index = index;
          else index.close();
        },
        (error: unknown) => {
          // Only this entry: the tree may have been forgotten and opened again since.
          if (this.indexes.get(key) === entry) this.indexes.delete(key);
          if (errorCodeOf(error) === 'FF_WATCH_UNAVAILABLE') this.unwatchable.add(key);
        },
      );
    while (this.indexes.size > this.maxIndexes) this.forget(this.indexes.keys().next().value!);
  }

  /** Closes a tree's index, or abandons its opening (the opener stops and closes what it set up). */
  private forget(key: string): void {
    const entry = this.indexes.get(key);
    this.indexes.delete(key);
    if (entry?.index !== undefined) entry.index.close();
    else entry?.opening.abort();
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
