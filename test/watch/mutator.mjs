/**
 * A child process that changes a tree while the index answers queries about it, and logs when
 * each change happened: `c|d <before> <after> <path>` (created, deleted), times as
 * CLOCK_MONOTONIC in milliseconds (`process.hrtime`, the same clock in every process).
 * Usage: node mutator.mjs <root> <ops> <seed> <log file>
 */
import { mkdirSync, renameSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from './oracle.mjs';

const [root, opsText, seedText, logFile] = process.argv.slice(2);
const random = prng(Number(seedText));
// CLOCK_MONOTONIC (libuv's hrtime) is one clock for every process of the machine; timeOrigin +
// performance.now() is not: each process maps its start to the wall clock once, and two such
// mappings were seen several milliseconds apart on a loaded machine (false failures).
const now = () => Number(process.hrtime.bigint()) / 1e6;
const pick = (list) => list[Math.floor(random() * list.length)];
const DIRS = ['d0', 'd1', 'd2'];
const FILES = ['f0.ts', 'f1.ts', 'f2.md', 'f3.ts'];
const EMPTY = ['e0', 'e1'];
const alive = new Set();
const log = [];

function change(kind, paths, fn) {
  const before = now();
  fn();
  const after = now();
  for (const [k, path] of paths) {
    if (k === 'c') alive.add(path);
    else alive.delete(path);
    log.push(`${k} ${before} ${after} ${path}`);
  }
  void kind;
}

for (let i = 0; i < Number(opsText); i++) {
  const path = `${pick(DIRS)}/${pick([...FILES, ...EMPTY])}`;
  const isDir = EMPTY.some((e) => path.endsWith(e));
  if (!alive.has(path)) change('create', [['c', path]], () => (isDir ? mkdirSync(join(root, path)) : writeFileSync(join(root, path), 'x')));
  else if (isDir) change('remove', [['d', path]], () => rmdirSync(join(root, path)));
  else if (random() < 0.5) change('remove', [['d', path]], () => unlinkSync(join(root, path)));
  else {
    const to = `${pick(DIRS)}/${pick(FILES)}`;
    if (to === path) continue;
    // A rename over an existing file replaces it: it is deleted and created again in the same call.
    change('rename', [['d', path], ...(alive.has(to) ? [['d', to]] : []), ['c', to]], () => renameSync(join(root, path), join(root, to)));
  }
  // A pause now and then, so queries interleave with changes at every point of their work.
  if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
}
writeFileSync(logFile, log.join('\n'));
