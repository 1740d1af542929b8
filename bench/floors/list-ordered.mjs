// Floor for listing under find-file's order (issue 31): every regular file under a root, fs.readdir with types, IN_FLIGHT reads
// at a time, breadth first, each listing taken strictly in the order its read was issued (docs/contract.md, "Order": the
// decisions of the sync walk, the shallowest matches under a limit), unsorted, 64 KiB writes. What list-async.mjs can
// do and a walk bound to that order cannot: take a listing the moment it arrives, and go depth first (a small frontier).
import { readdir, writeSync } from 'node:fs';
const root = process.argv[2];
const IN_FLIGHT = Number(process.argv[3] ?? 256);
const queue = [root];
let head = 0;
/** Reads issued and not yet taken, oldest first: { dir, done, entries }. */
const window = [];
let out = '';
function take(read) {
  if (read.entries === undefined) return;
  for (const e of read.entries) {
    const p = read.dir + '/' + e.name;
    if (e.isDirectory()) queue.push(p);
    else if (e.isFile()) { out += p + '\n'; if (out.length > 65536) { writeSync(1, out); out = ''; } }
  }
}
function pump() {
  for (;;) {
    while (window.length < IN_FLIGHT && head < queue.length) {
      const read = { dir: queue[head], done: false, entries: undefined };
      queue[head++] = undefined;
      window.push(read);
      readdir(read.dir, { withFileTypes: true }, (error, entries) => {
        read.done = true;
        if (!error) read.entries = entries;
        pump();
      });
    }
    const first = window[0];
    if (first === undefined) return writeSync(1, out);
    if (!first.done) return;
    window.shift();
    take(first);
  }
}
pump();
