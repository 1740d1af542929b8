// Floor for content search through `rg --json` (issue 18): split lines, JSON.parse each, print path:line:column:text for matches (no checks, no budget, no rules).
import { spawn } from 'node:child_process';
const [rg, root, query] = process.argv.slice(2);
const child = spawn(rg, ['--json', '-s', '--', query, root], { stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout.setEncoding('utf8');
let rest = '';
let out = '';
child.stdout.on('data', (chunk) => {
  const lines = (rest + chunk).split('\n');
  rest = lines.pop();
  for (const line of lines) {
    const event = JSON.parse(line);
    if (event.type !== 'match') continue;
    const { path, line_number, submatches, lines: text } = event.data;
    out += `${path.text}:${line_number}:${submatches[0].start + 1}:${text.text}`;
    if (out.length > 65536) (process.stdout.write(out), (out = ''));
  }
});
child.on('close', () => process.stdout.write(out));
