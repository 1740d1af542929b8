/**
 * This build of find-file against another build of it, in the same run (as fdir benchmarks itself
 * against its older releases): the regression check a change that touches the walk must show.
 *
 *   git worktree add /tmp/ff-before <commit> && (cd /tmp/ff-before && npm ci && npm run build)
 *   node --expose-gc bench/versus.mjs --before=/tmp/ff-before [--trees=synthetic,realistic] [--rounds=6]
 *
 * For each tree and workload (all files, `*.js`, the rooted glob), `findFiles` and `findFilesSync` of
 * both builds are timed in tinybench rounds with the order rotated each round, GC before each
 * sample; the table gives medians and the median of the per-round ratios (after / before). The
 * answers are compared first: a build that finds something else is not timed.
 */
import { pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { Bench } from 'tinybench';
import { ensureTree, treeRoot } from './fixtures.mjs';
import { median, renderTable } from './stats.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
if (args.before === undefined) throw new Error('--before=DIR: a find-file checkout with dist/ built');
const trees = (args.trees ?? 'synthetic,realistic').split(',');
const rounds = Number(args.rounds ?? 6);
const gc = globalThis.gc ?? (() => {});

const after = await import(pathToFileURL(resolve('dist/index.js')).href);
const before = await import(pathToFileURL(join(resolve(args.before), 'dist/index.js')).href);

const WORKLOADS = {
  'all files': () => '**/*',
  '*.js': () => '*.js',
  rooted: (tree) => (tree === 'realistic' ? 'node_modules/@aws-sdk/**/*.d.ts' : 'src/**/*.ts'),
};

const rows = [];
for (const tree of trees) {
  ensureTree(tree);
  const root = treeRoot(tree);
  for (const [title, patternOf] of Object.entries(WORKLOADS)) {
    const options = { root, pattern: patternOf(tree) };
    const tasks = [
      ['after async', () => after.findFiles(options)],
      ['before async', () => before.findFiles(options)],
      ['after sync', () => after.findFilesSync(options)],
      ['before sync', () => before.findFilesSync(options)],
    ];
    const answers = await Promise.all(tasks.map(([, run]) => run()));
    for (const a of answers) if (a.matches.join('\0') !== answers[0].matches.join('\0')) throw new Error(`${tree} ${title}: the builds disagree`);
    const samples = new Map(tasks.map(([name]) => [name, []]));
    for (let round = 0; round < rounds; round++) {
      const bench = new Bench({ iterations: 3, time: 0, warmup: true, warmupIterations: 1, warmupTime: 0, retainSamples: true, throws: true });
      for (let i = 0; i < tasks.length; i++) {
        const [name, run] = tasks[(round + i) % tasks.length];
        bench.add(name, run, { beforeEach: () => gc() });
      }
      await bench.run();
      for (const task of bench.tasks) samples.get(task.name).push(median([...task.result.latency.samples]));
    }
    for (const mode of ['async', 'sync']) {
      const a = samples.get(`after ${mode}`);
      const b = samples.get(`before ${mode}`);
      const ratios = a.map((x, i) => x / b[i]);
      rows.push([tree, title, mode, `${median(b).toFixed(1)} ms`, `${median(a).toFixed(1)} ms`, median(ratios).toFixed(3), `${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`, String(answers[0].matchedCount)]);
    }
    console.error(`${tree} / ${title}: done`);
  }
}
console.log(renderTable(['tree', 'workload', 'API', 'before', 'after', 'after/before', 'per-round range', 'matches'], rows));
