/**
 * The content-search workload: every file searched for a literal that one file in 1,000 holds
 * (`NEEDLE_7f3a`, planted by fixtures.mjs). find-file's two backends, a hand loop (the JS floor:
 * the walk, then `fs.readFile` with 32 files in flight and `indexOf`), and `rg` and `grep` as whole
 * processes. On the 200k-file tree the pure-TS path takes tens of seconds, so there each tool is
 * timed once or a few times: the counts say how many.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { searchContent } from '../../dist/index.js';
import { handLoop } from './tools.mjs';
import { median } from './stats.mjs';

export const NEEDLE = 'NEEDLE_7f3a';

async function handContentLoop(root) {
  const files = await handLoop(root, { base: '', suffix: '', maxDepth: Infinity, limit: Infinity });
  let next = 0;
  let hits = 0;
  const worker = async () => {
    while (next < files.length) {
      const rel = files[next++];
      const text = await fs.promises.readFile(root + '/' + rel, 'latin1');
      if (text.indexOf(NEEDLE) !== -1) hits++;
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  return hits;
}

function rgPath() {
  const found = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();
  return fs.existsSync('/usr/bin/rg') ? '/usr/bin/rg' : found || undefined;
}

/** The in-process tools: each returns the number of matching lines (one per needle file here). */
export function contentTools() {
  const rg = rgPath();
  return [
    { name: 'find-file searchContent (walker)', run: async (root) => (await searchContent({ root, query: NEEDLE, backend: 'walker' })).hits.length },
    {
      name: 'find-file searchContent (ripgrep)',
      run: async (root) => (await searchContent({ root, query: NEEDLE, backend: 'ripgrep', ...(rg ? { rgPath: rg } : {}) })).hits.length,
      missing: rg ? undefined : 'ripgrep is not installed',
    },
    { name: 'hand loop (walk + readFile x32)', run: handContentLoop },
    { name: 'rg -uu -F (process)', run: (root) => countLines(rg, ['-uu', '-F', NEEDLE, '.'], root), missing: rg ? undefined : 'ripgrep is not installed' },
    { name: 'grep -rF (process)', run: (root) => countLines('grep', ['-rF', NEEDLE, '.'], root) },
  ];
}

function countLines(file, args, cwd) {
  const r = spawnSync(file, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`${file} exited with ${r.status}`);
  return r.stdout.split('\n').filter(Boolean).length;
}

/** Times each tool `runs` times (interleaved, after `warmup` untimed runs); returns the rows. */
export async function measureContent(root, { runs, warmup }) {
  const tools = contentTools().filter((t) => !t.missing);
  const samples = new Map(tools.map((t) => [t.name, []]));
  const hits = new Map();
  for (let i = 0; i < warmup; i++) for (const t of tools) hits.set(t.name, await t.run(root));
  for (let i = 0; i < runs; i++) {
    for (let j = 0; j < tools.length; j++) {
      const t = tools[(i + j) % tools.length];
      const started = performance.now();
      hits.set(t.name, await t.run(root));
      samples.get(t.name).push(performance.now() - started);
    }
  }
  return contentTools().map((t) =>
    t.missing ? { name: t.name, skipped: t.missing } : { name: t.name, medianMs: median(samples.get(t.name)), samplesMs: samples.get(t.name), hits: hits.get(t.name) },
  );
}
