#!/usr/bin/env node
/**
 * find-file: the command-line face of the library. docs/cli.md is the contract; the command itself
 * is src/cli/ (built to dist/cli/, then bundled into dist/cli/bundle.mjs), starting at
 * src/cli/main.ts. This file only loads it.
 */
import * as nodeModule from 'node:module';

// Node >= 22.1 can keep the compiled code of the bundle on disk between runs (in the OS's temp
// folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off): a search of an empty folder took 90 ms in place
// of 96 on Node 22 (docs/performance.md). Node 20 has no such cache, and this is then a no-op.
nodeModule.enableCompileCache?.();

// The modules are loaded with require (Node >= 20.19 loads ES modules that way, synchronously), not
// with static imports: the ESM loader opens every file of the module graph at once, and under a low
// open-file limit (`ulimit -n 32`) it fails with EMFILE, with a stack trace, before this file runs.
// require reads them one at a time. Should loading still fail, the cause is one line and status 1.
const require = nodeModule.createRequire(import.meta.url);
// `find-file mcp ...` is the MCP server (bin/find-file-mcp.mjs), not a search for files named "mcp".
const mcp = process.argv[2] === 'mcp';
let main;
try {
  // The command is bundled (scripts/bundle.mjs): start-up reads one file, not ~150.
  ({ main } = require(mcp ? '../dist/mcp/bundle.mjs' : '../dist/cli/bundle.mjs'));
} catch (error) {
  const hint = error?.code === 'EMFILE' || error?.code === 'ENFILE' ? ' (too many open files: raise the limit, e.g. ulimit -n 1024)' : '';
  process.stderr.write(`find-file: error: cannot load find-file: ${error?.message ?? String(error)}${hint}\n`);
  process.exit(1);
}
await main(process.argv.slice(mcp ? 3 : 2));
