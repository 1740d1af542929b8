/**
 * Loads a command's bundle (dist/cli/bundle.cjs, dist/mcp/bundle.cjs: scripts/bundle.mjs) with the
 * code V8 compiled for it at build time, kept beside it (`bundle.cjs.v8-cache`, written by
 * scripts/code-cache.mjs after a real run, so the functions that run ran once and are in it).
 *
 * Perf: a short search's start-up went from 108-114 to 94-100 ms (time at exit; compiling the
 * bundle's modules had been ~10 ms of it), and the test suite starts the command ~470 times
 * (docs/performance.md, Round 11). Node >= 22.1 keeps compiled code
 * itself (`module.enableCompileCache`, in the OS's temp folder): there the bundle is required as any
 * module. Node 20 has no such cache: the bundle is compiled here, as a CommonJS module would be,
 * with the kept code.
 *
 * V8 checks that the kept code is its own (its version, its flags) and rejects it otherwise (then it
 * compiles as usual: slower, never wrong); of the source it checks only the length. So the build
 * ends each bundle with the SHA-256 of what precedes it (`BUNDLE_MARK`), the cache starts with the
 * mark of the bundle it was made from, and is used only beside that bundle: a rebuilt bundle with a
 * stale cache beside it is compiled from its source. Perf: the mark is read, not computed (loading
 * node:crypto to hash the bundle took 7-10 ms, more than half of what the kept code saves).
 */

// Builtins by process.getBuiltinModule, not by import: an ES module's import of node:fs builds its
// facade, which reads every export, fs.promises too, and so loads fs/promises, readline and the
// streams, which a search of names never uses (a few ms with the other cuts of Round 11).
const { readFileSync } = process.getBuiltinModule('node:fs');
const nodeModule = process.getBuiltinModule('node:module');
const { dirname } = process.getBuiltinModule('node:path');
const { fileURLToPath } = process.getBuiltinModule('node:url');
const { Script } = process.getBuiltinModule('node:vm');

/** How a bundle ends: this, then the SHA-256 of everything before it in hex, then a newline (`markFor`). */
export const BUNDLE_MARK = '\n//# find-file-bundle-sha256=';

/** The mark of a bundle whose content has this SHA-256 (hex): written by scripts/bundle.mjs, read here. */
export function markFor(sha256Hex) {
  return `${BUNDLE_MARK}${sha256Hex}\n`;
}

/** The mark's length in bytes (ASCII). */
export const MARK_BYTES = markFor('0'.repeat(64)).length;

/** Where the compiled code of `bundle` is kept. */
export function cachePathOf(bundle) {
  return `${bundle}.v8-cache`;
}

/** The exports of the bundle at `url` (a bin's `new URL(..., import.meta.url)`): on Node >= 22.1 through Node's own compile cache, else with the kept code. */
export function loadBundle(url) {
  const bundle = fileURLToPath(url);
  if (nodeModule.enableCompileCache !== undefined) {
    nodeModule.enableCompileCache();
    return nodeModule.createRequire(bundle)(bundle);
  }
  return runBundle(compileBundle(bundle).script, bundle);
}

/** Runs the compiled bundle as Node runs a CommonJS module (its own `require`, `module`, paths); returns its exports. */
export function runBundle(script, bundle) {
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, nodeModule.createRequire(bundle), module, bundle, dirname(bundle));
  return module.exports;
}

/**
 * The bundle compiled as a CommonJS module's function, not yet run, and what became of its kept code:
 * `used`, `none` (no cache, or no mark), `stale` (made from another bundle) or `rejected` (by V8).
 */
export function compileBundle(bundle) {
  // ASCII only (scripts/bundle.mjs: `charset: 'ascii'`), so Latin-1 reads it as UTF-8 would, in 1.3 ms, not 2.
  const bytes = readFileSync(bundle);
  const mark = markOf(bytes);
  const cachedData = mark === undefined ? undefined : keptCode(bundle, mark);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${bytes.toString('latin1')}\n})`, {
    filename: bundle,
    cachedData: cachedData || undefined,
  });
  const kept = cachedData === undefined ? 'none' : cachedData === false ? 'stale' : script.cachedDataRejected ? 'rejected' : 'used';
  return { script, mark, kept };
}

/** The bundle's mark (the mark's text, the digest and the newline), or undefined when it has none. */
function markOf(bytes) {
  const mark = bytes.subarray(bytes.length - MARK_BYTES);
  return mark.toString('latin1').startsWith(BUNDLE_MARK) ? mark : undefined;
}

/** The kept code when it was made from the bundle with this mark; undefined when there is none, false when it is stale. */
function keptCode(bundle, mark) {
  let kept;
  try {
    kept = readFileSync(cachePathOf(bundle));
  } catch {
    return undefined; // never built (a checkout before `npm run build`'s last step): compiled as usual
  }
  return kept.length > MARK_BYTES && kept.subarray(0, MARK_BYTES).equals(mark) ? kept.subarray(MARK_BYTES) : false;
}
