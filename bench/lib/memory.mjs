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
 * The child: bench/targets/memory-child.mjs.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'targets', 'memory-child.mjs');

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
  const child = spawnSync(process.execPath, ['--expose-gc', CHILD, tool, root], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) throw new Error(`memory child for ${tool} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop());
}
