// Floor for listing (issue 18): every regular file under a root, readdirSync with types, iterative, unsorted, 64 KiB writes.
import { readdirSync, writeSync } from 'node:fs';
const root = process.argv[2];
const stack = [root];
let out = '';
while (stack.length) {
  const dir = stack.pop();
  let entries;
  try { entries = readdirSync(dir, { withFileTypes: true }); } catch { continue; }
  for (const e of entries) {
    const p = dir + '/' + e.name;
    if (e.isDirectory()) stack.push(p);
    else if (e.isFile()) { out += p + '\n'; if (out.length > 65536) { writeSync(1, out); out = ''; } }
  }
}
writeSync(1, out);
