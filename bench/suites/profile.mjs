#!/usr/bin/env node
/**
 * Where does find-file spend its time on a workload? `node --cpu-prof` of it in a fresh process
 * (bench/lib/profile.mjs), summarised by function and by category.
 *
 *   node bench/suites/profile.mjs TREE WORKLOAD [TOOL] [RUNS]   e.g. node bench/suites/profile.mjs synthetic all 'fdir async'
 *   node bench/suites/profile.mjs synthetic cli [CLI]            a process printing every file: 'find-file CLI'
 *                                                               (default), 'fdir CLI' or 'stream script'
 *
 * TOOL is a name from bench/lib/tools.mjs (default `find-file async`), so a peer can be profiled on
 * the same workload for comparison. The .cpuprofile is kept under bench/results/profiles/
 * (gitignored) to open in Chrome DevTools; the summary (top functions by self time, and time per
 * category) is printed. Times per walk divide by RUNS + 1 (the warm-up run is in the profile too).
 */
import { profileWorkload, renderCategories, renderProfile } from '../lib/profile.mjs';

const [tree = 'synthetic', workload = 'all', tool = workload === 'cli' ? 'find-file CLI' : 'find-file async', runs = '5'] = process.argv.slice(2);
const summary = await profileWorkload({ tree, workload, tool, runs: Number(runs) });
console.log(`${summary.name}: ${summary.totalMs.toFixed(0)} ms sampled over ${summary.walks} walks; profile in ${summary.file}\n`);
console.log(renderProfile(summary) + '\n');
console.log(renderCategories([summary]));
