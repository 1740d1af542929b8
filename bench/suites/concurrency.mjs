#!/usr/bin/env node
/**
 * How much does the cap on directory reads in flight cost? `findFiles` listing every file with
 * several `concurrency` values, beside fdir async (unbounded), interleaved, full GC before each
 * run, medians. A tuning aid for the walker's default, not part of `npm run bench`.
 *
 *   node bench/suites/concurrency.mjs [TREE] [RUNS] [LIST]   e.g. node bench/suites/concurrency.mjs realistic 11 256,1024,4096
 */
import { fdir } from 'fdir';
import { findFiles } from '../../dist/index.js';
import { ensureTree, treeRoot } from '../lib/fixtures.mjs';
import { gc } from '../lib/gc.mjs';
import { formatMs, formatRatio, median, renderTable } from '../lib/stats.mjs';

const [tree = 'synthetic', runs = '9', list = '8,16,32,64,128,256,1024,4096'] = process.argv.slice(2);
const manifest = ensureTree(tree);
const root = treeRoot(tree);
const tools = {
  'fdir async (unbounded)': () => new fdir({ excludeSymlinks: true }).withRelativePaths().crawl(root).withPromise(),
};
for (const c of list.split(',').map(Number)) tools[`find-file async, concurrency ${c}`] = () => findFiles({ root, pattern: '**/*', concurrency: c });

const samples = Object.fromEntries(Object.keys(tools).map((name) => [name, []]));
for (let r = 0; r <= Number(runs); r++) {
  for (const [name, run] of Object.entries(tools)) {
    gc();
    const started = performance.now();
    await run();
    if (r > 0) samples[name].push(performance.now() - started); // round 0 warms up
  }
}
const baseline = median(samples['fdir async (unbounded)']);
console.log(`${tree} tree (${manifest.files.toLocaleString('en-US')} files, ${manifest.dirs.toLocaleString('en-US')} dirs): median of ${runs}, every file\n`);
console.log(renderTable(['tool', 'median', 'ratio to fdir async'], Object.entries(samples).map(([name, s]) => [name, formatMs(median(s)), formatRatio(median(s) / baseline)])));
