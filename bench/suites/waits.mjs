/**
 * Where people wait (issue 18): whole processes, the command against the floors of the issue and
 * against find, fd and rg, in three groups. Each group's commands run in turn, N rounds after one
 * warm-up each (interleaved, so a noisy neighbour hurts all alike); the median wall time is kept and
 * every command is quoted as a ratio to the group's first (its floor). A text bar chart follows.
 *
 *   node bench/suites/waits.mjs [--rounds=15] [--list=/usr] [--content=/usr/include] [--query=static]
 *
 * - start-up: `node -e 0`, `find-file --version`, a search of an empty folder;
 * - listing: bench/floors/list-loop.mjs (readdirSync loop, unsorted, batched writes), the command,
 *   GNU find, fd (every regular file, hidden and ignored included);
 * - content: bench/floors/read-indexof.mjs (readFileSync + Buffer.indexOf, no safety), the command
 *   (default backend: auto), the command's pure-TS path, rg (case-sensitive literal everywhere).
 * Peak RSS of the command's listing comes from GNU time on a separate run.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { which } from '../lib/process.mjs';
import { median, renderTable } from '../lib/stats.mjs';

const BENCH = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const CLI = path.join(path.dirname(BENCH), 'bin', 'find-file.mjs');
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const rounds = Number(args.rounds ?? 15);
const listRoot = args.list ?? '/usr';
const contentRoot = args.content ?? '/usr/include';
const query = args.query ?? 'static';
const node = process.execPath;
const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'ff-waits-empty-'));

const fd = which('fdfind') ?? which('fd');
const rg = which('rg');

const GROUPS = [
  {
    name: 'start-up',
    commands: [
      ['node -e 0', node, ['-e', '0']],
      ['find-file --version', node, [CLI, '--version']],
      ['find-file, empty folder', node, [CLI, '*.ts', '--root', empty]],
    ],
  },
  {
    name: `listing ${listRoot}`,
    commands: [
      ['floor: readdirSync loop', node, [path.join(BENCH, 'floors', 'list-loop.mjs'), listRoot]],
      ['find-file', node, [CLI, '*', '--root', listRoot]],
      ['GNU find', 'find', [listRoot, '-type', 'f']],
      ...(fd === undefined ? [] : [['fd', fd, ['-HI', '-t', 'f', '.', listRoot]]]),
    ],
  },
  {
    name: `content "${query}" in ${contentRoot}`,
    commands: [
      ['floor: readFileSync + indexOf', node, [path.join(BENCH, 'floors', 'read-indexof.mjs'), contentRoot, query]],
      ['find-file --contains (auto)', node, [CLI, '--contains', query, '-s', '--root', contentRoot]],
      ['find-file --contains --backend walker', node, [CLI, '--contains', query, '-s', '--root', contentRoot, '--backend', 'walker']],
      ...(rg === undefined ? [] : [['rg -n --column', rg, ['-n', '--column', '-s', '--', query, contentRoot]]]),
    ],
  },
];

function timeOnce(file, argv) {
  const start = process.hrtime.bigint();
  const run = spawnSync(file, argv, { stdio: ['ignore', 'ignore', 'ignore'] });
  if (run.error) throw run.error;
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function bar(ratio, widest) {
  return '█'.repeat(Math.max(1, Math.round((ratio / widest) * 30)));
}

const sections = [];
for (const group of GROUPS) {
  for (const [, file, argv] of group.commands) timeOnce(file, argv); // warm-up
  const times = group.commands.map(() => []);
  for (let r = 0; r < rounds; r++) group.commands.forEach(([, file, argv], i) => times[i].push(timeOnce(file, argv)));
  const medians = times.map(median);
  const ratios = medians.map((m) => m / medians[0]);
  const widest = Math.max(...ratios);
  const rows = group.commands.map(([name], i) => [name, `${medians[i].toFixed(1)} ms`, ratios[i].toFixed(2), bar(ratios[i], widest)]);
  sections.push(`### ${group.name} (${rounds} interleaved rounds)\n\n${renderTable(['command', 'median', 'vs floor', ''], rows)}`);
  process.stderr.write(`${group.name}: done\n`);
}

const rss = spawnSync('/usr/bin/time', ['-f', '%M', node, CLI, '*', '--root', listRoot], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
const peak = Number(rss.stderr.trim().split('\n').at(-1));
sections.push(`Peak RSS of \`find-file '*' --root ${listRoot}\`: ${Number.isFinite(peak) ? `${(peak / 1024).toFixed(1)} MiB` : 'n/a (no GNU time)'}.`);
fs.rmSync(empty, { recursive: true, force: true });
process.stdout.write(`${sections.join('\n\n')}\n`);
