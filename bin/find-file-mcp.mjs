#!/usr/bin/env node
/**
 * find-file-mcp: the MCP server on stdio (`find-file mcp` is the same). docs/mcp.md is the contract;
 * the server is src/mcp/ (built to dist/mcp/, then bundled with the MCP SDK into dist/mcp/bundle.cjs
 * by scripts/bundle.mjs). This file only loads it (bin/load-bundle.mjs).
 */
import { loadBundle } from './load-bundle.mjs';

let main;
try {
  ({ main } = loadBundle(new URL('../dist/mcp/bundle.cjs', import.meta.url)));
} catch (error) {
  process.stderr.write(`find-file mcp: error: cannot load the server: ${error?.message ?? String(error)}\n`);
  process.exit(1);
}
await main(process.argv.slice(2));
