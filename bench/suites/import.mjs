/**
 * What a host pays to load find-file (issue 29): `import()` of the library and of each adapter
 * against `import('tinyglobby')`, the package it replaces. Each round runs every target once, in a
 * fresh process each, in a shuffled order (paired: a noisy neighbour hurts all alike); the child
 * times only its `import()` (not Node's own start-up, the same for all). Medians per target, and the
 * median of the per-round ratios to tinyglobby (the bar: at most 1.5).
 *
 *   node bench/suites/import.mjs [--rounds=21]      (after `npm run build`: it loads dist/)
 */
import '../lib/clean-env.mjs';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatMs, formatRatio, median, renderTable } from '../lib/stats.mjs';

const ROOT = path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url))));
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const rounds = Number(args.rounds ?? 21);

// By package name, as a host imports them (find-file resolves to this checkout by its own name).
const TARGETS = ['tinyglobby', 'glob', 'find-file', 'find-file/tinyglobby', 'find-file/glob', 'find-file/agent'];
const CHILD = "const t = performance.now(); await import(process.argv[1]); process.stdout.write(String(performance.now() - t));";

function timeImport(specifier) {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD, specifier], { cwd: ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`import(${specifier}) failed: ${run.stderr}`);
  return Number(run.stdout);
}

function shuffled(items) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

for (const target of TARGETS) timeImport(target); // warm the OS file cache once
const times = Object.fromEntries(TARGETS.map((t) => [t, []]));
const ratios = Object.fromEntries(TARGETS.map((t) => [t, []]));
for (let r = 0; r < rounds; r++) {
  const round = {};
  for (const target of shuffled(TARGETS)) round[target] = timeImport(target);
  for (const target of TARGETS) {
    times[target].push(round[target]);
    ratios[target].push(round[target] / round.tinyglobby);
  }
}
const rows = TARGETS.map((t) => [`import('${t}')`, formatMs(median(times[t])), formatRatio(median(ratios[t]))]);
console.log(`import time, ${rounds} paired rounds, fresh processes (Node ${process.version})\n`);
console.log(renderTable(['what', 'median', 'ratio to tinyglobby (median of rounds)'], rows));
