#!/usr/bin/env node
/**
 * Does find-file's memory stay flat on a huge tree? (issue 8: "findFiles over 1,000,000 memfs
 * entries with maxResults: 100 stays flat"; issue 7: "the streaming API's peak heap does not grow
 * with the number of matches".) A measurement, not a test: it prints numbers and asserts nothing.
 *
 *   node bench/suites/memory-1m.mjs            (about a minute; re-runs itself with a larger heap limit)
 *
 * The volume: 100 dirs x 10 subdirs x 1,000 files = 1,000,000 files in memfs (one `.js` in 4, one
 * `needle-*.txt` in 5,000). The memfs volume itself takes most of the heap, so every figure is
 * relative to the heap after the volume is built and a full GC ran:
 * - peak heap: the largest `heapUsed` seen at each directory read and every 1,024 streamed paths
 *   (garbage included; memfs answers without ever reaching the timers phase, so a timer-based
 *   sampler would see nothing);
 * - live heap: `heapUsed` after a full GC, with the search's result still referenced; for the
 *   stream, also every 100,000 paths.
 */
import '../lib/clean-env.mjs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as v8 from 'node:v8';
import { Volume } from 'memfs';
import { findFiles, findFilesStream } from '../../dist/index.js';
import { gc } from '../lib/gc.mjs';
import { formatCount, formatMiB, renderTable } from '../lib/stats.mjs';

const SELF = fileURLToPath(import.meta.url);
const HEAP_LIMIT_MB = 8192;

// The volume needs more than the default heap limit on some machines: run again with a larger one.
if (v8.getHeapStatistics().heap_size_limit < (HEAP_LIMIT_MB - 512) * 1048576) {
  const child = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_LIMIT_MB}`, SELF, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

const ROOT = '/vol';

function buildVolume() {
  const vol = new Volume();
  let n = 0;
  for (let a = 0; a < 100; a++) {
    for (let b = 0; b < 10; b++) {
      const dir = `${ROOT}/d${a}/s${b}`;
      vol.mkdirSync(dir, { recursive: true });
      for (let c = 0; c < 1000; c++, n++) {
        const name = n % 5000 === 4999 ? `needle-${n}.txt` : n % 4 === 0 ? `f${c}.js` : `f${c}.txt`;
        vol.writeFileSync(`${dir}/${name}`, '');
      }
    }
  }
  return { vol, files: n };
}

function liveHeap() {
  gc();
  return process.memoryUsage().heapUsed;
}

let peak = 0;
function sample() {
  const heap = process.memoryUsage().heapUsed;
  if (heap > peak) peak = heap;
}

/** The volume as find-file sees it, sampling the heap at every directory read. */
function sampledFs(vol) {
  return {
    readdir: (path, options, callback) => {
      sample();
      vol.readdir(path, options, callback);
    },
    readdirSync: (path, options) => vol.readdirSync(path, options),
    lstat: (path, callback) => vol.lstat(path, callback),
    lstatSync: (path) => vol.lstatSync(path),
  };
}

/** Runs `search`; returns its answer and the memory figures relative to the live heap before it. */
async function measure(search) {
  const base = liveHeap();
  peak = base;
  const started = performance.now();
  const answer = await search();
  const ms = performance.now() - started;
  sample();
  const live = liveHeap(); // `answer` is still referenced here
  return { answer, ms, peakAbove: peak - base, liveAbove: live - base };
}

console.log(`building a memfs volume of 1,000,000 files ...`);
const t0 = performance.now();
const { vol, files } = buildVolume();
const fs = sampledFs(vol);
console.log(`  ${formatCount(files)} files, 1,100 dirs, in ${((performance.now() - t0) / 1000).toFixed(1)} s; heap with the volume ${formatMiB(liveHeap())}\n`);

const rows = [];
const searches = [
  ['`**/*`, maxResults 100 (early exit)', { pattern: '**/*', maxResults: 100 }],
  ['`**/needle-*.txt`, maxResults 100 (sparse: walks half the volume)', { pattern: '**/needle-*.txt', maxResults: 100 }],
  ['`**/*.js`, no limit (250,000 matches, array kept)', { pattern: '**/*.js' }],
];
for (const [label, options] of searches) {
  const { answer, ms, peakAbove, liveAbove } = await measure(() => findFiles({ root: ROOT, fs, ...options }));
  rows.push([`findFiles ${label}`, formatCount(answer.matchedCount), formatCount(answer.stats.entriesSeen), formatMiB(peakAbove), formatMiB(liveAbove), `${(ms / 1000).toFixed(1)} s`]);
  console.log(`  done: findFiles ${label}`);
}

// The stream over every file: the live heap, measured every 100,000 paths, must not climb.
const checkpoints = [];
const streamed = await measure(async () => {
  let count = 0;
  const base = liveHeap();
  const stream = findFilesStream({ root: ROOT, fs, pattern: '**/*' });
  for await (const p of stream) {
    if (p.length > 0) count++;
    if ((count & 1023) === 0) sample();
    if (count % 100_000 === 0) checkpoints.push([formatCount(count), formatMiB(liveHeap() - base)]);
  }
  return await stream.summary;
});
rows.push(['findFilesStream `**/*`, every path read and dropped', formatCount(streamed.answer.matchedCount), formatCount(streamed.answer.stats.entriesSeen), formatMiB(streamed.peakAbove), formatMiB(streamed.liveAbove), `${(streamed.ms / 1000).toFixed(1)} s`]);

console.log(`\nMemory over a 1,000,000-file memfs volume (relative to the heap holding the volume)\n`);
console.log(renderTable(['search', 'matches', 'entries seen', 'peak heap above start', 'live heap above start, at the end', 'time'], rows));
console.log(`\nThe stream's live heap (after a full GC) as the paths go by\n`);
console.log(renderTable(['paths streamed', 'live heap above start'], checkpoints));

