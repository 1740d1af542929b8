// Floor for listing with asynchronous reads (issue 31): every regular file under a root, fs.readdir with types, IN_FLIGHT reads at a time, unsorted, 64 KiB writes.
// What a walk that never blocks the event loop (so a timer can stop it while a read hangs) can reach; list-loop.mjs is the synchronous floor.
import { readdir, writeSync } from 'node:fs';
const root = process.argv[2];
const IN_FLIGHT = Number(process.argv[3] ?? 16);
const waiting = [root];
let reading = 0;
let out = '';
function pump() {
  while (reading < IN_FLIGHT && waiting.length > 0) {
    const dir = waiting.pop();
    reading++;
    readdir(dir, { withFileTypes: true }, (error, entries) => {
      reading--;
      if (!error) {
        for (const e of entries) {
          const p = dir + '/' + e.name;
          if (e.isDirectory()) waiting.push(p);
          else if (e.isFile()) { out += p + '\n'; if (out.length > 65536) { writeSync(1, out); out = ''; } }
        }
      }
      if (waiting.length > 0) pump();
      else if (reading === 0) writeSync(1, out);
    });
  }
}
pump();
