/**
 * Bundles what the package runs, so that loading it reads a few files instead of ~150 small ones
 * (resolving, reading and compiling each was most of the start-up time):
 * - the command (dist/cli/main.js and everything it imports, yargs included) into
 *   dist/cli/bundle.mjs, and the MCP server (dist/mcp/main.js, the MCP SDK included) into
 *   dist/mcp/bundle.mjs (each beside its main.js, so their paths to package.json hold), which the
 *   bins load. So yargs and the MCP SDK are build-time dependencies, never installed with the
 *   package: a host that embeds the library installs only what matching needs (issue 29);
 * - the library's four entry points (`find-file`, `find-file/agent`, `find-file/tinyglobby`,
 *   `find-file/glob`) into dist/lib/, which package.json "exports" names. Their shared code is one
 *   chunk, so the entries share one `FindFileError` class (instanceof holds across them). Perf:
 *   `import('find-file')` went from 1.7x `import('tinyglobby')` to under it (bench/suites/import.mjs).
 * What is imported only when needed (content search's reader, the ripgrep backend; RE2 is required
 * lazily) stays in chunks of its own, read only then.
 *
 *   node scripts/bundle.mjs [DIST]     (DIST: the compiled tree, default ./dist)
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = resolve(process.argv[2] ?? new URL('../dist', import.meta.url).pathname);

// Where the build-time dependencies are when DIST is a copy elsewhere (the unprivileged tests' sandbox).
const projectModules = fileURLToPath(new URL('../node_modules', import.meta.url));

for (const part of ['cli', 'mcp']) {
  // Chunk names are content hashes: without this, every rebuild would leave the old ones beside the new.
  rmSync(resolve(dist, part, 'bundle-chunks'), { recursive: true, force: true });

  await build({
    entryPoints: [resolve(dist, part, 'main.js')],
    outdir: resolve(dist, part),
    nodePaths: [projectModules],
    entryNames: 'bundle',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    minifyWhitespace: true,
    minifySyntax: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Modules yargs loads with require() (y18n's locale files are read at run time, and missing
    // ones fall back to yargs' English strings, which are its keys).
    banner: { js: "import { createRequire as __ffCreateRequire } from 'node:module'; const require = __ffCreateRequire(import.meta.url);" },
    chunkNames: 'bundle-chunks/[hash]',
    legalComments: 'none',
    logLevel: 'warning',
  });
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
