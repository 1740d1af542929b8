/**
 * Bundles the command (dist/cli/main.js and everything it imports, yargs included) into
 * dist/cli/bundle.mjs, and the MCP server (dist/mcp/main.js, the MCP SDK included) into
 * dist/mcp/bundle.mjs (each beside its main.js, so their paths to package.json hold), which the bins
 * load. So yargs and the MCP SDK are build-time dependencies, never installed with the package: a
 * host that embeds the library installs only what matching needs (issue 29). Perf: start-up was mostly module loading
 * (resolving, reading and compiling ~150 small files). What the command imports only when it needs
 * it (content search, the ripgrep backend, the RE2 regex engine: 300 KiB) stays in chunks of its
 * own, read only then. The library (dist/index.js) is not bundled: its users import it as it is.
 *
 *   node scripts/bundle-cli.mjs [DIST]     (DIST: the compiled tree, default ./dist)
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
