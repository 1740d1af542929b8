#!/usr/bin/env node
/**
 * find-file: the command-line face of the library. docs/cli.md is the contract; the command itself
 * is src/cli/ (built to dist/cli/, then bundled into dist/cli/bundle.cjs), starting at
 * src/cli/main.ts. This file only loads it (bin/load-bundle.mjs).
 */
import { loadBundle } from './load-bundle.mjs';

// `find-file mcp ...` is the MCP server (bin/find-file-mcp.mjs), not a search for files named "mcp".
const mcp = process.argv[2] === 'mcp';
let main;
try {
  // The command is bundled (scripts/bundle.mjs): start-up reads one file, not ~150, and not all at
  // once: under a low open-file limit (`ulimit -n 32`) the ES module loader, which opens every file
  // of a module graph together, failed with EMFILE and a stack trace before this file ran. Should
  // loading still fail, the cause is one line and status 1.
  ({ main } = loadBundle(new URL(mcp ? '../dist/mcp/bundle.cjs' : '../dist/cli/bundle.cjs', import.meta.url)));
} catch (error) {
  const hint = error?.code === 'EMFILE' || error?.code === 'ENFILE' ? ' (too many open files: raise the limit, e.g. ulimit -n 1024)' : '';
  process.stderr.write(`find-file: error: cannot load find-file: ${error?.message ?? String(error)}${hint}\n`);
  process.exit(1);
}
await main(process.argv.slice(mcp ? 3 : 2));
