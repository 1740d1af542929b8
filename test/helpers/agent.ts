/**
 * Shared set-up for the agent tool tests: a workspace on memfs at /w with a fake clock, optionally
 * behind the fault-injecting fs.
 */
import type { ToolContext } from '../../src/agent/index.js';
import { FakeClock, asFs, buildVolume, faultyFs, type FaultOptions, type Tree } from './memfs.js';

export const W = '/w';

export function workspace(tree: Tree, ctx: Partial<Omit<ToolContext, 'clock'>> = {}, faults?: FaultOptions, root = W): ToolContext & { clock: FakeClock } {
  const vol = buildVolume(tree, root);
  const clock = new FakeClock();
  const fs = faults === undefined ? asFs(vol) : faultyFs(asFs(vol), faults);
  return { root, fs, platform: 'posix', ...ctx, clock };
}

/** `n` files named `f000.txt` ... in one directory. */
export function manyFiles(n: number, ext = 'txt'): Tree {
  const tree: Tree = {};
  for (let i = 0; i < n; i++) tree[`f${String(i).padStart(3, '0')}.${ext}`] = '';
  return tree;
}
