// Floor for content search (issue 18): readdirSync walk, readFileSync each file, Buffer.indexOf the literal, print path:line (no budget, no safety checks).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
const [root, query] = process.argv.slice(2);
const needle = Buffer.from(query);
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
      let buf;
      try { buf = readFileSync(p); } catch { continue; }
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
