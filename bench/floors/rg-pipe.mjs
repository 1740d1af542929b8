// Floor for content search through ripgrep (issue 18): what any Node process that runs rg pays, with nothing parsed: spawn `rg -n --column`, pipe its stdout through.
import { spawn } from 'node:child_process';
const [rg, root, query] = process.argv.slice(2);
spawn(rg, ['-n', '--column', '-s', '--', query, root], { stdio: ['ignore', 'pipe', 'inherit'] }).stdout.pipe(process.stdout);
