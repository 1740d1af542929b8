/**
 * Bundles what the package runs, so that loading it reads a few files instead of ~150 small ones
 * (resolving, reading and compiling each was most of the start-up time):
 * - the command (dist/cli/main.js and everything it imports, yargs included) into
 *   dist/cli/bundle.cjs, and the MCP server (dist/mcp/main.js, the MCP SDK included) into
 *   dist/mcp/bundle.cjs (each beside its main.js, so their paths to package.json hold), which the
 *   bins load, each with the code V8 compiled for it in a first run (bundle.cjs.v8-cache:
 *   scripts/code-cache.mjs, bin/load-bundle.mjs). So yargs and the MCP SDK are build-time dependencies, never installed with the
 *   package: a host that embeds the library installs only what matching needs (issue 29);
 * - the library's four entry points (`find-file`, `find-file/agent`, `find-file/tinyglobby`,
 *   `find-file/glob`) into dist/lib/, which package.json "exports" names. Their shared code is one
 *   chunk, so the entries share one `FindFileError` class (instanceof holds across them). Perf:
 *   `import('find-file')` went from 1.7x `import('tinyglobby')` to under it (bench/suites/import.mjs).
 * What the library imports only when needed (content search's reader, the ripgrep backend; RE2 is
 * required lazily) stays in chunks of its own, read only then.
 *
 *   node scripts/bundle.mjs [DIST]     (DIST: the compiled tree, default ./dist)
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { markFor } from '../bin/load-bundle.mjs';

const dist = resolve(process.argv[2] ?? new URL('../dist', import.meta.url).pathname);

// Where the build-time dependencies are when DIST is a copy elsewhere (the unprivileged tests' sandbox).
const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const projectModules = join(projectRoot, 'node_modules');

/**
 * yargs guesses a version the moment it is created (before `.version(...)` can say it), by reading
 * every directory from the current one up to the first that holds a package.json: directory reads
 * outside the search root, at start-up, before any budget, where a hung mount above the cwd (or a
 * share the cwd is on) would hold the command and the MCP server for good. Neither bin asks yargs
 * for a guessed version (the command gives its own, the server none), so its directory search is
 * given nothing to read: `findUp` answers "not found" at once, as yargs's browser build does.
 */
const noFindUp = {
  name: 'no-find-up',
  setup(bundler) {
    bundler.onResolve({ filter: /^escalade\/sync$/ }, () => ({ path: 'no-find-up', namespace: 'no-find-up' }));
    bundler.onLoad({ filter: /.*/, namespace: 'no-find-up' }, () => ({ contents: 'export default () => undefined;', loader: 'js' }));
  },
};

/**
 * string-width (yargs's and cliui's, two versions) makes an `Intl.Segmenter` and its emoji regexes
 * when it loads, which is when yargs loads: 26 ms of a usage error's 75 ms of CPU (`find-file` with
 * no pattern), for widths only `--help` measures. Each import of it gets a stand-in that loads the
 * real module on the first width asked, so a command line yargs reads and rejects never pays it.
 */
const lazyStringWidth = {
  name: 'lazy-string-width',
  setup(bundler) {
    bundler.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.pluginData?.real === true) return undefined;
      const real = await bundler.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: { real: true } });
      if (real.errors.length > 0) return { errors: real.errors };
      // Named by its path in the project: the bundle keeps a module's name, and the builder's folders are none of its business.
      return { path: relative(projectRoot, real.path), namespace: 'lazy-string-width' };
    });
    bundler.onLoad({ filter: /.*/, namespace: 'lazy-string-width' }, (args) => ({
      contents: `let width;\nexport default function stringWidth(text, options) {\n  width ??= require(${JSON.stringify(`./${basename(args.path)}`)}).default;\n  return width(text, options);\n}\n`,
      loader: 'js',
      resolveDir: dirname(resolve(projectRoot, args.path)),
    }));
  },
};

for (const part of ['cli', 'mcp']) {
  // The ES module bundles of earlier builds (a bundle and its lazy chunks): gone, not left beside the new one.
  rmSync(resolve(dist, part, 'bundle-chunks'), { recursive: true, force: true });
  rmSync(resolve(dist, part, 'bundle.mjs'), { force: true });

  await build({
    entryPoints: [resolve(dist, part, 'main.js')],
    outfile: resolve(dist, part, 'bundle.cjs'),
    nodePaths: [projectModules],
    bundle: true,
    minifyWhitespace: true,
    minifySyntax: true,
    platform: 'node',
    // CommonJS, one file: bin/load-bundle.mjs compiles it with the code V8 kept of it (Node 20 can
    // give kept code to a script, not to an ES module). What is imported only when needed (content
    // search, the ripgrep backend, yargs) still runs only then: esbuild turns each dynamic import
    // into a call of that module's init.
    format: 'cjs',
    target: 'node20',
    // Every character outside ASCII escaped (esbuild's default, written down because
    // bin/load-bundle.mjs relies on it: it decodes the bundle as Latin-1, faster than UTF-8).
    charset: 'ascii',
    // Where the sources ask for their own place (package.json, the read worker's source).
    define: { 'import.meta.url': '__ffBundleUrl' },
    banner: { js: "const __ffBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [noFindUp, lazyStringWidth],
  });
}

// Each bundle ends with its digest, and its compiled code is kept beside it after a real run (bin/load-bundle.mjs).
markBundle(resolve(dist, 'cli', 'bundle.cjs'));
markBundle(resolve(dist, 'mcp', 'bundle.cjs'));
// A listing and a content search (through rg when it is installed), so both start from compiled code.
keepCompiledCode(resolve(dist, 'cli', 'bundle.cjs'), ['--color', 'never', '**/*.d.ts', dist, '---', '--color', 'never', '--contains', 'export', '--root', resolve(dist, 'walk')]);
keepCompiledCode(resolve(dist, 'mcp', 'bundle.cjs'), []);

function markBundle(bundle) {
  const text = readFileSync(bundle);
  appendFileSync(bundle, markFor(createHash('sha256').update(text).digest('hex')));
}

function keepCompiledCode(bundle, args) {
  const made = spawnSync(process.execPath, [fileURLToPath(new URL('./code-cache.mjs', import.meta.url)), bundle, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (made.status !== 0) throw new Error(`keeping the compiled code of ${bundle} failed (status ${made.status ?? made.signal}):\n${made.stderr}`);
}

// The library: not minified (a host reads its stack traces), with maps that follow tsc's own maps back
// to src/ (shipped). Its dependencies (minimatch, re2js) stay external: the host installs them once.
const lib = resolve(dist, 'lib');
rmSync(lib, { recursive: true, force: true });
await build({
  entryPoints: {
    index: resolve(dist, 'index.js'),
    agent: resolve(dist, 'agent', 'index.js'),
    tinyglobby: resolve(dist, 'compat', 'tinyglobby.js'),
    glob: resolve(dist, 'compat', 'glob.js'),
  },
  outdir: lib,
  bundle: true,
  splitting: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
