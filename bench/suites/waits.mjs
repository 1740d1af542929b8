/**
 * Where people wait (issue 18): whole processes, the command against the floors of the issue and
 * against find, fd and rg, in three groups. Each group's commands run in turn, N rounds after one
 * warm-up each (interleaved, so a noisy neighbour hurts all alike); the median wall time is kept and
 * every command is quoted as a ratio to the group's first (its floor). A text bar chart follows.
 *
 *   node bench/suites/waits.mjs [--rounds=15] [--list=/usr] [--content=/usr/include] [--query=static] [--long=DIR] [--only=start-up,listing] [--cold]
 *
 * - start-up: `node -e 0`, `find-file --version`, a search of an empty folder;
 * - listing: bench/floors/list-loop.mjs (readdirSync loop, unsorted, batched writes), two floors with
 *   reads in flight (list-async.mjs: taken as they end; list-ordered.mjs: breadth first, in issue
 *   order, as the walk's contract takes them), the readdirSync loop breadth first (list-bfs.mjs: the
 *   order the command's main-thread walk keeps), the command,
 *   fdir's command (bench/targets/fdir-cli.mjs), GNU find, fd (every regular file, hidden and ignored included);
 * - with --cold (root on Linux), the listing again from a cold page cache: before each timed run the
 *   kernel's caches are dropped (/proc/sys/vm/drop_caches) and the command is run once on an empty
 *   folder, so its own program files are read back and only the tree's directories are cold. A first
 *   search of the day, where the disk's latency counts and reads in flight can overlap it. Opt-in:
 *   it empties the page cache of everything else on the machine too;
 * - content through ripgrep: rg itself, then two floors no Node process can beat (bench/floors/
 *   rg-pipe.mjs: spawn rg and pipe its output through; rg-json.mjs: parse `rg --json` and print the
 *   matches), then the command (default backend: auto);
 * - a long search through ripgrep (the same query over --long, where rg itself takes a second or
 *   more: by default /usr/lib twice and /usr/share as hard links, `longCorpus`): rg, the rg-json
 *   floor, then the command; there Node's start-up is a small part, and what is left is the cost
 *   per event;
 * - content, pure TS: bench/floors/read-indexof.mjs (readFileSync + Buffer.indexOf, no safety),
 *   `read-indexof.mjs --checked` (the same with find-file's per-file checks: open O_NOFOLLOW |
 *   O_NONBLOCK, fstat, the /proc/self/fd place check), and the command's pure-TS path
 *   (case-sensitive literal everywhere).
 * The groups' ratios also go to bench/results/waits.svg, a bar chart with each group's target.
 * Peak RSS of the command's listing, and of the programs that bound it, comes from GNU time on separate runs.
 */
import '../lib/clean-env.mjs';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { which } from '../lib/process.mjs';
import { longCorpus } from '../lib/long-corpus.mjs';
import { renderRatioBars } from '../lib/chart.mjs';
import { median, renderTable } from '../lib/stats.mjs';

const BENCH = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const CLI = path.join(path.dirname(BENCH), 'bin', 'find-file.mjs');
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const rounds = Number(args.rounds ?? 15);
const listRoot = args.list ?? '/usr';
const contentRoot = args.content ?? '/usr/include';
const query = args.query ?? 'static';
const longRoot = args.long ?? longCorpus(path.join(BENCH, '.scratch'));
const node = process.execPath;
const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'ff-waits-empty-'));

const fd = which('fdfind') ?? which('fd');

const rg = which('rg');

// Each group's first command is its reference (the ratios are to it); `ours` marks find-file's rows;
// `target` is issue 18's bound for the group's find-file row.
const LISTING = [
  ['floor: readdirSync loop', node, [path.join(BENCH, 'floors', 'list-loop.mjs'), listRoot]],
  // With as many reads in flight as the walk keeps (its default concurrency), the pool's four
  // threads read in parallel: not slower than the synchronous loop on this machine.
  ['floor: fs.readdir, 256 in flight', node, [path.join(BENCH, 'floors', 'list-async.mjs'), listRoot, '256']],
  // The same reads taken as the walk's contract takes them (docs/contract.md, "Order"): breadth
  // first, each listing in the order its read was issued. The floor for a walk bound to that order.
  ['floor: fs.readdir, 256 in flight, breadth first in order', node, [path.join(BENCH, 'floors', 'list-ordered.mjs'), listRoot, '256']],
  // The same order taken synchronously, as the command's walk reads (src/walk/main-thread.ts): the loop with a queue for its stack.
  ['floor: readdirSync loop, breadth first', node, [path.join(BENCH, 'floors', 'list-bfs.mjs'), listRoot]],
  ['find-file', node, [CLI, '*', '--root', listRoot], true],
  // The JavaScript peer as a command: fdir's promise form, then the paths written in chunks.
  ['fdir\'s command (bench/targets/fdir-cli.mjs)', node, [path.join(BENCH, 'targets', 'fdir-cli.mjs'), listRoot]],
  ['GNU find', 'find', [listRoot, '-type', 'f']],
  ...(fd === undefined ? [] : [['fd', fd, ['-HI', '-t', 'f', '.', listRoot]]]),
];
const DROP_CACHES = '/proc/sys/vm/drop_caches';
const GROUPS = [
  {
    name: 'start-up',
    target: { ratio: 1.35, label: 'target 1.35x' },
    commands: [
      ['node -e 0', node, ['-e', '0']],
      // bin/find-file.mjs is an ES module: Node loads its ES module loader for it, whatever it does.
      ['floor: node on an empty .mjs', node, [path.join(BENCH, 'floors', 'empty.mjs')]],
      ['find-file --version', node, [CLI, '--version'], true],
      ['find-file, empty folder', node, [CLI, '*.ts', '--root', empty], true],
    ],
  },
  {
    name: `listing ${listRoot}`,
    target: { ratio: 1.25, label: 'target 1.25x' },
    commands: LISTING,
  },
  ...(!('cold' in args) ? [] : [{ name: `listing ${listRoot}, cold cache`, target: { ratio: 1.25, label: 'target 1.25x' }, commands: LISTING, cold: true }]),
  ...(rg === undefined
    ? []
    : [
        {
          name: `content "${query}" in ${contentRoot}, through ripgrep`,
          target: { ratio: 2, label: 'target 2x' },
          commands: [
            ['rg -n --column', rg, ['-n', '--column', '-s', '--', query, contentRoot]],
            // What any Node process that runs ripgrep pays: start-up, the spawn, the pipe.
            ['floor: node piping rg through', node, [path.join(BENCH, 'floors', 'rg-pipe.mjs'), rg, contentRoot, query]],
            ['floor: node parsing rg --json', node, [path.join(BENCH, 'floors', 'rg-json.mjs'), rg, contentRoot, query]],
            ['find-file --contains (default: auto)', node, [CLI, '--contains', query, '-s', '--root', contentRoot], true],
          ],
        },
        {
          name: `content "${query}" in ${longRoot} (a long search), through ripgrep`,
          target: { ratio: 1.5, label: 'target 1.5x' },
          commands: [
            ['rg -n --column', rg, ['-n', '--column', '-s', '--', query, longRoot]],
            // Past some thousands of hits this floor, not the start-up, sets the pace.
            ['floor: node parsing rg --json', node, [path.join(BENCH, 'floors', 'rg-json.mjs'), rg, longRoot, query]],
            ['find-file --contains (default: auto)', node, [CLI, '--contains', query, '-s', '--root', longRoot], true],
          ],
        },
      ]),
  {
    name: `content "${query}" in ${contentRoot}, pure TS`,
    target: { ratio: 1.3, label: 'target 1.3x' },
    commands: [
      ['floor: readFileSync + indexOf', node, [path.join(BENCH, 'floors', 'read-indexof.mjs'), contentRoot, query]],
      // The same loop making find-file's checks per file (O_NOFOLLOW | O_NONBLOCK, fstat, the
      // /proc/self/fd place check): what the defences cost before any of find-file's own work.
      ['floor with the checks: open, fstat, readlink', node, [path.join(BENCH, 'floors', 'read-indexof.mjs'), contentRoot, query, '--checked']],
      ['find-file --contains --backend walker', node, [CLI, '--contains', query, '-s', '--root', contentRoot, '--backend', 'walker'], true],
    ],
  },
];

/**
 * Empties the kernel's page, dentry and inode caches, then runs the command once on an empty folder
 * (its program and modules back in the cache): what is cold is the tree it then lists.
 */
function coldStart(file, argv) {
  fs.writeFileSync(DROP_CACHES, '3');
  spawnSync(file, argv.map((a) => (a === listRoot ? empty : a)), { stdio: 'ignore' });
}

function timeOnce(file, argv, cold = false) {
  if (cold) coldStart(file, argv);
  const start = process.hrtime.bigint();
  const run = spawnSync(file, argv, { stdio: ['ignore', 'ignore', 'ignore'] });
  if (run.error) throw run.error;
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function bar(ratio, widest) {
  return '█'.repeat(Math.max(1, Math.round((ratio / widest) * 30)));
}

const sections = [];
const chartGroups = [];
// --only=start-up,listing: the groups whose names start so (all by default).
const only = args.only?.split(',');
for (const group of GROUPS.filter((g) => only === undefined || only.some((prefix) => g.name.startsWith(prefix)))) {
  if (group.cold) {
    try {
      fs.writeFileSync(DROP_CACHES, '3');
    } catch (error) {
      sections.push(`### ${group.name}\n\nNot measured: dropping the page cache needs root on Linux (${DROP_CACHES}: ${error.code}).`);
      continue;
    }
  }
  for (const [, file, argv] of group.commands) timeOnce(file, argv); // warm-up
  const times = group.commands.map(() => []);
  for (let r = 0; r < rounds; r++) group.commands.forEach(([, file, argv], i) => times[i].push(timeOnce(file, argv, group.cold)));
  const medians = times.map(median);
  const ratios = medians.map((m) => m / medians[0]);
  const widest = Math.max(...ratios);
  const rows = group.commands.map(([name], i) => [name, `${medians[i].toFixed(1)} ms`, ratios[i].toFixed(2), bar(ratios[i], widest)]);
  sections.push(`### ${group.name} (${rounds} interleaved rounds; target for find-file: ${group.target.ratio}x)\n\n${renderTable(['command', 'median', `vs ${group.commands[0][0]}`, ''], rows)}`);
  chartGroups.push({ name: group.name, target: group.target, rows: group.commands.map(([label, , , ours], i) => ({ label, ms: medians[i], ratio: ratios[i], ours: ours === true })) });
  process.stderr.write(`${group.name}: done\n`);
}

/** Peak RSS in KiB of one run (GNU time's %M), or NaN without GNU time. */
const peakKib = (file, argv) => Number(spawnSync('/usr/bin/time', ['-f', '%M', file, ...argv], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] }).stderr?.trim().split('\n').at(-1));
// Each program's median of three runs, the command beside the floors it is bound by: Node with
// nothing loaded, the command's own start (an empty folder), and the listing floors.
const RSS = [
  ['node on an empty .mjs', node, [path.join(BENCH, 'floors', 'empty.mjs')]],
  ['find-file, empty folder', node, [CLI, '*', '--root', empty]],
  ['floor: fs.readdir, 256 in flight', node, [path.join(BENCH, 'floors', 'list-async.mjs'), listRoot, '256']],
  ['floor: breadth first in order', node, [path.join(BENCH, 'floors', 'list-ordered.mjs'), listRoot, '256']],
  ['floor: readdirSync, breadth first', node, [path.join(BENCH, 'floors', 'list-bfs.mjs'), listRoot]],
  [`find-file '*' --root ${listRoot}`, node, [CLI, '*', '--root', listRoot]],
];
const peaks = RSS.map(([, file, argv]) => median([0, 1, 2].map(() => peakKib(file, argv))));
sections.push(Number.isFinite(peaks[0])
  ? `Peak RSS (median of 3 runs each): ${RSS.map(([name], i) => `${name} ${(peaks[i] / 1024).toFixed(1)} MiB`).join('; ')}.`
  : 'Peak RSS: n/a (no GNU time).');
fs.rmSync(empty, { recursive: true, force: true });
// The chart is the whole picture: a run of some groups leaves it as it was.
if (only === undefined) {
  const chart = path.join(BENCH, 'results', 'waits.svg');
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  fs.writeFileSync(chart, renderRatioBars({ title: 'Where people wait: whole processes, ratio to each group\'s reference', subtitle: `${rounds} interleaved rounds, medians; ${os.cpus().length} cores, Node ${process.version}, ${when} UTC`, groups: chartGroups }));
  sections.push(`Chart: ${path.relative(process.cwd(), chart)}.`);
}
process.stdout.write(`${sections.join('\n\n')}\n`);
