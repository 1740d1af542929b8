/**
 * Shared set-up for the agent tool tests: a workspace on memfs at /w with a fake clock, optionally
 * behind the fault-injecting fs (given the file reads content search needs, with faults of their own).
 */
import type { ToolContext } from '../../src/agent/index.js';
import type { FsLike } from '../../src/fs.js';
import { FakeClock, asFs, buildVolume, faultyFs, type FaultOptions, type Tree } from './memfs.js';
import type { AnswerFacts } from '../../src/agent/text.js';

export const W = '/w';

export interface AgentFaults extends FaultOptions {
  /** Path → error code thrown by `open` on it. */
  open?: Record<string, string>;
}

export function workspace(tree: Tree, ctx: Partial<Omit<ToolContext, 'clock'>> = {}, faults?: AgentFaults, root = W): ToolContext & { clock: FakeClock } {
  const vol = buildVolume(tree, root);
  const clock = new FakeClock();
  let fs: FsLike = asFs(vol);
  if (faults !== undefined) {
    const base = asFs(vol);
    fs = {
      ...faultyFs(base, faults),
      open(path, flags, callback) {
        const code = faults.open?.[path];
        if (code === undefined) return base.open!(path, flags, callback);
        const error: NodeJS.ErrnoException = Object.assign(new Error(`${code}: open '${path}'`), { code });
        setImmediate(() => callback(error, -1));
      },
      read: base.read!.bind(base),
      close: base.close!.bind(base),
    };
  }
  return { root, fs, platform: 'posix', ...ctx, clock };
}

/** `n` files named `f000.txt` ... in one directory. */
export function manyFiles(n: number, ext = 'txt'): Tree {
  const tree: Tree = {};
  for (let i = 0; i < n; i++) tree[`f${String(i).padStart(3, '0')}.${ext}`] = '';
  return tree;
}

/** An empty glob answer's facts under /w, for the answer-text tests: complete and exact unless `over` says otherwise. */
export function globFacts(over: Partial<AnswerFacts> = {}): AnswerFacts {
  return {
    tool: 'glob',
    emptyHeadline: 'No files matching "x" under /w (search complete).',
    scope: 'files matching "x" under /w',
    lines: [],
    total: { count: 0, kind: 'exact' },
    complete: true,
    gaps: { reasons: [], skipped: [], timeBudgetMs: 5000, maxDepth: 4, countCap: 1000, maxOutputBytes: 1048576 },
    policy: { exclude: [], excludedCount: 0, symlinkSkipped: 0 },
    limit: 100,
    maxLimit: 500,
    ...over,
  };
}

