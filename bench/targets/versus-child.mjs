#!/usr/bin/env node
/**
 * The process bench/suites/versus.mjs times one build in: that build, one search, 1 warm-up then 5
 * timed with GC before each; one line of JSON (median ms, match count, a digest of the answer).
 *
 *   node --expose-gc bench/targets/versus-child.mjs --dist=DIST/index.js --root=DIR --pattern=GLOB --api=async|sync
 */
import { pathToFileURL } from 'node:url';
import { median } from '../lib/stats.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));

// Child: one build, one search, timed.
const lib = await import(pathToFileURL(args.dist).href);
const options = { root: args.root, pattern: args.pattern };
const run = args.api === 'sync' ? () => lib.findFilesSync(options) : () => lib.findFiles(options);
const first = await run();
const times = [];
for (let i = 0; i < 5; i++) {
  globalThis.gc?.();
  const t = performance.now();
  await run();
  times.push(performance.now() - t);
}
console.log(JSON.stringify({ ms: median(times), count: first.matchedCount, digest: first.matches.join('\0').length }));
