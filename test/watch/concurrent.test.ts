/**
 * Changes while queries run (issue 32, point 5): a child process creates, removes and renames
 * files and empty directories as fast as it can while the index answers query after query.
 * Every path an answer returns must have existed at some moment during that query: between the
 * call and the answer, by the mutator's own log of when each change happened.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { openIndex } from '../../src/watch/watched-index.js';
import { describeIf, linux } from '../helpers/skip-why.js';
import { makeTree, removeTree } from './helpers.js';

/** CLOCK_MONOTONIC in milliseconds, as the mutator logs it: one clock for both processes. */
const now = () => Number(process.hrtime.bigint()) / 1e6;

/** When a path may have existed: from a creation's start to the next removal's end. */
type Span = [from: number, to: number];

function spansOf(log: string): Map<string, Span[]> {
  const spans = new Map<string, Span[]>();
  for (const line of log.split('\n').filter(Boolean)) {
    const [kind, before, after, path] = line.split(' ') as [string, string, string, string];
    const list = spans.get(path) ?? [];
    spans.set(path, list);
    if (kind === 'c') list.push([Number(before), Infinity]);
    else list[list.length - 1]![1] = Number(after);
  }
  return spans;
}

describeIf(linux('the index watches with inotify'))('answers while the tree changes', () => {
  it('every path returned existed at some moment during its query', async () => {
    const base = makeTree(['d0/keep.ts', 'd1/', 'd2/']);
    const logDir = makeTree();
    const logFile = join(logDir, 'log');
    const index = await openIndex({ root: base });
    try {
      const mutator = spawn(process.execPath, [fileURLToPath(new URL('./mutator.mjs', import.meta.url)), base, '6000', '7', logFile], { stdio: 'inherit' });
      const exited = new Promise<number | null>((resolve) => mutator.on('exit', resolve));
      let running = true;
      void exited.then(() => (running = false));
      const answers: { from: number; to: number; matches: string[] }[] = [];
      while (running) {
        const from = now();
        const result = await index.find({ pattern: '**', type: 'any' });
        answers.push({ from, to: now(), matches: result.matches });
      }
      expect(await exited).toBe(0);
      const spans = spansOf(readFileSync(logFile, 'utf8'));
      const never: string[] = [];
      for (const { from, to, matches } of answers) {
        for (const path of matches) {
          if (['d0', 'd1', 'd2', 'd0/keep.ts'].includes(path)) continue;
          const existed = (spans.get(path) ?? []).some(([a, b]) => a <= to && b >= from);
          // With the spans it had, so that a failure tells a late answer from a clock's error.
          if (!existed) never.push(`${path} in the answer of [${from}, ${to}]; it existed in ${JSON.stringify(spans.get(path) ?? [])}`);
        }
      }
      expect(never).toEqual([]);
      expect(answers.length).toBeGreaterThan(10);
      // The index did follow the changes: answers differ.
      expect(new Set(answers.map((a) => a.matches.join())).size).toBeGreaterThan(5);
      // And a settled tree is answered exactly.
      const settled = await index.find({ pattern: '**', type: 'any' });
      const alive = [...spansOf(readFileSync(logFile, 'utf8'))].filter(([, s]) => s[s.length - 1]![1] === Infinity).map(([p]) => p);
      expect(settled.matches).toEqual(['d0', 'd0/keep.ts', 'd1', 'd2', ...alive].sort());
    } finally {
      index.close();
      removeTree(base);
      removeTree(logDir);
    }
  }, 120_000);
});
