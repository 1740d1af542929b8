// Floor for content search (issue 18): readdirSync walk, each file read whole, Buffer.indexOf the literal, print path:line (no budget, no safety checks).
// With --checked (issue 31), each file is read as find-file reads it: opened O_NOFOLLOW | O_NONBLOCK, fstat'ed (still a regular
// file? its size), checked to be the file at its path (readlink of /proc/self/fd/N), read to its size and closed: the syscalls
// find-file makes per file, with none of its other work.
//   node bench/floors/read-indexof.mjs ROOT QUERY [--checked]
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, readdirSync, readlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
const [rootArg, query, mode] = process.argv.slice(2);
const root = resolve(rootArg);
const needle = Buffer.from(query);
const FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const chunk = Buffer.allocUnsafe(1 << 16);

/** The file's bytes, or undefined when it cannot be read (or, checked, is not what its path names). */
function readPlain(p) {
  try { return readFileSync(p); } catch { return undefined; }
}

function readChecked(p) {
  let fd;
  try { fd = openSync(p, FLAGS); } catch { return undefined; }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || readlinkSync(`/proc/self/fd/${fd}`) !== p) return undefined;
    const { size } = stats;
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
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

const read = mode === '--checked' ? readChecked : readPlain;
const out = [];
const stack = [root];
while (stack.length) {
  const dir = stack.pop();
  let entries;
  try { entries = readdirSync(dir, { withFileTypes: true }); } catch { continue; }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) stack.push(p);
    else if (e.isFile()) {
      const buf = read(p);
      if (buf === undefined) continue;
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
    }
  }
}
process.stdout.write(out.join('\n') + '\n');
