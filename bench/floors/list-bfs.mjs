// Floor for listing under find-file's order, synchronously (issue 31): every regular file under a root, readdirSync with types,
// breadth first (a queue: docs/contract.md, "Order"), unsorted, 64 KiB writes. list-loop.mjs with its stack made a queue: what
// the command's main-thread walk (src/walk/main-thread.ts) pays for the order it promises, and nothing else.
import { readdirSync, writeSync } from 'node:fs';
const root = process.argv[2];
const queue = [root];
let head = 0;
let out = '';
while (head < queue.length) {
  const dir = queue[head];
  queue[head++] = undefined; // the frontier alone stays alive, as in the walk's queue
  let entries;
  try { entries = readdirSync(dir, { withFileTypes: true }); } catch { continue; }
  for (const e of entries) {
    const p = dir + '/' + e.name;
    if (e.isDirectory()) queue.push(p);
    else if (e.isFile()) { out += p + '\n'; if (out.length > 65536) { writeSync(1, out); out = ''; } }
  }
}
writeSync(1, out);
