/**
 * The watched index (issue 32, docs/index.md): what building it costs against a fresh walk, how
 * fast it answers a repeated query (the answer reused, nothing changed), a query after a change
 * (a walk over the kept listings), and a fresh `findFiles` of the same query; the memory it holds
 * per indexed entry; how fast it absorbs a burst of events. Library calls in this process,
 * tinybench for latencies (p50 and p99 of the samples), `gc()` before each heap reading.
 *
 *   npm run build && node bench/suites/index.mjs [--trees=synthetic,/usr] [--samples=40]
 *
 * A tree named by an absolute path (`/usr`) is a system tree: read only, so without the "after a
 * change" and burst rows. `--parcel=DIR` adds `@parcel/watcher`'s subscribe (its own crawl and a
 * watch per directory) from a folder where it is installed (`npm i @parcel/watcher` there): a
 * peer measured in the same run, not a dependency of the project.
 *
 * The "after a change" columns touch one file before each sample (outside the timing): in the
 * query's own directories (each answer pays the sync and a walk over kept listings, never the
 * reuse), and, for the rooted glob, in a directory its walk never reads (the answer is reused).
 */
import '../lib/clean-env.mjs';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, rmSync, utimesSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { findFiles, openIndex } from '../../dist/index.js';
import { ensureTree, treeRoot } from '../lib/fixtures.mjs';
import { gc } from '../lib/gc.mjs';
import { median, renderTable } from '../lib/stats.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const trees = (args.trees ?? 'synthetic').split(',');
const samples = Number(args.samples ?? 40);
/** CPU time of each round's bare watches (watchesOnly), for the CPU-time floor. */
const watchCpu = [];
/** A tree of our own (bench/fixtures) is changed by the "after a change" and burst rows; a system tree (`/usr`) is only read. */
const QUERIES = {
  own: [
    // `elsewhere`: a directory the query's walk never reads, changed before each sample of the last column.
    { name: 'rooted glob `src/**/*.ts`', query: { pattern: 'src/**/*.ts' }, elsewhere: 'test' },
    { name: '`**/*.ts`', query: { pattern: '**/*.ts' } },
  ],
  system: [
    { name: 'rooted glob `include/**/*.h`', query: { pattern: 'include/**/*.h' } },
    { name: '`**/*.ts`', query: { pattern: '**/*.ts' } },
  ],
};

/** The burst's writer, run as its own process (argv: directory, count). */
const WRITER = `const { writeFileSync } = require('node:fs'); const [dir, n] = process.argv.slice(1); for (let i = 0; i < Number(n); i++) writeFileSync(dir + '/f' + i, '');`;

const ms = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(0));

async function timeOnce(fn) {
  gc();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  // CPU time (this process, libuv's pool included) is less moved by other work on a shared machine than wall time.
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, value };
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
async function heapNow() {
  // Full collections a few turns apart: a closed watch's handle is freed only some turns after close().
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

/** `@parcel/watcher` from `--parcel=DIR`, or undefined. */
const parcel = args.parcel === undefined ? undefined : createRequire(join(args.parcel, 'x.js'))('@parcel/watcher');

/** Time to subscribe to `root` with `@parcel/watcher` (it crawls the tree and watches each directory). */
async function parcelSubscribe(root) {
  const started = performance.now();
  const subscription = await parcel.subscribe(root, () => {});
  const ms = performance.now() - started;
  await subscription.unsubscribe();
  return ms;
}

/** What watching alone costs: one bare `fs.watch` per directory of the tree, closed after (the build's floor beside the walk). */
async function watchesOnly(dirs) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const handles = dirs.map((dir) => watch(dir, { persistent: false }, () => {}));
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  watchCpu.push((used.user + used.system) / 1000);
  for (const handle of handles) handle.close();
  await new Promise((resolve) => setImmediate(resolve));
  return ms;
}

/** A burst: N files created by another process (this loop stays free to read events, as a host's would), then one query that must see them all. */
async function burstRow(index, root) {
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
  rmSync(burst, { recursive: true });
  const { syncFailures, overflows } = index.stats();
  return [
    [`burst of ${N.toLocaleString('en-US')} creates by another process: writing (ms)`, ms(written - started)],
    ['then the first query that sees them all (ms)', ms(absorbed - written)],
    ['events absorbed per second (creates / (writing + query))', Math.round(N / ((absorbed - started) / 1000)).toLocaleString('en-US')],
    ['syncs that failed / overflows told (either: the index reread the disk)', `${syncFailures} / ${overflows}`],
  ];
}

for (const tree of trees) {
  const system = tree.startsWith('/');
  if (!system) ensureTree(tree);
  const root = system ? tree : treeRoot(tree);
  const all = await findFiles({ root, pattern: '**', type: 'any' });
  const entries = all.stats.entriesSeen;
  const dirs = [root, ...(await findFiles({ root, pattern: '**', type: 'directory', absolute: true })).matches];

  // Build against a walk and against the walk plus bare watches: three of each, interleaved, medians.
  const walks = [];
  const builds = [];
  const walkCpu = [];
  const buildCpu = [];
  watchCpu.length = 0;
  const watches = [];
  const parcelTimes = [];
  const heapPerEntry = [];
  for (let round = 0; round < 3; round++) {
    const walked = await timeOnce(() => findFiles({ root, pattern: '**' }));
    walks.push(walked.ms);
    walkCpu.push(walked.cpuMs);
    const before = await heapNow();
    const built = await timeOnce(() => openIndex({ root }));
    builds.push(built.ms);
    buildCpu.push(built.cpuMs);
    heapPerEntry.push(((await heapNow()) - before) / entries);
    built.value.close();
    // After the heap reading: closed watches free their memory only some turns later.
    watches.push(await watchesOnly(dirs));
    if (parcel !== undefined) parcelTimes.push(await parcelSubscribe(root));
  }

  const index = await openIndex({ root });
  const touched = join(root, 'src', '.bench-touch');
  if (!system) writeFileSync(touched, '');
  const touch = () => utimesSync(touched, new Date(), new Date());
  const rows = [];
  for (const { name, query, elsewhere } of QUERIES[system ? 'system' : 'own']) {
    const fresh = await latencies(() => findFiles({ root, ...query }));
    const reused = await latencies(() => index.find(query));
    // A system tree is not ours to change: no "after a change" samples there.
    const changed = system ? undefined : await latencies(() => index.find(query), touch);
    const count = (await index.find(query)).matchedCount;
    const after = changed === undefined ? ['-', '-'] : [ms(changed.p50), ms(changed.p99)];
    const away = elsewhere === undefined || system ? undefined : join(root, elsewhere, '.bench-touch');
    if (away !== undefined) writeFileSync(away, '');
    const apart = away === undefined ? undefined : await latencies(() => index.find(query), () => utimesSync(away, new Date(), new Date()));
    if (away !== undefined) rmSync(away);
    const afterApart = apart === undefined ? ['-', '-'] : [ms(apart.p50), ms(apart.p99)];
    rows.push([`${name} (${count.toLocaleString('en-US')} matches)`, ms(reused.p50), ms(reused.p99), ...after, ...afterApart, ms(fresh.p50), ms(fresh.p99), `${Math.round(fresh.p50 / reused.p50)}x`]);
  }
  const burst = system ? [] : await burstRow(index, root);
  if (!system) rmSync(touched);
  const stats = index.stats();
  index.close();

  console.log(`\n## ${tree}: ${entries.toLocaleString('en-US')} entries, ${stats.dirsWatched.toLocaleString('en-US')} directories watched\n`);
  console.log(renderTable(['', 'median'], [
    ['fresh walk, `findFiles` `**` (ms)', ms(median(walks))],
    [`${dirs.length.toLocaleString('en-US')} bare \`fs.watch\` calls, one per directory (ms)`, ms(median(watches))],
    ['`openIndex` build (ms)', ms(median(builds))],
    ['build / walk', (median(builds) / median(walks)).toFixed(2)],
    ['(walk + bare watches) / walk: the floor of a build that reads and watches on one thread', ((median(walks) + median(watches)) / median(walks)).toFixed(2)],
    ['the same two in CPU time: build / walk, (walk + bare watches) / walk', `${(median(buildCpu) / median(walkCpu)).toFixed(2)}, ${((median(walkCpu) + median(watchCpu)) / median(walkCpu)).toFixed(2)}`],
    ...(parcel === undefined ? [] : [['`@parcel/watcher` subscribe, for comparison (ms)', ms(median(parcelTimes))]]),
    ['heap held per indexed entry (bytes)', Math.round(median(heapPerEntry)).toString()],
    ...burst,
  ]));
  console.log();
  console.log(renderTable(['query', 'reused p50', 'reused p99', 'after a change p50', 'after a change p99', 'after a change elsewhere p50', 'p99', 'fresh findFiles p50', 'fresh p99', 'fresh / reused'], rows));
}
