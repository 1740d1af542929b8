/**
 * Peak memory of one search, each in a fresh node process (`--expose-gc`), so that no library pays
 * for another's garbage. The child collects garbage, notes its baseline, runs the search on the
 * tree keeping the result alive, and reports:
 * - peak RSS: `process.resourceUsage().maxRSS`, exact (the kernel's high-water mark);
 * - peak heap: the largest `heapUsed` seen by a 1 ms sampler during the search and at its end,
 *   garbage not yet collected included. A synchronous walk blocks the sampler, so its peak is the
 *   value at the end, when its result array is largest; the stream also samples every 1,024 paths.
 * - live heap: `heapUsed` right after a full GC, what the search really holds: at the end with the
 *   result array alive, and for the stream the largest of the values taken every 16,384 paths.
 *   "Memory stays flat" is a statement about this one; the peak depends on when V8 collects.
 *
 * Child mode: `node --expose-gc bench/lib/memory.mjs --child TOOL ROOT`.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const SELF = fileURLToPath(import.meta.url);

/** The rows of the memory table: every library listing all files, the stream only counting. */
export const MEMORY_TOOLS = [
  'node (imports only)',
  'find-file async',
  'find-file sync',
  'find-file stream',
  'fdir async',
  'fdir sync',
  'tinyglobby',
  'fast-glob',
  'glob',
  'hand loop (floor)',
];

export function measureMemory(tool, root) {
  const child = spawnSync(process.execPath, ['--expose-gc', SELF, '--child', tool, root], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) throw new Error(`memory child for ${tool} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop());
}

async function runChild(toolName, root) {
  const { TOOLS, resolveWorkload } = await import('./tools.mjs');
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
    const tool = TOOLS.find((t) => t.name === toolName);
    if (!tool) throw new Error(`unknown tool ${toolName}`);
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

if (process.argv[2] === '--child') await runChild(process.argv[3], process.argv[4]);
