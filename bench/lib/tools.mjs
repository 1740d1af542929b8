/**
 * The workloads and, for each library, the call that does that workload's work. Every call returns
 * the list of root-relative `/` paths it found, so that the suite can check the peers against
 * find-file before timing them.
 *
 * Same work means: regular files only, hidden entries included, symlinks neither followed nor
 * returned (find-file's policy: it counts them in `symlinkSkipped`). Each peer is configured as
 * close to that as its options allow; where one cannot be, the count check says so.
 */
import * as fs from 'node:fs';
import fg from 'fast-glob';
import { fdir } from 'fdir';
import { glob, globIterate } from 'glob';
import { glob as tinyglob } from 'tinyglobby';
import { pathToFileURL } from 'node:url';
import { findFiles, findFilesStream, findFilesSync } from '../../dist/index.js';
import { PREVIOUS } from './previous.mjs';

/** The earlier build of find-file (bench/lib/previous.mjs), when the suite has built it. */
const previous = process.env.FF_BENCH_PREVIOUS ? await import(pathToFileURL(process.env.FF_BENCH_PREVIOUS).href) : undefined;

/**
 * A workload: one search, as each API spells it. `rooted` depends on the tree: the pattern must
 * name a subtree the tree has. `suffix`, `base` and `depth` drive the hand loop.
 */
export const WORKLOADS = {
  all: { title: 'all files', describe: () => '`**/*`' },
  js: { title: '*.js', describe: () => '`*.js` (basename, any depth)', findPattern: '*.js', glob: '**/*.js', suffix: '.js' },
  rooted: {
    title: 'rooted glob',
    describe: (tree) => '`' + rootedGlob(tree).glob + '`',
    spec: (tree) => rootedGlob(tree),
  },
  depth3: { title: 'maxDepth 3', describe: () => '`**/*`, maxDepth 3 (files at most 3 levels down)', maxDepth: 3 },
  first100: { title: 'maxResults 100', describe: () => '`**/*`, first 100 files, stop', limit: 100 },
};

export const WORKLOAD_NAMES = Object.keys(WORKLOADS);

/** The rooted glob of each tree: a literal prefix a walker can prune to. */
function rootedGlob(tree) {
  return tree === 'realistic'
    ? { glob: 'node_modules/@aws-sdk/**/*.d.ts', base: 'node_modules/@aws-sdk/', suffix: '.d.ts' }
    : { glob: 'src/**/*.ts', base: 'src/', suffix: '.ts' };
}

/** The workload as plain parameters: the glob, a base directory and suffix, a depth and a count limit. */
export function resolveWorkload(name, tree) {
  const w = WORKLOADS[name];
  const spec = w.spec ? w.spec(tree) : {};
  return {
    name,
    glob: spec.glob ?? w.glob ?? '**/*',
    findPattern: spec.glob ?? w.findPattern ?? '**/*',
    base: spec.base ?? '',
    suffix: spec.suffix ?? w.suffix ?? '',
    maxDepth: w.maxDepth ?? Infinity,
    limit: w.limit ?? Infinity,
  };
}

function findOptions(root, w) {
  const options = { root, pattern: w.findPattern };
  if (w.maxDepth !== Infinity) options.maxDepth = w.maxDepth;
  if (w.limit !== Infinity) options.maxResults = w.limit;
  return options;
}

function buildFdir(w, { relative = true } = {}) {
  // excludeSymlinks: fdir returns every symlink as a file unless told (it has no builder method for it).
  let builder = new fdir({ excludeSymlinks: true });
  builder = relative ? builder.withRelativePaths() : builder.withFullPaths();
  // fdir counts depth from 0 at the root's own entries; find-file from 1.
  if (w.maxDepth !== Infinity) builder = builder.withMaxDepth(w.maxDepth - 1);
  if (w.limit !== Infinity) builder = builder.withMaxFiles(w.limit);
  // With full paths fdir matches the glob against the full path.
  if (w.glob !== '**/*') builder = builder.globWithOptions([relative ? w.glob : `${w.root}/${w.glob}`], { dot: true });
  return builder;
}

/**
 * The JavaScript floor: callback `fs.readdir(withFileTypes)`, every read in flight at once, paths by
 * concatenation, a suffix test on the name. It knows the workload's base directory in advance (a
 * rooted glob's literal prefix), so it is also the floor for pruning. No errors, limits or links
 * are reported: this is what the walk costs before honesty.
 */
export function handLoop(root, w) {
  const out = [];
  return handLoopEach(root, w, (p) => out.push(p)).then(() => out);
}

/** `handLoop`'s walk, each path handed to `onPath` (it answers how many paths it holds: the limit). */
function handLoopEach(root, w, onPath) {
  return new Promise((resolve) => {
    let pending = 0;
    let done = false;
    const finish = () => {
      if (!done) {
        done = true;
        resolve();
      }
    };
    const read = (rel, depth) => {
      pending++;
      fs.readdir(root + '/' + rel, { withFileTypes: true }, (error, entries) => {
        pending--;
        if (!done && !error) {
          for (let i = 0; i < entries.length; i++) {
            const entry = entries[i];
            if (entry.isFile()) {
              if (entry.name.endsWith(w.suffix)) {
                if (onPath(rel + entry.name) >= w.limit) return finish();
              }
            } else if (entry.isDirectory() && depth < w.maxDepth) {
              read(rel + entry.name + '/', depth + 1);
            }
          }
        }
        if (pending === 0) finish();
      });
    };
    read(w.base, w.base === '' ? 1 : w.base.split('/').length);
  });
}

/**
 * The floor of the stream row (issue 31): the hand loop's paths handed over one at a time through
 * an async iterator and read with `for await`, as `findFilesStream`'s are: a promise and a result
 * object per path, the least a stream that yields paths one by one costs. Nothing is bounded or
 * paused, nothing sorted.
 */
export function handLoopPerPath(root, w) {
  let waiting = [];
  let at = 0;
  let handed = 0;
  let ended = false;
  let wake;
  const wakeReader = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const walked = handLoopEach(root, w, (p) => {
    waiting.push(p);
    if (wake !== undefined) wakeReader();
    return ++handed;
  });
  walked.then(() => {
    ended = true;
    wakeReader();
  });
  const next = () => {
    if (at < waiting.length) return Promise.resolve({ value: waiting[at++], done: false });
    waiting = [];
    at = 0;
    if (ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (wake = resolve)).then(next);
  };
  return { [Symbol.asyncIterator]: () => ({ next }) };
}

/**
 * The floor of the sync row (issue 31: "<= 1.10x a bare readdirSync loop that sorts its answer"):
 * `readdirSync(withFileTypes)`, breadth first, paths by concatenation, then one plain sort, since
 * find-file's answer is sorted and fdir's is not. No errors, limits or links reported.
 */
export function handLoopSyncSorted(root, w) {
  const out = [];
  const queue = [{ rel: w.base, depth: w.base === '' ? 1 : w.base.split('/').length }];
  for (let head = 0; head < queue.length && out.length < w.limit; head++) {
    const { rel, depth } = queue[head];
    let entries;
    try {
      entries = fs.readdirSync(root + '/' + rel, { withFileTypes: true });
    } catch {
      continue;
    }
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (entry.isFile()) {
        if (entry.name.endsWith(w.suffix)) out.push(rel + entry.name);
      } else if (entry.isDirectory() && depth < w.maxDepth) {
        queue.push({ rel: rel + entry.name + '/', depth: depth + 1 });
      }
    }
  }
  if (out.length > w.limit) out.length = w.limit;
  return out.sort();
}

async function collect(iterable, limit) {
  const out = [];
  for await (const p of iterable) {
    out.push(p);
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * The tools, in table order. `run(root, w)` returns (a promise of) the paths. `note(w)` says where a
 * tool cannot do the workload's exact work, shown next to its row.
 */
export const TOOLS = [
  {
    name: 'find-file async',
    run: async (root, w) => (await findFiles(findOptions(root, w))).matches,
  },
  {
    name: 'find-file sync',
    run: (root, w) => findFilesSync(findOptions(root, w)).matches,
  },
  {
    name: 'find-file stream',
    run: (root, w) => collect(findFilesStream(findOptions(root, w)), Infinity),
  },
  {
    name: 'fdir async',
    run: (root, w) => buildFdir(w).crawl(root).withPromise(),
    note: (w) => (w.glob.startsWith('**') ? undefined : 'fdir has no pruning: it walks everything and filters with picomatch'),
  },
  {
    name: 'fdir sync',
    run: (root, w) => buildFdir(w).crawl(root).sync(),
  },
  {
    // fdir's fastest mode that still names each file (15-20% faster than relative paths here):
    // a second reference, since every other row returns root-relative paths.
    name: 'fdir async, full paths',
    run: (root, w) => buildFdir({ ...w, root }, { relative: false }).crawl(root).withPromise(),
    note: (w) => (w.name === 'all' ? 'absolute paths (fdir `withFullPaths`), in every column, where every other row returns root-relative ones' : undefined),
  },
  {
    name: 'tinyglobby',
    run: async (root, w) => {
      const options = { cwd: root, dot: true, followSymbolicLinks: false, expandDirectories: false };
      if (w.maxDepth !== Infinity) options.deep = w.maxDepth - 1;
      const paths = await tinyglob(w.glob, options);
      return w.limit === Infinity ? paths : paths.slice(0, w.limit);
    },
    note: (w) => (w.limit === Infinity ? undefined : 'no result limit: full walk, then the first 100'),
  },
  {
    name: 'fast-glob',
    run: async (root, w) => {
      const options = { cwd: root, dot: true, followSymbolicLinks: false, onlyFiles: true };
      if (w.maxDepth !== Infinity) options.deep = w.maxDepth;
      if (w.limit === Infinity) return fg(w.glob, options);
      const stream = fg.stream(w.glob, options);
      const paths = await collect(stream, w.limit);
      stream.destroy();
      return paths;
    },
  },
  {
    name: 'glob',
    run: async (root, w) => {
      const options = { cwd: root, dot: true, nodir: true, follow: false, posix: true };
      if (w.maxDepth !== Infinity) options.maxDepth = w.maxDepth;
      if (w.limit === Infinity) return glob(w.glob, options);
      return collect(globIterate(w.glob, options), w.limit);
    },
  },
  {
    name: 'hand loop (floor)',
    run: (root, w) => handLoop(root, w),
  },
  {
    // find-file's answer is sorted (the same tree, the same list); fdir's and the hand loop's are not.
    name: 'hand loop, sorted (floor)',
    run: async (root, w) => (await handLoop(root, w)).sort(),
  },
  {
    // What a stream of single paths costs at least: the row `find-file stream` is read against.
    name: 'hand loop, per path (floor)',
    run: (root, w) => collect(handLoopPerPath(root, w), w.limit),
  },
  {
    name: 'hand loop sync, sorted (floor)',
    run: (root, w) => handLoopSyncSorted(root, w),
  },
  ...(previous
    ? [
        {
          name: `find-file ${PREVIOUS.commit} async`,
          run: async (root, w) => (await previous.findFiles(findOptions(root, w))).matches,
          note: (w) => w.name !== 'all' ? undefined : `this project's build at ${PREVIOUS.commit} (${PREVIOUS.why}), so that a regression shows`,
        },
      ]
    : []),
];

export const BASELINE = 'fdir async';

/** The tool of that name; throws for a name the table does not have. */
export function toolNamed(name) {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw new Error(`unknown tool ${name}`);
  return tool;
}
