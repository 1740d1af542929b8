#!/usr/bin/env node
/**
 * The fresh process bench/lib/memory.mjs measures one search in (what it reports, and how, is
 * described there): garbage collected, baseline noted, the search run with its result kept alive,
 * one line of JSON on stdout.
 *
 *   node --expose-gc bench/targets/memory-child.mjs TOOL ROOT
 */
import * as path from 'node:path';

async function runChild(toolName, root) {
  const { resolveWorkload, toolNamed } = await import('../lib/tools.mjs');
  const { findFilesStream } = await import('../../dist/index.js');
  const w = resolveWorkload('all', path.basename(root));
  globalThis.gc();
  const base = process.memoryUsage();
  let peakHeap = base.heapUsed;
  const sample = () => {
    const heap = process.memoryUsage().heapUsed;
    if (heap > peakHeap) peakHeap = heap;
  };
  const sampler = setInterval(sample, 1);
  let count = 0;
  let keep;
  let liveHeap = 0;
  const sampleLive = () => {
    globalThis.gc();
    liveHeap = Math.max(liveHeap, process.memoryUsage().heapUsed);
  };
  if (toolName === 'find-file stream') {
    // The streaming API as it is meant to be used: each path handled, then let go.
    for await (const p of findFilesStream({ root, pattern: w.findPattern })) {
      if (p.length > 0) count++;
      if ((count & 1023) === 0) sample();
      if ((count & 16383) === 0) sampleLive();
    }
  } else if (toolName !== 'node (imports only)') {
    const tool = toolNamed(toolName);
    keep = await tool.run(root, w);
    count = keep.length;
  }
  sample();
  clearInterval(sampler);
  sampleLive(); // the result (if any) is still referenced by `keep`
  const result = {
    tool: toolName,
    count,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    peakHeapBytes: peakHeap,
    liveHeapBytes: liveHeap,
    baseHeapBytes: base.heapUsed,
    baseRssBytes: base.rss,
  };
  keep = undefined;
  process.stdout.write(JSON.stringify(result) + '\n');
}

await runChild(process.argv[2], process.argv[3]);
