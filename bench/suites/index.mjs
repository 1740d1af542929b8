/**
 * The watched index (issue 32, docs/index.md): what building it costs against a fresh walk, how
 * fast it answers a repeated query (the answer reused, nothing changed), a query after a change
 * (a walk over the kept listings), and a fresh `findFiles` of the same query; the memory it holds
 * per indexed entry; how fast it absorbs a burst of events. Library calls in this process,
 * tinybench for latencies (p50 and p99 of the samples), `gc()` before each heap reading.
 *
 *   npm run build && node bench/suites/index.mjs [--trees=synthetic] [--samples=40]
 *
 * The "after a change" rows touch one file before each sample (outside the timing), so each
 * answer pays the sync and a walk over kept listings, never the reuse.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { findFiles, openIndex } from '../../dist/index.js';
import { ensureTree, treeRoot } from '../lib/fixtures.mjs';
import { gc } from '../lib/gc.mjs';
import { median, renderTable } from '../lib/stats.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const trees = (args.trees ?? 'synthetic').split(',');
const samples = Number(args.samples ?? 40);
const QUERIES = [
  { name: 'rooted glob `src/**/*.ts`', query: { pattern: 'src/**/*.ts' } },
  { name: '`**/*.ts`', query: { pattern: '**/*.ts' } },
];

/** The burst's writer, run as its own process (argv: directory, count). */
const WRITER = `const { writeFileSync } = require('node:fs'); const [dir, n] = process.argv.slice(1); for (let i = 0; i < Number(n); i++) writeFileSync(dir + '/f' + i, '');`;

const ms = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(0));

async function timeOnce(fn) {
  gc();
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

/** p50 and p99 of `fn` over `samples` runs (`beforeEach` outside the timing). */
async function latencies(fn, beforeEach) {
  const bench = new Bench({ iterations: samples, time: 0, warmup: true, warmupIterations: 2, warmupTime: 0, throws: true });
  bench.add('x', fn, beforeEach === undefined ? {} : { beforeEach });
  await bench.run();
  const { latency } = bench.tasks[0].result;
  return { p50: latency.p50, p99: latency.p99 };
}

/** Heap used after a full collection. */
function heapNow() {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

for (const tree of trees) {
  ensureTree(tree);
  const root = treeRoot(tree);
  const all = await findFiles({ root, pattern: '**', type: 'any' });
  const entries = all.stats.entriesSeen;

  // Build against a walk: three of each, interleaved, medians.
  const walks = [];
  const builds = [];
  let heapPerEntry = [];
  for (let round = 0; round < 3; round++) {
    walks.push((await timeOnce(() => findFiles({ root, pattern: '**' }))).ms);
    const before = heapNow();
    const built = await timeOnce(() => openIndex({ root }));
    builds.push(built.ms);
    heapPerEntry.push((heapNow() - before) / entries);
    built.value.close();
  }

  const index = await openIndex({ root });
  const touched = join(root, 'src', '.bench-touch');
  writeFileSync(touched, '');
  const touch = () => utimesSync(touched, new Date(), new Date());
  const rows = [];
  for (const { name, query } of QUERIES) {
    const fresh = await latencies(() => findFiles({ root, ...query }));
    const reused = await latencies(() => index.find(query));
    const changed = await latencies(() => index.find(query), touch);
    const count = (await index.find(query)).matchedCount;
    rows.push([`${name} (${count.toLocaleString('en-US')} matches)`, ms(reused.p50), ms(reused.p99), ms(changed.p50), ms(changed.p99), ms(fresh.p50), ms(fresh.p99), `${Math.round(fresh.p50 / reused.p50)}x`]);
  }

  // A burst: N files created by another process (this loop stays free to read events, as a host's
  // would), then one query that must see them all: the cookie waits for every event before it.
  const burst = join(root, 'bench-burst');
  const N = 20_000;
  mkdirSync(burst);
  await index.find({ pattern: 'bench-burst/*' });
  const started = performance.now();
  const writer = spawn(process.execPath, ['-e', WRITER, burst, String(N)], { stdio: 'inherit' });
  await new Promise((resolve, reject) => writer.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer: ${code}`)))));
  const written = performance.now();
  const seen = await index.find({ pattern: 'bench-burst/*' });
  const absorbed = performance.now();
  if (seen.matchedCount !== N) throw new Error(`burst: ${seen.matchedCount} of ${N} seen`);
  const syncFailures = index.stats().syncFailures;
  rmSync(burst, { recursive: true });
  rmSync(touched);
  const stats = index.stats();
  index.close();

  console.log(`\n## ${tree}: ${entries.toLocaleString('en-US')} entries, ${stats.dirsWatched.toLocaleString('en-US')} directories watched\n`);
  console.log(renderTable(['', 'median'], [
    ['fresh walk, `findFiles` `**` (ms)', ms(median(walks))],
    ['`openIndex` build (ms)', ms(median(builds))],
    ['build / walk', (median(builds) / median(walks)).toFixed(2)],
    ['heap held per indexed entry (bytes)', Math.round(median(heapPerEntry)).toString()],
    [`burst of ${N.toLocaleString('en-US')} creates by another process: writing (ms)`, ms(written - started)],
    ['then the first query that sees them all (ms)', ms(absorbed - written)],
    ['events absorbed per second (creates / (writing + query))', Math.round(N / ((absorbed - started) / 1000)).toLocaleString('en-US')],
    ['syncs that failed (an event lost: the index reread the disk)', String(syncFailures)],
  ]));
  console.log();
  console.log(renderTable(['query', 'reused p50', 'reused p99', 'after a change p50', 'after a change p99', 'fresh findFiles p50', 'fresh p99', 'fresh / reused'], rows));
}
