/**
 * What entry types, a time filter and the newest-first order cost (issue 15), beside fd doing the
 * same (`-t d`, no `-t`, `--changed-within`), same run, interleaved rounds. Three columns per
 * workload: the library in this process (tinybench, median of the rounds' p50), the command as a
 * whole process (`bin/find-file.mjs`, output to a pipe), and fd as a whole process; the last column
 * is the command over fd. Counts are printed so the answers can be compared (fd without `-t` also
 * lists FIFOs and sockets; the realistic tree has none).
 *
 *   node bench/suites/select.mjs [--trees=realistic] [--rounds=5]
 *
 * Every workload lists everything (`**`), hidden and ignored files included (`fd -HI`), so the
 * cost is the walk's and the lstats', not the pattern's.
 */
import '../lib/clean-env.mjs';
import { spawnSync } from 'node:child_process';
import { Bench } from 'tinybench';
import { fileURLToPath } from 'node:url';
import { findFiles } from '../../dist/index.js';
import { ensureTree, treeRoot } from '../lib/fixtures.mjs';
import { gc } from '../lib/gc.mjs';
import { median, renderTable } from '../lib/stats.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const trees = (args.trees ?? 'realistic').split(',');
const rounds = Number(args.rounds ?? 5);
const BIN = fileURLToPath(new URL('../../bin/find-file.mjs', import.meta.url));
const which = (name) => spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() || undefined;
const FD = which('fdfind') ?? which('fd');
const WEEK_AGO = Date.now() - 7 * 24 * 3600e3;

/** Each workload: the library's options, the command's flags, fd's flags (none: fd has no such thing). */
const WORKLOADS = [
  { name: 'files (type file)', lib: {}, bin: [], fd: ['-t', 'f'] },
  { name: "type 'directory'", lib: { type: 'directory' }, bin: ['-t', 'd'], fd: ['-t', 'd'] },
  { name: "type 'any'", lib: { type: 'any' }, bin: ['-t', 'f', '-t', 'd', '-t', 'l'], fd: [] },
  { name: 'changed within 7d', lib: { modifiedAfter: WEEK_AGO }, bin: ['--changed-within', '7d'], fd: ['-t', 'f', '--changed-within', '7d'] },
  { name: "sort 'mtime'", lib: { sort: 'mtime' }, bin: ['--sort', 'mtime'], fd: undefined },
  { name: "sort 'mtime', 100 newest", lib: { sort: 'mtime', maxResults: 100 }, bin: ['--sort', 'mtime', '--max-results', '100'], fd: undefined },
];

/** A whole process, output to a pipe: its time and how many lines (paths) it printed. */
function timeProcess(file, argv, cwd) {
  const started = performance.now();
  const run = spawnSync(file, argv, { cwd, maxBuffer: 1 << 30 });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`${file} ${argv.join(' ')}: status ${run.status}: ${run.stderr}`);
  return { ms, count: run.stdout.toString().split('\n').filter(Boolean).length };
}

const rows = [];
for (const tree of trees) {
  ensureTree(tree);
  const root = treeRoot(tree);
  const times = new Map(WORKLOADS.map((w) => [w.name, { lib: [], bin: [], fd: [] }]));
  const counts = new Map();
  for (const w of WORKLOADS) counts.set(w.name, { lib: (await findFiles({ root, pattern: '**', ...w.lib })).matchedCount });
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ iterations: 3, time: 0, warmup: true, warmupIterations: 1, warmupTime: 0, throws: true });
    for (let i = 0; i < WORKLOADS.length; i++) {
      const w = WORKLOADS[(round + i) % WORKLOADS.length];
      bench.add(w.name, () => findFiles({ root, pattern: '**', ...w.lib }), { beforeEach: () => gc() });
    }
    await bench.run();
    for (const task of bench.tasks) times.get(task.name).lib.push(task.result.latency.p50);
    for (let i = 0; i < WORKLOADS.length; i++) {
      const w = WORKLOADS[(round + i) % WORKLOADS.length];
      const ours = timeProcess(process.execPath, [BIN, '**', ...w.bin], root);
      times.get(w.name).bin.push(ours.ms);
      counts.get(w.name).bin = ours.count;
      if (w.fd !== undefined && FD !== undefined) {
        const theirs = timeProcess(FD, ['-HI', ...w.fd], root);
        times.get(w.name).fd.push(theirs.ms);
        counts.get(w.name).fd = theirs.count;
      }
    }
    process.stderr.write(`${tree}: round ${round + 1}/${rounds}\n`);
  }
  const base = median(times.get(WORKLOADS[0].name).lib);
  for (const w of WORKLOADS) {
    const t = times.get(w.name);
    const c = counts.get(w.name);
    const [lib, bin, fd] = [median(t.lib), median(t.bin), t.fd.length > 0 ? median(t.fd) : undefined];
    rows.push([
      tree,
      w.name,
      `${lib.toFixed(1)} ms`,
      (lib / base).toFixed(2),
      `${bin.toFixed(1)} ms`,
      fd === undefined ? 'n/a' : `${fd.toFixed(1)} ms`,
      fd === undefined ? 'n/a' : (bin / fd).toFixed(2),
      `${c.lib} / ${c.bin} / ${c.fd ?? 'n/a'}`,
    ]);
  }
}
console.log(renderTable(['tree', 'workload', 'library', 'vs files', 'command', 'fd', 'command / fd', 'count lib / cmd / fd'], rows));
