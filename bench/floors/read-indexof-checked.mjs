// Floor for content search with find-file's defences (issue 31): the read-indexof.mjs loop, each file
// opened as find-file opens it (O_NOFOLLOW | O_NONBLOCK), fstat'ed (still a regular file? its size),
// checked to be the file at its path (readlink of /proc/self/fd/N), read and closed: the syscalls
// find-file makes per file, with none of its other work (no budget, no hits kept beyond a line number).
import { closeSync, constants, fstatSync, openSync, readSync, readdirSync, readlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
const [rootArg, query] = process.argv.slice(2);
const root = resolve(rootArg);
const needle = Buffer.from(query);
const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const chunk = Buffer.allocUnsafe(1 << 16);
const out = [];
const stack = [root];
function readWhole(fd, size) {
  const buf = size <= chunk.length ? chunk : Buffer.allocUnsafe(size);
  let bytes = 0;
  for (;;) {
    const n = readSync(fd, buf, bytes, buf.length - bytes, null);
    if (n === 0) break;
    bytes += n;
    // At its size (find-file's rule: no second read to learn the end), or the buffer full (a file
    // that grew is searched as far as its size then said: a floor, not an answer).
    if (bytes === size || bytes === buf.length) break;
  }
  return buf.subarray(0, bytes);
}
while (stack.length) {
  const dir = stack.pop();
  let entries;
  try { entries = readdirSync(dir, { withFileTypes: true }); } catch { continue; }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) stack.push(p);
    else if (e.isFile()) {
      let fd;
      try { fd = openSync(p, FLAGS); } catch { continue; }
      try {
        const stats = fstatSync(fd);
        if (!stats.isFile() || readlinkSync(`/proc/self/fd/${fd}`) !== p) continue;
        const buf = readWhole(fd, stats.size);
        let at = buf.indexOf(needle);
        if (at < 0) continue;
        let line = 1, from = 0;
        while (at >= 0) {
          for (let i = buf.indexOf(10, from); i >= 0 && i < at; i = buf.indexOf(10, i + 1)) line++, from = i + 1;
          out.push(`${p}:${line}`);
          const nl = buf.indexOf(10, at);
          if (nl < 0) break;
          from = nl + 1; line++;
          at = buf.indexOf(needle, from);
        }
      } catch {
        continue;
      } finally {
        closeSync(fd);
      }
    }
  }
}
process.stdout.write(out.join('\n') + '\n');
