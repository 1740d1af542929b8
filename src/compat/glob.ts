/**
 * `find-file/glob`: node-glob 11+'s API (`glob`, `globSync`, `globIterate`, `globStream`, the
 * `Glob` class, `hasMagic`, `escape`, `unescape`), run by find-file (docs/compat.md). The rules
 * taken from node-glob (checked against it by test/compat/): patterns
 * are relative to `cwd` and a slash-less one is top level only; every kind of entry is returned
 * (links listed, never followed; FIFOs and sockets listed, never opened), directories unless `nodir`; `x/**` names `x` too, and `**` names
 * `cwd` itself (`.`); a pattern ending in `/` names directories only, returned without the `/`;
 * relative paths use the platform's separator. Aborting rejects with the signal's reason, as
 * node-glob does. The peer's order is not defined; ours is sorted by path for a whole answer and
 * the walk's order for the iterating forms. `withFileTypes: true`
 * returns `PathEntry` objects (node-glob's `Path`, the members hosts use); `stat: true` lstats each
 * returned entry, as node-glob does, and drops one whose lstat fails, as node-glob does, naming it
 * in `result.skipped`. Refused: `follow: true` (find-file never follows links), `absolute` with
 * `withFileTypes` (as node-glob), and any other option node-glob has and this adapter does not
 * carry out. Every form carries the verdict (`result`): the array, the iterator and the stream.
 */
import { Readable } from 'node:stream';
import type * as Minimatch from 'minimatch';
import { createRequire } from 'node:module';
import type { FindResult, FindSummary } from '../result.js';
import { compileGlob, type GlobEntries, type GlobOptions, type GlobOptionsWithFileTypesFalse, type GlobOptionsWithFileTypesTrue } from './glob-compile.js';
import { iterateItems, iterateItemsSync, runAll, runAllSync, settleIfLeftUnstarted, type GlobItem, type VerdictSink } from './glob-run.js';
import type { PathEntry } from './path-entry.js';
import { withResult, type GlobPaths } from './shared.js';

export type { GlobPaths } from './shared.js';
export { PathEntry } from './path-entry.js';
export type { GlobEntries, GlobOptions, GlobOptionsWithFileTypesFalse, GlobOptionsWithFileTypesTrue } from './glob-compile.js';
export type { IgnoreLike } from './ignore-object.js';

const requireModule = createRequire(import.meta.url);
let minimatch: typeof Minimatch | undefined;
/**
 * minimatch, loaded on the first `hasMagic` or `unescape`: a host that only globs never loads it
 * (as RE2 in src/re2.ts). `require` keeps both synchronous (minimatch ships a CommonJS build).
 */
function loadMinimatch(): typeof Minimatch {
  return (minimatch ??= requireModule('minimatch') as typeof Minimatch);
}

/**
 * node-glob's `escape` (minimatch's): a path written so that `glob` matches it literally (gemini-cli
 * escapes a pattern that names an existing file, as `src/[id]/page.tsx`). The magic characters
 * `?*()[]` (and `{}` with `magicalBraces`) are escaped with `\\`, or, with `windowsPathsNoEscape`,
 * wrapped in a class (`[*]`). That form is the default on win32, where find-file reads `\\` in a
 * pattern as a separator, never an escape (node-glob's default there is `\\`: docs/compat.md).
 */
export function escape(s: string, { windowsPathsNoEscape = process.platform === 'win32', magicalBraces = false }: { windowsPathsNoEscape?: boolean; magicalBraces?: boolean } = {}): string {
  const magic = magicalBraces ? /[?*()[\]{}]/g : /[?*()[\]]/g;
  return windowsPathsNoEscape ? s.replace(magic, '[$&]') : s.replace(magicalBraces ? /[?*()[\]\\{}]/g : /[?*()[\]\\]/g, '\\$&');
}

/**
 * node-glob's `unescape` (minimatch's): the text `escape` (or a hand-written `\\*`, `[*]`) stands for;
 * `\\{` too unless `magicalBraces: false`. `windowsPathsNoEscape` defaults as `escape`'s does: on
 * win32 only the `[*]` form is undone.
 */
export function unescape(s: string, { windowsPathsNoEscape = process.platform === 'win32', magicalBraces }: { windowsPathsNoEscape?: boolean; magicalBraces?: boolean } = {}): string {
  return loadMinimatch().unescape(s, magicalBraces === undefined ? { windowsPathsNoEscape } : { windowsPathsNoEscape, magicalBraces });
}

/**
 * node-glob's `hasMagic`: whether any of `patterns` is a glob rather than a path, as minimatch reads
 * it (a brace set alone is not, unless `magicalBraces`; with `nocase` a name holding a letter is).
 * Hosts ask it to decide between `glob` and a plain `stat`: a pattern minimatch cannot read (deeper
 * than its parser goes, longer than 64 KiB) answers `true`, so that `glob` reads it and says why it
 * refuses it, rather than a `stat` of its text reporting "no such file". On win32 `\\` is a
 * separator unless `windowsPathsNoEscape: false` (find-file's reading there).
 * @example
 * const paths = hasMagic(arg) ? await glob(arg) : [arg];
 */
export function hasMagic(patterns: string | readonly string[], options: { nocase?: boolean; magicalBraces?: boolean; windowsPathsNoEscape?: boolean; dot?: boolean } = {}): boolean {
  const { nocase = process.platform === 'darwin' || process.platform === 'win32', magicalBraces = false, windowsPathsNoEscape = process.platform === 'win32' } = options;
  return (typeof patterns === 'string' ? [patterns] : patterns).some((pattern) => {
    // node-glob's (minimatch's) TypeError, not `true`: a number is no pattern, and no path either.
    if (typeof pattern !== 'string') throw new TypeError(`hasMagic: a pattern must be a string, got ${typeof pattern}`);
    try {
      return new (loadMinimatch().Minimatch)(pattern, { nocase, magicalBraces, windowsPathsNoEscape }).hasMagic();
    } catch {
      return true;
    }
  });
}

/**
 * node-glob's `glob`: the paths matching `patterns` under `cwd`, in node-glob's form (strings, or
 * `PathEntry` objects with `withFileTypes: true`). The array also carries `result`
 * (non-enumerable): the full find-file verdict of the walk.
 *
 * @throws {FindFileError} (rejects) Before any I/O: `FF_UNKNOWN_OPTION` for an option not carried out,
 * `FF_INVALID_OPTION` for `follow: true`, `absolute` with `withFileTypes`, a bad `cwd` or an `ignore`
 * object, `FF_INVALID_LIMIT` for `maxDepth`, `FF_INVALID_PATTERN` for directory-only patterns mixed
 * with others, absolute patterns mixed with relative ones, an ignore that starts above an absolute
 * pattern's start and is not `**`-led, or a pattern (or `ignore` entry) that is not a string,
 * `FF_INVALID_OPTION` for `absolute` or `withFileTypes` with absolute patterns,
 * `FF_PATTERN_OUTSIDE_ROOT` for `..`, and `findFiles`'s pattern codes. An absolute pattern is
 * searched from its literal start, and answered with absolute paths, as node-glob does; a start that
 * does not exist is an empty complete answer (docs/compat.md). `ENOENT` or `ENOTDIR` when `cwd` does not exist or is not a directory (node-glob answers
 * `[]`). An aborted `signal` rejects with the signal's reason, as node-glob does.
 * @example
 * const paths = await glob(['lib/*.js', 'bin/*.mjs'], { cwd: 'packages/app', ignore: 'lib/*.min.js' });
 * if (!paths.result.complete) console.warn('not all read:', paths.result.incompleteReasons);
 */
async function globAsync(patterns: string | readonly string[], options: GlobOptionsWithFileTypesTrue): Promise<GlobEntries>;
async function globAsync(patterns: string | readonly string[], options?: GlobOptionsWithFileTypesFalse): Promise<GlobPaths>;
async function globAsync(patterns: string | readonly string[], options?: GlobOptions): Promise<GlobPaths | GlobEntries>;
async function globAsync(patterns: string | readonly string[], options: GlobOptions = {}): Promise<GlobPaths | GlobEntries> {
  return (await runAll(compileGlob(patterns, options), options.signal)) as GlobPaths | GlobEntries;
}

/**
 * node-glob's `globSync`, as `glob` without the event loop: the same array and `result`.
 * @throws {FindFileError} Where `glob` rejects, with the same codes; an aborted `signal` throws its reason.
 * @example
 * const paths = globSync('*.md', { cwd: 'packages/app', nodir: true });
 * if (paths.length === 0 && paths.result.complete) console.log('no Markdown file at the top level');
 */
export function globSync(patterns: string | readonly string[], options: GlobOptionsWithFileTypesTrue): GlobEntries;
export function globSync(patterns: string | readonly string[], options?: GlobOptionsWithFileTypesFalse): GlobPaths;
export function globSync(patterns: string | readonly string[], options?: GlobOptions): GlobPaths | GlobEntries;
export function globSync(patterns: string | readonly string[], options: GlobOptions = {}): GlobPaths | GlobEntries {
  return runAllSync(compileGlob(patterns, options), options.signal) as GlobPaths | GlobEntries;
}

/** What an iterating form hands out: entries with `withFileTypes: true`, paths otherwise. */
export type GlobItemOf<O> = O extends { withFileTypes: true } ? PathEntry : string;
/** What a whole answer is: `GlobEntries` with `withFileTypes: true`, `GlobPaths` otherwise. */
export type GlobAnswerOf<O> = O extends { withFileTypes: true } ? GlobEntries : GlobPaths;

/** `globIterate`'s answer: the items as the walk finds them, and its verdict once the iteration ends. */
export type GlobIterator<T> = AsyncGenerator<T, void, void> & {
  /**
   * The walk's verdict (docs/contract.md; no `matches`, the items were handed out), once the
   * iteration has ended: read to its end, or left by a `break` (then `aborted`, with the items
   * taken). Rejects as the iteration throws. An iteration never started never settles.
   */
  readonly result: Promise<FindSummary>;
};
/** `globIterateSync`'s answer: the items, and the verdict of the walk made before the first. */
export type GlobSyncIterator<T> = Generator<T, void, void> & {
  /** The verdict of the walk (docs/contract.md), as `globSync`'s `result`. */
  readonly result: FindResult;
};
/** `globStream`'s answer: a readable stream of items (object mode), and the verdict once it ends. */
export type GlobStream = Readable & {
  /** As `GlobIterator.result`: settled once the stream has ended or was destroyed. */
  readonly result: Promise<FindSummary>;
};

/** A verdict to hand over later, never an unhandled rejection: the iteration itself reports a failure. */
function laterVerdict(): { promise: Promise<FindSummary>; sink: VerdictSink } {
  let settle!: VerdictSink['settle'];
  let fail!: VerdictSink['fail'];
  const promise = new Promise<FindSummary>((resolve, reject) => ((settle = resolve), (fail = reject)));
  promise.catch(() => undefined);
  return { promise, sink: { settle, fail } };
}

/**
 * node-glob's `globIterate`: the items one at a time, as the walk finds them (the walk's order, not
 * sorted), so a host can stop early (`break` stops the walk). Bad options throw here, at once, with
 * `glob`'s codes; a missing `cwd` and an aborted `signal` end the iteration with their error. The
 * verdict is `result`, a promise (`GlobIterator`).
 * @example
 * const found = globIterate('**' + '/package.json', { cwd: repo });
 * for await (const path of found) if (await isWorkspace(path)) break;
 * const { complete } = await found.result;
 */
export function globIterate<O extends GlobOptions = GlobOptionsWithFileTypesFalse>(patterns: string | readonly string[], options?: O): GlobIterator<GlobItemOf<O>>;
export function globIterate(patterns: string | readonly string[], options: GlobOptions = {}): GlobIterator<GlobItem> {
  const compiled = compileGlob(patterns, options);
  const { promise, sink } = laterVerdict();
  return withResult(settleIfLeftUnstarted(iterateItems(compiled, options.signal, sink), sink), promise);
}

/**
 * node-glob's `globIterateSync`: `globSync`'s items handed out one at a time. The walk is whole
 * before the first (node-glob's walks as it goes): a `break` saves no reading. `result` is the verdict.
 */
export function globIterateSync<O extends GlobOptions = GlobOptionsWithFileTypesFalse>(patterns: string | readonly string[], options?: O): GlobSyncIterator<GlobItemOf<O>>;
export function globIterateSync(patterns: string | readonly string[], options: GlobOptions = {}): GlobSyncIterator<GlobItem> {
  const items = runAllSync(compileGlob(patterns, options), options.signal);
  return withResult(iterateItemsSync(items), items.result);
}

/**
 * node-glob's `globStream`: `globIterate`'s items as a readable stream in object mode (a Node
 * `Readable`, not node-glob's Minipass: `for await`, `data`/`end` events and `pipe` as there;
 * Minipass's `collect()`/`promise()` are not). Destroying it stops the walk. `result` is the verdict.
 */
export function globStream(patterns: string | readonly string[], options: GlobOptions = {}): GlobStream {
  const items = globIterate(patterns, options);
  const stream = Readable.from(items, { objectMode: true });
  // An item already in the stream's buffer when the signal aborts must not reach the reader after it.
  const { signal } = options;
  if (signal !== undefined) {
    const onAbort = () => stream.destroy(signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
    if (signal.aborted) onAbort();
    else {
      signal.addEventListener('abort', onAbort, { once: true });
      stream.once('close', () => signal.removeEventListener('abort', onAbort));
    }
  }
  return withResult(stream, items.result);
}

/** node-glob's `globStreamSync`: `globSync`'s items as a readable stream (the walk made first); `result` resolves to its verdict. */
export function globStreamSync(patterns: string | readonly string[], options: GlobOptions = {}): GlobStream {
  const items = runAllSync(compileGlob(patterns, options), options.signal);
  return withResult(Readable.from(items, { objectMode: true }), Promise.resolve<FindSummary>(items.result));
}

/** node-glob's alias of `globSync`. */
export const sync = globSync;
/** node-glob's alias of `globIterate`. */
export const iterate = globIterate;
/** node-glob's alias of `globIterateSync`. */
export const iterateSync = globIterateSync;
/** node-glob's alias of `globStream`. */
export const stream = globStream;
/** node-glob's alias of `globStreamSync`. */
export const streamSync = globStreamSync;

/**
 * node-glob's `Glob`: one search, compiled once, run in any form, as many times as asked (each run
 * a fresh walk: nothing is cached between them, so no answer is stale). Bad options throw here,
 * as node-glob's constructor does. Another `Glob` given as options lends its options.
 * @example
 * const g = new Glob('**' + '/*.ts', { cwd: 'src', withFileTypes: true });
 * for await (const entry of g) console.log(entry.relative(), entry.isFile());
 */
export class Glob<O extends GlobOptions = GlobOptions> implements AsyncIterable<GlobItemOf<O>>, Iterable<GlobItemOf<O>> {
  /** The patterns, as given. */
  readonly pattern: string[];
  /** The options, as given. */
  readonly opts: O;

  constructor(pattern: string | readonly string[], opts: O | Glob<O>) {
    const options = opts instanceof Glob ? opts.opts : opts;
    compileGlob(pattern, options);
    this.pattern = typeof pattern === 'string' ? [pattern] : [...pattern];
    this.opts = options;
  }

  /** As `glob`: the whole answer, sorted, with `result`. */
  walk(): Promise<GlobAnswerOf<O>> {
    return globAsync(this.pattern, this.opts) as Promise<GlobAnswerOf<O>>;
  }

  /** As `globSync`. */
  walkSync(): GlobAnswerOf<O> {
    return globSync(this.pattern, this.opts) as GlobAnswerOf<O>;
  }

  /** As `globIterate`. */
  iterate(): GlobIterator<GlobItemOf<O>> {
    return globIterate(this.pattern, this.opts);
  }

  /** As `globIterateSync`. */
  iterateSync(): GlobSyncIterator<GlobItemOf<O>> {
    return globIterateSync(this.pattern, this.opts);
  }

  /** As `globStream`. */
  stream(): GlobStream {
    return globStream(this.pattern, this.opts);
  }

  /** As `globStreamSync`. */
  streamSync(): GlobStream {
    return globStreamSync(this.pattern, this.opts);
  }

  [Symbol.asyncIterator](): GlobIterator<GlobItemOf<O>> {
    return this.iterate();
  }

  [Symbol.iterator](): GlobSyncIterator<GlobItemOf<O>> {
    return this.iterateSync();
  }
}

/**
 * node-glob's `glob` (see `globAsync` above for the call): the paths matching `patterns`, with the
 * verdict as `result`. It carries node-glob's properties too (`glob.sync`, `glob.stream`...), as
 * hosts written for node-glob 7 call them.
 * @example
 * const paths = await glob('**' + '/*.md', { cwd: 'docs' });
 * const same = glob.sync('**' + '/*.md', { cwd: 'docs' });
 */
export const glob = Object.assign(globAsync, {
  /** node-glob's `glob.glob`: `glob` itself. */
  glob: globAsync,
  /** node-glob's `glob.sync`: `globSync`. */
  sync,
  /** node-glob's `glob.globSync`. */
  globSync,
  /** node-glob's `glob.stream`: `globStream`. */
  stream,
  /** node-glob's `glob.globStream`. */
  globStream,
  /** node-glob's `glob.streamSync`: `globStreamSync`. */
  streamSync,
  /** node-glob's `glob.globStreamSync`. */
  globStreamSync,
  /** node-glob's `glob.iterate`: `globIterate`. */
  iterate,
  /** node-glob's `glob.globIterate`. */
  globIterate,
  /** node-glob's `glob.iterateSync`: `globIterateSync`. */
  iterateSync,
  /** node-glob's `glob.globIterateSync`. */
  globIterateSync,
  /** node-glob's `glob.Glob`. */
  Glob,
  /** node-glob's `glob.hasMagic`. */
  hasMagic,
  /** node-glob's `glob.escape`. */
  escape,
  /** node-glob's `glob.unescape`. */
  unescape,
});
